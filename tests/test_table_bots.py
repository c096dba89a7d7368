"""Computer players at the table, through the service and a real redis-server: seating them,
whole games with them, their pause, their time limit, a restart while one thinks, and a seat
handed to one by vote until its person comes back."""

from __future__ import annotations

import asyncio
import io
import random
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from PIL import Image

import render.forbidden_city as render
from bot.config import Settings
from bot.exchange.actor import Actor
from bot.exchange.replies import Reply, mention
from bot.records.table import Table
from bot.runtime.computer_pool import Computer, decide, greedy
from bot.runtime.metrics import REGISTRY
from bot.service import GameService
from bot.store import Channel, Store
from engine.forbidden_city import Game, Place
from engine.forbidden_city.view import SeatView
from tests.conftest import fixed_seeds
from tests.tables import load_game, module_of
from tests.views import to_play

CHANNEL = "room1"
WHERE = Channel.of("console", CHANNEL)
TINY = 6  # search iterations: computer players decide in milliseconds here


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def settings(**values: object) -> Settings:
    return Settings(_env_file=None, **{"bot_pause": 0, **values})  # type: ignore[call-arg, arg-type]


def who(user: str, **extra: Any) -> Actor:
    return Actor("console", CHANNEL, user, user.capitalize(), **extra)


@pytest.fixture(scope="module")
def computer() -> Iterator[Computer]:
    """One worker process for the module's tests (it takes a moment to start)."""
    made = Computer(1, 5.0, TINY)
    yield made
    made.close()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def service(store: Store, clock: Clock, computer: Computer) -> AsyncIterator[GameService]:
    yield GameService(store, settings(), clock=clock, seeds=fixed_seeds(), computer=computer)


async def table_of(store: Store) -> Table | None:
    record = await store.load(WHERE)
    return None if record is None else Table.model_validate_json(record.data)


async def live(store: Store) -> Table:
    table = await table_of(store)
    assert table is not None
    return table


def is_png(data: bytes | None) -> bool:
    if data is None:
        return False
    with Image.open(io.BytesIO(data)) as image:
        return image.format == "PNG" and image.width > 100


def computer_ids(table: Table) -> set[str]:
    return {s.user_id for s in table.seats if s.bot is not None}


def channel_replies(fired: list[tuple[str, str, Reply]]) -> list[Reply]:
    return [reply for platform, channel, reply in fired if Channel.of(platform, channel) == WHERE]


async def human_move(service: GameService, table: Table, user: str, rng: random.Random) -> Reply:
    spot = rng.choice(render.spots(to_play(load_game(table))))
    reply = await service.command(who(user), f"play {spot.number} {spot.rotations[0]}")
    assert reply.ok, reply.private
    return reply


# ------------------------------------------------------------------ seating


async def test_new_with_bots_seats_them_and_a_person_may_play_alone(
    service: GameService, store: Store
) -> None:
    reply = await service.command(who("ann"), "new advanced bots:3")
    assert reply.ok, reply.private
    text = reply.public[0].text
    table = await live(store)
    names = [s.name for s in table.seats]
    assert names == ["Ann", "Computer (normal)", "Computer (normal) 2", "Computer (normal) 3"]
    assert all(name in text for name in names[1:])
    assert table.options == {"side": "advanced"} and table.creator == "ann"
    assert await store.user_games("console", "ann") == [WHERE]
    for bot in computer_ids(table):  # no platform user is indexed for them
        assert await store.user_games("console", bot) == []
    full = await service.command(who("bob"), "join")
    assert not full.ok and "full" in full.private[0].text
    started = await service.command(who("ann"), "start")  # one person and computers: solo play
    assert started.ok, started.private
    table = await live(store)
    for bot in computer_ids(table):  # a user with a computer's id does not get its seat
        refused = await service.command(who(bot), "play 1 0")
        assert not refused.ok and "not playing" in refused.private[0].text
    helped = await service.command(who("ann"), "help")
    assert "bot add [easy|normal|hard] / bot remove [n]" in helped.private[0].text
    assert "vote bot" in helped.private[0].text
    assert {d.user_id for d in started.direct} <= {"ann"}
    for bot in computer_ids(table):
        assert mention(bot) not in started.public[0].text


