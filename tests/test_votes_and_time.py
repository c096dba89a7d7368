"""Votes past the time limit, a seat handed to a computer and taken back, and what time does
on its own (reminders, limits, the news of a table, deadlines set again at start-up), as the
players read it and as the store holds it, against a real redis-server."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any

import pytest

import render.forbidden_city as render
from bot.exchange.actor import Actor
from bot.exchange.replies import Message, Reply, mention
from bot.runtime.computer_pool import Computer, greedy
from bot.runtime.metrics import REGISTRY
from bot.service import GameService
from bot.store import Channel, Deadline, Store, StoreUnavailable
from tests.conftest import fixed_seeds
from tests.tables import load_game
from tests.test_service import CHANNEL, Clock, current_user, seated, settings, table_of, who
from tests.test_turns import a_tile_that_fits_nowhere_next
from tests.views import to_play
from tests.vs_driver import Chat, press
from tests.vs_table import open_stadt, position, store_position, user_of

ROOM = Channel.of("console", CHANNEL)
HOUR = 3600.0
REMIND = 12 * HOUR  # the default settings
LIMIT = 72 * HOUR
NAMES = {"ann": "Ann", "bob": "Bob", "cid": "Cid"}
LIMIT_WITH_COMPUTERS = (
    "{who} has had the turn for more than 3 d. The other players may /fc vote skip (a move is "
    "played for them), /fc vote bot (a computer player plays for them until they are back) or "
    "/fc vote end (the game ends now)."
)
LIMIT_WITHOUT_COMPUTERS = (
    "{who} has had the turn for more than 3 d. The other players may /fc vote skip (a move is "
    "played for them) or /fc vote end (the game ends now)."
)
YOUR_TURN = (
    "Your turn in Forbidden City. Your tile and the numbered spots where it fits are below: "
    "choose a spot, or type /fc play <spot> <rotation> in the game's chat."
)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def service(store: Store, clock: Clock) -> GameService:
    return GameService(store, settings(), clock=clock, seeds=fixed_seeds())


def refusal(reply: Reply) -> str:
    """The one private line of a refused command (nothing else is said)."""
    assert not reply.ok and not reply.public and not reply.direct
    [message] = reply.private
    return message.text


def announced(fired: list[tuple[str, str, Reply]]) -> list[Message]:
    """What the deadlines told the channel (reminders go privately)."""
    return [m for _, _, reply in fired for m in reply.public]


async def due_at(store: Store, kind: str) -> float | None:
    deadline = await store.deadline(ROOM, kind)
    return None if deadline is None else deadline.due


async def limit_passed(service: GameService, clock: Clock) -> Message:
    """Time runs past the turn limit: the channel's one announcement."""
    clock.now += LIMIT + 1
    [message] = announced(await service.fire_due())
    return message


async def late_at_three(service: GameService, clock: Clock) -> tuple[str, list[str]]:
    """Ann, Bob and Cid, the player to move past the limit: who that is, and the others."""
    table = await seated(service, ["ann", "bob", "cid"])
    absent = current_user(table)
    await limit_passed(service, clock)
    return absent, [u for u in ("ann", "bob", "cid") if u != absent]


# --------------------------------------------------------------------------- the limit


async def test_the_limit_names_the_late_player_and_the_three_choices(
    service: GameService, clock: Clock
) -> None:
    table = await seated(service, ["ann", "bob", "cid"])
    absent = current_user(table)
    message = await limit_passed(service, clock)
    assert message.text == LIMIT_WITH_COMPUTERS.format(who=mention(absent))
    assert message.names == NAMES  # so each platform shows the mention with its name


