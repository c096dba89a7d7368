"""Which open pages follow which table, in this process: a change heard from Redis wakes the
pages of its table, and only those.

One subscription a process, whatever the number of pages: a page costs an event and a set
entry here. After a change, the pages of a table share one reading of it (`read`): the
first page to ask reads Redis, the others wait for that reading, which is kept until the
table's next change (a per-process cache, rebuilt from Redis at will).

A change seen by thousands of pages must not hold up the moves this process answers
meanwhile: the hub makes the reading first (`follow`'s `warm`), then wakes the pages a few
dozen at a time, with a pause between in which the moves in flight take their next steps,
and each page finds its reading made and only writes.
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
WAKE_AT_ONCE = 25  # pages woken before the event loop runs anything else
PAUSE = 0.003  # seconds between those: the moves in flight take their next steps
Warm = Callable[[], Awaitable[object]]

log = logging.getLogger(__name__)


class Hub:
    """Wakes the pages of each changed table (`follow`), fed by `run` from the store."""

    def __init__(self, changes: Callable[[], AsyncIterator[Channel | None]]) -> None:
        self._changes = changes
        self._pages: defaultdict[Channel, set[asyncio.Event]] = defaultdict(set)
        self._task: asyncio.Task[None] | None = None
        self._reads: dict[Channel, dict[str, tuple[float, Reading]]] = {}
        self._warm: dict[Channel, Warm] = {}  # makes a table's readings before its pages wake
        self._telling: dict[Channel, asyncio.Task[None]] = {}
        self._again: set[Channel] = set()  # changed again while its pages were being told
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
        for telling in list(self._telling.values()):
            telling.cancel()
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
            if channel not in self._pages:
                continue
            if channel in self._telling:
                self._again.add(channel)
            else:
                self._telling[channel] = asyncio.create_task(self._tell(channel))

    async def _tell(self, channel: Channel) -> None:
        """The pages of `channel` told of its change: its reading made once, then the pages
        woken a few dozen at a time; again if it changed meanwhile."""
        try:
            while True:
                self._again.discard(channel)
                warm = self._warm.get(channel)
                if warm is not None:
                    try:
                        await warm()
                    except Exception as error:  # each page reads again itself, and says why
                        log.debug("no reading made for %s: %s", channel, error)
                for n, event in enumerate(list(self._pages.get(channel, ()))):
                    event.set()
                    if n % WAKE_AT_ONCE == WAKE_AT_ONCE - 1:
                        await asyncio.sleep(PAUSE)
                if channel not in self._again:
                    return
        finally:
            self._telling.pop(channel, None)

    async def read(self, channel: Channel, key: str, load: Callable[[], Awaitable[T]]) -> T:
        """`load()`'s result, shared by every page of `channel` asking for `key` until the
        table changes again (its state, its image): a crowd watching a table costs one
        reading and one drawing a change. A failed reading is not kept."""
        reads = self._reads.setdefault(channel, {})
        now = time.monotonic()
        kept = reads.get(key)
        if kept is not None and now - kept[0] < KEPT_FOR:
            if kept[1].done() and not kept[1].cancelled() and kept[1].exception() is None:
                return cast(T, kept[1].result())  # made already: no wait, no task switch
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
    def follow(self, channel: Channel, warm: Warm | None = None) -> Iterator[asyncio.Event]:
        """An event set whenever `channel`'s table is written, while the page is open;
        `warm` makes the readings its pages will ask for, before they are woken."""
        event = asyncio.Event()
        self._pages[channel].add(event)
        if warm is not None:
            self._warm[channel] = warm
        try:
            yield event
        finally:
            events = self._pages[channel]
            events.discard(event)
            if not events:
                del self._pages[channel]
                self._reads.pop(channel, None)
                self._warm.pop(channel, None)
