"""Turns as the players see them, against a real redis-server: races between two clicks or
two processes, votes past the time limit, private turn notices, tiles that fit nowhere, and
what the channel sees once a game has ended."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from typing import Any

import pytest

import render.forbidden_city as render
from bot.exchange.actor import Actor
from bot.exchange.replies import Reply, mention
from bot.service import GameService
from bot.store import Channel, Deadline, GameRecord, Store
from engine.forbidden_city import DISCARD, Game
from tests.conftest import fixed_seeds
from tests.tables import keep, load_game
from tests.test_saved_moves import one_move_from_the_end, play_first_spot
from tests.test_service import CHANNEL, Clock, current_user, is_png, seated, settings, table_of, who
from tests.views import to_play

HOUR = 3600.0
ROOM = Channel.of("console", CHANNEL)


class Paired(Store):
    """A store whose next `reads` calls of `load` (or `due`) after `pair` each wait until
    the barrier's other parties have read too. With `ordered`, all but the first party then
    wait until a save has been done: read-read-write-write, the second write strictly after
    the first."""

    barrier: asyncio.Barrier | None = None
    paired = ""
    reads = 0
    ordered = False

    def pair(
        self, barrier: asyncio.Barrier, what: str, reads: int = 1, ordered: bool = False
    ) -> None:
        self.barrier, self.paired, self.reads, self.ordered = barrier, what, reads, ordered
        self._saved = asyncio.Event()

    async def _hold(self, what: str) -> None:
        barrier = self.barrier
        if barrier is not None and what == self.paired and self.reads > 0:
            self.reads -= 1
            index = await asyncio.wait_for(barrier.wait(), 30)
            if self.ordered and index != 0:
                await asyncio.wait_for(self._saved.wait(), 30)

    async def save(self, *args: Any, **kwargs: Any) -> int:
        try:
            return await super().save(*args, **kwargs)
        finally:
            if self.barrier is not None:
                self._saved.set()

    async def load(self, channel: Channel) -> GameRecord | None:
        record = await super().load(channel)
        await self._hold("load")
        return record

    async def due(self, now: float | None = None, limit: int = 100) -> list[Deadline]:
        found = await super().due(now, limit)
        await self._hold("due")
        return found


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def paired(redis_url: str) -> AsyncIterator[list[Paired]]:
    stores = [Paired.from_url(redis_url), Paired.from_url(redis_url)]
    yield stores
    for each in stores:
        await each.close()


@pytest.fixture
def service(store: Store, clock: Clock) -> GameService:
    return GameService(store, settings(), clock=clock, seeds=fixed_seeds())


def said(reply: Reply) -> str:
    return " | ".join(m.text for m in [*reply.public, *reply.private])


async def past_the_limit(service: GameService, clock: Clock) -> None:
    clock.now += 72 * HOUR + 1
    fired = await service.fire_due()
    assert any("vote" in m.text for _, _, r in fired for m in r.public)


async def moves(store: Store) -> list[str]:
    table = await table_of(store)
    assert table is not None and table.game is not None
    return [str(m) for m in load_game(table).moves]


def waiting(users: list[str], table_user: str) -> list[str]:
    return [u for u in users if u != table_user]


# --------------------------------------------------------------------------- races


async def test_two_joins_read_before_either_saves_one_wins_none_is_lost(
    paired: list[Paired], clock: Clock
) -> None:
    store = paired[0]
    service = GameService(store, settings(), clock=clock, seeds=fixed_seeds())
    assert (await service.command(who("ann"), "new")).ok
    store.pair(asyncio.Barrier(2), "load", reads=2, ordered=True)
    bob, cid = await asyncio.gather(
        service.command(who("bob"), "join"), service.command(who("cid"), "join")
    )
    assert sorted([bob.ok, cid.ok]) == [False, True]
    loser = cid if bob.ok else bob
    assert "Someone was quicker" in said(loser)
    table = await table_of(store)
    assert table is not None
    assert [s.user_id for s in table.seats] == ["ann", "bob" if bob.ok else "cid"]


async def test_two_different_moves_read_before_either_saves_apply_once(
    paired: list[Paired], clock: Clock
) -> None:
    store = paired[0]
    service = GameService(store, settings(), clock=clock, seeds=fixed_seeds())
    table = await seated(service, ["ann", "bob"])
    mover = current_user(table)
    first, second = render.spots(to_play(load_game(table)))[:2]
    store.pair(asyncio.Barrier(2), "load", reads=2, ordered=True)
    replies = await asyncio.gather(
        service.command(who(mover), f"play {first.x},{first.y} {first.rotations[0]}"),
        service.command(who(mover), f"play {second.x},{second.y} {second.rotations[0]}"),
    )
    assert [r.ok for r in replies].count(True) == 1
    won = first if replies[0].ok else second
    assert await moves(store) == [f"{won.x},{won.y}@{won.rotations[0]}"]


async def test_two_processes_reading_the_same_due_reminder_send_it_once(
    paired: list[Paired], clock: Clock
) -> None:
    one, two = (GameService(s, settings(), clock=clock, seeds=fixed_seeds()) for s in paired)
    table = await seated(one, ["ann", "bob"])
    clock.now += 12 * HOUR + 1
    barrier = asyncio.Barrier(2)
    for each in paired:
        each.pair(barrier, "due")
    fired = await asyncio.gather(one.fire_due(), two.fire_due())
    sent = [d.user_id for batch in fired for _, _, r in batch for d in r.direct]
    assert sent == [current_user(table)]


# --------------------------------------------------------------------------- votes


@pytest.mark.parametrize("players", [3, 4])
async def test_a_skip_needs_more_than_half_of_the_waiting_players(
    service: GameService, store: Store, clock: Clock, players: int
) -> None:
    users = ["ann", "bob", "cid", "dan"][:players]
    table = await seated(service, users)
    absent = current_user(table)
    voters = waiting(users, absent)
    await past_the_limit(service, clock)
    first = await service.command(who(voters[0]), "vote skip")
    assert first.ok and f"(1/{players - 1})" in said(first)
    assert await moves(store) == []
    second = await service.command(who(voters[1]), "vote skip")
    assert second.ok and "voted to skip" in said(second)
    assert is_png(second.public[0].image)
    assert len(await moves(store)) == 1
    after = await table_of(store)
    assert after is not None and current_user(after) != absent


async def test_split_votes_decide_nothing(service: GameService, store: Store, clock: Clock) -> None:
    users = ["ann", "bob", "cid"]
    table = await seated(service, users)
    voters = waiting(users, current_user(table))
    await past_the_limit(service, clock)
    assert "(1/2)" in said(await service.command(who(voters[0]), "vote skip"))
    assert "(1/2)" in said(await service.command(who(voters[1]), "vote end"))
    assert await moves(store) == [] and await table_of(store) is not None


async def test_ending_by_vote_names_the_winner_and_posts_the_final_table(
    service: GameService, store: Store, clock: Clock
) -> None:
    users = ["ann", "bob", "cid"]
    table = await seated(service, users)
    absent = current_user(table)
    voters = waiting(users, absent)
    await past_the_limit(service, clock)
    first = await service.command(who(voters[0]), "vote end")
    assert first.ok and "(1/2)" in said(first) and await table_of(store) is not None
    ended = await service.command(who(voters[1]), "vote end")
    assert ended.ok
    [public] = ended.public
    assert "voted to end" in public.text and "Winner" in public.text
    # Nobody has coins before a move: all share the victory.
    assert all(mention(u) in public.text.split("Winner")[1] for u in users)
    assert is_png(public.image)
    assert await store.load(ROOM) is None
    board = await service.command(who("bob"), "board")
    assert board.ok and "voted to end" in board.public[0].text and is_png(board.public[0].image)
    late = await service.command(who(absent), "play 1 0")
    assert not late.ok and "over" in said(late)


async def test_a_move_clears_the_votes_and_the_limit(
    service: GameService, store: Store, clock: Clock
) -> None:
    users = ["ann", "bob", "cid"]
    table = await seated(service, users)
    game = load_game(table)
    order = [table.user_of(c).user_id for c in game.players]  # turn order
    await past_the_limit(service, clock)
    assert "(1/2)" in said(await service.command(who(order[1]), "vote skip"))
    assert (await play_first_spot(service, order[0])).ok
    refused = await service.command(who(order[2]), "vote skip")
    assert not refused.ok and "time limit" in said(refused)
    await past_the_limit(service, clock)
    again = await service.command(who(order[2]), "vote skip")
    assert again.ok and "(1/2)" in said(again)  # the earlier vote was for another turn
    assert len(await moves(store)) == 1


async def test_a_restart_does_not_announce_a_passed_limit_again(
    service: GameService, store: Store, clock: Clock
) -> None:
    await seated(service, ["ann", "bob"])
    await past_the_limit(service, clock)
    restarted = GameService(store, settings(), clock=clock)
    await restarted.restore_deadlines()
    assert await store.deadline(ROOM, "limit") is None
    clock.now += 1
    fired = await restarted.fire_due()
    assert not [m for _, _, r in fired for m in r.public]


# --------------------------------------------------------------------------- notices


async def test_notify_off_silences_turn_notices_and_reminders_for_that_player_only(
    service: GameService, store: Store, clock: Clock
) -> None:
    table = await seated(service, ["ann", "bob"])
    mover = current_user(table)
    other = "bob" if mover == "ann" else "ann"
    assert (await service.command(who(other), "notify off")).ok
    played = await play_first_spot(service, mover)
    assert played.ok and mention(other) in played.public[0].text  # still named in the channel
    assert played.direct == []
    clock.now += 12 * HOUR + 1
    assert await service.fire_due() == []
    assert (await service.command(who(other), "notify on")).ok
    clock.now += 12 * HOUR + 1
    fired = await service.fire_due()
    assert [d.user_id for _, _, r in fired for d in r.direct] == [other]
    back = await play_first_spot(service, other)
    assert [d.user_id for d in back.direct] == [mover]  # the other player was never silenced


async def a_tile_that_fits_nowhere_next(service: GameService, store: Store) -> tuple[str, str]:
    """Ann and Bob at a table where, after one move each, the first player's next tile (pink)
    fits nowhere: all-open green tiles leave only green edges. (Every seat holds the same 30
    tiles, as a stored record must.) Returns the user ids in turn order."""
    await seated(service, ["ann", "bob"])
    record = await store.load(ROOM)
    table = await table_of(store)
    assert record is not None and table is not None
    colours = load_game(table).players
    stacks = [["....G"] * 29 + ["....P"], ["....G", "....P"] + ["....G"] * 28]
    game = Game(colours, start="none", stacks=stacks)
    for _ in range(2):
        game.play(game.legal_moves()[0])
    keep(table, game)
    await store.save(ROOM, table.model_dump_json(), record.version)
    first, second = (table.user_of(c).user_id for c in colours)
    return first, second


async def test_a_tile_that_fits_nowhere_is_set_aside_and_the_turn_passes_on(
    service: GameService, store: Store
) -> None:
    first, second = await a_tile_that_fits_nowhere_next(service, store)
    reply = await play_first_spot(service, first)
    assert reply.ok, said(reply)
    text = reply.public[0].text
    assert f"{mention(second)}'s tile fits nowhere" in text and f"Next: {mention(first)}" in text
    assert [d.user_id for d in reply.direct] == [first]
    assert (await moves(store))[3:] == ["discard"]


# --------------------------------------------------------------------------- the end


async def test_after_the_end_the_board_shows_it_and_a_late_move_is_told_the_game_is_over(
    service: GameService, store: Store
) -> None:
    mover = await one_move_from_the_end(service, store)
    other = "bob" if mover == "ann" else "ann"
    last = await play_first_spot(service, mover)
    assert last.ok and "Game over" in last.public[0].text
    board = await service.command(who(other), "board")
    assert board.ok and "Game over" in board.public[0].text and "Winner" in board.public[0].text
    assert is_png(board.public[0].image)
    for actor, text in ((who(other), "play 1 0"), (who(mover), "hand")):
        late = await service.command(actor, text)
        assert not late.ok and "game here is over" in said(late), said(late)
    pressed = await service.press(Actor("console", "dm", other, "X"), f"fc:ok:{CHANNEL}:2:1,0@0")
    assert not pressed.ok and "over" in said(pressed)
    aborted = await service.command(who("zed", "room9"), "board")
    assert not aborted.ok and "no table" in said(aborted)


async def test_a_deadline_left_from_an_earlier_turn_waits_for_this_turns_time(
    service: GameService, store: Store, clock: Clock
) -> None:
    table = await seated(service, ["ann", "bob"])
    clock.now += 10 * HOUR
    assert (await play_first_spot(service, current_user(table))).ok
    moved_at = clock.now
    await store.schedule(ROOM, "limit", moved_at - 1)  # as a Redis restored from an old save
    assert await service.fire_due() == []
    limit = await store.deadline(ROOM, "limit")
    assert limit is not None and limit.due == moved_at + 72 * HOUR


async def test_no_new_tile_after_a_players_last_placement(store: Store) -> None:
    """Each seat keeps its last two tiles for the end: after its last placement it is shown no
    'new tile' it will never play."""
    service = GameService(store, settings(), seeds=lambda: 3)
    for user, text in (("ann", "new"), ("bob", "join"), ("ann", "start")):
        assert (await service.command(who(user), text)).ok
    rng = random.Random(5)
    told_after: list[int] = []
    while True:
        table = await table_of(store)
        if table is None:
            break
        game = load_game(table)
        mover = game.current
        move = rng.choice([m for m in game.legal_moves() if m != DISCARD])
        user = table.user_of(mover).user_id
        reply = await service.command(who(user), f"play {move.x},{move.y} {move.rotation}")
        assert reply.ok, reply.private
        if any(m.text == "Your new tile." for m in reply.private):
            told_after.append(game.tiles_left(mover) - 1)
    assert told_after and min(told_after) > 2  # never once the seat is down to its last two
