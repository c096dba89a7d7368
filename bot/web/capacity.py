"""How many connections and event streams a process holds, so that its file descriptors never
run out: a move writes an image and talks to Redis, and must always find one free.

Two bounds. Streams (a page following its table, open for hours) are counted per process and
per address, and refused past the settings' caps (`Streams`). Connections of any kind are
refused at once past a share of the process's descriptor limit (`capped`): the connection is
answered 503 and closed, before it reads a byte, so a flood of them costs a descriptor for a
moment each and nothing stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import resource
import time
from collections import Counter
from collections.abc import Callable, Iterator
from typing import cast

log = logging.getLogger(__name__)

__all__ = ["Streams", "capped", "connection_limit", "raise_descriptor_limit"]

BUSY_ANSWER = (
    b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nRetry-After: 5\r\n"
    b"Connection: close\r\n\r\n"
)


class Streams:
    """The event streams open in this process: in all, and by client address."""

    def __init__(self) -> None:
        self.total = 0
        self.by_address: Counter[str] = Counter()

    @contextlib.contextmanager
    def opened(self, address: str) -> Iterator[None]:
        self.total += 1
        self.by_address[address] += 1
        try:
            yield
        finally:
            self.total -= 1
            self.by_address[address] -= 1
            if self.by_address[address] <= 0:
                del self.by_address[address]


def raise_descriptor_limit() -> int:
    """Lifts this process's soft limit of open files to its hard limit (as Go's runtime
    does): systemd's default soft limit of 1,024 is far below what a server of pages needs,
    its hard limit is not. Returns the soft limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        wanted = 1 << 20 if hard == resource.RLIM_INFINITY else hard
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def connection_limit(descriptors: int) -> int:
    """Connections the pages may hold with `descriptors` open files allowed: all but a
    quarter (at least 64) kept for Redis, the platforms, images and the rest of a move."""
    return max(1, descriptors - max(64, descriptors // 4))


SAY_EVERY = 60.0


class _Refused(asyncio.Protocol):
    """A connection over the limit: told 503 and closed at once."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        cast(asyncio.WriteTransport, transport).write(BUSY_ANSWER)  # uvloop's, or asyncio's
        transport.close()


def capped(
    factory: Callable[[], asyncio.Protocol], open_now: Callable[[], int], limit: int
) -> Callable[[], asyncio.Protocol]:
    """`factory`'s protocols while fewer than `limit` connections are open, else one that
    refuses the connection."""

    said = -SAY_EVERY

    def made() -> asyncio.Protocol:
        nonlocal said
        if open_now() < limit:
            return factory()
        now = time.monotonic()
        if now - said >= SAY_EVERY:  # a flood is said once a minute, not once a connection
            said = now
            log.warning("connections refused: %d are open, the most this process takes", limit)
        return _Refused()

    return made
