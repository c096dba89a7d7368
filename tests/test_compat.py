"""A cancellation (Ctrl-C, SIGTERM) is never lost in `wait_for`, as it was before Python 3.12
when the awaited operation finished at that moment."""

from __future__ import annotations

import asyncio

from bot.runtime.compat import wait_for


async def _quick() -> str:
    await asyncio.sleep(0)
    return "done"


async def test_a_cancelled_loop_of_quick_waits_stops() -> None:
    for delay in (0, 0.0001, 0.001):

        async def work() -> str:
            while True:
                await wait_for(_quick(), 5)

        task = asyncio.create_task(work())
        await asyncio.sleep(delay)
        task.cancel()
        done, _ = await asyncio.wait({task}, timeout=5)
        assert done and task.cancelled()


async def test_it_still_times_out_and_returns() -> None:
    assert await wait_for(_quick(), 1) == "done"
    assert await wait_for(_quick(), None) == "done"
    try:
        await wait_for(asyncio.sleep(10), 0.01)
    except TimeoutError:
        pass
    else:
        raise AssertionError("no timeout")
