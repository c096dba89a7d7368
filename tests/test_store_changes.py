"""The change listener (`Store.changes`) ends when its task is cancelled, even once its
store is closed under it: a stopping server, or a closing event loop, waits for it."""

from __future__ import annotations

import asyncio

from bot.store import Store


async def test_the_listener_ends_when_cancelled_after_its_store_closed(redis_url: str) -> None:
    store = Store.from_url(redis_url)
    heard: list[object] = []

    async def listen() -> None:
        async for channel in store.changes(poll=0.05):
            heard.append(channel)

    task = asyncio.create_task(listen())
    while not heard:
        await asyncio.sleep(0.01)
    await store.close()  # the process shuts its connections before its last tasks end
    task.cancel()
    done, _ = await asyncio.wait({task}, timeout=3)
    assert done == {task}, "the listener read on after it was cancelled"
