"""The bot's processes run on uvloop's event loop, and on asyncio's own when told to."""

from __future__ import annotations

import asyncio

import pytest
import uvloop

from bot.runtime import loop


async def _running_loop() -> type[asyncio.AbstractEventLoop]:
    await asyncio.sleep(0)
    return type(asyncio.get_running_loop())


def test_the_bot_runs_on_uvloops_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FC_EVENT_LOOP", raising=False)
    assert loop.run(_running_loop()) is uvloop.Loop


def test_fc_event_loop_asyncio_runs_it_on_asyncios_own(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FC_EVENT_LOOP", "asyncio")
    assert not issubclass(loop.run(_running_loop()), uvloop.Loop)
