"""Which open pages follow which table, in this process: a change heard from Redis wakes the
pages of its table, and only those.

One subscription a process, whatever the number of pages: a page costs an event and a set
entry here. After a change, the pages of a table share one reading of it (`read`): the
first page to ask reads Redis, the others wait for that reading, which is kept until the
table's next change (a per-process cache, rebuilt from Redis at will).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import TypeVar, cast

from ..store import Channel

T = TypeVar("T")
Reading = asyncio.Future[object]
# A reading serves until the table's next change, and no longer than this many seconds:
# should the process miss a change unawares, its pages are behind for that long at most.
KEPT_FOR = 30.0

log = logging.getLogger(__name__)


class Hub:
    """Wakes the pages of each changed table (`follow`), fed by `run` from the store."""

    def __init__(self, changes: Callable[[], AsyncIterator[Channel | None]]) -> None:
        self._changes = changes
        self._pages: defaultdict[Channel, set[asyncio.Event]] = defaultdict(set)
        self._task: asyncio.Task[None] | None = None
        self._reads: dict[Channel, dict[str, tuple[float, Reading]]] = {}
        self.closing = False  # the server stops: every stream ends now

    @property
    def pages(self) -> int:
        """Pages open in this process."""
        return sum(len(events) for events in self._pages.values())

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="web-hub")

    def close(self) -> None:
        """Ends every stream (their pages connect again, to another process or this one
        restarted)."""
        self.closing = True
        for events in self._pages.values():
            for event in events:
                event.set()

    async def stop(self) -> None:
        self.close()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        async for channel in self._changes():
            if channel is None:  # a new subscription: whatever was missed, every page reads
                self._reads.clear()
                for events in self._pages.values():
                    for event in events:
                        event.set()
                continue
            self._reads.pop(channel, None)
            for event in self._pages.get(channel, ()):
                event.set()

    async def read(self, channel: Channel, key: str, load: Callable[[], Awaitable[T]]) -> T:
        """`load()`'s result, shared by every page of `channel` asking for `key` until the
        table changes again (its state, its image): a crowd watching a table costs one
        reading and one drawing a change. A failed reading is not kept."""
        reads = self._reads.setdefault(channel, {})
        now = time.monotonic()
        kept = reads.get(key)
        if kept is not None and now - kept[0] < KEPT_FOR:
            return cast(T, await asyncio.shield(kept[1]))
        made: Reading = asyncio.ensure_future(load())
        reads[key] = (now, made)
        made.add_done_callback(lambda done: self._forget_failed(channel, key, done))
        return cast(T, await asyncio.shield(made))

    def _forget_failed(self, channel: Channel, key: str, done: Reading) -> None:
        if done.cancelled() or done.exception() is not None:
            reads = self._reads.get(channel, {})
            if key in reads and reads[key][1] is done:
                del reads[key]

    @contextlib.contextmanager
    def follow(self, channel: Channel) -> Iterator[asyncio.Event]:
        """An event set whenever `channel`'s table is written, while the page is open."""
        event = asyncio.Event()
        self._pages[channel].add(event)
        try:
            yield event
        finally:
            events = self._pages[channel]
            events.discard(event)
            if not events:
                del self._pages[channel]
                self._reads.pop(channel, None)
