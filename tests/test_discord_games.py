"""Whole games through Discord: the real client, the real service, a real redis-server.

Players only do what a Discord user can: type `/fc ...` (with autocomplete) and press the
components of messages the bot really sent. Afterwards the record of what Discord showed is
checked: boards are PNGs in the channel, and hidden things (tiles in hand, turn notices,
previews) were only ever shown to their owner.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import pytest
from pydantic import SecretStr

import render.forbidden_city as render
from bot.config import Settings
from bot.discord import FcClient
from bot.exchange.actor import Actor
from bot.exchange.replies import Reply
from bot.records.table import Table
from bot.service import GameService
from bot.store import Channel, Store
from tests.conftest import fixed_seeds
from tests.fake_discord import FakeDiscord, Person, Sent, dispatch, fake_discord, logged_in
from tests.late_table import advance
from tests.tables import load_game
from tests.views import to_play

PLAYERS = [
    Person(3001, "Ann"),
    Person(3002, "Ben", locale="en-GB"),
    Person(3003, "Cid"),
    Person(3004, "Dee"),
]
STRANGER = Person(3999, "Zed")


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Spy:
    """The real service, with every reply it gave kept for the privacy checks."""

    inner: GameService
    replies: list[tuple[str, Actor | None, Reply]] = field(default_factory=list)

    async def command(self, actor: Actor, text: str) -> Reply:
        reply = await self.inner.command(actor, text)
        self.replies.append((text, actor, reply))
        return reply

    async def press(self, actor: Actor, data: str) -> Reply:
        reply = await self.inner.press(actor, data)
        self.replies.append((data, actor, reply))
        return reply

    async def complete(self, actor: Actor, text: str) -> list[tuple[str, str]]:
        return await self.inner.complete(actor, text)

    async def dm_failed(
        self, platform: str, channel_id: str, user_id: str, link: str | None = None
    ) -> Reply:
        reply = await self.inner.dm_failed(platform, channel_id, user_id, link)
        self.replies.append(("dm_failed", None, reply))
        return reply

    async def dms_closed(self, platform: str, user_id: str) -> bool:
        return await self.inner.dms_closed(platform, user_id)

    async def dms_refused(self, platform: str, user_id: str) -> None:
        await self.inner.dms_refused(platform, user_id)

    async def fire_due(self, platform: str | None = None) -> list[tuple[str, str, Reply]]:
        due = await self.inner.fire_due(platform)
        self.replies += [("deadline", None, reply) for _, _, reply in due]
        return due

    async def place_closed(self, platform: str, channel_id: str) -> Reply:
        reply = await self.inner.place_closed(platform, channel_id)
        self.replies.append(("place_closed", None, reply))
        return reply


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with fake_discord() as server:
        server.allow(channel=1000)  # whole games at the machine's speed
        yield server


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def spy(store: Store, clock: Clock) -> Spy:
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    return Spy(GameService(store, settings, clock=clock, seeds=fixed_seeds()))


@pytest.fixture
async def client(fake: FakeDiscord, spy: Spy) -> AsyncIterator[FcClient]:
    async with logged_in(FcClient(spy, deadline_seconds=None)) as ready:
        yield ready


class Game:
    """Helpers reading the stored table, to know whose turn it is and that nothing changed."""

    def __init__(self, fake: FakeDiscord, store: Store) -> None:
        self.fake = fake
        self.store = store
        self.channel = Channel.of("discord", str(fake.channel_id))

    async def table(self) -> Table | None:
        record = await self.store.load(self.channel)
        return None if record is None else Table.model_validate_json(record.data)

    async def snapshot(self) -> str | None:
        record = await self.store.load(self.channel)
        return None if record is None else f"{record.version}:{record.data}"

    async def current(self) -> Person | None:
        table = await self.table()
        if table is None or table.game is None:
            return None
        game = load_game(table)
        user_id = table.user_of(game.current).user_id
        return next(p for p in [*PLAYERS, STRANGER] if str(p.id) == user_id)


def assert_settled(fake: FakeDiscord) -> None:
    for interaction in fake.interactions.values():
        assert len(interaction.callbacks) == 1, interaction
        assert not interaction.thinking_forever, interaction
    assert fake.unexpected == []


def assert_hidden_kept(fake: FakeDiscord, spy: Spy) -> None:
    """An image the service meant for one person was shown to that person only."""
    public = {m.image for _, _, r in spy.replies for m in r.public if m.image}
    owners: dict[bytes, set[int]] = {}
    for _, actor, reply in spy.replies:
        for message in reply.private:
            if message.image and message.image not in public and actor is not None:
                owners.setdefault(message.image, set()).add(int(actor.user_id))
        for direct in reply.direct:
            if direct.message.image and direct.message.image not in public:
                owners.setdefault(direct.message.image, set()).add(int(direct.user_id))
    assert owners, "the game showed nothing private?"
    for sent in fake.sent:
        for _, data in sent.files:
            if data in owners:
                assert sent.where != "channel", sent.content
                assert sent.audience in owners[data], sent.content


async def refused(
    fake: FakeDiscord, game: Game, client: FcClient, payload: dict[str, object]
) -> str:
    """Dispatch something that must be refused: the answer, only to the user; nothing changed."""
    before, public = await game.snapshot(), len(fake.channel_messages())
    await dispatch(client, payload)
    interaction = fake.last_interaction()
    answers = interaction.seen_by_user()
    assert len(answers) == 1 and answers[0].where == "ephemeral", answers
    assert answers[0].audience == interaction.user.id
    assert await game.snapshot() == before
    assert len(fake.channel_messages()) == public
    return answers[0].content


async def open_table(
    fake: FakeDiscord, client: FcClient, players: list[Person], *, side: str = "beginner"
) -> Sent:
    """`/fc new`, the others press Join on the newest lobby message; returns the last lobby."""
    await dispatch(client, fake.command_payload(players[0], "new", side=side))
    [lobby] = fake.channel_messages()
    assert lobby.custom_ids() == [
        f"fc:j:{fake.channel_id}",
        f"fc:st:{fake.channel_id}",
        f"fc:ab:{fake.channel_id}",  # add a computer player
        f"fc:gm:{fake.channel_id}:0:1",  # Die Verbotene Stadt instead
        f"fc:nt:{fake.channel_id}:0:0",  # another table of this game, in a new thread
    ]
    for player in players[1:]:
        await dispatch(client, fake.press_payload(player, lobby, f"fc:j:{fake.channel_id}"))
        lobby = fake.channel_messages()[-1]
        assert f"<@{player.id}>" in lobby.content
    return lobby


async def play_by_command(fake: FakeDiscord, client: FcClient, game: Game, who: Person) -> None:
    """Autocomplete the spot as Discord would, then `/fc play spot rotation`."""
    table = await game.table()
    assert table is not None
    spots = render.spots(to_play(load_game(table)))
    await dispatch(client, fake.autocomplete_payload(who, ""))
    offered = fake.last_interaction().choices
    assert offered is not None
    assert [c["value"] for c in offered] == [str(s.number) for s in spots][:25]
    spot = random.Random(len(fake.sent)).choice(spots)
    await dispatch(
        client, fake.command_payload(who, "play", spot=str(spot.number), rotation=spot.rotations[0])
    )


async def play_by_components(fake: FakeDiscord, client: FcClient, who: Person) -> None:
    """Turn notice DM: pick a spot in its menu, a rotation, then confirm, all by clicking."""
    notice = fake.dms(who)[-1]
    menu = notice.menu()
    assert menu is not None and notice.images()[0].format == "PNG"
    value = menu["options"][-1]["value"]
    await dispatch(client, fake.press_payload(who, notice, menu["custom_id"], values=[value]))
    rotations = fake.last_interaction().seen_by_user()[-1]
    assert rotations.where == "ephemeral" and rotations.channel_id == notice.channel_id
    pv = rotations.custom_ids()[0]
    await dispatch(client, fake.press_payload(who, rotations, pv))
    preview = fake.last_interaction().seen_by_user()[-1]
    assert preview.where == "ephemeral" and preview.images()[0].format == "PNG"
    ok = next(c for c in preview.custom_ids() if c.startswith("fc:ok:"))
    await dispatch(client, fake.press_payload(who, preview, ok))


async def play_to_the_end(fake: FakeDiscord, client: FcClient, game: Game) -> int:
    moves = 0
    while (who := await game.current()) is not None:
        before = len(fake.channel_messages())
        if moves % 2:
            await play_by_components(fake, client, who)
        else:
            await play_by_command(fake, client, game, who)
        after = fake.channel_messages()[before:]
        assert after, f"move {moves} by {who.name} posted nothing"
        assert after[0].images()[0].format == "PNG"
        moves += 1
        nxt = await game.current()
        if nxt is not None:
            assert f"<@{nxt.id}>" in after[0].content  # whose turn it is now
            assert fake.dms(nxt)[-1].menu() is not None
    return moves


@pytest.mark.parametrize("count", [2, 4])
async def test_a_whole_game(
    fake: FakeDiscord, client: FcClient, spy: Spy, store: Store, count: int
) -> None:
    players = PLAYERS[:count]
    game = Game(fake, store)
    lobby = await open_table(fake, client, players, side="advanced")
    await dispatch(client, fake.press_payload(players[0], lobby, f"fc:st:{fake.channel_id}"))
    started = fake.channel_messages()[-1]
    assert "begins" in started.content and started.images()[0].format == "PNG"
    first = await game.current()
    assert first is not None and fake.dms(first)

    await dispatch(client, fake.command_payload(first, "hand"))
    [hand] = fake.last_interaction().seen_by_user()
    assert hand.where == "ephemeral" and hand.images()[0].format == "PNG"
    await dispatch(client, fake.command_payload(players[-1], "board"))
    assert fake.channel_messages()[-1].images()[0].format == "PNG"

    moves = await play_to_the_end(fake, client, game)
    assert moves == {2: 56, 4: 88}[count]
    assert "Game over" in fake.channel_messages()[-1].content
    assert await game.table() is None
    assert_hidden_kept(fake, spy)
    assert_settled(fake)


async def test_bad_input_is_refused_privately_and_changes_nothing(
    fake: FakeDiscord, client: FcClient, store: Store
) -> None:
    game = Game(fake, store)
    ann, ben = PLAYERS[:2]
    lobby = await open_table(fake, client, [ann, ben])
    text = await refused(
        fake, game, client, fake.press_payload(ben, lobby, f"fc:st:{fake.channel_id}")
    )
    assert "Only Ann" in text
    await dispatch(client, fake.press_payload(ann, lobby, f"fc:st:{fake.channel_id}"))
    first = await game.current()
    assert first is not None
    other = ben if first == ann else ann

    text = await refused(fake, game, client, fake.command_payload(other, "play", spot="1"))
    assert "turn, not yours" in text
    text = await refused(fake, game, client, fake.command_payload(STRANGER, "play", spot="1"))
    assert "not playing" in text
    text = await refused(fake, game, client, fake.command_payload(first, "play", spot="999"))
    assert "no spot 999" in text
    text = await refused(fake, game, client, fake.command_payload(first, "play", spot="abc"))
    assert "not a spot" in text
    text = await refused(fake, game, client, fake.command_payload(first, "play", spot="0,0"))
    assert "already taken" in text
    text = await refused(fake, game, client, fake.command_payload(STRANGER, "hand"))
    assert text
    text = await refused(
        fake, game, client, fake.press_payload(STRANGER, lobby, f"fc:j:{fake.channel_id}")
    )
    assert "already started" in text

    # The turn notice's menu, pressed by somebody else (a forwarded screenshot won't do either).
    notice = fake.dms(first)[-1]
    menu = notice.menu()
    assert menu is not None
    value = menu["options"][0]["value"]
    payload = fake.press_payload(other, notice, menu["custom_id"], values=[value])
    assert "turn, not yours" in await refused(fake, game, client, payload)

    # A stale menu: after a move, the old notice's choices no longer apply.
    await play_by_command(fake, client, game, first)
    payload = fake.press_payload(first, notice, menu["custom_id"], values=[value])
    text = await refused(fake, game, client, payload)
    assert "turn, not yours" in text or "out of date" in text
    now = await game.current()
    assert now is not None
    payload = fake.press_payload(now, notice, menu["custom_id"], values=[value])
    assert "out of date" in await refused(fake, game, client, payload)

    # Forged data in a component (an edited message, an older bot's buttons): opaque garbage.
    for forged in ("fc:zz:nothing", f"fc:ok:{fake.channel_id}:1:99,99@0", "fc:sp:x:y:z"):
        lobby.payload["components"][0]["components"][0]["custom_id"] = forged
        text = await refused(fake, game, client, fake.press_payload(now, lobby, forged))
        assert text
    assert_settled(fake)


async def test_blocked_dms_give_one_hint_in_the_channel(
    fake: FakeDiscord, client: FcClient, store: Store
) -> None:
    game = Game(fake, store)
    ann, ben = PLAYERS[:2]
    fake.blocked_dms.update({ann.id, ben.id})
    lobby = await open_table(fake, client, [ann, ben])
    await dispatch(client, fake.press_payload(ann, lobby, f"fc:st:{fake.channel_id}"))
    for _ in range(4):
        who = await game.current()
        assert who is not None
        await play_by_command(fake, client, game, who)
    hints = [m for m in fake.channel_messages() if "direct messages" in m.content]
    assert sorted(m.content.split(",")[0] for m in hints) == [f"<@{ann.id}>", f"<@{ben.id}>"]
    assert fake.dms(ann) == [] and fake.dms(ben) == []
    # The hint says what to do instead; /fc hand works in the channel, privately.
    who = await game.current()
    assert who is not None
    await dispatch(client, fake.command_payload(who, "hand"))
    assert fake.last_interaction().seen_by_user()[0].where == "ephemeral"
    assert_settled(fake)


async def test_a_restarted_bot_still_answers_old_buttons(
    fake: FakeDiscord, spy: Spy, store: Store
) -> None:
    game = Game(fake, store)
    ann, ben = PLAYERS[:2]
    async with logged_in(FcClient(spy, deadline_seconds=None)) as before:
        lobby = await open_table(fake, before, [ann, ben])
        await dispatch(before, fake.press_payload(ann, lobby, f"fc:st:{fake.channel_id}"))
    first = await game.current()
    assert first is not None
    async with logged_in(FcClient(spy, deadline_seconds=None)) as after:
        await play_by_components(fake, after, first)
    assert await game.current() not in (None, first)
    assert "<@" in fake.channel_messages()[-1].content
    assert_settled(fake)


async def test_turn_reminder_by_deadline_loop(
    fake: FakeDiscord, client: FcClient, store: Store, clock: Clock
) -> None:
    game = Game(fake, store)
    ann, ben = PLAYERS[:2]
    lobby = await open_table(fake, client, [ann, ben])
    await dispatch(client, fake.press_payload(ann, lobby, f"fc:st:{fake.channel_id}"))
    first = await game.current()
    assert first is not None
    dms = len(fake.dms(first))
    clock.now += 13 * 3600  # past the reminder (12 h by default)
    assert await client.delivery.fire_due() == 1
    assert len(fake.dms(first)) == dms + 1
    assert await client.delivery.fire_due() == 0  # claimed: fires once


async def test_the_spot_menu_offers_every_spot_in_pages(
    fake: FakeDiscord, client: FcClient, store: Store
) -> None:
    game = Game(fake, store)
    lobby = await open_table(fake, client, PLAYERS)
    await dispatch(client, fake.press_payload(PLAYERS[0], lobby, f"fc:st:{fake.channel_id}"))
    table = await advance(store, game.channel, spots=41)
    total = len(render.spots(to_play(load_game(table))))
    who = await game.current()
    assert who is not None
    await dispatch(client, fake.command_payload(who, "hand"))
    [page] = fake.last_interaction().seen_by_user()
    offered: list[str] = []
    while True:
        menu = page.menu()
        assert menu is not None and len(menu["options"]) <= 25  # Discord's limit
        offered += [option["label"].split(":")[0] for option in menu["options"]]
        # Read from the top: the spots, then the pages (the previous one first).
        shown = [c["type"] if c["type"] == 3 else c["label"][0] for c in page.walk()]
        assert shown in ([3, "S"], [3, "◀"], [3, "◀", "S"]), shown
        forward = [b for b in page.walk() if b.get("type") == 2 and "▶" in b["label"]]
        if not forward:
            break
        await dispatch(client, fake.press_payload(who, page, forward[0]["custom_id"]))
        [page] = fake.last_interaction().seen_by_user()
        assert page.where == "ephemeral" and f"of {total}" in page.content
    assert offered == [f"Spot {n}" for n in range(1, total + 1)]
    # The last page's menu works like the first one's.
    value = menu["options"][-1]["value"]
    await dispatch(client, fake.press_payload(who, page, menu["custom_id"], values=[value]))
    rotations = fake.last_interaction().seen_by_user()[-1]
    assert rotations.custom_ids()[0].startswith("fc:pv:")
    assert_settled(fake)


async def test_a_turn_message_carries_a_link_button_to_the_players_page(
    fake: FakeDiscord, store: Store
) -> None:
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None, web_url="https://fc.example", web_secret=SecretStr("discord-web")
    )
    service = GameService(store, settings, seeds=fixed_seeds())
    async with logged_in(FcClient(service, deadline_seconds=None)) as client:
        players = PLAYERS[:2]
        lobby = await open_table(fake, client, players, side="advanced")
        await dispatch(client, fake.press_payload(players[0], lobby, f"fc:st:{fake.channel_id}"))
        first = await Game(fake, store).current()
        assert first is not None
        notice = fake.dms(first)[-1]
        [link] = [c for c in notice.walk() if c.get("type") == 2 and c.get("style") == 5]
        assert link["label"] == "Play on the board"
        assert link["url"].startswith(f"https://fc.example/t/discord/{fake.channel_id}/")
        assert "#seat=" in link["url"] and "custom_id" not in link
        assert notice.menu() is not None  # the spot menu is still there, above it
    service.computer.close()
