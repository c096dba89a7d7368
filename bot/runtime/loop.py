"""The event loop the bot's processes run on: uvloop's where it is installed.

Every move passes a dozen Redis round trips and an HTTP request or two through the loop;
uvloop's loop (libuv, in C) schedules them for less CPU than asyncio's own. Where it is not
installed (Windows, a build without it), or with `FC_EVENT_LOOP=asyncio` in the environment,
asyncio's loop runs the same code.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def _factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    if os.environ.get("FC_EVENT_LOOP", "").lower() == "asyncio":
        return None
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def run(main: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run(main)`, on uvloop's loop where it is installed."""
    with asyncio.Runner(loop_factory=_factory()) as runner:
        return runner.run(main)
