"""Redis' files written again from what it holds now, so what was deleted leaves the disk too.

The append-only file keeps every write since it was last rewritten (Redis rewrites it by itself
only once it has doubled, from 64 MB), and the last snapshot (`dump.rdb`) holds the data as it
was. After a person is forgotten, each server that keeps anything on disk rewrites its AOF
(`BGREWRITEAOF`, if it keeps one) and makes a new snapshot (`BGSAVE`): one that keeps an AOF and
no `save` points may still have a `dump.rdb` (a replica gets one at its first sync, an operator
makes one with `redis-cli BGSAVE`), and a snapshot of what it holds now reveals nothing its AOF
does not. Redis itself then deletes the old files.

Replicas do too, every node of a cluster and the replicas a single Redis lists: a replica
copies the master's writes into its own AOF, and writes its files again by itself only after a
full resynchronisation, which a replica that stays connected never needs. A replica rewrites
once it has caught up with its master's writes, so its copy is taken after the forget. A server
that cannot be reached, refuses the commands (a managed Redis, an ACL) or fails to write counts
as not rewritten: the caller says so.

A rewrite or snapshot already under way was forked before the forget and copies the data with
the person in it: it is waited for, then ours is asked again. Everything here waits with
`asyncio.sleep` between `INFO persistence` polls, never blocking the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.asyncio.connection import Connection, UnixDomainSocketConnection
from redis.exceptions import ResponseError

from .connecting import REDIS_ERRORS, Client

__all__ = ["rewrite_files"]

log = logging.getLogger(__name__)

POLL = 0.1  # seconds between two looks at a server's persistence
# What a server answers when another rewrite or save already runs in a child process.
_BUSY = ("already in progress", "another child process is active")
_MASTER = "redis"  # a single Redis's name, for its replicas
# A cluster node flagged so cannot be reached: failed (or suspected), not yet met, no address.
_AWAY = frozenset({"fail", "fail?", "handshake", "noaddr"})
_CHILDREN = ("aof_rewrite_in_progress", "rdb_bgsave_in_progress", "module_fork_in_progress")


class NotWritten(RuntimeError):
    """A server did not write its files again (it failed, or cannot be asked)."""


_FAILURES: tuple[type[BaseException], ...] = (NotWritten, *REDIS_ERRORS)


Closers = list[Callable[[], Awaitable[None]]]  # connections opened for the rewrite


@dataclass(frozen=True, slots=True)
class Node:
    """One server, as the store reaches it; a replica of a single Redis names its master
    (a cluster's replica says which it follows)."""

    name: str
    run: Callable[..., Awaitable[Any]]  # a command's words -> its reply
    master: str = ""

    async def info(self, section: str) -> Mapping[str, Any]:
        reply = await self.run("INFO", section)
        return reply if isinstance(reply, Mapping) else {}


@contextlib.asynccontextmanager
async def servers(client: Client) -> AsyncIterator[list[Node]]:
    """Every server that holds the data: a cluster's masters and replicas, or the one Redis
    and its replicas; connections made for them are closed afterwards."""
    opened: Closers = []
    try:
        if isinstance(client, RedisCluster):
            yield await _cluster(client, opened)
        else:
            yield await _single(client, opened)
    finally:
        for close in opened:
            await close()


async def _cluster(client: RedisCluster, opened: Closers) -> list[Node]:
    """The nodes as the cluster lists them now (`CLUSTER NODES`): the client's own map may
    lack a replica that joined after it was read."""
    found = []
    for name, fields in dict(await client.execute_command("CLUSTER NODES")).items():
        # Whole flags: a node set with `cluster-replica-no-failover` is flagged `nofailover`.
        if _AWAY & set(str(fields.get("flags", "")).split(",")):
            continue
        node = client.get_node(node_name=name)
        if node is None:
            host, port = name.rsplit(":", 1)
            node = ClusterNode(host, int(port), **client.nodes_manager.connection_kwargs)
            opened.append(node.disconnect)
        found.append(Node(name, functools.partial(_on, client, node)))
    return found


async def _on(client: RedisCluster, node: ClusterNode, *words: Any) -> Any:
    return await client.execute_command(*words, target_nodes=node)


async def _single(client: aioredis.Redis, opened: Closers) -> list[Node]:
    """The Redis, and the replicas it lists (`INFO replication`), reached with its own
    credentials and TLS settings at the address each replica gave."""
    found = [Node(_MASTER, client.execute_command)]
    pool = client.connection_pool
    for field, value in (await client.info("replication")).items():
        if not (field.startswith("slave") and isinstance(value, dict) and "ip" in value):
            continue
        kind = pool.connection_class
        if issubclass(kind, UnixDomainSocketConnection):
            kind = Connection
        settings = {k: v for k, v in pool.connection_kwargs.items() if k != "path"}
        settings.update(host=value["ip"], port=int(value["port"]))
        replica = aioredis.Redis(
            connection_pool=aioredis.ConnectionPool(connection_class=kind, **settings)
        )
        opened.append(replica.aclose)
        name = f"{value['ip']}:{value['port']}"
        found.append(Node(name, replica.execute_command, master=_MASTER))
    return found


async def rewrite_files(client: Client, patience: float) -> bool:
    """Have every server write its files again, and wait up to `patience` seconds for them.
    True once all did; False (and logged) if any failed, refused or was still writing."""
    try:
        async with asyncio.timeout(patience), servers(client) as listed:
            offsets = await _offsets(listed)
            done = await asyncio.gather(*(_rewrite(node, offsets) for node in listed))
    except TimeoutError:
        log.error("Redis did not write its files again within %.0f s", patience)
        return False
    except REDIS_ERRORS as error:
        log.error("Redis' files could not be written again: %s", error)
        return False
    return all(done)


async def _offsets(listed: list[Node]) -> dict[str, int]:
    """Each master's replication offset now: where its replicas must be before they copy."""
    found = {}
    for node in listed:
        info = await node.info("replication")
        if info.get("role") == "master":
            found[node.name] = int(info.get("master_repl_offset", 0))
    return found


async def _rewrite(node: Node, offsets: Mapping[str, int]) -> bool:
    try:
        aof, snapshots = await _kept(node)
        if not (aof or snapshots):
            return True
        await _caught_up(node, offsets)
        if aof:
            await _again(
                node, "BGREWRITEAOF", "aof_rewrite_in_progress", "aof_last_bgrewrite_status"
            )
        await _again(node, "BGSAVE", "rdb_bgsave_in_progress", "rdb_last_bgsave_status")
    except _FAILURES as error:
        log.error("%s did not write its files again: %s", node.name, error)
        return False
    return True


async def _kept(node: Node) -> tuple[bool, bool]:
    """Whether the server keeps an AOF, and saves snapshots (`save` points)."""
    info = await node.info("persistence")
    points = str((await node.run("CONFIG", "GET", "save")).get("save", ""))  # parsed to a dict
    return int(info.get("aof_enabled", 0)) == 1, bool(points.strip())


async def _caught_up(node: Node, offsets: Mapping[str, int]) -> None:
    """A replica: until it has applied everything its master had when the forget ended."""
    info = await node.info("replication")
    if info.get("role") != "slave":
        return
    master = node.master or f"{info.get('master_host')}:{info.get('master_port')}"
    if master not in offsets:
        raise NotWritten(f"its master {master} is not one the store knows")
    while int(info.get("slave_repl_offset", -1)) < offsets[master]:
        if info.get("master_link_status") != "up":
            raise NotWritten(f"its link to {master} is down")
        await asyncio.sleep(POLL)
        info = await node.info("replication")


async def _again(node: Node, command: str, running: str, status: str) -> None:
    """Start `command` (a rewrite or a save) and wait for its end; one already under way is
    waited for first, then ours is started after it."""
    while True:
        try:
            await node.run(command)
        except ResponseError as error:
            if not any(busy in str(error).lower() for busy in _BUSY):
                raise NotWritten(f"{command}: {error}") from None
            await _until(node, lambda info: not any(int(info.get(c, 0)) for c in _CHILDREN))
            continue
        break
    info = await _until(
        node, lambda info: not int(info.get(running, 0)) and not _scheduled(info, command)
    )
    if info.get(status) != "ok":
        raise NotWritten(f"{command} ended with {status}:{info.get(status)}")


def _scheduled(info: Mapping[str, Any], command: str) -> bool:
    """A rewrite asked while a save runs is scheduled, and starts after it."""
    return command == "BGREWRITEAOF" and bool(int(info.get("aof_rewrite_scheduled", 0)))


async def _until(node: Node, done: Callable[[Mapping[str, Any]], bool]) -> Mapping[str, Any]:
    info = await node.info("persistence")
    while not done(info):
        await asyncio.sleep(POLL)
        info = await node.info("persistence")
    return info