@pytest.mark.parametrize("words", ["bots:4", "bots:0", "bots:x", "bots:2:wild", "bots:1 bots:1"])
async def test_new_refuses_a_wrong_bots_option(
    service: GameService, store: Store, words: str
) -> None:
    reply = await service.command(who("ann"), f"new {words}")
    assert not reply.ok and "bots:N" in reply.private[0].text
    assert await table_of(store) is None


async def test_new_with_a_level_and_the_side(service: GameService, store: Store) -> None:
    assert (await service.command(who("ann"), "new bots:2:hard beginner")).ok
    table = await live(store)
    assert [s.bot for s in table.seats] == [None, "hard", "hard"]
    assert [s.name for s in table.seats[1:]] == ["Computer (hard)", "Computer (hard) 2"]


async def test_addbot_and_removebot_in_the_lobby(service: GameService, store: Store) -> None:
    opened = await service.command(who("ann"), "new")
    [add] = [b for row in opened.public[0].buttons for b in row if b.data == f"fc:ab:{CHANNEL}"]
    assert add.label == "Add a computer player"
    assert (await service.press(who("ann"), add.data)).ok
    hard = await service.command(who("ann"), "addbot hard")
    assert hard.ok and "Computer (hard)" in hard.public[0].text
    wrong = await service.command(who("ann"), "addbot genius")
    assert not wrong.ok and "easy, normal or hard" in wrong.private[0].text
    assert (await service.command(who("bob"), "join")).ok
    full = await service.command(who("ann"), "addbot")
    assert not full.ok and "full" in full.private[0].text
    table = await live(store)
    assert [(s.name, s.bot) for s in table.seats] == [
        ("Ann", None),
        ("Computer (normal)", "normal"),
        ("Computer (hard)", "hard"),
        ("Bob", None),
    ]
    before = await store.load(WHERE)
    for refused in (
        await service.command(who("bob"), "removebot"),  # not the creator
        await service.press(who("bob"), f"fc:ab:{CHANNEL}"),
        await service.command(who("ann"), "removebot 3"),  # only two computer players
    ):
        assert not refused.ok
    assert (await store.load(WHERE)) == before
    removed = await service.command(who("ann"), "removebot 1")
    assert removed.ok and "Computer (normal) leaves" in removed.public[0].text
    assert (await service.command(who("eve", is_admin=True), "addbot easy")).ok  # an admin may
    table = await live(store)
    assert [s.name for s in table.seats] == ["Ann", "Computer (hard)", "Bob", "Computer (easy)"]
    assert (await service.command(who("ann"), "start")).ok
    for late in ("addbot", "removebot"):
        reply = await service.command(who("ann"), late)
        assert not reply.ok and "already started" in reply.private[0].text


async def test_bot_add_and_bot_remove_are_discords_words_on_every_platform(
    service: GameService, store: Store
) -> None:
    """`/fc bot add` and `/fc bot remove`, Discord's subcommand group, typed on Telegram or
    the console do what `addbot` and `removebot` do; `bot` alone says what it expects."""
    assert (await service.command(who("ann"), "new")).ok
    hard = await service.command(who("ann"), "bot add hard")
    assert hard.ok and "Computer (hard) takes a seat" in hard.public[0].text
    assert (await service.command(who("ann"), "bot add")).ok
    assert [s.bot for s in (await live(store)).seats] == [None, "hard", "normal"]
    removed = await service.command(who("ann"), "bot remove 1")
    assert removed.ok and "Computer (hard) leaves" in removed.public[0].text
    for wrong in ("bot", "bot seat", "bot addd"):
        refused = await service.command(who("ann"), wrong)
        assert refused.private[0].text == (
            "Write /fc bot add [easy|normal|hard] or /fc bot remove [n]."
        ), wrong
    refused = await service.command(who("ann"), "bot add genius")
    assert refused.private[0].text == "Choose a level: /fc bot add easy, normal or hard."
    assert [s.bot for s in (await live(store)).seats] == [None, "normal"]


