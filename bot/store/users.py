"""Which channels each user plays in: `fc:user:<platform>:<user>`, a set of channel ids.

The index is derived from the games' `players` fields, never the other way round: its keys
lie in slots of their own, so no script can write them with the game. After a create, save,
archive or move the store updates it with plain commands, best effort. What a process that
died in between leaves wrong is repaired: `user_games` drops the channels whose stored table
no longer seats the user (an SREM never made), every save adds all its current players again
(an SADD never made), and `repair_user_index` re-adds every live game's players at start-up.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable

from .base import StoreBase, guarded
from .connecting import REDIS_ERRORS, Client
from .keys import GAME_PATTERN, Channel, check_part, user_key

__all__ = ["Users", "reindex"]

log = logging.getLogger(__name__)
_BATCH = 500


async def reindex(
    client: Client,
    platform: str,
    channel_id: str,
    add: Iterable[str] = (),
    remove: Iterable[str] = (),
) -> None:
    """Add the channel to the `add` users' indexes and drop it from the `remove` users',
    in one pipelined round trip. Never fails the write it follows: the repairs above fix
    whatever it could not do."""
    added = list(add)
    removed = [uid for uid in remove if uid not in added]
    if not removed and not added:
        return
    try:
        pipe = client.pipeline(transaction=False)
        for uid in removed:
            pipe.srem(user_key(platform, uid), channel_id)
        for uid in added:
            pipe.sadd(user_key(platform, uid), channel_id)
        await pipe.execute()
    except REDIS_ERRORS as err:
        log.warning("the user index of %s:%s is left to be repaired: %s", platform, channel_id, err)


def _seated(players: object, user: str) -> bool:
    if not isinstance(players, str):
        return False
    try:
        return user in json.loads(players)
    except ValueError:
        return False


class Users(StoreBase):
    """The user index: read with repair, and rebuilt at start-up."""

    @guarded
    async def user_games(self, platform: str, user_id: int | str) -> list[Channel]:
        """The channels where the user plays a live game, each checked against its table."""
        key = user_key(platform, user_id)
        user = check_part("user", str(user_id))
        client = await self._client()
        members = sorted(str(m) for m in await client.smembers(key))
        if not members:
            return []
        channels = [Channel(platform, member) for member in members]
        pipe = client.pipeline(transaction=False)
        for channel in channels:
            pipe.hget(channel.game_key, "players")
        seated = [_seated(players, user) for players in await pipe.execute()]
        stale = [c.channel_id for c, ok in zip(channels, seated, strict=True) if not ok]
        if stale:
            try:
                await client.srem(key, *stale)
            except REDIS_ERRORS as err:
                log.warning("stale entries of %s stay until the next read: %s", key, err)
        return [c for c, ok in zip(channels, seated, strict=True) if ok]

    @guarded
    async def repair_user_index(self) -> int:
        """Add every live game's channel to its players' indexes (scanning every master).
        Returns how many games were seen. Run at start-up: it undoes any SADD lost with a
        process that died right after a write."""
        client = await self._client()
        seen = 0
        batch: list[Channel] = []
        async for key in client.scan_iter(match=GAME_PATTERN, count=_BATCH):
            channel = Channel.of_game_key(str(key))
            if channel is not None:
                batch.append(channel)
            if len(batch) >= _BATCH:
                seen += await self._reindex_batch(client, batch)
                batch = []
        return seen + await self._reindex_batch(client, batch)

    async def _reindex_batch(self, client: Client, channels: list[Channel]) -> int:
        if not channels:
            return 0
        pipe = client.pipeline(transaction=False)
        for channel in channels:
            pipe.hget(channel.game_key, "players")
        adds = client.pipeline(transaction=False)
        for channel, players in zip(channels, await pipe.execute(), strict=True):
            if isinstance(players, str):
                for uid in json.loads(players):
                    adds.sadd(user_key(channel.platform, str(uid)), channel.channel_id)
        await adds.execute()
        return len(channels)
