"""A master of the cluster dies mid-game: calls on its tables say the store is unavailable
(nothing changed) until its replica is promoted, then the same store carries on, every
acknowledged move still there. A cluster of its own, as this one is left with a dead node."""

from __future__ import annotations

import json
import os
import signal
import time

import pytest
import redis

from bot.store import Channel, Deadline, GameRecord, Store, StoreUnavailable
from tests.procs import wait_gone
from tests.redis_cluster import LocalCluster

CHAN = Channel.of("discord", 42)


def record(n: int) -> str:
    return json.dumps({"move": n})


async def load_once_back(store: Store, timeout: float = 30.0) -> GameRecord | None:
    """The first load that works, retried while the store is unavailable."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return await store.load(CHAN)
        except StoreUnavailable:
            assert time.monotonic() < deadline, "the store did not come back"


async def test_a_failover_loses_no_stored_move(own_cluster: LocalCluster) -> None:
    # A save waits up to 0.8 s for the replica (0.1 s by default), so a busy machine cannot
    # turn the copy this test relies on into a skipped one.
    store = Store.from_url(own_cluster.url, timeout=1.0, retries=1, replica_wait=0.8)
    try:
        await store.create(CHAN, record(0), creator=1, players=[1, 2], language="en")
        for move in range(1, 6):
            await store.save(CHAN, record(move), move, deadlines={"remind": 100.0 + move})
        master = own_cluster.master_of(CHAN.game_key)
        replica = own_cluster.replica_of(master)
        assert master.pid is not None
        os.kill(master.pid, signal.SIGKILL)
        assert wait_gone(master.pid)

        for _ in range(3):
            started = time.monotonic()
            with pytest.raises(StoreUnavailable):
                await store.load(CHAN)
            with pytest.raises(StoreUnavailable):
                await store.save(CHAN, record(99), 6)
            with pytest.raises(StoreUnavailable):
                await store.due(now=1000.0)
            assert time.monotonic() - started < 15

        with redis.Redis(port=replica.port, decode_responses=True) as promoted:
            assert promoted.execute_command("CLUSTER FAILOVER", "TAKEOVER")
        loaded = await load_once_back(store)
        assert loaded is not None
        assert (loaded.version, loaded.data, loaded.players) == (6, record(5), ("1", "2"))
        assert await store.deadline(CHAN, "remind") == Deadline(CHAN, "remind", 105.0)

        assert await store.save(CHAN, record(6), 6, deadlines={"remind": 200.0}) == 7
        assert await store.due(now=1000.0) == [Deadline(CHAN, "remind", 200.0)]
        assert await store.claim(Deadline(CHAN, "remind", 200.0)) is True
        assert await store.user_games("discord", 2) == [CHAN]
        assert own_cluster.master_of(CHAN.game_key).port == replica.port
    finally:
        await store.close()