async def test_removebot_with_none_seated(service: GameService) -> None:
    assert (await service.command(who("ann"), "new")).ok
    reply = await service.command(who("ann"), "removebot")
    assert not reply.ok and "No computer player" in reply.private[0].text


async def test_computer_players_never_run_the_table(service: GameService, store: Store) -> None:
    assert (await service.command(who("ann"), "new bots:1")).ok
    assert (await service.command(who("bob"), "join")).ok
    left = await service.command(who("ann"), "leave")
    assert left.ok and "Bob now runs the table" in left.public[0].text
    assert (await live(store)).creator == "bob"
    closed = await service.command(who("bob"), "leave")  # only a computer is left: closed
    assert closed.ok and "closed" in closed.public[0].text
    assert await table_of(store) is None


async def test_start_alone_points_to_bot_add(service: GameService) -> None:
    assert (await service.command(who("ann"), "new")).ok
    reply = await service.command(who("ann"), "start")
    assert not reply.ok and "/fc bot add" in reply.private[0].text


# ------------------------------------------------------------------ playing


async def test_a_whole_game_of_one_person_and_three_computers(
    store: Store, clock: Clock, computer: Computer
) -> None:
    service = GameService(
        store, settings(bot_pause=2), clock=clock, seeds=fixed_seeds(), computer=computer
    )
    assert (await service.command(who("ann"), "new bots:1")).ok
    assert (await service.command(who("ann"), "addbot easy")).ok
    assert (await service.command(who("ann"), "addbot hard")).ok
    assert (await service.command(who("ann"), "start")).ok
    rng = random.Random(4)
    names = {s.user_id: s.name for s in (await live(store)).seats}
    bots = {uid for uid in names if uid != "ann"}
    computer_moves = computer_replies = person_moves = 0
    last: Reply | None = None
    while (table := await table_of(store)) is not None:
        game = load_game(table)
        mover = table.user_of(game.current)
        if mover.bot is None:
            reply = await human_move(service, table, "ann", rng)
            person_moves += 1
        else:
            assert last is None or last.public[0].text.count("places a tile") == 1
            assert channel_replies(await service.fire_due()) == []  # it waits for its pause
            clock.now += 2
            [reply] = channel_replies(await service.fire_due())
            # Every computer up to Ann's next turn, told in one message with one picture.
            text = reply.public[0].text
            computer_moves += text.count("places a tile")
            computer_replies += 1
            assert reply.private == []
            assert mover.name in text and "places a tile" in text
            after = await table_of(store)
            assert after is None or after.user_of(load_game(after).current).bot is None
            for bot in bots:
                assert mention(bot) not in text
        assert len(reply.public) == 1 and is_png(reply.public[0].image)
        assert {d.user_id for d in reply.direct} <= {"ann"}  # nothing privately to a computer
        last = reply
    assert last is not None and "Game over" in last.public[0].text
    assert person_moves > 5 and computer_moves >= 2 * person_moves
    assert computer_replies <= person_moves + 1  # one message a round, not one a computer
    assert await store.due(clock.now + 10**9) == []  # nothing left scheduled


async def test_chained_computers_each_wait_for_their_own_deadline(
    service: GameService, store: Store, clock: Clock
) -> None:
    assert (await service.command(who("ann"), "new bots:3")).ok
    assert (await service.command(who("ann"), "start")).ok
    table = await live(store)
    game = load_game(table)
    while table.user_of(game.current).bot is None:
        await human_move(service, table, "ann", random.Random(1))
        table = await live(store)
        game = load_game(table)
    moves = len(game.moves)
    assert await store.deadline(WHERE, "remind") is None  # a computer is never reminded
    assert await store.deadline(WHERE, "limit") is None
    [first] = channel_replies(await service.fire_due())
    assert len(load_game(await live(store)).moves) == moves + 1  # one computer, one move
    assert first.public


