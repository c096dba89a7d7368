"""Reaching Redis: one server or a Redis Cluster, found out on first use; the errors that
mean "try again in a moment"; and waiting for a replica after a move is saved.

A cluster is detected with `INFO cluster` on the node the URL names, so the same REDIS_URL
setting serves both. Nothing is read at construction, so a bot started while Redis is down
comes up, says the storage is unavailable, and works once Redis is back.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from collections.abc import Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, TypeAlias

import redis.asyncio as aioredis
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialWithJitterBackoff
from redis.exceptions import (
    ClusterError,
    NoScriptError,
    ReadOnlyError,
    RedisClusterException,
    RedisError,
    TryAgainError,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

__all__ = [
    "COPIED",
    "MAX_CONNECTIONS",
    "REDIS_ERRORS",
    "UNAVAILABLE",
    "Client",
    "Connector",
    "Policy",
    "Replicas",
    "Script",
]

Client: TypeAlias = aioredis.Redis | RedisCluster

# Redis connections per process (per node on a cluster); more calls at once wait for one.
MAX_CONNECTIONS = 50

# Errors after which nothing is known to be broken but Redis itself: down, restarting, timed
# out, or a cluster failing over (CLUSTERDOWN, TRYAGAIN, a slot without master, a replica
# that refuses writes while it is promoted...).
UNAVAILABLE: tuple[type[BaseException], ...] = (
    RedisConnectionError,
    RedisTimeoutError,
    ClusterError,
    TryAgainError,
    ReadOnlyError,
    RedisClusterException,
    TimeoutError,
    OSError,
)
# Any failure of a Redis call: what a best-effort write after a stored one may meet.
REDIS_ERRORS: tuple[type[BaseException], ...] = (*UNAVAILABLE, RedisError)

log = logging.getLogger(__name__)

# Whether the last write of the running task (a new table, a saved move) reached a replica:
# True once one acknowledged it, False if the wait timed out, None if none was waited for (no
# replica, or waits paused on that master). Read by `python -m bot load --failovers`.
COPIED: ContextVar[bool | None] = ContextVar("fc_store_copied", default=None)


@dataclass(frozen=True, slots=True)
class Policy:
    """How a store connects: short timeouts and few retries, so an outage is reported in
    seconds rather than hanging a chat command; retried writes are safe (see `scripts`)."""

    timeout: float = 5.0
    retries: int = 3

    def retry(self) -> Retry:
        return Retry(ExponentialWithJitterBackoff(base=0.05, cap=0.5), self.retries)


def _single(url: str, policy: Policy) -> aioredis.Redis:
    """One Redis. A burst of calls (hundreds of autocompletes at once) waits for a free
    connection, up to the timeout, instead of failing at once as redis-py's default pool
    does."""
    pool = aioredis.BlockingConnectionPool.from_url(
        url,
        max_connections=MAX_CONNECTIONS,
        timeout=policy.timeout,
        decode_responses=True,
        socket_timeout=policy.timeout,
        socket_connect_timeout=policy.timeout,
        retry=policy.retry(),
        health_check_interval=30,
    )
    return aioredis.Redis.from_pool(pool)


def _cluster(url: str, policy: Policy) -> RedisCluster:
    return RedisCluster.from_url(
        url,
        max_connections=MAX_CONNECTIONS,
        decode_responses=True,
        socket_timeout=policy.timeout,
        socket_connect_timeout=policy.timeout,
        retry=policy.retry(),
        health_check_interval=30,
    )


class Script:
    """A Lua script run by its SHA1 (EVALSHA), loaded on the nodes that lack it: a new
    master after a failover, or a Redis restarted without its script cache."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.sha = hashlib.sha1(text.encode()).hexdigest()

    async def __call__(self, client: Client, keys: Sequence[str], args: Sequence[Any]) -> Any:
        try:
            return await client.evalsha(self.sha, len(keys), *keys, *args)
        except NoScriptError:
            await client.script_load(self.text)  # on a cluster: on every master
            return await client.evalsha(self.sha, len(keys), *keys, *args)


