"""A fix for Python 3.11's `asyncio.wait_for`, applied when the bot starts.

Before Python 3.12, `wait_for` swallowed a cancellation that arrived as the awaited operation
finished (CPython issue gh-86296): the task went on as if never cancelled. redis-py wraps every
socket write in `wait_for`, so Ctrl-C or SIGTERM, which cancel the bot's task, were lost
whenever they came during a Redis call, and the bot did not stop. Python 3.12 rewrote
`wait_for` on top of `asyncio.timeout`; this is that version, for 3.11.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable
from typing import TypeVar

T = TypeVar("T")


async def wait_for(awaitable: Awaitable[T], timeout: float | None) -> T:
    """`asyncio.wait_for` as Python 3.12 has it: a cancellation is never lost."""
    if timeout is None:
        return await awaitable
    async with asyncio.timeout(timeout):
        return await awaitable


def fix_wait_for() -> None:
    """Use the fixed `wait_for` everywhere (redis-py, python-telegram-bot, discord.py)."""
    if sys.version_info < (3, 12):
        vars(asyncio)["wait_for"] = wait_for