async def test_the_computer_decides_from_its_view_only(
    store: Store, clock: Clock, computer: Computer
) -> None:
    seen: list[tuple[Any, str]] = []

    class Watching(Computer):
        async def decide(self, game_key: str, level: str, view: Any, seat: str, seed: int) -> Any:
            seen.append((view, seat))
            return await computer.decide(game_key, level, view, seat, seed)

    service = GameService(
        store, settings(), clock=clock, seeds=fixed_seeds(), computer=Watching(1, 5.0)
    )
    assert (await service.command(who("ann"), "new bots:1")).ok
    assert (await service.command(who("ann"), "start")).ok
    table = await live(store)
    if table.user_of(load_game(table).current).bot is None:
        await human_move(service, table, "ann", random.Random(2))
    game = load_game(await live(store))
    assert channel_replies(await service.fire_due())
    [(view, seat)] = seen
    assert isinstance(view, SeatView) and view.seat == seat == game.current
    assert view == game.view(seat)  # its own tile, and nobody else's
    assert view.hand == game.hand(seat) and not isinstance(view, Game)


def test_a_decision_is_the_same_when_made_again() -> None:
    game = Game(["purple", "yellow", "red"], seed=11)
    view = game.view(game.current)
    first = decide("forbidden_city", "easy", view, game.current, 5, 2.0, TINY).action
    again = decide("forbidden_city", "easy", view, game.current, 5, 2.0, TINY).action
    assert first == again and first in game.legal_moves()


def slow_work(*args: Any) -> Any:
    """A search that overruns every limit (run in a worker process)."""
    time.sleep(30)
    raise AssertionError("never reached")


async def test_an_overrunning_decision_gives_way_to_the_greedy_one(
    store: Store, clock: Clock
) -> None:
    # A limit the status command below fits in even on a busy machine.
    slow = Computer(1, 2.0, work=slow_work)
    service = GameService(store, settings(), clock=clock, seeds=fixed_seeds(), computer=slow)
    try:
        assert (await service.command(who("ann"), "new bots:1")).ok
        assert (await service.command(who("ann"), "start")).ok
        table = await live(store)
        if table.user_of(load_game(table).current).bot is None:
            await human_move(service, table, "ann", random.Random(2))
        game = load_game(await live(store))
        seat = game.current
        expected = greedy("forbidden_city", game.view(seat), seat, game.seed + len(game.moves))
        cut_before = searches_cut("normal")  # the level `new bots:1` seats
        started = time.monotonic()
        firing = asyncio.create_task(service.fire_due())
        await asyncio.sleep(0.1)
        status = await service.command(who("ann"), "status")  # the loop is free meanwhile
        assert status.ok and not firing.done()
        fired = channel_replies(await firing)
        assert time.monotonic() - started < 25  # not the 30 s the search would take
        assert fired and fired[0].public
        after = load_game(await live(store))
        assert after.moves[len(game.moves)] == expected
        assert searches_cut("normal") == cut_before + 1  # counted as cut short
    finally:
        slow.close()


async def test_a_restart_while_a_computer_thinks_loses_nothing(
    store: Store, clock: Clock, computer: Computer
) -> None:
    thinking = asyncio.Event()

    class Dying(Computer):
        async def decide(self, game_key: str, level: str, view: Any, seat: str, seed: int) -> Any:
            thinking.set()
            await asyncio.Event().wait()  # the process dies before it decides

    first = GameService(store, settings(), clock=clock, seeds=fixed_seeds(), computer=Dying(1, 5.0))
    assert (await first.command(who("ann"), "new bots:1")).ok
    assert (await first.command(who("ann"), "start")).ok
    table = await live(store)
    if table.user_of(load_game(table).current).bot is None:
        await human_move(first, table, "ann", random.Random(2))
    moves = len(load_game(await live(store)).moves)
    task = asyncio.create_task(first.fire_due())
    await asyncio.wait_for(thinking.wait(), 30)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    second = GameService(store, settings(), clock=clock, seeds=fixed_seeds(), computer=computer)
    assert channel_replies(await second.fire_due()) == []  # the claim still holds
    clock.now += 60  # past the claim's lease
    [reply] = channel_replies(await second.fire_due())
    assert reply.public and is_png(reply.public[0].image)
    assert len(load_game(await live(store)).moves) == moves + 1
    assert channel_replies(await second.fire_due()) == []  # applied once


