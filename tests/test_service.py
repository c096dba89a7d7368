"""The game service against a real redis-server: whole games, bad input, races, time, outages."""

from __future__ import annotations

import asyncio
import io
import random
from collections.abc import AsyncIterator, Callable

import pytest
from PIL import Image

import render.forbidden_city as render
from bot.config import Settings
from bot.exchange.actor import Actor
from bot.exchange.replies import Message, Reply, mention
from bot.local_redis.server import RedisServer
from bot.records.table import Table
from bot.service import GameService
from bot.store import Channel, Store
from tests.tables import load_game
from tests.views import to_play

CHANNEL = "room1"


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def settings(**values: object) -> Settings:
    return Settings(_env_file=None, **values)  # type: ignore[call-arg, arg-type]


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def service(store: Store, clock: Clock) -> AsyncIterator[GameService]:
    deals = iter(range(1, 1_000_000))
    yield GameService(store, settings(), clock=clock, seeds=lambda: next(deals))


def who(user: str, channel: str = CHANNEL, **extra: object) -> Actor:
    return Actor("console", channel, user, user.capitalize(), **extra)  # type: ignore[arg-type]


async def table_of(store: Store, channel: str = CHANNEL) -> Table | None:
    record = await store.load(Channel.of("console", channel))
    return None if record is None else Table.model_validate_json(record.data)


async def snapshot(store: Store, channel: str = CHANNEL) -> str | None:
    record = await store.load(Channel.of("console", channel))
    return None if record is None else f"{record.version}:{record.data}"


def is_png(data: bytes | None) -> bool:
    if data is None:
        return False
    with Image.open(io.BytesIO(data)) as image:
        return image.format == "PNG" and image.width > 100


async def seated(service: GameService, users: list[str]) -> Table:
    assert (await service.command(who(users[0]), "new")).ok
    for user in users[1:]:
        assert (await service.command(who(user), "join")).ok
    reply = await service.command(who(users[0]), "start")
    assert reply.ok, reply.private
    table = await table_of(service.store)
    assert table is not None
    return table


def current_user(table: Table) -> str:
    game = load_game(table)
    return table.user_of(game.current).user_id


async def test_lobby_rules(service: GameService, store: Store) -> None:
    assert (await service.command(who("ann"), "start")).ok is False  # no table yet
    reply = await service.command(who("ann"), "new advanced")
    assert reply.ok and "advanced" in reply.public[0].text
    assert [b.data for b in reply.public[0].buttons[0]] == [f"fc:j:{CHANNEL}", f"fc:st:{CHANNEL}"]
    refused = await service.command(who("bob"), "new")
    assert not refused.ok and "already open" in refused.private[0].text
    assert not (await service.command(who("ann"), "join")).ok  # already seated
    assert not (await service.command(who("ann"), "start")).ok  # alone
    assert (await service.press(who("bob"), f"fc:j:{CHANNEL}")).ok
    assert not (await service.command(who("bob"), "start")).ok  # only the creator
    for user in ("cid", "dan"):
        assert (await service.command(who(user), "join")).ok
    full = await service.command(who("eve"), "join")
    assert not full.ok and "full" in full.private[0].text
    assert (await service.command(who("dan"), "leave")).ok
    assert (await service.command(who("ann"), "leave")).ok  # the creator hands over to bob
    table = await table_of(store)
    assert table is not None
    assert table.creator == "bob" and [s.user_id for s in table.seats] == ["bob", "cid"]
    assert (await service.command(who("bob"), "start")).ok
    table = await table_of(store)
    assert table is not None and table.game is not None and load_game(table).start == "advanced"
    assert not (await service.command(who("eve"), "join")).ok


async def test_a_whole_two_player_game(service: GameService, store: Store) -> None:
    first = await seated(service, ["ann", "bob"])
    assert first.game is not None and sorted(load_game(first).players) == ["purple", "yellow"]
    rng = random.Random(3)
    moves = 0
    last: Reply | None = None
    while (table := await table_of(store)) is not None:
        game = load_game(table)
        user = current_user(table)
        spot = rng.choice(render.spots(to_play(game)))
        reply = await service.command(who(user), f"play {spot.number} {spot.rotations[0]}")
        assert reply.ok, reply.private
        assert len(reply.public) == 1 and is_png(reply.public[0].image)
        moves += 1
        last = reply
        nxt = await table_of(store)
        if nxt is not None:
            upcoming = current_user(nxt)
            assert mention(upcoming) in reply.public[0].text
            [notice] = reply.direct
            assert notice.user_id == upcoming and notice.turn_notice
            assert is_png(notice.message.image) and notice.message.choices
            if game.tiles_left(game.current) > 3:
                [new_tile] = reply.private  # the mover sees the tile just drawn, privately
                assert is_png(new_tile.image) and "new tile" in new_tile.text
            else:  # after the mover's last placement: no tile to play any more
                assert reply.private == []
    assert last is not None and "Game over" in last.public[0].text
    assert moves == 56
    assert await store.user_games("console", "ann") == []


