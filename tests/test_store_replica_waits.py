"""What a store waits for after it writes: one WAIT for a replica per write, the first save
of a store (a script Redis has not cached yet) included, and a new table is on the replica
before `/fc new` is answered, so a failover right after cannot make it vanish."""

from __future__ import annotations

import asyncio
import time

import pytest
import redis

from bot.local_redis.server import RedisServer
from bot.store import Channel, Store
from bot.store.connecting import Replicas
from tests.conftest import Pair, RedisServerFactory
from tests.redis_cluster import LocalCluster

CHAN = Channel.of("discord", 42)


def waits(port: int) -> int:
    """How many WAIT commands the server on `port` has run."""
    with redis.Redis(port=port, decode_responses=True) as client:
        stats = client.info("commandstats")
    return int(stats.get("cmdstat_wait", {}).get("calls", 0))


def version_on(port: int, *, cluster: bool = False) -> str | None:
    """The table's version as the server on `port` (a replica) holds it."""
    with redis.Redis(port=port, decode_responses=True) as client:
        if cluster:
            client.execute_command("READONLY")  # a cluster replica answers for its master's keys
        value = client.hget(CHAN.game_key, "version")
    return None if value is None else str(value)


def restarted_scripts(port: int) -> None:
    """The master forgets its cached scripts, as a restarted Redis has."""
    with redis.Redis(port=port, decode_responses=True) as client:
        assert client.script_flush()


async def test_the_first_save_after_a_start_waits_for_the_replica_once(
    replicated: Pair,
) -> None:
    master, replica = replicated
    restarted_scripts(master.port)
    store = Store.from_url(master.url, replica_wait=5.0)
    try:
        await store.create(CHAN, "{}", creator=1, players=[1], language="en")
        before = waits(master.port)
        assert await store.save(CHAN, "{1}", 1) == 2
        assert waits(master.port) == before + 1
        assert version_on(replica.port) == "2"
        assert await store.save(CHAN, "{2}", 2) == 3  # and every save after it, once
        assert waits(master.port) == before + 2
    finally:
        await store.close()


async def test_a_new_table_is_on_the_replica_when_create_returns(replicated: Pair) -> None:
    master, replica = replicated
    store = Store.from_url(master.url, replica_wait=5.0)
    try:
        before = waits(master.port)
        await store.create(CHAN, "{}", creator=1, players=[1], language="en")
        assert waits(master.port) == before + 1
        assert version_on(replica.port) == "1"
    finally:
        await store.close()


async def test_on_a_cluster_a_new_table_and_its_first_save_wait_once_each(
    cluster: LocalCluster,
) -> None:
    for server in cluster.running():
        with redis.Redis(port=server.port, decode_responses=True) as client:
            if client.info("replication")["role"] == "master":
                assert client.script_flush()
    store = Store.from_url(cluster.url, replica_wait=5.0)
    try:
        master = cluster.master_of(CHAN.game_key)
        replica = cluster.replica_of(master)
        before = waits(master.port)
        await store.create(CHAN, "{}", creator=1, players=[1], language="en")
        assert waits(master.port) == before + 1
        assert version_on(replica.port, cluster=True) == "1"
        assert await store.save(CHAN, "{1}", 1) == 2
        assert waits(master.port) == before + 2
        assert version_on(replica.port, cluster=True) == "2"
    finally:
        await store.close()


def role(port: int) -> str:
    with redis.Redis(port=port, decode_responses=True) as client:
        return str(client.info("replication")["role"])


def hand_over(replica: RedisServer, master: RedisServer, timeout: float = 60.0) -> None:
    """The replica takes over (`CLUSTER FAILOVER TAKEOVER`), until both have swapped."""
    with redis.Redis(port=replica.port, decode_responses=True) as client:
        assert client.execute_command("CLUSTER FAILOVER", "TAKEOVER")
    deadline = time.monotonic() + timeout
    while not (role(replica.port) == "master" and role(master.port) == "slave"):
        assert time.monotonic() < deadline, (role(replica.port), role(master.port))
        time.sleep(0.05)
    with redis.Redis(port=replica.port, decode_responses=True) as client:
        while int(client.info("replication").get("connected_slaves", 0)) < 1:
            assert time.monotonic() < deadline, "the old master did not follow"
            time.sleep(0.05)


async def test_a_master_that_was_a_replica_for_a_while_is_waited_on_again(
    own_cluster: LocalCluster,
) -> None:
    """A WAIT refused because its node had just become a replica says nothing about that
    node's replicas: once it is a master again, the next write waits there as before."""
    store = Store.from_url(own_cluster.url, replica_wait=5.0)
    try:
        await store.create(CHAN, "{}", creator=1, players=[1], language="en")
        master = own_cluster.master_of(CHAN.game_key)
        replica = own_cluster.replica_of(master)
        hand_over(replica, master)
        assert await store.save(CHAN, "{1}", 1) == 2  # its WAIT went to the old master
        hand_over(master, replica)
        before = waits(master.port)
        assert await store.save(CHAN, "{2}", 2) == 3
        assert waits(master.port) == before + 1
        assert version_on(replica.port, cluster=True) == "3"
    finally:
        await store.close()


async def test_a_deadline_claimed_renewed_and_done_is_on_the_replica_each_time(
    replicated: Pair,
) -> None:
    """A claim, its renewal and its end are each waited for: one lost in a failover would let
    another process claim the deadline again and do its work twice."""
    master, _ = replicated
    store = Store.from_url(master.url, replica_wait=5.0)
    try:
        await store.create(CHAN, "{}", creator=1, players=[1], language="en")
        assert await store.save(CHAN, "{1}", 1, deadlines={"remind": 100.0}) == 2
        [due] = await store.due(now=1000.0)
        before = waits(master.port)
        claimed = await store.lease(due, 2000.0)
        assert claimed is not None
        assert waits(master.port) == before + 1
        renewed = await store.renew(claimed, 3000.0)
        assert renewed is not None
        assert waits(master.port) == before + 2
        assert await store.done(renewed) is True
        assert waits(master.port) == before + 3
    finally:
        await store.close()


async def test_a_master_without_a_replica_is_waited_on_soon_after_one_joins(
    redis_server_factory: RedisServerFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A master found without a replica (a new master, just promoted, whose old one is still
    coming back) is asked again within a second or so, not after `REFRESH`: the moves of
    the next half minute are waited for once its replica is there."""
    monkeypatch.setattr(Replicas, "REFRESH", 60.0)
    master = redis_server_factory(tcp=True, extra_args=("--repl-diskless-sync-delay", "0"))
    master.start()
    store = Store.from_url(master.url, replica_wait=5.0)
    try:
        await store.create(CHAN, "{}", creator=1, players=[1], language="en")
        assert await store.save(CHAN, "{1}", 1) == 2
        assert waits(master.port) == 0  # no replica: nothing to wait for
        replica = redis_server_factory(
            tcp=True, extra_args=("--replicaof", "127.0.0.1", str(master.port))
        )
        replica.start()
        with redis.Redis(port=master.port, decode_responses=True) as client:
            while client.info("replication").get("slave0", {}).get("state") != "online":
                time.sleep(0.05)
        version, deadline = 2, time.monotonic() + 20  # a third of REFRESH
        while waits(master.port) == 0:
            assert time.monotonic() < deadline, "the new replica was never waited for"
            version = await store.save(CHAN, "{}", version)
            await asyncio.sleep(0.1)
        assert version_on(replica.port) == str(version)
    finally:
        await store.close()