# ------------------------------------------------------------------ a seat handed over


async def late(service: GameService, store: Store, clock: Clock, users: list[str]) -> str:
    """A table of `users` where the player to move has run past the time limit: who it is."""
    assert (await service.command(who(users[0]), "new")).ok
    for user in users[1:]:
        assert (await service.command(who(user), "join")).ok
    assert (await service.command(who(users[0]), "start")).ok
    clock.now += service.settings.turn_limit.total_seconds() + 1
    [limit] = [r for r in channel_replies(await service.fire_due()) if r.public]
    assert "/fc vote bot" in limit.public[0].text
    table = await live(store)
    return table.user_of(load_game(table).current).user_id


async def test_vote_bot_hands_the_seat_over_until_back(
    service: GameService, store: Store, clock: Clock
) -> None:
    absent = await late(service, store, clock, ["ann", "bob", "cid"])
    voters = [u for u in ("ann", "bob", "cid") if u != absent]
    first = await service.command(who(voters[0]), "vote bot")
    assert first.ok and "computer player" in first.public[0].text
    assert "(1/2)" in first.public[0].text
    assert not (await service.command(who(absent), "vote bot")).ok
    handed = await service.command(who(voters[1]), "vote bot")
    assert handed.ok and mention(absent) in handed.public[0].text
    assert "/fc back" in handed.public[0].text
    table = await live(store)
    assert table.seat_of(absent) is not None and table.seat_of(absent).away  # type: ignore[union-attr]
    refused = await service.command(who(absent), "play 1 0")
    assert not refused.ok and "/fc back" in refused.private[0].text
    [played] = channel_replies(await service.fire_due())
    assert is_png(played.public[0].image) and "places a tile" in played.public[0].text
    assert mention(absent) not in played.public[0].text  # the computer plays: nobody is pinged
    assert absent not in {d.user_id for d in played.direct}
    rng = random.Random(8)
    # The others play round to the absent seat again: the computer plays it again.
    while (table := await live(store)).user_of(load_game(table).current).user_id != absent:
        await human_move(service, table, table.user_of(load_game(table).current).user_id, rng)
    assert channel_replies(await service.fire_due())
    assert not (await service.command(who(voters[0]), "back")).ok  # nobody played for them
    back = await service.command(who(absent), "back")
    assert back.ok and mention(absent) in back.public[0].text and "back" in back.public[0].text
    # Round to their seat again: now they are told, and the computer no longer plays it.
    while (table := await live(store)).user_of(load_game(table).current).user_id != absent:
        reply = await human_move(
            service, table, table.user_of(load_game(table).current).user_id, rng
        )
    assert absent in {d.user_id for d in reply.direct}
    assert channel_replies(await service.fire_due()) == []
    await human_move(service, await live(store), absent, rng)


async def test_back_on_ones_own_turn_takes_it_at_once(
    service: GameService, store: Store, clock: Clock
) -> None:
    absent = await late(service, store, clock, ["ann", "bob"])
    other = "bob" if absent == "ann" else "ann"
    assert (await service.command(who(other), "vote bot")).ok  # one voter: a majority
    assert (await live(store)).seat_of(absent).away  # type: ignore[union-attr]
    back = await service.command(who(absent), "back")
    assert back.ok and back.private and is_png(back.private[0].image)  # their turn, privately
    assert channel_replies(await service.fire_due()) == []  # no computer plays it now
    await human_move(service, await live(store), absent, random.Random(3))


