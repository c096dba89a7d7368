"""Per-chat settings (language, who wants turn notices) and whether a user's private
messages are closed to the bot."""

from __future__ import annotations

from datetime import timedelta
from typing import cast

from .base import StoreBase, guarded
from .keys import Channel, ChatSettings, check_part

__all__ = ["Chats"]


def dms_key(platform: str, user_id: int | str) -> str:
    return f"fc:dms:{check_part('platform', platform)}:{check_part('user', str(user_id))}"


class Chats(StoreBase):
    """Chat settings and closed private messages."""

    @guarded
    async def chat_settings(self, channel: Channel) -> ChatSettings:
        client = await self._client()
        fields = cast(dict[str, str], await client.hgetall(channel.settings_key))
        notify = {
            name.removeprefix("notify:"): value == "1"
            for name, value in fields.items()
            if name.startswith("notify:")
        }
        return ChatSettings(
            language=fields.get("language"),
            notify=notify,
            table_language=fields.get("table_language"),
        )

    @guarded
    async def set_chat_language(self, channel: Channel, language: str | None) -> None:
        client = await self._client()
        if language is None:
            await client.hdel(channel.settings_key, "language")
        else:
            await client.hset(channel.settings_key, "language", language)

    @guarded
    async def set_notify(self, channel: Channel, user_id: int | str, enabled: bool) -> None:
        field = f"notify:{check_part('user id', str(user_id))}"
        client = await self._client()
        await client.hset(channel.settings_key, field, "1" if enabled else "0")

    @guarded
    async def set_dms_closed(
        self, platform: str, user_id: int | str, at: float, *, keep: timedelta
    ) -> None:
        """Remember when the platform refused to let the bot write to the user privately;
        forgotten after `keep`, so a stale refusal never lingers."""
        seconds = max(1, int(keep.total_seconds()))
        client = await self._client()
        await client.set(dms_key(platform, user_id), repr(at), ex=seconds)

    @guarded
    async def clear_dms_closed(self, platform: str, user_id: int | str) -> None:
        client = await self._client()
        await client.delete(dms_key(platform, user_id))

    @guarded
    async def dms_closed_at(self, platform: str, user_id: int | str) -> float | None:
        client = await self._client()
        value = await client.get(dms_key(platform, user_id))
        return None if value is None else float(value)
