"""What every part of the store shares: the connection, the clock, the archive's lifetime,
and the guard that turns redis-py's errors into the store's."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from datetime import timedelta
from functools import wraps
from typing import Concatenate, ParamSpec, Self, TypeVar

from redis.exceptions import RedisError

from .connecting import UNAVAILABLE, Client, Connector, Policy, Replicas
from .errors import StoreError, StoreUnavailable

__all__ = ["StoreBase", "guarded"]

_P = ParamSpec("_P")
_T = TypeVar("_T")
_S = TypeVar("_S", bound="StoreBase")
# Set while a store call holds a turn of a cluster's connections, so the calls it makes itself
# take no second turn (which could wait forever for turns their callers hold).
_INSIDE: ContextVar[bool] = ContextVar("fc_store_inside", default=False)


def guarded(
    method: Callable[Concatenate[_S, _P], Awaitable[_T]],
) -> Callable[Concatenate[_S, _P], Awaitable[_T]]:
    """Turn redis-py's errors into `StoreUnavailable` (try again later) or `StoreError`, so
    callers need not know redis-py. On a cluster, wait for a free connection first, up to
    the timeout: redis-py's cluster client fails at once when a node has none free."""

    @wraps(method)
    async def wrapper(self: _S, /, *args: _P.args, **kwargs: _P.kwargs) -> _T:
        try:
            gate = self._connector.gate
            if gate is None or _INSIDE.get():
                return await method(self, *args, **kwargs)
            async with asyncio.timeout(self._connector.policy.timeout):
                await gate.acquire()
            token = _INSIDE.set(True)
            try:
                return await method(self, *args, **kwargs)
            finally:
                _INSIDE.reset(token)
                gate.release()
        except UNAVAILABLE as exc:
            raise StoreUnavailable(f"Redis is unavailable: {exc}") from exc
        except RedisError as exc:
            raise StoreError(f"Redis error: {exc}") from exc

    return wrapper


class StoreBase:
    """Async access to the bot's Redis data. Holds only the connection: no game state, so
    any process can serve any command."""

    def __init__(
        self,
        client: Client | Connector,
        *,
        archive_ttl: timedelta = timedelta(days=30),
        clock: Callable[[], float] = time.time,
        replica_wait: float = 0.1,
    ) -> None:
        """`client` must be created with `decode_responses=True`."""
        self._connector = client if isinstance(client, Connector) else Connector.of(client)
        self._archive_ttl = max(1, int(archive_ttl.total_seconds()))
        self._clock = clock
        self._replicas = Replicas(replica_wait)

    @classmethod
    def from_url(
        cls,
        url: str,
        *,
        archive_ttl: timedelta = timedelta(days=30),
        timeout: float = 5.0,
        retries: int = 3,
        clock: Callable[[], float] = time.time,
        replica_wait: float = 0.1,
    ) -> Self:
        """A store on one Redis or a Redis Cluster (found out on first use), with a short
        retry policy. `replica_wait` bounds the wait for a replica after a saved move."""
        connector = Connector(url, Policy(timeout=timeout, retries=retries))
        return cls(connector, archive_ttl=archive_ttl, clock=clock, replica_wait=replica_wait)

    @property
    def client(self) -> Client:
        """The redis-py client, once a call has connected (tests, tools)."""
        client = self._connector.client
        if client is None:
            raise StoreUnavailable("not connected yet: call ping() first")
        return client

    async def _client(self) -> Client:
        return await self._connector.get()

    async def close(self) -> None:
        await self._connector.close()

    @guarded
    async def ping(self) -> bool:
        client = await self._client()
        return bool(await client.ping())
