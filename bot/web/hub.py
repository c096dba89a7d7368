"""Which open pages follow which table, in this process: a change heard from Redis wakes the
pages of its table, and only those.

One subscription a process, whatever the number of pages: a page costs an event and a set
entry here, and reads its table again only when it was written.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from collections.abc import AsyncIterator, Callable, Iterator

from ..store import Channel

log = logging.getLogger(__name__)


class Hub:
    """Wakes the pages of each changed table (`follow`), fed by `run` from the store."""

    def __init__(self, changes: Callable[[], AsyncIterator[Channel | None]]) -> None:
        self._changes = changes
        self._pages: defaultdict[Channel, set[asyncio.Event]] = defaultdict(set)
        self._task: asyncio.Task[None] | None = None
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
                for events in self._pages.values():
                    for event in events:
                        event.set()
                continue
            for event in self._pages.get(channel, ()):
                event.set()

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