async def test_play_by_coordinates_and_rotation_errors(service: GameService, store: Store) -> None:
    table = await seated(service, ["ann", "bob"])
    game = load_game(table)
    mover = current_user(table)
    other = "bob" if mover == "ann" else "ann"
    before = await snapshot(store)
    spot = next(s for s in render.spots(to_play(game)) if len(s.rotations) > 1)
    cases = {
        (other, "play 1 0"): "turn",
        ("zed", "play 1 0"): "not playing",
        (mover, "play"): "Say where",
        (mover, "play 999 0"): "no spot 999",
        (mover, "play 0,0 0"): "taken",
        (mover, "play 40,40 0"): "touches none",
        (mover, "play 1 7"): "rotation is 0, 1, 2 or 3",
        (mover, "play banana"): "not a spot",
        (mover, f"play {spot.number}"): "which rotation",
        (mover, "juggle"): "Unknown command",
    }
    for (user, text), expected in cases.items():
        reply = await service.command(who(user), text)
        assert not reply.ok, text
        assert expected in reply.private[0].text, (text, reply.private[0].text)
        assert not reply.public and not reply.direct
    assert await snapshot(store) == before
    reply = await service.command(who(mover), f"play {spot.x},{spot.y}@{spot.rotations[-1]}")
    assert reply.ok
    after = await table_of(store)
    assert after is not None and after.game is not None
    assert [str(m) for m in load_game(after).moves] == [f"{spot.x},{spot.y}@{spot.rotations[-1]}"]


async def test_buttons_preview_then_confirm_and_stale_or_forged_data(
    service: GameService, store: Store
) -> None:
    table = await seated(service, ["ann", "bob", "cid"])
    game = load_game(table)
    mover = current_user(table)
    spot = render.spots(to_play(game))[0]
    in_dm = who(mover, "dm-1", private=True)
    picked = await service.press(in_dm, f"fc:sp:{CHANNEL}:0:{spot.number}")
    assert picked.ok and not picked.public
    rotation_buttons = picked.private[0].buttons[0]
    assert len(rotation_buttons) == len(spot.rotations)
    preview = await service.press(who(mover, "dm-1", private=True), rotation_buttons[0].data)
    assert preview.ok and is_png(preview.private[0].image) and not preview.public
    assert (await table_of(store)) == table  # a preview changes nothing
    confirm = preview.private[0].buttons[0][0]
    done = await service.press(who(mover, "dm-1", private=True), confirm.data)
    assert done.ok and is_png(done.public[0].image)
    before = await snapshot(store)
    stale = await service.press(who(mover), confirm.data)
    assert not stale.ok
    forged = [
        "fc:ok:room1:1:99,99@0",
        "fc:zz:room1:1:1",
        "garbage",
        "fc:ok:" + "9" * 30,
        "fc:sp:room1:1:abc",
        f"fc:ok:{CHANNEL}:1:0,0@0",
    ]
    nxt = await table_of(store)
    assert nxt is not None
    for data in forged:
        reply = await service.press(who(current_user(nxt)), data)
        assert not reply.ok, data
        assert reply.private[0].text
    assert await snapshot(store) == before


async def test_fifty_identical_plays_apply_once(service: GameService, store: Store) -> None:
    table = await seated(service, ["ann", "bob"])
    game = load_game(table)
    mover = current_user(table)
    spot = render.spots(to_play(game))[0]
    text = f"play {spot.number} {spot.rotations[0]}"
    replies = await asyncio.gather(*(service.command(who(mover), text) for _ in range(50)))
    assert sum(r.ok for r in replies) == 1
    for reply in replies:
        if not reply.ok:
            message = reply.private[0].text
            assert "already played" in message or "turn" in message, message
    after = await table_of(store)
    assert after is not None and after.game is not None and len(load_game(after).moves) == 1


async def test_a_new_service_on_the_same_redis_goes_on(store: Store, clock: Clock) -> None:
    first = GameService(store, settings(), clock=clock)
    table = await seated(first, ["ann", "bob"])
    turn = render.spots(to_play(load_game(table)))[0].rotations[0]
    assert (await first.command(who(current_user(table)), f"play 1 {turn}")).ok
    second = GameService(store, settings(), clock=clock)  # a restarted process
    later = await table_of(store)
    assert later is not None
    spot = render.spots(to_play(load_game(later)))[0]
    reply = await second.command(
        who(current_user(later)), f"play {spot.number} {spot.rotations[0]}"
    )
    assert reply.ok
    after = await table_of(store)
    assert after is not None and after.game is not None and len(load_game(after).moves) == 2


