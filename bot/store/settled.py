"""Trusting "no such table" from a Redis Cluster only while its topology is settled.

A read that finds nothing is believed at once on one Redis. On a cluster the node that
answered could be one that still claims the slot without its data (a master restarted empty
before it learns that its replica took over) while the others already route the slot
elsewhere. So an empty answer is confirmed: the node that answered and another master must
both say `cluster_state:ok` and both name that node as the slot's master (a master that does
not answer, dead and not yet replaced, is passed over for the next); otherwise the cluster is
changing and the read is "try again" (`StoreUnavailable`), never "no table". Only reads that
find nothing pay for it, with two short commands to each of two nodes.
"""

from __future__ import annotations

from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.exceptions import ClusterError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from .connecting import Client

__all__ = ["confirm_absent"]


async def _owner(client: RedisCluster, witness: ClusterNode, slot: int) -> tuple[str, int]:
    """The master of `slot` as `witness` sees it, after checking its cluster is up."""
    info = await client.execute_command("CLUSTER INFO", target_nodes=witness)
    if info.get("cluster_state") != "ok":
        raise ClusterError(f"{witness.name} says the cluster is {info.get('cluster_state')}")
    slots = await client.execute_command("CLUSTER SLOTS", target_nodes=witness)
    for (first, last), served in slots.items():
        if int(first) <= slot <= int(last):
            host, port = served["primary"]
            return str(host), int(port)
    raise ClusterError(f"{witness.name} names no master for slot {slot}")


async def confirm_absent(client: Client, key: str) -> None:
    """Return if the cluster agrees that the node which just found no `key` owns its slot;
    raise `ClusterError` (the store's "try again") if it does not. Nothing on one Redis."""
    if not isinstance(client, RedisCluster):
        return
    slot = client.keyslot(key)
    node = client.get_node_from_key(key)
    if node is None:
        raise ClusterError(f"no master is known for slot {slot}")
    await _agrees(client, node, node, slot)
    others = [n for n in client.get_primaries() if n.name != node.name]
    if not others:  # a cluster of one master: its own word is all there is
        return
    for witness in others:
        try:
            await _agrees(client, witness, node, slot)
        except (RedisConnectionError, RedisTimeoutError):
            continue  # a dead master (its replica not promoted yet) is no witness
        return
    raise ClusterError(f"slot {slot}: no other master confirms that {node.name} holds it")


async def _agrees(client: RedisCluster, witness: ClusterNode, node: ClusterNode, slot: int) -> None:
    """Raise unless `witness` is up and names `node` as the master of `slot`."""
    owner = await _owner(client, witness, slot)
    if owner != (node.host, node.port):
        raise ClusterError(
            f"slot {slot}: {node.name} answered, {witness.name} names {owner[0]}:{owner[1]}"
        )
