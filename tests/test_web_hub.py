"""How the hub tells a table's pages of a change: the reading made once before any page
wakes, then the pages woken a few at a time, the event loop free for other work (a move
being answered) in between, and nothing missed when the table changes again meanwhile."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import AsyncIterator

from bot.store import Channel
from bot.web.hub import WAKE_AT_ONCE, Hub

TABLE = Channel.of("console", "room")


async def _changes(queue: asyncio.Queue[Channel | None]) -> AsyncIterator[Channel | None]:
    while True:
        yield await queue.get()


async def test_a_crowd_is_woken_a_few_at_a_time_after_one_reading() -> None:
    queue: asyncio.Queue[Channel | None] = asyncio.Queue()
    hub = Hub(lambda: _changes(queue))
    hub.start()
    readings: list[int] = []
    woken_at_reading: list[int] = []
    pages = 10 * WAKE_AT_ONCE

    with contextlib.ExitStack() as stack:
        events: list[asyncio.Event] = []

        async def warm() -> object:
            woken_at_reading.append(sum(e.is_set() for e in events))
            readings.append(1)
            return await hub.read(TABLE, "state", lambda: asyncio.sleep(0, "state"))

        events = [stack.enter_context(hub.follow(TABLE, warm)) for _ in range(pages)]
        seen: list[int] = []  # pages woken each time another task gets to run

        async def elsewhere() -> None:  # a move being answered meanwhile
            while not all(e.is_set() for e in events):
                seen.append(sum(e.is_set() for e in events))
                await asyncio.sleep(0)

        await queue.put(TABLE)
        await asyncio.wait_for(elsewhere(), 5)
        assert readings == [1] and woken_at_reading == [0]  # read once, before any page woke
        steps = sorted(set(seen))
        assert len(steps) >= pages // WAKE_AT_ONCE - 1  # the loop ran between the batches
        assert all(b - a <= WAKE_AT_ONCE for a, b in itertools.pairwise(steps))
        # Each page then finds its reading made: no wait, no reading of its own.
        assert await hub.read(TABLE, "state", lambda: asyncio.sleep(0, "again")) == "state"
    await hub.stop()


async def test_a_change_while_pages_are_being_told_is_told_again() -> None:
    queue: asyncio.Queue[Channel | None] = asyncio.Queue()
    hub = Hub(lambda: _changes(queue))
    hub.start()
    readings = 0
    with contextlib.ExitStack() as stack:

        async def warm() -> object:
            nonlocal readings
            readings += 1
            if readings == 1:
                await queue.put(TABLE)  # the table changes again as its pages are told
            await asyncio.sleep(0.01)
            return readings

        events = [stack.enter_context(hub.follow(TABLE, warm)) for _ in range(3 * WAKE_AT_ONCE)]
        await queue.put(TABLE)
        for _ in range(200):
            if readings == 2 and all(e.is_set() for e in events):
                break
            await asyncio.sleep(0.01)
        assert readings == 2 and all(e.is_set() for e in events)
    await hub.stop()