async def test_reminders_fire_once_per_interval_across_processes(
    store: Store, clock: Clock
) -> None:
    one = GameService(store, settings(reminder_after="1h", turn_limit="5h"), clock=clock)
    two = GameService(store, settings(reminder_after="1h", turn_limit="5h"), clock=clock)
    table = await seated(one, ["ann", "bob"])
    mover = current_user(table)
    assert await one.fire_due() == []
    clock.now += 3600 + 1
    fired = [*await one.fire_due(), *await two.fire_due()]
    fired += await asyncio.gather(one.fire_due(), two.fire_due())  # type: ignore[arg-type]
    reminders = [r for r in fired if isinstance(r, tuple)]
    assert len(reminders) == 1
    _, channel, reply = reminders[0]
    assert channel == CHANNEL and [d.user_id for d in reply.direct] == [mover]
    assert "reminder" in reply.direct[0].message.text
    assert await one.fire_due() == []  # at most one per interval
    clock.now += 3600 + 1
    assert len(await two.fire_due()) == 1
    # Past the turn limit the table is told once, and may vote.
    clock.now += 4 * 3600
    fired = await one.fire_due()
    public = [m.text for _, _, r in fired for m in r.public]
    assert len(public) == 1 and "vote" in public[0]
    other = "bob" if mover == "ann" else "ann"
    assert not (await one.command(who(mover), "vote skip")).ok  # not the one waited for
    reply = await one.command(who(other), "vote skip")
    assert reply.ok and "skip" in reply.public[0].text
    after = await table_of(store)
    assert after is not None and after.game is not None and len(load_game(after).moves) == 1


async def test_votes_need_the_time_limit(service: GameService) -> None:
    table = await seated(service, ["ann", "bob"])
    other = "bob" if current_user(table) == "ann" else "ann"
    reply = await service.command(who(other), "vote end")
    assert not reply.ok and "time limit" in reply.private[0].text


async def test_dm_failure_is_told_in_the_channel_once(service: GameService) -> None:
    await seated(service, ["ann", "bob"])
    first = await service.dm_failed("console", CHANNEL, "bob")
    assert len(first.public) == 1 and mention("bob") in first.public[0].text
    again = await service.dm_failed("console", CHANNEL, "bob")
    assert again.public == []


async def test_hidden_things_stay_private(service: GameService, store: Store) -> None:
    table = await seated(service, ["ann", "bob"])
    game = load_game(table)
    for user in ("ann", "bob"):
        reply = await service.command(who(user), "hand")
        assert reply.ok and not reply.public
        assert is_png(reply.private[0].image)
    board = await service.command(who("ann"), "board")
    assert board.public and is_png(board.public[0].image)
    hands = [game.hand(c) for c in game.players]
    text = " ".join(m.text for m in board.public)
    assert all(h is not None and h not in text for h in hands)
    stranger = await service.command(who("zed"), "hand")
    assert not stranger.ok


async def test_language_notify_games_abort(service: GameService, store: Store) -> None:
    reply = await service.command(who("ann"), "lang fr")
    assert reply.ok and "français" in reply.public[0].text.lower()
    assert "Commandes" in (await service.command(who("ann"), "help")).private[0].text
    assert not (await service.command(who("ann"), "lang xx")).ok
    await service.command(who("ann"), "lang en")
    await seated(service, ["ann", "bob"])
    assert (await service.command(who("bob"), "notify off")).ok
    games = await service.command(who("bob", "elsewhere"), "games")
    assert CHANNEL in games.private[0].text
    assert not (await service.command(who("bob"), "abort")).ok  # not the creator
    assert (await service.command(who("bob", is_admin=True), "abort")).ok
    assert await table_of(store) is None
    assert await store.user_games("console", "bob") == []


async def test_discord_locale_picks_the_language(service: GameService) -> None:
    reply = await service.command(who("ann", locale="de"), "help")
    assert "Befehle" in reply.private[0].text
    reply = await service.command(who("ann", locale="it"), "rules")
    assert "stanza" in reply.private[0].text


