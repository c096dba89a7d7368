"""Images are drawn in threads nicer than the event loop and the computer players' searches, so
a machine whose cores are all busy answers commands and finishes searches first."""

from __future__ import annotations

import os
import threading

from bot.config import Settings
from bot.service import GameService
from bot.service.context import RENDER_NICENESS
from bot.store import Store


def niceness() -> int:
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


async def test_the_service_draws_in_threads_nicer_than_its_event_loop(store: Store) -> None:
    service = GameService(store, Settings(_env_file=None))  # type: ignore[call-arg]
    try:
        drawn = await service.ctx.draw(niceness)
        assert drawn == min(19, niceness() + RENDER_NICENESS)
        assert await service.ctx.draw(niceness) == drawn  # every draw, not only the first
    finally:
        service.ctx.executor.shutdown()
