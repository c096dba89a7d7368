"""The slice of `GameService` the Telegram adapter calls.

A Protocol rather than an import of `bot.service`, so the adapter depends only on the
contract (and tests can drive it with a scripted stand-in).
"""

from __future__ import annotations

from typing import Protocol

from bot.exchange.actor import Actor
from bot.exchange.replies import Reply

PLATFORM = "telegram"


class GameServiceApi(Protocol):
    async def command(self, actor: Actor, text: str) -> Reply: ...

    async def press(self, actor: Actor, data: str) -> Reply: ...

    async def dm_failed(
        self, platform: str, channel_id: str, user_id: str, link: str | None = None
    ) -> Reply: ...

    async def fire_due(self, platform: str | None = None) -> list[tuple[str, str, Reply]]: ...

    async def chat_moved(self, platform: str, old_id: str, new_id: str) -> bool: ...

    async def place_closed(self, platform: str, channel_id: str) -> Reply: ...
