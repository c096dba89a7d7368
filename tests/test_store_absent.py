"""A table read as absent on a Redis Cluster is believed only when the cluster agrees that the
node which answered holds the table's slot; otherwise the store says "try again"."""

from __future__ import annotations

import pytest
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import ClusterError

from bot.store import Channel, Store
from bot.store.settled import confirm_absent
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