async def test_without_computer_players_the_limit_offers_skip_and_end_only(
    service: GameService, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bot.service.context.playable", lambda key: False)
    table = await seated(service, ["ann", "bob"])
    absent = current_user(table)
    message = await limit_passed(service, clock)
    assert message.text == LIMIT_WITHOUT_COMPUTERS.format(who=mention(absent))
    assert message.names == {"ann": "Ann", "bob": "Bob"}


class Died(Exception):
    """The process stops here."""


class DiesBeforeDone(Store):
    """A process that dies once a time limit's work is stored, before it marks it done."""

    async def done(self, claimed: Deadline) -> bool:
        if claimed.kind == "limit":
            raise Died
        return await super().done(claimed)


async def test_an_announced_limit_is_not_left_to_come_due_again(
    redis_url: str, clock: Clock
) -> None:
    store = DiesBeforeDone.from_url(redis_url)
    try:
        service = GameService(store, settings(), clock=clock, seeds=fixed_seeds())
        await seated(service, ["ann", "bob"])
        clock.now += LIMIT + 1
        with pytest.raises(Died):
            await service.fire_due()
        table = await table_of(store)
        assert table is not None and table.limit_passed
        # The announcement went with the table's save: nothing is left to fire again.
        assert await due_at(store, "limit") is None
    finally:
        await store.close()


# --------------------------------------------------------------------------- votes


async def test_votes_are_refused_with_the_reason(service: GameService, clock: Clock) -> None:
    table = await seated(service, ["ann", "bob", "cid"])
    absent = current_user(table)
    voter = next(u for u in ("ann", "bob", "cid") if u != absent)
    how = "Vote with /fc vote skip, /fc vote bot or /fc vote end."
    assert refusal(await service.command(who(voter), "vote")) == how
    assert refusal(await service.command(who(voter), "vote pass")) == how
    assert refusal(await service.command(who("zed"), "vote skip")) == (
        "You are not playing at this table."
    )
    assert refusal(await service.command(who(voter), "vote skip")) == (
        "Votes open when a turn runs past the time limit."
    )
    await limit_passed(service, clock)
    assert refusal(await service.command(who(absent), "vote end")) == (
        "Only the players waiting for the turn can vote."
    )
    stored = await table_of(service.store)
    assert stored is not None and stored.votes == {}


async def test_each_undecided_vote_is_counted_aloud(service: GameService, clock: Clock) -> None:
    _, (first, second) = await late_at_three(service, clock)
    skip = await service.command(who(first), "VOTE Skip")
    assert skip.ok and [m.text for m in skip.public] == [f"{NAMES[first]} votes to skip (1/2)."]
    bot = await service.command(who(second), "vote bot")
    assert bot.ok and [m.text for m in bot.public] == [
        f"{NAMES[second]} votes to let a computer player play for the late player (1/2)."
    ]
    changed = await service.command(who(first), "vote end")  # a vote may change
    assert [m.text for m in changed.public] == [f"{NAMES[first]} votes to end (1/2)."]
    table = await table_of(service.store)
    assert table is not None and table.votes == {first: "end", second: "bot"}
    assert len(load_game(table).moves) == 0


async def test_a_majority_for_a_computer_hands_the_seat_over_and_closes_the_vote(
    service: GameService, store: Store, clock: Clock
) -> None:
    absent, (first, second) = await late_at_three(service, clock)
    assert (await service.command(who(first), "vote bot")).ok
    handed = await service.command(who(second), "vote bot")
    assert handed.ok and not handed.direct
    [message] = handed.public
    assert message.text == (
        f"The players voted: a computer player (normal) plays for {mention(absent)} until "
        "they come back with /fc back."
    )
    assert message.names == NAMES
    table = await table_of(store)
    assert table is not None and not table.limit_passed and table.votes == {}
    seat = table.seat_of(absent)
    assert seat is not None and seat.away
    # The vote is over: nobody votes again until another turn runs past its limit.
    assert refusal(await service.command(who(first), "vote skip")) == (
        "Votes open when a turn runs past the time limit."
    )
    assert await due_at(store, "limit") is None and await due_at(store, "remind") is None
    assert await due_at(store, "bot") == clock.now + 2  # the computer's pause


async def test_back_on_ones_own_turn_restarts_its_clock(
    service: GameService, store: Store, clock: Clock
) -> None:
    absent, (first, second) = await late_at_three(service, clock)
    for voter in (first, second):
        assert (await service.command(who(voter), "vote bot")).ok
    clock.now += 60  # the computer has not played yet
    back = await service.command(who(absent), "back")
    assert back.ok and not back.direct
    [message] = back.public
    assert message.text == f"{mention(absent)} is back and plays their own seat again."
    assert message.names == NAMES
    [prompt] = back.private  # their turn, as a turn notice words it (not a reminder)
    assert prompt.text == YOUR_TURN and prompt.choices
    table = await table_of(store)
    assert table is not None and not table.limit_passed and table.votes == {}
    assert table.turn_started == clock.now
    seat = table.seat_of(absent)
    assert seat is not None and not seat.away
    assert await due_at(store, "remind") == clock.now + REMIND
    assert await due_at(store, "limit") == clock.now + LIMIT
    assert await due_at(store, "bot") is None  # the computer no longer plays it
    assert refusal(await service.command(who(absent), "back")) == (
        "You are playing your seat already."
    )


async def test_ending_by_vote_leaves_no_deadline_behind(
    service: GameService, store: Store, clock: Clock
) -> None:
    _, (first, second) = await late_at_three(service, clock)
    assert await store.due(clock.now + 10**9) != []  # the next reminder, at least
    assert (await service.command(who(first), "vote end")).ok
    ended = await service.command(who(second), "vote end")
    assert ended.ok and "voted to end" in ended.public[0].text
    assert await store.load(ROOM) is None
    assert await store.due(clock.now + 10**9) == []


class Crossing(Store):
    """A store where another player's move is saved between a command's read and its
    archive (two processes at once)."""

    meanwhile: Callable[[], Coroutine[Any, Any, Reply]] | None = None

    async def archive(self, *args: Any, **kwargs: Any) -> str:
        work, self.meanwhile = self.meanwhile, None
        if work is not None:
            assert (await work()).ok
        return await super().archive(*args, **kwargs)


async def test_an_end_vote_crossing_the_late_move_loses_to_it(redis_url: str, clock: Clock) -> None:
    store = Crossing.from_url(redis_url)
    try:
        service = GameService(store, settings(), clock=clock, seeds=fixed_seeds())
        table = await seated(service, ["ann", "bob"])
        absent = current_user(table)
        other = "bob" if absent == "ann" else "ann"
        await limit_passed(service, clock)
        spot = render.spots(to_play(load_game(table)))[0]
        move = f"play {spot.number} {spot.rotations[0]}"
        store.meanwhile = lambda: service.command(who(absent), move)
        vote = await service.command(who(other), "vote end")
        assert refusal(vote) == (
            "Someone was quicker: that was already played. Nothing was changed."
        )
        after = await table_of(store)  # the game goes on, with the late move in it
        assert after is not None and len(load_game(after).moves) == 1
    finally:
        await store.close()


async def test_a_skip_that_brings_the_turn_back_restarts_the_late_players_clock(
    service: GameService, store: Store, clock: Clock
) -> None:
    """Two players; the other's tile fits nowhere, so the skipped player is to move again at
    once: they are told so, and their turn starts anew."""
    late, other = await a_tile_that_fits_nowhere_next(service, store)
    await limit_passed(service, clock)
    skipped = await service.command(who(other), "vote skip")
    assert skipped.ok
    text = skipped.public[0].text
    assert text.startswith(f"The players voted to skip: a move is played for {NAMES[late]}. ")
    assert f"{mention(other)}'s tile fits nowhere" in text and f"Next: {mention(late)}" in text
    assert [(d.user_id, d.turn_notice) for d in skipped.direct] == [(late, True)]
    after = await table_of(store)
    assert after is not None and not after.limit_passed and after.votes == {}
    assert after.turn_started == clock.now
    assert await due_at(store, "limit") == clock.now + LIMIT


# --------------------------------------------------------------------------- time


def late_seconds(kind: str) -> tuple[float, float]:
    """How many deadlines of `kind` were fired here, and how late in all (the metrics)."""
    labels = {"kind": kind}
    count = REGISTRY.get_sample_value("fc_deadline_late_seconds_count", labels) or 0.0
    total = REGISTRY.get_sample_value("fc_deadline_late_seconds_sum", labels) or 0.0
    return count, total


async def test_a_reminder_comes_at_its_exact_time_and_counts_as_on_time(
    service: GameService, store: Store, clock: Clock
) -> None:
    table = await seated(service, ["ann", "bob"])
    clock.now += REMIND - 1
    assert await service.fire_due() == []
    clock.now += 1
    count, total = late_seconds("remind")
    [(_, channel, reply)] = await service.fire_due()
    assert channel == CHANNEL and [d.user_id for d in reply.direct] == [current_user(table)]
    assert await due_at(store, "remind") == clock.now + REMIND
    assert late_seconds("remind") == (count + 1, total)  # fired at its time: 0 s late


async def test_a_poll_for_one_platform_fires_its_deadlines_behind_anothers(
    service: GameService, clock: Clock
) -> None:
    """A Discord table's reminder falls due first; the console's poller leaves it to the
    Discord one and still reminds its own player."""
    for user, text in (("u1", "new"), ("u2", "join"), ("u1", "start")):
        assert (await service.command(Actor("discord", "c1", user, user), text)).ok
    clock.now += 60
    table = await seated(service, ["ann", "bob"])
    clock.now += REMIND
    fired = await service.fire_due("console")
    assert [(channel, [d.user_id for d in r.direct]) for _, channel, r in fired] == [
        (CHANNEL, [current_user(table)])
    ]
    [(platform, channel, _)] = await service.fire_due("discord")
    assert (platform, channel) == ("discord", "c1")


async def test_the_news_of_a_table_as_it_stands(service: GameService) -> None:
    table = await seated(service, ["ann", "bob"])
    mover = current_user(table)
    reply = await service.resume("console", CHANNEL)
    [message] = reply.public
    assert message.text == (
        f"The game stands as shown: every move so far is saved. Next: {mention(mover)}."
    )
    assert message.names == {"ann": "Ann", "bob": "Bob"} and message.image
    assert [(d.user_id, d.message.text) for d in reply.direct] == [(mover, YOUR_TURN)]


async def test_start_up_goes_past_an_unreadable_table_listed_first(
    service: GameService, store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    await seated(service, ["ann", "bob"])
    broken = Channel.of("console", "room0")  # listed before room1
    await store.create(
        broken, '{"kind": "no such game"}', creator="x", players=["x"], language="en"
    )
    for kind in ("remind", "limit"):
        assert await store.cancel(ROOM, kind)
    with caplog.at_level(logging.ERROR, logger="bot.service.deadlines"):
        assert await service.restore_deadlines() == 2
    [logged] = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert logged.startswith(f"{broken}: stored table unreadable")


async def test_start_up_goes_past_a_lobby_listed_first(
    service: GameService, store: Store, clock: Clock
) -> None:
    await seated(service, ["ann", "bob"])
    assert (await service.command(who("cid", "room0"), "new")).ok  # no turn: no deadline
    for kind in ("remind", "limit"):
        assert await store.cancel(ROOM, kind)
    assert await service.restore_deadlines() == 2
    assert await due_at(store, "limit") == clock.now + LIMIT
    assert await store.deadline(Channel.of("console", "room0"), "remind") is None


async def test_the_limit_is_announced_in_the_chats_language(
    service: GameService, clock: Clock
) -> None:
    assert (await service.command(who("ann"), "lang fr")).ok
    table = await seated(service, ["ann", "bob"])
    message = await limit_passed(service, clock)
    assert message.text.startswith(
        f"C'est au tour de {mention(current_user(table))} depuis plus de "
    )


async def test_a_deadline_left_by_a_closed_table_fires_nothing_and_goes(
    service: GameService, store: Store, clock: Clock
) -> None:
    gone = Channel.of("console", "room9")
    await store.schedule(gone, "remind", clock.now - 1)
    assert await service.fire_due() == []
    assert await store.deadline(gone, "remind") is None


async def opened(service: GameService, channel: str, users: list[str]) -> None:
    assert (await service.command(who(users[0], channel), "new")).ok
    for user in users[1:]:
        assert (await service.command(who(user, channel), "join")).ok
    assert (await service.command(who(users[0], channel), "start")).ok


class Contested(Store):
    """A store whose next poll is followed at once by another process claiming the first
    deadline it found."""

    rival: Store | None = None

    async def due(self, now: float | None = None, limit: int = 100) -> list[Deadline]:
        found = await super().due(now, limit)
        rival, self.rival = self.rival, None
        if rival is not None:
            assert await rival.lease(found[0], found[0].due + 30) is not None
        return found


async def test_a_deadline_another_process_claimed_does_not_hold_up_the_next(
    redis_url: str, store: Store, clock: Clock
) -> None:
    contested = Contested.from_url(redis_url)
    try:
        service = GameService(contested, settings(), clock=clock, seeds=fixed_seeds())
        await opened(service, "room1", ["ann", "bob"])
        clock.now += 60
        await opened(service, "room2", ["cid", "dan"])
        clock.now += REMIND
        contested.rival = store  # room1's reminder, the earlier, is taken elsewhere
        fired = await service.fire_due()
        assert [(channel, [d.user_id for d in r.direct]) for _, channel, r in fired] == [
            ("room2", [current_user(await table_of(store, "room2"))])  # type: ignore[arg-type]
        ]
    finally:
        await contested.close()


class FlakyRenewals(Store):
    """A store whose first renewal of a claim finds Redis away."""

    failed = False

    async def renew(self, claimed: Deadline, until: float) -> Deadline | None:
        if not self.failed:
            self.failed = True
            raise StoreUnavailable("a moment away")
        return await super().renew(claimed, until)


class Outage(Store):
    """A store whose polls for due deadlines fail while `down`."""

    down = False

    async def due(self, now: float | None = None, limit: int = 100) -> list[Deadline]:
        if self.down:
            raise StoreUnavailable("connection refused")
        return await super().due(now, limit)


async def test_an_outage_is_logged_once_and_so_is_the_stores_return(
    redis_url: str, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    outage = Outage.from_url(redis_url)
    try:
        service = GameService(outage, settings(), clock=clock, seeds=fixed_seeds())
        said: list[list[tuple[int, str]]] = []
        with caplog.at_level(logging.INFO, logger="bot.service.deadlines"):
            for down in (True, True, True, False, False, True, False):
                outage.down = down
                caplog.clear()
                assert await service.fire_due() == []  # polling goes on
                said.append([(r.levelno, r.getMessage()) for r in caplog.records])
        lost = [(logging.WARNING, "deadlines wait for the store: connection refused")]
        back = [(logging.INFO, "the store is back; deadlines fire again")]
        assert said == [lost, [], [], back, [], lost, back]
    finally:
        await outage.close()


class Thinking(Computer):
    """A computer player that thinks until released; then it plays the greedy move."""

    def __init__(self) -> None:
        super().__init__(1, 5.0)
        self.thinking, self.release = asyncio.Event(), asyncio.Event()
        self.asked: list[str] = []

    async def decide(self, game_key: str, level: str, view: Any, seat: str, seed: int) -> Any:
        self.asked.append(seat)
        self.thinking.set()
        await self.release.wait()
        return greedy(game_key, view, seat, seed)


async def computer_to_move(service: GameService, store: Store) -> int:
    """Ann and a computer player, the computer to move (at once: no pause); moves so far."""
    for text in ("new bots:1", "start"):
        assert (await service.command(who("ann"), text)).ok
    table = await table_of(store)
    assert table is not None
    if table.user_of(load_game(table).current).bot is None:
        spot = render.spots(to_play(load_game(table)))[0]
        assert (await service.command(who("ann"), f"play {spot.number} {spot.rotations[0]}")).ok
    return len(load_game(await table_of(store)).moves)  # type: ignore[arg-type]


async def test_a_move_that_leaves_a_computer_to_play_sets_only_its_pause(
    store: Store, clock: Clock
) -> None:
    computer = Thinking()
    computer.release.set()  # it decides at once
    service = GameService(
        store, settings(bot_pause=2), clock=clock, seeds=fixed_seeds(), computer=computer
    )
    for text in ("new bots:1", "start"):
        assert (await service.command(who("ann"), text)).ok
    table = await table_of(store)
    assert table is not None
    if table.user_of(load_game(table).current).bot is not None:
        clock.now += 2
        assert (await service.fire_due())[0][2].public  # the computer plays first
        table = await table_of(store)
        assert table is not None
    clock.now += HOUR
    spot = render.spots(to_play(load_game(table)))[0]
    assert (await service.command(who("ann"), f"play {spot.number} {spot.rotations[0]}")).ok
    # A computer player is neither reminded nor timed: it only waits for its pause.
    assert await due_at(store, "remind") is None and await due_at(store, "limit") is None
    assert await due_at(store, "bot") == clock.now + 2


async def until(check: Callable[[], bool]) -> None:
    """Until `check()` holds: the renewals run every fraction of a second, but a busy
    machine may hold them up for longer."""
    async with asyncio.timeout(30):
        while not check():
            await asyncio.sleep(0.02)


async def renewed_past(store: Store, now: float) -> None:
    """Until the computer's claim has been renewed to end after `now`."""
    async with asyncio.timeout(30):
        while True:
            claim = await store.deadline(ROOM, "bot")
            if claim is not None and claim.due > now:
                return
            await asyncio.sleep(0.02)


async def test_a_claim_is_kept_while_its_work_goes_on_and_let_go_after(
    redis_url: str,
    store: Store,
    clock: Clock,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A computer player thinking for longer than a claim lasts keeps its claim (renewed
    even after a renewal failed): a second process polling meanwhile does not take the turn
    over. Once the work is done nothing renews it any more."""
    monkeypatch.setattr("bot.service.deadlines.CLAIM_LEASE", 0.45)  # renewed every 0.15 s
    slow, other = Thinking(), Thinking()
    other.release.set()
    flaky = FlakyRenewals.from_url(redis_url)
    try:
        pause = settings(bot_pause=0)
        one = GameService(flaky, pause, clock=clock, seeds=fixed_seeds(), computer=slow)
        two = GameService(store, pause, clock=clock, seeds=fixed_seeds(), computer=other)
        moves = await computer_to_move(one, store)
        working = asyncio.create_task(one.fire_due())
        await asyncio.wait_for(slow.thinking.wait(), 30)
        assert await two.fire_due() == []  # claimed: not due again while the claim lasts
        for _ in range(2):
            clock.now += 1  # past the claim as first taken, and as last renewed
            await renewed_past(store, clock.now)
            assert await two.fire_due() == []
        slow.release.set()
        [(_, _, reply)] = await asyncio.wait_for(working, 30)
        assert reply.public and other.asked == []
        assert len(load_game(await table_of(store)).moves) == moves + 1  # type: ignore[arg-type]
        caplog.clear()  # (the work's own save may have ended the claim before it was done)
        with caplog.at_level(logging.WARNING, logger="bot.service.deadlines"):
            await asyncio.sleep(0.3)
        assert caplog.records == []
    finally:
        await flaky.close()


async def test_a_claim_set_anew_meanwhile_is_given_up_and_the_log_says_which(
    store: Store, clock: Clock, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr("bot.service.deadlines.CLAIM_LEASE", 0.3)  # renewed every 0.1 s
    slow = Thinking()
    service = GameService(
        store, settings(bot_pause=0), clock=clock, seeds=fixed_seeds(), computer=slow
    )
    await computer_to_move(service, store)
    working = asyncio.create_task(service.fire_due())
    await asyncio.wait_for(slow.thinking.wait(), 30)
    ended = "the lease of console:room1:bot ended: its deadline was set anew or cancelled"
    with caplog.at_level(logging.DEBUG, logger="bot.service.deadlines"):
        await store.schedule(ROOM, "bot", clock.now + 100)  # as a save elsewhere would
        await until(lambda: any(r.getMessage() == ended for r in caplog.records))
        slow.release.set()
        await asyncio.wait_for(working, 30)
    logged = [(r.levelno, r.getMessage()) for r in caplog.records if "lease" in r.getMessage()]
    # Not lost (it had not run out, nobody else could claim it): a debug line, no warning.
    assert logged == [(logging.DEBUG, ended)]


# --------------------------------------------------------------------------- Die Verbotene Stadt
# Its buttons carry how many actions the game has played: a prompt sent later than the move
# it follows must carry the table's count, or its buttons are refused as out of date.


async def stadt_after_a_move(service: GameService, store: Store) -> tuple[str, str]:
    """A two-player game one move in; (the user to move, the other)."""
    chat = Chat()
    await open_stadt(service, chat, ["ann", "bob"])
    await store_position(store, position(2, ["RR", "KK"], seed=5))
    north = await user_of(store, "north")
    east = await user_of(store, "east")
    assert (await service.command(who(north), "play GG E")).ok
    table = await table_of(store)
    assert table is not None
    game = load_game(table)
    assert len(game.log) > 0 and [t.kind for t in game.to_act] == ["move"]
    mover = await user_of(store, game.to_act[0].seat)
    return mover, east if mover == north else north


async def works(service: GameService, user: str, message: Message) -> None:
    """The first official of a move menu, chosen: its slides are shown, nothing is refused."""
    choice = message.choices[0]
    reply = await service.press(who(user, "dm-" + user, private=True), choice.data)
    assert reply.ok, [m.text for m in reply.private]
    assert reply.private and reply.private[0].buttons


async def test_stadt_prompts_sent_later_carry_working_buttons(
    service: GameService, store: Store, clock: Clock
) -> None:
    mover, _ = await stadt_after_a_move(service, store)
    resumed = await service.resume("console", CHANNEL)
    [notice] = resumed.direct
    assert notice.user_id == mover
    await works(service, mover, notice.message)
    clock.now += REMIND + 1
    [(_, _, reminded)] = await service.fire_due()
    [reminder] = reminded.direct
    assert reminder.user_id == mover
    assert reminder.message.text.startswith("A reminder: the game waits for you.")
    await works(service, mover, reminder.message)


async def test_stadt_back_on_ones_own_turn_brings_a_working_menu(
    service: GameService, store: Store, clock: Clock
) -> None:
    mover, other = await stadt_after_a_move(service, store)
    await limit_passed(service, clock)
    assert (await service.command(who(other), "vote bot")).ok  # one voter: a majority
    back = await service.command(who(mover), "back")
    assert back.ok
    [prompt] = back.private
    assert not prompt.text.startswith("A reminder")
    await works(service, mover, prompt)


async def test_stadt_a_skipped_move_is_told_as_a_vote_not_as_time_running_out(
    service: GameService, store: Store, clock: Clock
) -> None:
    mover, other = await stadt_after_a_move(service, store)
    await limit_passed(service, clock)
    name = (await table_of(store)).seat_of(mover).name  # type: ignore[union-attr]
    skipped = await service.command(who(other), "vote skip")
    assert skipped.ok
    text = skipped.public[0].text
    assert text.startswith(f"The players voted to skip: a move is played for {name}. ")
    assert "Time ran out" not in text


async def test_stadt_a_choice_made_just_as_the_others_are_reminded_does_not_remind_them_again(
    service: GameService, store: Store, clock: Clock
) -> None:
    chat = Chat()
    await open_stadt(service, chat, ["ann", "bob", "cid"])  # all three owe their bribe
    clock.now += REMIND
    [(_, _, reminded)] = await service.fire_due()
    assert sorted(d.user_id for d in reminded.direct) == ["ann", "bob", "cid"]
    await press(service, chat, "ann", chat.button("ann", "vb", "GY").data)  # the same instant
    assert await service.fire_due() == []
    assert await due_at(store, "remind") == clock.now + REMIND
