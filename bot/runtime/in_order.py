"""Work for many places at once, in order within each place.

A deadline poll finds replies for many chats at once. Delivered one after the other, a chat
whose rate limit holds its posts back would hold up every chat after it, and the next poll:
a flooded group would slow the computer players of every other group. Here each piece of
work runs in a task of its own, started at once, that waits only for the work before it for
the same place, so a place's messages keep their order and no place waits for another.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine, Hashable
from typing import Any

log = logging.getLogger(__name__)


class InOrder:
    """Tasks keyed by place; each starts once the one before it for its place has ended."""

    def __init__(self) -> None:
        self._last: dict[Hashable, asyncio.Task[None]] = {}

    def run(self, place: Hashable, work: Coroutine[Any, Any, object]) -> asyncio.Task[None]:
        """Start `work` after what is under way for `place`; a failure is logged, and the
        place's next work runs all the same."""
        before = self._last.get(place)

        async def after() -> None:
            if before is not None:
                await asyncio.wait([before])
            try:
                await work
            except Exception:
                log.exception("delivering to %s failed", place)

        task = asyncio.create_task(after())
        self._last[place] = task
        task.add_done_callback(lambda done: self._ended(place, done))
        return task

    def _ended(self, place: Hashable, task: asyncio.Task[None]) -> None:
        if self._last.get(place) is task:
            del self._last[place]

    def __len__(self) -> int:
        """Places with work under way."""
        return len(self._last)

    async def settled(self, timeout: float | None = None) -> bool:
        """Wait until no work is under way (what starts meanwhile too); False if `timeout`
        seconds passed first."""
        try:
            async with asyncio.timeout(timeout):
                while self._last:
                    await asyncio.wait(list(self._last.values()))
        except TimeoutError:
            return False
        return True
