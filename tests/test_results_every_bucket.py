"""Work spread over the store's buckets is found in every one of them: the sweep rates a result
left unrated whatever bucket its channel hashes to, and a deadline comes due in any bucket, the
first and the last included. Against a real redis-server and a cluster."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.records.finished import Result, ResultSeat
from bot.service import GameService
from bot.service import results as kept
from bot.store import BUCKETS, Channel, Store
from tests.conftest import fixed_seeds
from tests.test_service import Clock, settings

BACKENDS = ("single", "cluster")
KIND = "forbidden_city"
EDGES = (0, 1, BUCKETS - 2, BUCKETS - 1)


@pytest.fixture
async def service(store: Store) -> AsyncIterator[GameService]:
    made = GameService(store, settings(), clock=Clock(), seeds=fixed_seeds())
    yield made
    made.computer.close()


def room_in(bucket: int) -> Channel:
    """A console channel whose keys lie in `bucket`."""
    return next(
        channel
        for number in range(100_000)
        if (channel := Channel.of("console", f"room{number}")).bucket == bucket
    )


def two_player_result(number: int, channel: Channel) -> Result:
    seats = [
        ResultSeat(seat="A", name=f"Winner{number}", user_id=f"w{number}", score=60, place=1),
        ResultSeat(seat="B", name=f"Loser{number}", user_id=f"l{number}", score=50, place=2),
    ]
    return Result(
        id=f"{number:08x}" + "0" * 24,
        kind=KIND,
        ended=1_000.0 + number,
        platform=channel.platform,
        channel=channel.channel_id,
        community="guild1",
        moves=56,
        seats=seats,
        record={},
    )


async def left_unrated(store: Store, result: Result) -> None:
    """A result as an archive step leaves it when its process dies before rating it: kept,
    listed in its channel and in its bucket's unrated set."""
    channel = Channel.of(result.platform, result.channel)
    await store.client.set(channel.result_key(result.id), result.model_dump_json())
    await store.client.zadd(channel.results_key, {result.ref: result.ended})
    await store.client.sadd(channel.unrated_key, result.ref)


async def test_the_sweep_rates_results_left_unrated_in_every_bucket(
    service: GameService, store: Store
) -> None:
    results = [two_player_result(n, room_in(bucket)) for n, bucket in enumerate(EDGES)]
    for result in results:
        await left_unrated(store, result)
    assert await store.unrated() == sorted(r.ref for r in results)
    assert await kept.sweep(service.ctx) == len(EDGES)
    assert await store.unrated() == []
    for n in range(len(EDGES)):
        rated = await store.players(KIND, [f"console:w{n}", f"console:l{n}"])
        assert rated[f"console:w{n}"].games == rated[f"console:l{n}"].games == 1
        assert rated[f"console:w{n}"].wins == 1 and rated[f"console:l{n}"].wins == 0


async def test_a_deadline_comes_due_in_every_bucket(store: Store) -> None:
    rooms = [room_in(bucket) for bucket in EDGES]
    for n, room in enumerate(rooms):
        await store.schedule(room, "limit", 100.0 + n)
    due = await store.due(now=200.0)
    assert [d.channel for d in due] == rooms  # earliest first
    for deadline in due:
        assert await store.claim(deadline)
