"""What only reads (help, rules, status, your games) and the chat's settings (language, turn
notices, closed private messages, a chat that got a new id), against a real redis-server:
the exact words a user is shown, and what the store holds afterwards."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from types import SimpleNamespace

import pytest

from bot.exchange.actor import Actor
from bot.exchange.replies import Reply, mention
from bot.local_redis.server import RedisServer
from bot.records.table import Table
from bot.service import GameService, chat
from bot.store import Channel, GameRecord, Store
from tests.conftest import fixed_seeds
from tests.tables import load_game
from tests.test_service import CHANNEL, Clock, current_user, is_png, settings, table_of, who

HERE = Channel.of("console", CHANNEL)
FC_HELP_FIRST = "Forbidden City commands (type them after /fc):"
VS_HELP_FIRST = "Commands of the sliding and bluffing game (type them after /fc):"
VS_RULES_FIRST = "Die Verbotene Stadt (Alex Randolph and Johann Rüttinger), in short:"
FC_RULES_FIRST = "Forbidden City (Reiner Knizia), in short:"


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def service(store: Store, clock: Clock) -> AsyncIterator[GameService]:
    yield GameService(store, settings(), clock=clock, seeds=fixed_seeds())


def only_private(reply: Reply) -> str:
    """The one private message of a reply that posts nothing in the channel."""
    assert reply.public == [] and reply.direct == []
    [message] = reply.private
    return message.text


async def open_table(service: GameService, users: list[str], where: str, game: str = "") -> None:
    """`/fc new [game]` by the first user in `where`, the others join; not started."""
    assert (await service.command(who(users[0], where), f"new {game}".strip())).ok
    for user in users[1:]:
        assert (await service.command(who(user, where), "join")).ok


async def started_table(service: GameService, users: list[str], where: str, game: str) -> None:
    await open_table(service, users, where, game)
    reply = await service.command(who(users[0], where), "start")
    assert reply.ok, reply.private


# ---------------------------------------------------------------------------------- /fc lang


async def test_lang_without_a_code_names_the_language_and_lists_the_choices(
    service: GameService, store: Store
) -> None:
    reply = await service.command(who("ann"), "lang")
    assert reply.ok
    assert only_private(reply) == (
        "Language: en. Choose with /fc lang <code>: "
        "en (English), fr (Français), it (Italiano), de (Deutsch)."
    )
    assert (await store.chat_settings(HERE)).language is None  # only shown, nothing set


async def test_lang_refuses_an_unknown_code_quoting_at_most_ten_characters(
    service: GameService, store: Store
) -> None:
    reply = await service.command(who("ann"), "lang KLINGONESE!!")
    assert not reply.ok
    assert only_private(reply) == "Unknown language “klingonese”. Choose en, fr, it or de."
    short = await service.command(who("ann"), "lang xx")
    assert only_private(short) == "Unknown language “xx”. Choose en, fr, it or de."
    assert (await store.chat_settings(HERE)).language is None


async def test_a_chat_keeps_the_language_its_first_table_was_opened_in(
    service: GameService, store: Store, clock: Clock
) -> None:
    """Nobody typed /fc lang: the chat speaks its first table's creator's language to
    everyone, in answers and on a timer alike, until someone does; a later table opened by
    someone else keeps it too."""
    assert (await service.command(who("ann", locale="fr"), "new")).ok
    assert (await store.chat_settings(HERE)).spoken == "fr"
    joined = await service.command(who("bob", locale="de"), "join")
    assert joined.public[0].text.startswith(f"{mention('bob')} rejoint la table")
    assert (await service.command(who("ann", locale="fr"), "start")).ok
    clock.now += settings().turn_limit.total_seconds() + 1
    said = [m.text for _, _, reply in await service.fire_due("console") for m in reply.public]
    assert any(" depuis plus de 3 j. Les autres joueurs " in text for text in said), said
    assert (await service.command(who("bob", locale="de", is_admin=True), "abort")).ok
    assert (await service.command(who("cid", locale="it"), "new")).ok  # the chat's, still
    assert only_private(await service.command(who("cid", locale="it"), "lang")).startswith(
        "Langue : fr."
    )
    assert (await service.command(who("cid", locale="it"), "lang de")).ok
    assert (await store.chat_settings(HERE)).spoken == "de"
    status = only_private(await service.command(who("ann", locale="fr"), "status"))
    assert status.startswith("Warte")


# -------------------------------------------------------------------------------- /fc notify


async def test_notify_needs_on_or_off_and_changes_nothing_otherwise(
    service: GameService, store: Store
) -> None:
    for text in ("notify", "notify maybe", "notify offf"):
        reply = await service.command(who("ann"), text)
        assert not reply.ok, text
        assert only_private(reply) == "Use /fc notify on or /fc notify off.", text
    assert (await store.chat_settings(HERE)).notify == {}


async def test_notify_on_and_off_say_what_changes_and_are_kept_per_user(
    service: GameService, store: Store, clock: Clock
) -> None:
    off = await service.command(who("ann"), "notify OFF")
    assert off.ok
    assert only_private(off) == (
        "No more private turn messages for you here. /fc hand shows your tile."
    )
    assert (await store.chat_settings(HERE)).notify == {"ann": False}
    await store.set_dms_closed("console", "ann", clock.now, keep=chat.DMS_RETRY_AFTER)
    on = await service.command(who("ann"), "notify on")
    assert on.ok
    assert only_private(on) == "You will get a private message when it is your turn here."
    assert (await store.chat_settings(HERE)).notify == {"ann": True}
    assert await store.dms_closed_at("console", "ann") is None  # worth trying again


# ------------------------------------------------------------------------- /fc help and rules


async def test_help_without_a_table_is_the_default_games_then_the_common_commands(
    service: GameService,
) -> None:
    lines = only_private(await service.command(who("ann"), "help")).split("\n")
    assert lines[0] == FC_HELP_FIRST
    assert "hand: your tile, privately" in lines
    assert "games: your games everywhere" in lines
    assert lines.index("join / leave: sit down or stand up before the start") == 6
    assert lines[-1] == (
        "new stadt: open a Die Verbotene Stadt table instead (help stadt: its commands)"
    )


async def test_help_and_rules_of_a_game_named_whatever_the_table(service: GameService) -> None:
    lines = only_private(await service.command(who("ann"), "help stadt")).split("\n")
    assert lines[0] == VS_HELP_FIRST
    assert (
        lines[-1] == "new knizia: open a Forbidden City table instead (help knizia: its commands)"
    )
    rules = only_private(await service.command(who("ann"), "rules vs")).split("\n")
    assert rules[0] == VS_RULES_FIRST
    assert rules[1].startswith("- Everyone secretly bribes one of the 25 officials.")
    assert len(rules) == 7
    await open_table(service, ["ann"], CHANNEL, "stadt")
    named = only_private(await service.command(who("ann"), "rules knizia")).split("\n")
    assert named[0] == FC_RULES_FIRST and len(named) == 5
    assert named[-1].startswith("- When everyone has 2 tiles left the game ends")
    here = only_private(await service.command(who("ann"), "help")).split("\n")
    assert here[0] == VS_HELP_FIRST


async def test_rules_after_a_game_speak_of_the_game_the_channel_played(
    service: GameService,
) -> None:
    """Its final table is what `/fc board` shows there: `rules` speaks of that game, by name."""
    await started_table(service, ["ann", "bob"], CHANNEL, "stadt")
    assert (await service.command(who("ann"), "abort")).ok
    rules = only_private(await service.command(who("bob"), "rules")).split("\n")
    assert rules[0] == VS_RULES_FIRST
    elsewhere = only_private(await service.command(who("bob", "room2"), "rules")).split("\n")
    assert elsewhere[0] == FC_RULES_FIRST  # a chat that never played: the default game


async def test_help_and_rules_fall_back_to_the_default_game_when_the_table_cannot_be_read(
    service: GameService, store: Store
) -> None:
    await store.create(HERE, '{"kind": "no such game"}', creator="x", players=["x"], language="en")
    assert only_private(await service.command(who("ann"), "help")).startswith(FC_HELP_FIRST)
    assert only_private(await service.command(who("ann"), "rules")).startswith(FC_RULES_FIRST)


@pytest.fixture
async def own_redis(
    redis_server_factory: Callable[..., RedisServer],
) -> AsyncIterator[tuple[RedisServer, GameService]]:
    """A service over a Redis server of the test's own, which the test may stop."""
    server = redis_server_factory()
    server.start()
    store = Store.from_url(server.url, timeout=0.5, retries=1)
    try:
        yield server, GameService(store, settings(), clock=Clock())
    finally:
        await store.close()


