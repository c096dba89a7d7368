"""A computer player's turn is leased for a short time and renewed while it is worked out:
another process never takes it over while the first works, and takes it over soon after the
first dies, so the move is made once, never lost."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

import bot.service.deadlines as deadlines_module
from bot.config import Settings
from bot.exchange.actor import Actor
from bot.runtime.computer_pool import Computer
from bot.service import GameService
from bot.service.deadlines import Lease
from bot.store import Channel, Deadline, Store
from tests.conftest import fixed_seeds
from tests.tables import load_game
from tests.test_service import Clock
from tests.test_table_bots import CHANNEL, TINY, live

LEASE = 1.2  # seconds, for the test: the service renews every third of it, and a busy
# machine may hold a renewal up for a good part of the rest


class Slow(Computer):
    """Decides as the real one does, after `seconds` of thought."""

    def __init__(self, seconds: float) -> None:
        super().__init__(1, 5.0, TINY)
        self.seconds = seconds
        self.started = asyncio.Event()

    async def decide(self, game_key: str, level: str, view: Any, seat: str, seed: int) -> Any:
        self.started.set()
        await asyncio.sleep(self.seconds)
        return await super().decide(game_key, level, view, seat, seed)


def settings() -> Settings:
    return Settings(_env_file=None, bot_pause=0)  # type: ignore[call-arg, arg-type]


async def _computer_to_play(store: Store, service: GameService) -> int:
    """A table whose first turn is a computer player's; its action count."""
    ann = Actor("console", CHANNEL, "ann", "Ann")
    assert (await service.command(ann, "new bots:1")).ok
    assert (await service.command(ann, "start")).ok
    table = await live(store)
    game = load_game(table)
    if table.user_of(game.current).bot is None:
        pytest.skip("the person plays first with these seeds")
    return len(game.moves)


@pytest.fixture
def short_lease(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(deadlines_module, "CLAIM_LEASE", LEASE)


async def test_a_turn_worked_out_past_its_lease_is_not_taken_over(
    store: Store, short_lease: None
) -> None:
    slow = Slow(seconds=LEASE * 3)
    first = GameService(store, settings(), seeds=fixed_seeds(2), computer=slow)
    other = GameService(store, settings(), seeds=fixed_seeds(2), computer=Slow(0))
    try:
        before = await _computer_to_play(store, first)
        working = asyncio.create_task(first.fire_due())
        await slow.started.wait()
        for _ in range(8):  # the other process polls all along the first one's work
            assert await other.fire_due() == []
            await asyncio.sleep(LEASE / 2)
        fired = await working
    finally:
        slow.close()
        other.computer.close()
    assert [r for _, _, r in fired if r.public]
    assert len(load_game(await live(store)).moves) == before + 1


async def test_a_turn_whose_process_died_is_taken_over_once(
    store: Store, short_lease: None
) -> None:
    slow = Slow(seconds=60)
    first = GameService(store, settings(), seeds=fixed_seeds(2), computer=slow)
    other = GameService(store, settings(), seeds=fixed_seeds(2), computer=Slow(0))
    try:
        before = await _computer_to_play(store, first)
        working = asyncio.create_task(first.fire_due())
        await slow.started.wait()
        working.cancel()  # the first process dies in the middle of its search
        assert await other.fire_due() == []  # its lease still holds
        await asyncio.sleep(LEASE + 0.1)
        fired = await other.fire_due()
        assert [r for _, _, r in fired if r.public]
        assert await other.fire_due() == []
    finally:
        slow.close()
        other.computer.close()
    assert len(load_game(await live(store)).moves) == before + 1


async def _lease_ended(
    store: Store,
    caplog: pytest.LogCaptureFixture,
    meanwhile: Callable[[Store, Clock, Deadline], Awaitable[None]],
) -> logging.LogRecord:
    """A limit claimed as a lease, `meanwhile` done to it before its work starts, and what the
    service logged when it next tried to renew the lease (it tries every third of it)."""
    clock = Clock()
    service = GameService(store, settings(), clock=clock, seeds=fixed_seeds())
    channel = Channel.of("console", "leased")
    deadline = await store.schedule(channel, "limit", clock())
    claimed = await store.lease(deadline, clock() + LEASE)
    assert claimed is not None
    await meanwhile(store, clock, claimed)
    logger = deadlines_module.log.name
    with caplog.at_level(logging.DEBUG, logger=logger):
        async with asyncio.timeout(60), Lease(service.ctx, claimed):
            while not [r for r in caplog.records if r.name == logger]:
                await asyncio.sleep(LEASE / 10)  # until the renewal has been tried
    [logged] = [r for r in caplog.records if r.name == logger]
    return logged


async def _set_for_the_next_turn(store: Store, clock: Clock, claimed: Deadline) -> None:
    await store.schedule(claimed.channel, claimed.kind, clock() + 3600)


async def _cancelled(store: Store, clock: Clock, claimed: Deadline) -> None:
    await store.cancel(claimed.channel, claimed.kind)


@pytest.mark.parametrize("saved", [_set_for_the_next_turn, _cancelled])
async def test_a_lease_ended_by_its_deadline_set_anew_is_no_warning(
    store: Store,
    short_lease: None,
    caplog: pytest.LogCaptureFixture,
    saved: Callable[[Store, Clock, Deadline], Awaitable[None]],
) -> None:
    # As the deadline's own work does when it saves the table with the next turn's deadlines
    # (or none): its lease ends there, as it should.
    logged = await _lease_ended(store, caplog, saved)
    assert (logged.levelno, logged.getMessage()) == (
        logging.DEBUG,
        "the lease of console:leased:limit ended: its deadline was set anew or cancelled",
    )


async def _taken_over(store: Store, clock: Clock, claimed: Deadline) -> None:
    clock.now = claimed.due + 1  # the lease ran out (a stalled process) ...
    assert await store.lease(claimed, clock() + LEASE) is not None  # ... and another took it


async def test_a_lease_that_ran_out_and_was_taken_over_is_a_warning(
    store: Store, short_lease: None, caplog: pytest.LogCaptureFixture
) -> None:
    logged = await _lease_ended(store, caplog, _taken_over)
    assert (logged.levelno, logged.getMessage()) == (
        logging.WARNING,
        "the lease of console:leased:limit was lost: it ran out before it was renewed",
    )