async def test_computer_players_do_not_vote(
    service: GameService, store: Store, clock: Clock
) -> None:
    assert (await service.command(who("ann"), "new bots:1")).ok
    assert (await service.command(who("bob"), "join")).ok
    assert (await service.command(who("ann"), "start")).ok
    rng = random.Random(6)
    while (mover := (table := await live(store)).user_of(load_game(table).current)).user_id != (
        "bob"
    ):
        if mover.bot is not None:
            assert channel_replies(await service.fire_due())
        else:
            await human_move(service, table, "ann", rng)
    clock.now += service.settings.turn_limit.total_seconds() + 1  # bob is late
    assert channel_replies(await service.fire_due())
    skipped = await service.command(who("ann"), "vote skip")  # ann alone is the majority
    assert skipped.ok and "voted to skip" in skipped.public[0].text


def failing_work(*args: Any) -> Any:
    """A search with a bug in it (run in a worker process)."""
    raise RuntimeError("a bug in a game's search")


async def test_a_failing_search_gives_way_to_the_greedy_one() -> None:
    failing = Computer(1, 5.0, work=failing_work)
    try:
        game = Game(["purple", "yellow"], seed=21)
        view = game.view(game.current)
        action = await failing.decide("forbidden_city", "normal", view, game.current, 7)
    finally:
        failing.close()
    assert action == greedy("forbidden_city", view, game.current, 7)


def cut_work(*args: Any) -> Any:
    """A search whose cap runs out at once, as on a very slow machine (in a worker process)."""
    game_key, level, view, seat, seed, _, iterations = args
    return decide(game_key, level, view, seat, seed, 0.0, iterations)


def searches_cut(level: str = "hard") -> float:
    return (
        REGISTRY.get_sample_value(
            "fc_computer_searches_cut_total", {"game": "forbidden_city", "level": level}
        )
        or 0.0
    )


async def test_a_search_the_cap_cut_is_counted_and_a_whole_one_is_not() -> None:
    game = Game(["purple", "yellow"], seed=21)
    view = game.view(game.current)
    whole, cut = Computer(1, 5.0, TINY), Computer(1, 5.0, TINY, work=cut_work)
    try:
        before = searches_cut()
        action = await whole.decide("forbidden_city", "hard", view, game.current, 7)
        assert action in game.legal_moves() and searches_cut() == before
        action = await cut.decide("forbidden_city", "hard", view, game.current, 7)
        assert action in game.legal_moves() and searches_cut() == before + 1
    finally:
        whole.close()
        cut.close()


async def test_an_illegal_decision_is_replaced_by_the_tables_stand_in(
    store: Store, clock: Clock
) -> None:
    class Wrong(Computer):
        async def decide(self, game_key: str, level: str, view: Any, seat: str, seed: int) -> Any:
            return Place(99, 99, 0)

    service = GameService(store, settings(), clock=clock, seeds=fixed_seeds(), computer=Wrong(1, 5))
    assert (await service.command(who("ann"), "new bots:1")).ok
    assert (await service.command(who("ann"), "start")).ok
    table = await live(store)
    if table.user_of(load_game(table).current).bot is None:
        await human_move(service, table, "ann", random.Random(2))
    table = await live(store)
    game = load_game(table)
    stand_in = module_of(table).stand_in(
        game, game.current, random.Random(game.seed + len(game.moves))
    )
    [reply] = channel_replies(await service.fire_due())
    assert reply.public and is_png(reply.public[0].image)
    assert load_game(await live(store)).moves[len(game.moves)] == stand_in


