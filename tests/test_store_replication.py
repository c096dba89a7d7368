"""A saved move waits until a replica has it (WAIT on the connection that wrote it), so a
failover cannot lose a move the players were told of; a late replica never fails a move."""

from __future__ import annotations

import logging
import os
import signal
import time

import pytest
import redis

from bot.store import Channel, Store
from tests.conftest import Pair
from tests.redis_cluster import LocalCluster

CHAN = Channel.of("discord", 42)


def waits(port: int) -> int:
    """How many WAIT commands the server on `port` has run."""
    with redis.Redis(port=port, decode_responses=True) as client:
        stats = client.info("commandstats")
    return int(stats.get("cmdstat_wait", {}).get("calls", 0))


def version_on(port: int, *, cluster: bool = False) -> str | None:
    with redis.Redis(port=port, decode_responses=True) as client:
        if cluster:
            client.execute_command("READONLY")  # a cluster replica answers for its master's keys
        value = client.hget(CHAN.game_key, "version")
    return None if value is None else str(value)


async def test_without_a_replica_a_save_does_not_wait(store: Store, redis_url: str) -> None:
    await store.create(CHAN, "{}", creator=1, players=[1], language="en")
    for version in range(1, 6):
        assert await store.save(CHAN, "{}", version) == version + 1
    assert "cmdstat_wait" not in await store.client.info("commandstats")


async def test_a_save_returns_once_the_replica_has_it(
    replicated: Pair,
) -> None:
    master, replica = replicated
    store = Store.from_url(master.url, replica_wait=5.0)
    try:
        await store.create(CHAN, "{}", creator=1, players=[1], language="en")
        assert await store.save(CHAN, "{1}", 1) == 2
        assert version_on(replica.port) == "2"
        before = waits(master.port)
        assert await store.save(CHAN, "{2}", 2) == 3
        assert version_on(replica.port) == "3"
        assert waits(master.port) == before + 1
    finally:
        await store.close()


async def test_a_late_replica_never_fails_a_move(
    replicated: Pair, caplog: pytest.LogCaptureFixture
) -> None:
    master, replica = replicated
    first = Store.from_url(master.url)  # another process: its save loads the script
    store = Store.from_url(master.url, replica_wait=0.2)
    try:
        await first.create(CHAN, "{}", creator=1, players=[1], language="en")  # waited there
        assert await first.save(CHAN, "{1}", 1) == 2
        assert replica.pid is not None
        # Stopped before this store's first save: whether a healthy replica acknowledges
        # within 0.2 s is up to the machine, a stopped one never does.
        os.kill(replica.pid, signal.SIGSTOP)  # alive to the master, but acknowledges nothing
        before = waits(master.port)
        caplog.clear()  # whatever the other process logged
        with caplog.at_level(logging.WARNING, logger="bot.store"):
            started = time.monotonic()
            assert await store.save(CHAN, "{2}", 2) == 3
            assert time.monotonic() - started >= 0.2  # waited for the replica, in vain
        assert waits(master.port) == before + 1
        assert [r.getMessage() for r in caplog.records if "no replica" in r.getMessage()] == [
            "no replica of the Redis master acknowledged a saved move within 200 ms (0): "
            "moves on it are not waited for until the next check"
        ]
        assert await store.save(CHAN, "{3}", 3) == 4  # not waited for again
        assert waits(master.port) == before + 1
        os.kill(replica.pid, signal.SIGCONT)
        loaded = await store.load(CHAN)
        assert loaded is not None and (loaded.version, loaded.data) == (4, "{3}")
    finally:
        await store.close()
        await first.close()


async def test_on_a_cluster_the_keys_master_waits_for_its_replica(cluster: LocalCluster) -> None:
    store = Store.from_url(cluster.url, replica_wait=5.0)
    try:
        await store.create(CHAN, "{}", creator=1, players=[1], language="en")
        master = cluster.master_of(CHAN.game_key)
        replica = cluster.replica_of(master)
        others = [s for s in cluster.running() if s is not master]
        assert await store.save(CHAN, "{1}", 1) == 2  # loads the script on the master
        assert version_on(replica.port, cluster=True) == "2"
        before = waits(master.port), [waits(s.port) for s in others]
        assert await store.save(CHAN, "{2}", 2) == 3
        assert version_on(replica.port, cluster=True) == "3"
        assert await store.save(CHAN, "{3}", 3) == 4
        assert version_on(replica.port, cluster=True) == "4"
        assert (waits(master.port), [waits(s.port) for s in others]) == (before[0] + 2, before[1])
    finally:
        await store.close()
