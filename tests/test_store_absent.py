"""A table read as absent on a Redis Cluster is believed only when the cluster agrees that the
node which answered holds the table's slot; otherwise the store says "try again"."""

from __future__ import annotations

import os
import signal

import pytest
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import ClusterError

from bot.store import Channel, Store, StoreUnavailable
from bot.store.settled import confirm_absent
from tests.procs import wait_gone
from tests.redis_cluster import LocalCluster

CHAN = Channel.of("discord", 42)


async def test_an_absent_table_on_a_settled_cluster_reads_as_none(cluster: LocalCluster) -> None:
    store = Store.from_url(cluster.url)
    try:
        assert await store.load(CHAN) is None
        await store.create(CHAN, "{}", creator=1, players=[1], language="en")
        loaded = await store.load(CHAN)
        assert loaded is not None and loaded.version == 1
        await store.archive(CHAN)
        assert await store.load(CHAN) is None
    finally:
        await store.close()


async def test_absence_told_by_a_node_the_cluster_does_not_name_is_not_believed(
    cluster: LocalCluster,
) -> None:
    """The client's map names a master that does not hold the slot (as after a failover it
    has not learnt of yet): nothing found there is "try again", not "no table"."""
    store = Store.from_url(cluster.url)
    try:
        assert await store.load(CHAN) is None
        client = store.client
        assert isinstance(client, RedisCluster)
        owner = client.get_node_from_key(CHAN.game_key)
        assert owner is not None
        stranger = next(n for n in client.get_primaries() if n.name != owner.name)
        client.nodes_manager.slots_cache[client.keyslot(CHAN.game_key)] = [stranger]
        with pytest.raises(ClusterError, match=f"names {owner.host}:{owner.port}"):
            await confirm_absent(client, CHAN.game_key)
    finally:
        await store.close()


async def test_a_dead_master_is_no_witness_for_a_table_absent_elsewhere() -> None:
    """While one master is dead (and, with a long node timeout, not yet marked failed), a
    channel without a table on a live master still reads as having none: the dead master
    is passed over for another witness."""
    cluster = LocalCluster(node_timeout_ms=120_000)
    cluster.start()
    store = Store.from_url(cluster.url, timeout=1.0, retries=1)
    try:
        assert await store.load(CHAN) is None
        ours = cluster.master_of(CHAN.game_key)
        first, second = (s for s in cluster.masters() if s.port != ours.port)
        for dead in (first, second):
            assert dead.pid is not None
            os.kill(dead.pid, signal.SIGKILL)
            assert wait_gone(dead.pid)
            if dead is first:  # the other one confirms
                assert await store.load(CHAN) is None
        with pytest.raises(StoreUnavailable):  # no live master left to confirm it
            await store.load(CHAN)
    finally:
        await store.close()
        cluster.stop()
