"""The lease one process holds to poll Telegram, in the store: taken when free, renewed by its
holder, given back only by the process that still holds it, and, when taken, how long the job
went without a holder and whether the last one gave it back or its lease ran out."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest
import redis.asyncio as aioredis

from bot.store import Store

BACKENDS = ("single", "cluster")
Clock = Callable[[], Awaitable[float]]


@pytest.fixture
async def redis_clock(redis_url: str) -> AsyncIterator[Clock]:
    """Redis's own clock (TIME), the one the lease is timed by, in seconds."""
    client = aioredis.Redis.from_url(redis_url)  # one node is enough to ask the time

    async def now() -> float:
        seconds, micros = await client.time()
        return seconds + micros / 1e6

    yield now
    await client.aclose()


async def after_a_second(clock: Clock) -> float:
    """Wait until Redis's clock has moved on a second; the time then, by that clock."""
    start = await clock()
    while (now := await clock()) < start + 1:
        await asyncio.sleep(0.05)
    return now


async def test_a_lease_is_given_back_only_by_the_process_that_holds_it(store: Store) -> None:
    first = await store.hold("job", "one", 30)
    assert first is not None and first.taken and first.idle is None  # never held before
    assert await store.hold("job", "two", 30) is None
    renewed = await store.hold("job", "one", 30)
    assert renewed is not None and not renewed.taken
    await store.let_go("job", "two")  # not its lease: nothing changes
    assert await store.hold("job", "two", 30) is None
    await store.let_go("job", "one")
    taken = await store.hold("job", "two", 30)
    assert taken is not None and taken.taken and taken.handed_back
    assert taken.idle is not None and 0 <= taken.idle < 30


async def test_a_lease_that_ran_out_is_not_given_back_by_its_old_holder(store: Store) -> None:
    assert await store.hold("job", "one", 0.2) is not None

    async def taken() -> bool:
        return await store.hold("job", "two", 30) is not None

    while not await taken():  # "one" stopped renewing: its lease runs out
        await asyncio.sleep(0.05)
    await store.let_go("job", "one")  # too late: "two" holds it now
    assert await store.hold("job", "three", 30) is None
    kept = await store.hold("job", "two", 30)
    assert kept is not None and not kept.taken


async def test_taking_a_lease_that_ran_out_tells_how_long_the_job_went_without_a_holder(
    store: Store,
) -> None:
    assert await store.hold("job", "one", 0.3) is not None
    while (taken := await store.hold("job", "two", 30)) is None:
        await asyncio.sleep(0.05)
    assert taken.taken and not taken.handed_back
    assert taken.idle is not None and taken.idle >= 0.3


async def test_the_time_without_a_holder_runs_from_the_hand_back(
    store: Store, redis_clock: Clock
) -> None:
    start = await redis_clock()
    assert await store.hold("job", "one", 30) is not None
    await after_a_second(redis_clock)
    await store.let_go("job", "one")
    taken = await store.hold("job", "two", 30)
    since_start = await redis_clock() - start
    assert taken is not None and taken.handed_back and taken.idle is not None
    assert taken.idle <= since_start - 1  # not from when "one" took the lease


async def test_the_time_without_a_holder_runs_from_the_last_renewal(
    store: Store, redis_clock: Clock
) -> None:
    start = await redis_clock()
    assert await store.hold("job", "one", 30) is not None
    await after_a_second(redis_clock)
    renewed = await store.hold("job", "one", 0.3)  # renewed, to run out soon
    assert renewed is not None and not renewed.taken
    while (taken := await store.hold("job", "two", 30)) is None:
        await asyncio.sleep(0.05)
    since_start = await redis_clock() - start
    assert not taken.handed_back and taken.idle is not None
    assert 0.3 <= taken.idle <= since_start - 1  # from the renewal, not from the take
