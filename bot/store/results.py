"""Finished games' results, kept for good beside the games.

A result is written in the same step as its game's archive (`Games.archive`), in the channel's
slot, and listed there as not rated yet; whoever rates it (`Ratings.apply`) takes it off that
list afterwards. A reference names a result anywhere: `<platform>:<channel>:<game_id>`; a
channel's index lists references, so a chat that got a new id can list its old results too.
"""

from __future__ import annotations

from typing import cast

from .base import StoreBase, guarded
from .keys import BUCKETS, RESULT_PATTERN, Channel, check_part, unrated_key

__all__ = ["Results", "parse_ref"]

_BATCH = 500


def parse_ref(ref: str) -> tuple[Channel, str]:
    """The channel and game id of a result's reference (`ValueError` if it is not one)."""
    platform, channel_id, game_id = ref.split(":")
    return Channel(platform, channel_id), check_part("game_id", game_id)


class Results(StoreBase):
    """Read the kept results; list those not rated yet; rewrite one (a player forgotten)."""

    @guarded
    async def result(self, ref: str) -> str | None:
        """A kept result (JSON), None if there is none under that reference."""
        channel, game_id = parse_ref(ref)
        client = await self._client()
        text = await client.get(channel.result_key(game_id))
        return None if text is None else str(text)

    @guarded
    async def results(self, refs: list[str]) -> list[str | None]:
        """Several kept results at once, in the order asked."""
        if not refs:
            return []
        client = await self._client()
        pipe = client.pipeline(transaction=False)
        for ref in refs:
            channel, game_id = parse_ref(ref)
            pipe.get(channel.result_key(game_id))
        return [None if text is None else str(text) for text in await pipe.execute()]

    @guarded
    async def channel_results(self, channel: Channel, limit: int) -> list[str]:
        """References of the channel's last `limit` results, newest first (a chat that got a
        new id lists those of its old id too: `move_results`)."""
        client = await self._client()
        return [str(ref) for ref in await client.zrevrange(channel.results_key, 0, limit - 1)]

    @guarded
    async def move_results(self, old: Channel, new: Channel) -> int:
        """List the old id's results under the new id too (a Telegram group that became a
        supergroup keeps its history). Idempotent. Returns how many were listed."""
        client = await self._client()
        found = cast(
            list[tuple[str, float]], await client.zrange(old.results_key, 0, -1, withscores=True)
        )
        if found:
            await client.zadd(new.results_key, dict(found))
        return len(found)

    @guarded
    async def unrated(self) -> list[str]:
        """References of every result not rated yet, in all buckets."""
        client = await self._client()
        pipe = client.pipeline(transaction=False)
        for bucket in range(BUCKETS):
            pipe.smembers(unrated_key(bucket))
        return sorted(str(ref) for refs in await pipe.execute() for ref in refs)

    @guarded
    async def mark_rated(self, ref: str) -> None:
        channel, _ = parse_ref(ref)
        client = await self._client()
        await client.srem(channel.unrated_key, ref)

    @guarded
    async def all_results(self) -> list[str]:
        """The reference of every kept result (SCAN on every master)."""
        client = await self._client()
        found = []
        async for key in client.scan_iter(match=RESULT_PATTERN, count=_BATCH):
            parsed = Channel.of_result_key(str(key))
            if parsed is not None:
                found.append(f"{parsed[0]}:{parsed[1]}")
        return sorted(found)

    @guarded
    async def rewrite_result(self, ref: str, text: str) -> bool:
        """Replace a kept result (a player forgotten); False if it is not there."""
        channel, game_id = parse_ref(ref)
        client = await self._client()
        return bool(await client.set(channel.result_key(game_id), text, xx=True))