async def test_redis_down_gives_a_clear_error_and_recovers(
    redis_server_factory: Callable[..., RedisServer],
) -> None:
    server = redis_server_factory(persistent=True)
    server.start()
    store = Store.from_url(server.url, timeout=1.0, retries=1)
    service = GameService(store, settings())
    table = await seated(service, ["ann", "bob"])
    mover = current_user(table)
    spot = render.spots(to_play(load_game(table)))[0]
    before = await snapshot(store)
    server.stop()
    reply = await service.command(who(mover), f"play {spot.number} {spot.rotations[0]}")
    assert not reply.ok and "unavailable" in reply.private[0].text
    server.start()
    assert await snapshot(store) == before
    reply = await service.command(who(mover), f"play {spot.number} {spot.rotations[0]}")
    assert reply.ok
    await store.close()


def test_message_mentions_are_formatted_per_platform() -> None:
    message = Message(f"{mention('42')} <b> {mention('7')}", names={"42": "Ann & co"})
    out = message.format(lambda uid, name: f"[{name}]", lambda s: s.replace("<", "&lt;"))
    assert out == "[Ann & co] &lt;b> [7]"


async def test_commands_in_a_private_chat_find_the_users_only_game(service: GameService) -> None:
    table = await seated(service, ["ann", "bob"])
    mover = current_user(table)
    reply = await service.command(who(mover, "dm-9", private=True), "status")
    assert reply.ok and "to play" in reply.private[0].text
    assert not (await service.command(who("zed", "dm-8", private=True), "status")).ok
    await service.command(who("ann", "room2"), "new")
    several = await service.command(who("ann", "dm-7", private=True), "status")
    assert not several.ok and "several" in several.private[0].text


async def test_lobby_buttons_act_only_where_they_were_posted(
    service: GameService, store: Store
) -> None:
    await service.command(who("ann"), "new")
    forged = await service.press(who("eve", "other-chat"), f"fc:j:{CHANNEL}")
    assert not forged.ok
    table = await table_of(store)
    assert table is not None and [s.user_id for s in table.seats] == ["ann"]
    joined = await service.press(who("bob"), f"fc:j:{CHANNEL}")
    assert joined.ok and joined.channel_id == CHANNEL
    # The lobby shown again after a press on it replaces the one pressed, where it can;
    # typed, or refused, it is a message of its own.
    assert joined.public[0].in_place and joined.public[0].buttons
    typed = await service.command(who("cid"), "join")
    assert typed.ok and not typed.public[0].in_place
    again = await service.press(who("bob"), f"fc:j:{CHANNEL}")
    assert not again.ok and not any(m.in_place for m in again.public)


async def test_start_up_restores_deadlines_lost_in_a_crash(
    service: GameService, store: Store, clock: Clock
) -> None:
    await seated(service, ["ann", "bob"])
    await service.command(who("cid", "room2"), "new")  # a lobby: no turn, no deadline
    channel = Channel.of("console", CHANNEL)
    # As if the process died between saving the move and scheduling the turn:
    for kind in ("remind", "limit"):
        assert await store.cancel(channel, kind)
    assert await service.restore_deadlines() == 2
    remind = await store.deadline(channel, "remind")
    assert remind is not None and remind.due == clock.now + 12 * 3600
    assert await service.restore_deadlines() == 0  # nothing twice


async def test_one_unreadable_table_does_not_stop_the_start_up(
    service: GameService, store: Store
) -> None:
    await seated(service, ["ann", "bob"])
    broken = Channel.of("console", "room9")
    await store.create(
        broken, '{"kind": "no such game"}', creator="x", players=["x"], language="en"
    )
    channel = Channel.of("console", CHANNEL)
    for kind in ("remind", "limit"):
        assert await store.cancel(channel, kind)
    assert await service.restore_deadlines() == 2  # the readable table's, despite the other


async def test_a_table_follows_its_chat_to_a_new_id(service: GameService, store: Store) -> None:
    """A Telegram group upgraded to a supergroup: the game goes on under the new id, old
    buttons included, with its deadlines and the players' index."""
    table = await seated(service, ["ann", "bob"])
    mover = current_user(table)
    assert await service.chat_moved("console", CHANNEL, "room-new")
    assert await store.user_games("console", "ann") == [Channel.of("console", "room-new")]
    assert await store.deadline(Channel.of("console", "room-new"), "limit") is not None
    game = load_game(table)
    spot = render.spots(to_play(game))[0]
    played = await service.command(
        who(mover, "room-new"), f"play {spot.number} {spot.rotations[0]}"
    )
    assert played.ok, played.private
    moved = await store.load(Channel.of("console", "room-new"))
    assert moved is not None and len(load_game(Table.model_validate_json(moved.data)).moves) == 1
    old_button = await service.press(who("ann"), f"fc:j:{CHANNEL}")  # a lobby button, old id
    assert not old_button.ok  # the game has started; the table answers from its new id
    assert "already started" in old_button.private[0].text