class Connector:
    """The store's client, made on first use once `INFO cluster` has told which kind."""

    def __init__(self, url: str, policy: Policy) -> None:
        self.url = url
        self.policy = policy
        self._client: Client | None = None
        self._lock = asyncio.Lock()
        # Calls at once on a cluster (see `base.guarded`); None on one Redis, whose pool waits.
        self.gate: asyncio.Semaphore | None = None

    @classmethod
    def of(cls, client: Client) -> Connector:
        """A connector for a client made elsewhere (tests, tools)."""
        connector = cls("", Policy())
        connector._set(client)
        return connector

    def _set(self, client: Client) -> None:
        self._client = client
        if isinstance(client, RedisCluster):
            self.gate = asyncio.Semaphore(MAX_CONNECTIONS)

    @property
    def client(self) -> Client | None:
        return self._client

    async def get(self) -> Client:
        if self._client is not None:
            return self._client
        async with self._lock:
            client = self._client
            if client is None:
                client = await self._connect()
                self._set(client)
            return client

    async def _connect(self) -> Client:
        single = _single(self.url, self.policy)
        try:
            info = await single.info("cluster")
        except BaseException:
            await single.aclose()
            raise
        if str(info.get("cluster_enabled", 0)) != "1":
            return single
        await single.aclose()
        cluster = _cluster(self.url, self.policy)
        try:
            await cluster.initialize()
        except BaseException:
            await cluster.aclose()
            raise
        return cluster

    async def close(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            await client.aclose()


class Replicas:
    """Waits, after a write players are told of (a new table, a saved move), until one
    replica has it (`WAIT 1 <ms>` on the connection that wrote it), when the master has a
    replica: the write then survives the master's death. Whether a master has replicas is
    asked (`INFO replication`) at most every `REFRESH` seconds (`RECHECK` while it has none);
    a WAIT that times out is logged and stops the waits on that master until the next check,
    so a dead replica does not slow every move (docs/operations.md says what a failover may
    then lose)."""

    REFRESH = 30.0
    RECHECK = 1.0

    def __init__(self, wait: float) -> None:
        self.wait_ms = max(1, int(wait * 1000))
        self._known: dict[str, tuple[bool, float]] = {}
        # (node, script SHA1) where the script ran: sent by its SHA1 there, else in full.
        self._cached: set[tuple[str, str]] = set()

    async def _present(self, client: Client, node: ClusterNode | None) -> bool | None:
        """Whether the master has a replica to wait for; None if the node is no master (the
        client's map of the cluster is behind a failover), which is not kept."""
        name = "" if node is None else node.name
        now = time.monotonic()
        known = self._known.get(name)
        if known is not None and now - known[1] < self.REFRESH:
            return known[0]
        if node is None:
            info = await client.info("replication")
        else:
            info = await client.info("replication", target_nodes=node)
        if info.get("role") != "master":
            return None
        present = int(info.get("connected_slaves", 0)) > 0
        # A master without a replica is asked again after `RECHECK`, not `REFRESH`: a master
        # just promoted gets its replica back seconds later, and its moves are then waited
        # for (the entry is dated back so that it lasts `RECHECK`).
        self._known[name] = (present, now if present else now - self.REFRESH + self.RECHECK)
        return present

    async def _master(self, client: Client, key: str) -> tuple[ClusterNode | None, bool]:
        """The node `key` is written on (None on one Redis) and whether to wait there. A
        cluster node that is no longer a master makes the client read the topology again
        first: else the write would be redirected to the new master, past its WAIT."""
        if not isinstance(client, RedisCluster):
            return None, bool(await self._present(client, None))
        for attempt in range(2):
            await client.initialize()  # a no-op unless the topology must be read again
            node = client.get_node_from_key(key)
            present = await self._present(client, node)
            if present is not None or attempt:
                return node, bool(present)
            await client.nodes_manager.initialize()  # its connections stay open
        raise AssertionError("unreachable")

    async def write(
        self, client: Client, script: Script, keys: Sequence[str], args: Sequence[Any]
    ) -> Any:
        """Run `script`, then WAIT on the same connection, in one round trip. A script the
        master may not have cached yet (this store's first write there, a new master) goes
        in full (EVAL caches it), so a write never waits twice: a NOSCRIPT answer would
        have come with a WAIT of its own, spent for nothing before the write is sent again."""
        COPIED.set(None)
        node, present = await self._master(client, keys[0])
        if not present:
            return await script(client, keys, args)
        cached = ("" if node is None else node.name, script.sha)
        for _ in range(2):
            pipe = client.pipeline(transaction=False)
            # A cluster pipeline refuses `evalsha()` (it cannot tell a script's keys share a
            # slot); the raw command is routed by its keys, which must then share one.
            if cached in self._cached:
                pipe.execute_command("EVALSHA", script.sha, len(keys), *keys, *args)
            else:
                pipe.execute_command("EVAL", script.text, len(keys), *keys, *args)
            if node is None:
                pipe.execute_command("WAIT", 1, self.wait_ms)
            else:  # the node that owns the key: one connection to it carries both
                pipe.execute_command("WAIT", 1, self.wait_ms, target_nodes=node)
            reply, acked = await pipe.execute(raise_on_error=False)
            if isinstance(reply, NoScriptError):  # Redis restarted since: send it in full
                self._cached.discard(cached)
                continue
            if isinstance(reply, BaseException):
                raise reply
            if isinstance(client, RedisCluster) and client.get_node_from_key(keys[0]) != node:
                # Redirected (MOVED) to a new master, past the WAIT: stored, not copied.
                COPIED.set(False)
                self._known.pop(cached[0], None)
                return reply
            self._cached.add(cached)
            self._acknowledged(node, acked)
            return reply
        raise NoScriptError(f"script {script.sha} could not be loaded")

    def _acknowledged(self, node: ClusterNode | None, acked: object) -> None:
        """Never fails the move: it is stored on the master, only its copy is late."""
        copied = isinstance(acked, int) and acked >= 1
        COPIED.set(copied)
        if copied:
            return
        name = "" if node is None else node.name
        if isinstance(acked, BaseException):
            # Refused, not late: the node stopped being a master (a failover moved the write
            # elsewhere). That tells nothing of its replicas: asked again at its next write.
            log.warning("the wait for a replica of %s failed (%s)", name or "Redis", acked)
            self._known.pop(name, None)
            return
        log.warning(
            "no replica of %s acknowledged a saved move within %d ms (%r): moves on it are "
            "not waited for until the next check",
            name or "the Redis master",
            self.wait_ms,
            acked,
        )
        self._known[name] = (False, time.monotonic())