async def test_help_and_rules_work_while_the_store_is_away(
    own_redis: tuple[RedisServer, GameService],
) -> None:
    server, service = own_redis
    await open_table(service, ["ann"], CHANNEL, "stadt")
    server.stop()
    reply = await service.command(who("ann"), "help")
    assert reply.ok and only_private(reply).startswith(FC_HELP_FIRST)
    named = await service.command(who("ann"), "rules stadt")
    assert named.ok and only_private(named).startswith(VS_RULES_FIRST)
    in_private = await service.command(who("ann", "dm-ann", private=True), "help")
    assert in_private.ok and only_private(in_private).startswith(FC_HELP_FIRST)


# ------------------------------------------------------------------------------- /fc status


async def test_status_before_the_start_says_who_waits_for_whom(service: GameService) -> None:
    await open_table(service, ["ann", "bob"], CHANNEL)
    reply = await service.command(who("bob"), "status")
    assert reply.ok
    assert only_private(reply) == "Waiting for Ann to start (2/4): Ann, Bob."


# -------------------------------------------------------------------------------- /fc games


async def test_games_without_any(service: GameService) -> None:
    reply = await service.command(who("ann"), "games")
    assert reply.ok and only_private(reply) == "You have no game under way."


async def test_games_lists_each_table_and_whose_turn_it_is(service: GameService) -> None:
    await open_table(service, ["ann", "bob"], "room_c")
    await started_table(service, ["ann", "bob", "cid"], "room_d", "stadt")
    await started_table(service, ["ann", "bob", "cid"], "room_e", "stadt")
    # Everyone bribes in secret at the start of the sliding game; Ann is done in room_e.
    bribed = await service.press(who("ann", "dm-ann", private=True), "fc:vb:room_e:0:GY")
    assert bribed.ok, bribed.private
    reply = await service.command(who("ann", "dm-ann", private=True), "games")
    assert reply.ok
    # The seats still to choose, in turn order (which the deal decides).
    assert only_private(reply) in [
        "Chat room_c: Forbidden City, waiting to start\n"
        "Chat room_d: Die Verbotene Stadt, your turn\n"
        f"Chat room_e: Die Verbotene Stadt, {first}, {second} to play"
        for first, second in (("Bob", "Cid"), ("Cid", "Bob"))
    ]


