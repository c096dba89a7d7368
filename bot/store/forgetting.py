"""What the live data holds of one person, removed when they ask to be forgotten: the ended
games' archives they sat at, their turn-notice settings, and their small per-user keys. Kept
results and ratings are rewritten and cleaned by the service (`bot.service.forget`)."""

from __future__ import annotations

import json

from .base import StoreBase, guarded
from .chats import dms_key
from .keys import check_part, user_key

__all__ = ["Forgetting"]

_BATCH = 500


class Forgetting(StoreBase):
    @guarded
    async def forget_user(self, platform: str, user_id: str) -> int:
        """Delete the archives of games the user sat at and their settings in every chat
        (SCAN on every master). Returns how many keys were changed."""
        user = check_part("user", user_id)
        platform = check_part("platform", platform)
        client = await self._client()
        changed = 0
        async for key in client.scan_iter(match=f"fc:{{*}}:archive:{platform}:*", count=_BATCH):
            players = await client.hget(str(key), "players")
            if isinstance(players, str) and user in json.loads(players):
                changed += int(await client.delete(str(key)))
        async for key in client.scan_iter(match=f"fc:{{*}}:chat:{platform}:*", count=_BATCH):
            changed += int(await client.hdel(str(key), f"notify:{user}"))
        changed += int(await client.delete(dms_key(platform, user)))
        changed += int(await client.delete(user_key(platform, user)))
        return changed
