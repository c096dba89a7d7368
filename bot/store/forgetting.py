"""What the live data holds of one person, removed when they ask to be forgotten: their seat in
the ended games' archives (made anonymous by the service, which knows a table), their
turn-notice settings, their small per-user keys, and then Redis' files on disk. Kept results
and ratings are rewritten and cleaned by the service (`bot.service.forget`)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from ..exchange.buttons import channel_mark
from .base import StoreBase, guarded
from .chats import dms_key
from .connecting import REDIS_ERRORS, Script
from .files import rewrite_files
from .keys import Channel, check_part, user_ids, user_key
from .plans import ForgetArchivePlan
from .scripts import FORGET_ARCHIVE

__all__ = ["Archived", "Forgetting", "private_chats"]

_BATCH = 500
_FORGET_ARCHIVE = Script(FORGET_ARCHIVE)


def private_chats(user_id: str) -> tuple[str, ...]:
    """The ids a person's private chat with the bot has, which name them: on Telegram the chat
    is the person (its id is theirs), on the console it is `dm-<id>` (`channel_mark`: a
    digest for a name no button can spell). A Discord DM has an id of its own, which names
    nobody."""
    return tuple(dict.fromkeys((user_id, f"dm-{user_id}", channel_mark("dm-", user_id))))


@dataclass(frozen=True, slots=True)
class Archived:
    """An ended game's archive as read: its key, its chat, the table (JSON), who sat there
    and who opened it."""

    key: str
    channel: Channel
    data: str
    players: tuple[str, ...]
    creator: str


class Forgetting(StoreBase):
    @guarded
    async def archives_of(self, platform: str, user_id: str) -> list[Archived]:
        """The archives of the ended games the user sat at or opened (SCAN on every master)."""
        user = check_part("user", user_id)
        platform = check_part("platform", platform)
        client = await self._client()
        found = []
        async for key in client.scan_iter(match=f"fc:{{*}}:archive:{platform}:*", count=_BATCH):
            parts = str(key).split(":")
            data, players, creator = await client.hmget(str(key), ["data", "players", "creator"])
            if len(parts) != 6 or not isinstance(data, str) or not isinstance(players, str):
                continue
            sat = [str(uid) for uid in json.loads(players)]
            if user in sat or creator == user:
                channel = Channel(parts[3], parts[4])
                found.append(Archived(str(key), channel, data, tuple(sat), str(creator)))
        return found

    @guarded
    async def rewrite_archive(
        self, archived: Archived, data: str, players: Sequence[str], creator: str
    ) -> bool:
        """Replace the archive's table and people, if it is still as it was read (False if
        it changed, moved or expired meanwhile: read it again). It keeps its TTL."""
        client = await self._client()
        plan = ForgetArchivePlan(
            read=archived.data,
            data=data,
            players=json.dumps(user_ids(players)),
            creator=check_part("user", creator),
        )
        return bool(await _FORGET_ARCHIVE(client, [archived.key], [plan.to_json()]))

    @guarded
    async def drop_archive(self, archived: Archived) -> bool:
        """Delete an archive no table can be read from, if it is still as it was read."""
        client = await self._client()
        plan = ForgetArchivePlan(read=archived.data, data="")
        return bool(await _FORGET_ARCHIVE(client, [archived.key], [plan.to_json()]))

    @guarded
    async def forget_user(self, platform: str, user_id: str) -> int:
        """Delete the user's settings in every chat (SCAN on every master), the settings of
        their private chat with the bot whole (its key is named by their id), and their own
        keys. Returns how many keys were changed."""
        user = check_part("user", user_id)
        platform = check_part("platform", platform)
        client = await self._client()
        changed = 0
        own = private_chats(user)
        async for key in client.scan_iter(match=f"fc:{{*}}:chat:{platform}:*", count=_BATCH):
            if str(key).split(":")[-1] in own:
                changed += int(await client.delete(str(key)))
            else:
                changed += int(await client.hdel(str(key), f"notify:{user}"))
        changed += int(await client.delete(dms_key(platform, user)))
        changed += int(await client.delete(user_key(platform, user)))
        return changed

    async def rewrite_files(self, patience: float) -> bool:
        """Have Redis write its files on disk again without what was deleted (`files`),
        waiting up to `patience` seconds. False if any server did not, or Redis is away:
        never raises, since what was forgotten is gone from the data either way."""
        try:
            client = await self._client()
        except REDIS_ERRORS:
            return False
        return await rewrite_files(client, patience)