async def test_games_skips_unreadable_and_vanished_tables_but_lists_the_rest(
    service: GameService, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = Channel.of("console", "room_a")
    await store.create(
        broken, '{"kind": "no such game"}', creator="ann", players=["ann"], language="en"
    )
    await open_table(service, ["ann", "bob"], "room_b")
    await open_table(service, ["bob", "ann"], "room_c")
    listed = store.user_games

    async def closed_meanwhile(platform: str, user_id: int | str) -> list[Channel]:
        # room_b is aborted by its creator between the index read and the table's.
        channels = await listed(platform, user_id)
        assert (await service.command(who("ann", "room_b"), "abort")).ok
        return channels

    monkeypatch.setattr(store, "user_games", closed_meanwhile)
    reply = await service.command(who("ann", "elsewhere"), "games")
    assert reply.ok
    assert only_private(reply) == "Chat room_c: Forbidden City, waiting to start"


# ------------------------------------------------------- private messages the platform refused


def telegram(user: str, where: str = "-100") -> Actor:
    return Actor("telegram", where, user, user.capitalize())


def discord(user: str, where: str = "900") -> Actor:
    return Actor("discord", where, user, user.capitalize())


async def seat_two(service: GameService, make: Callable[[str], Actor]) -> None:
    assert (await service.command(make("ann"), "new")).ok
    assert (await service.command(make("bob"), "join")).ok
    assert (await service.command(make("ann"), "start")).ok


async def test_a_telegram_hint_links_to_the_bots_private_chat_when_there_is_a_link(
    service: GameService,
) -> None:
    await seat_two(service, telegram)
    reply = await service.dm_failed("telegram", "-100", "bob", "https://t.me/fc_bot?start=go")
    [told] = reply.public
    assert told.text == (
        f"{mention('bob')}, I cannot write to you privately. Open https://t.me/fc_bot?start=go "
        "and press Start, so I can send you your tile and tell you when it is your turn."
    )
    assert told.names == {"ann": "Ann", "bob": "Bob"}  # the mention shows Bob's name
    assert reply.private == [] and reply.direct == []


async def test_a_telegram_hint_without_a_link_says_to_open_a_private_chat(
    service: GameService,
) -> None:
    await seat_two(service, telegram)
    [told] = (await service.dm_failed("telegram", "-100", "bob")).public
    assert told.text == (
        f"{mention('bob')}, I cannot write to you privately. Open a private chat with me and "
        "press Start, so I can send you your tile and tell you when it is your turn."
    )


async def test_a_discord_hint_is_about_direct_messages_even_given_a_link(
    service: GameService,
) -> None:
    await seat_two(service, discord)
    [told] = (await service.dm_failed("discord", "900", "bob", "https://t.me/fc_bot")).public
    assert told.text == (
        f"{mention('bob')}, I cannot send you direct messages. Allow direct messages from "
        "server members, or use /fc hand here to see your tile when it is your turn."
    )
    assert told.names == {"ann": "Ann", "bob": "Bob"}


def racing_writer(store: Store, monkeypatch: pytest.MonkeyPatch, races: int) -> None:
    """After each of the next `races` reads of a table, someone else saves it first (the
    same table, a new version), so whoever read it then loses the race to save."""
    read = store.load
    left = [races]

    async def load(channel: Channel) -> GameRecord | None:
        record = await read(channel)
        if record is not None and left[0] > 0:
            left[0] -= 1
            await store.save(channel, record.data, record.version)
        return record

    monkeypatch.setattr(store, "load", load)


async def test_a_hint_survives_a_couple_of_lost_races(
    service: GameService, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    await seat_two(service, telegram)
    racing_writer(store, monkeypatch, races=2)
    [told] = (await service.dm_failed("telegram", "-100", "bob")).public
    assert mention("bob") in told.text
    record = await store.load(Channel.of("telegram", "-100"))
    assert record is not None and Table.model_validate_json(record.data).hinted == ["bob"]
    assert (await service.dm_failed("telegram", "-100", "bob")).public == []  # once per game


async def test_a_hint_is_given_up_after_three_lost_races_and_told_next_time(
    service: GameService, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    await seat_two(service, telegram)
    racing_writer(store, monkeypatch, races=3)
    assert await service.dm_failed("telegram", "-100", "bob") == Reply()
    [told] = (await service.dm_failed("telegram", "-100", "bob")).public
    assert mention("bob") in told.text


# ---------------------------------------------------------------- a chat that got a new id


async def test_a_chat_moved_onto_one_with_its_own_table_keeps_both_apart(
    service: GameService, store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    await open_table(service, ["ann", "bob"], CHANNEL)
    await open_table(service, ["cid"], "room_new", "stadt")
    with caplog.at_level(logging.ERROR, logger=chat.log.name):
        assert await service.chat_moved("console", CHANNEL, "room_new") is False
    old, new = await table_of(store), await table_of(store, "room_new")
    assert old is not None and [s.user_id for s in old.seats] == ["ann", "bob"]
    assert new is not None and new.kind == "verbotene_stadt" and new.creator == "cid"
    assert await store.user_games("console", "ann") == [HERE]
    [logged] = [r for r in caplog.records if r.name == chat.log.name]
    assert logged.levelno == logging.ERROR
    # The operator learns which chat moved where, and why nothing moved.
    message = logged.getMessage()
    assert message.startswith("console:room1 moved to console:room_new,")
    assert "table of its own" in message


class Waits:
    """Stands in for `asyncio.sleep` in `bot.service.chat`: counts the seconds the service
    would wait, without waiting, and runs `then` once they pass `after` seconds in all."""

    def __init__(
        self, after: float = float("inf"), then: Callable[[], None] = lambda: None
    ) -> None:
        self.waited: list[float] = []
        self.after, self.then = after, then

    async def sleep(self, seconds: float) -> None:
        before = sum(self.waited)
        self.waited.append(max(0.0, seconds))
        if before < self.after <= sum(self.waited):
            self.then()


async def a_game_on_a_server_of_its_own(
    factory: Callable[..., RedisServer],
) -> tuple[RedisServer, Store, GameService]:
    server = factory(persistent=True)
    server.start()
    store = Store.from_url(server.url, timeout=0.5, retries=1)
    service = GameService(store, settings(), clock=Clock(), seeds=fixed_seeds())
    await started_table(service, ["ann", "bob"], CHANNEL, "")
    return server, store, service


async def test_a_chat_move_waits_out_an_outage_of_a_few_seconds(
    redis_server_factory: Callable[..., RedisServer], monkeypatch: pytest.MonkeyPatch
) -> None:
    server, store, service = await a_game_on_a_server_of_its_own(redis_server_factory)
    try:
        server.stop()
        waits = Waits(after=4.5, then=server.start)  # back after 4.5 s
        monkeypatch.setattr(chat, "asyncio", SimpleNamespace(sleep=waits.sleep))
        assert await service.chat_moved("console", CHANNEL, "room_new") is True
        assert await store.user_games("console", "ann") == [Channel.of("console", "room_new")]
        moved = await table_of(store, "room_new")
        assert moved is not None and moved.started
    finally:
        await store.close()


async def test_a_chat_move_gives_up_within_eight_seconds_of_an_outage_and_says_so(
    redis_server_factory: Callable[..., RedisServer],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    server, store, service = await a_game_on_a_server_of_its_own(redis_server_factory)
    try:
        server.stop()
        waits = Waits()  # never back while it waits
        monkeypatch.setattr(chat, "asyncio", SimpleNamespace(sleep=waits.sleep))
        with caplog.at_level(logging.ERROR, logger=chat.log.name):
            assert await service.chat_moved("console", CHANNEL, "room_new") is False
        assert 5.0 <= sum(waits.waited) <= 8.0, waits.waited
        [logged] = [r for r in caplog.records if r.name == chat.log.name]
        message = logged.getMessage()
        assert logged.levelno == logging.ERROR
        assert message.startswith("console:room1 moved to console:room_new ")
        assert "stays at the old id" in message
        server.start()
        assert await store.user_games("console", "ann") == [HERE]
        assert await table_of(store, "room_new") is None
        assert (await service.command(who("ann"), "status")).ok  # still played where it was
    finally:
        await store.close()


async def test_a_chat_move_pauses_only_between_its_tries(
    redis_server_factory: Callable[..., RedisServer], monkeypatch: pytest.MonkeyPatch
) -> None:
    server, store, service = await a_game_on_a_server_of_its_own(redis_server_factory)
    steps: list[str] = []
    tried = store.move_results

    async def move_results(old: Channel, new: Channel) -> None:
        steps.append("try")
        await tried(old, new)

    async def pause(seconds: float) -> None:
        steps.append("pause")

    try:
        server.stop()
        monkeypatch.setattr(store, "move_results", move_results)
        monkeypatch.setattr(chat, "asyncio", SimpleNamespace(sleep=pause))
        assert await service.chat_moved("console", CHANNEL, "room_new") is False
    finally:
        await store.close()
    # Tries and pauses take turns, from a try to a try: nothing is waited for after the last.
    assert steps.count("try") > 1
    assert steps == ["try", "pause"] * (steps.count("try") - 1) + ["try"], steps


# ------------------------------------------------------- refused private messages, over time


async def test_refused_private_messages_are_not_tried_again_for_a_day(
    service: GameService, clock: Clock
) -> None:
    assert await service.dms_closed("telegram", "bob") is False
    await service.dms_refused("telegram", "bob")
    assert await service.dms_closed("telegram", "bob") is True
    clock.now += 24 * 3600 - 1
    assert await service.dms_closed("telegram", "bob") is True
    clock.now += 1  # a day later: worth asking the platform again
    assert await service.dms_closed("telegram", "bob") is False
    assert await service.dms_closed("telegram", "ann") is False


async def test_using_the_bot_in_a_private_chat_reopens_private_messages(
    service: GameService,
) -> None:
    await service.dms_refused("telegram", "bob")
    assert (await service.command(telegram("bob"), "help")).ok  # in the group: still closed
    assert await service.dms_closed("telegram", "bob") is True
    in_private = Actor("telegram", "bob-private", "bob", "Bob", private=True)
    assert (await service.command(in_private, "help")).ok
    assert await service.dms_closed("telegram", "bob") is False


async def test_with_the_store_away_private_messages_count_as_open(
    own_redis: tuple[RedisServer, GameService],
) -> None:
    server, service = own_redis
    await service.dms_refused("telegram", "bob")
    server.stop()
    assert await service.dms_closed("telegram", "bob") is False  # try, rather than go mute
    await service.dms_refused("telegram", "bob")  # nothing to remember it in: no error


# ------------------------------------------------------------ /fc hand, status, board, the end


async def test_hand_of_the_player_to_move_is_their_turn_prompt_not_a_reminder(
    service: GameService, store: Store
) -> None:
    await started_table(service, ["ann", "bob"], CHANNEL, "")
    table = await table_of(store)
    assert table is not None
    mover = current_user(table)
    reply = await service.command(who(mover), "hand")
    assert reply.ok and reply.public == []
    [prompt] = reply.private
    assert prompt.text == (
        "Your turn in Forbidden City. Your tile and the numbered spots where it fits are "
        "below: choose a spot, or type /fc play <spot> <rotation> in the game's chat."
    )
    assert prompt.choices  # the spots to choose from


async def test_status_of_a_game_says_how_long_the_turn_has_waited(
    service: GameService, store: Store, clock: Clock
) -> None:
    await started_table(service, ["ann", "bob"], CHANNEL, "")
    table = await table_of(store)
    assert table is not None
    mover = table.user_of(load_game(table).current).name
    clock.now += 90 * 60
    text = only_private(await service.command(who("bob"), "status"))
    assert text.endswith(f". {mover} to play (turn started 1 h 30 min ago, 2 d 22 h left)."), text


async def test_board_without_a_table_or_a_finished_game(service: GameService) -> None:
    reply = await service.command(who("ann"), "board")
    assert not reply.ok
    assert only_private(reply) == "There is no table here. Open one with /fc new."


async def test_the_board_after_a_vote_ends_the_game_is_the_final_table(
    service: GameService, store: Store, clock: Clock
) -> None:
    await started_table(service, ["ann", "bob"], CHANNEL, "")
    table = await table_of(store)
    assert table is not None
    late = current_user(table)
    other = "bob" if late == "ann" else "ann"
    clock.now += 72 * 3600 + 1  # past the turn limit: the other may end the game
    await service.fire_due()
    assert (await service.command(who(other), "vote end")).ok
    assert await table_of(store) is None
    board = await service.command(who(late), "board")
    assert board.ok and board.private == []
    [final] = board.public
    assert "voted to end" in final.text
    assert mention("ann") in final.text and mention("bob") in final.text  # both winners
    assert final.names == {"ann": "Ann", "bob": "Bob"}  # shown by name
    assert final.image_name == "final.png" and is_png(final.image)