async def test_games_computers_cannot_play_refuse_them(
    service: GameService, store: Store, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bot.service.context.playable", lambda key: False)
    refused = await service.command(who("ann"), "new bots:1")
    assert not refused.ok and "cannot play Forbidden City" in refused.private[0].text
    assert (await service.command(who("ann"), "new")).ok
    refused = await service.command(who("ann"), "addbot")
    assert not refused.ok and "cannot play Forbidden City" in refused.private[0].text
    assert (await service.command(who("bob"), "join")).ok
    assert (await service.command(who("ann"), "start")).ok
    clock.now += service.settings.turn_limit.total_seconds() + 1
    [limit] = [r for r in channel_replies(await service.fire_due()) if r.public]
    assert "/fc vote skip" in limit.public[0].text and "vote bot" not in limit.public[0].text
    table = await live(store)
    other = next(u for u in ("ann", "bob") if u != table.user_of(load_game(table).current).user_id)
    refused = await service.command(who(other), "vote bot")
    assert not refused.ok and "cannot play" in refused.private[0].text


async def test_a_person_whose_seat_a_computer_plays_does_not_vote(
    service: GameService, store: Store, clock: Clock
) -> None:
    away = await late(service, store, clock, ["ann", "bob", "cid"])
    for user in ("ann", "bob", "cid"):
        if user != away:
            assert (await service.command(who(user), "vote bot")).ok
    assert channel_replies(await service.fire_due())  # the computer plays the away seat
    table = await live(store)
    slow = table.user_of(load_game(table).current).user_id
    assert slow != away
    clock.now += service.settings.turn_limit.total_seconds() + 1
    assert [r for r in channel_replies(await service.fire_due()) if r.public]
    refused = await service.command(who(away), "vote skip")
    assert not refused.ok and "Only the players" in refused.private[0].text
    [last] = [u for u in ("ann", "bob", "cid") if u not in (away, slow)]
    skipped = await service.command(who(last), "vote skip")  # one voter left: a majority
    assert skipped.ok and "voted to skip" in skipped.public[0].text


async def test_a_save_while_a_computer_thinks_has_it_decide_again(
    store: Store, clock: Clock, computer: Computer
) -> None:
    decisions: list[int] = []

    class Interrupted(Computer):
        async def decide(self, game_key: str, level: str, view: Any, seat: str, seed: int) -> Any:
            decisions.append(seed)
            if len(decisions) == 1:  # someone else's change is stored meanwhile
                assert (await busy.dm_failed("console", CHANNEL, "ann")).public
            return await computer.decide(game_key, level, view, seat, seed)

    busy = GameService(
        store, settings(), clock=clock, seeds=fixed_seeds(), computer=Interrupted(1, 5)
    )
    assert (await busy.command(who("ann"), "new bots:1")).ok
    assert (await busy.command(who("ann"), "start")).ok
    table = await live(store)
    if table.user_of(load_game(table).current).bot is None:
        await human_move(busy, table, "ann", random.Random(2))
    moves = len(load_game(await live(store)).moves)
    [reply] = channel_replies(await busy.fire_due())
    assert reply.public and len(decisions) == 2 and decisions[0] == decisions[1]
    table = await live(store)
    assert len(load_game(table).moves) == moves + 1 and table.hinted == ["ann"]


async def test_back_while_the_computer_thinks_for_you_wins(
    service: GameService, store: Store, clock: Clock, computer: Computer
) -> None:
    absent = await late(service, store, clock, ["ann", "bob"])
    other = "bob" if absent == "ann" else "ann"
    assert (await service.command(who(other), "vote bot")).ok
    moves = len(load_game(await live(store)).moves)
    back: list[Reply] = []

    class Overtaken(Computer):
        async def decide(self, game_key: str, level: str, view: Any, seat: str, seed: int) -> Any:
            if not back:
                back.append(await service.command(who(absent), "back"))
            return await computer.decide(game_key, level, view, seat, seed)

    service.computer = Overtaken(1, 5)
    assert channel_replies(await service.fire_due()) == []  # the person plays it after all
    assert back[0].ok and back[0].private
    assert len(load_game(await live(store)).moves) == moves
    await human_move(service, await live(store), absent, random.Random(3))


async def test_start_up_gives_a_waiting_computer_its_deadline_again(
    service: GameService, store: Store, clock: Clock
) -> None:
    assert (await service.command(who("ann"), "new bots:1")).ok
    assert (await service.command(who("ann"), "start")).ok
    table = await live(store)
    if table.user_of(load_game(table).current).bot is None:
        await human_move(service, table, "ann", random.Random(2))
    moves = len(load_game(await live(store)).moves)
    assert await store.cancel(WHERE, "bot")  # lost, as with a Redis restored from an old save
    assert channel_replies(await service.fire_due()) == []
    assert await service.restore_deadlines() == 1
    assert channel_replies(await service.fire_due())
    assert len(load_game(await live(store)).moves) == moves + 1
