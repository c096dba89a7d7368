"""From the first layout (one Redis, channel keys untagged, one deadline set for all) to the
bucketed one of `keys`, at start-up, once: a marker (`fc:layout` = 2) makes every later run
a no-op. Each channel moves in one script, which can touch keys of any slot because the old
layout only ever existed on a single Redis; renaming keeps every expiry. Run it before any
process of the new version serves, and after every process of the old one has stopped.
"""

from __future__ import annotations

import logging
from collections import defaultdict

from redis.asyncio.cluster import RedisCluster

from .base import StoreBase, guarded
from .connecting import Client, Script
from .keys import LAYOUT, LAYOUT_KEY, Channel, Deadline

__all__ = ["CLAIMS_KEY", "DEADLINES_KEY", "Migration"]

# The first layout's deadline set and claims, for all channels at once.
DEADLINES_KEY = "fc:deadlines"
CLAIMS_KEY = "fc:claims"

log = logging.getLogger(__name__)

# KEYS: old deadlines, new deadlines, old claims, new claims, then (old key, new key) pairs.
# ARGV: the channel's deadline members. A key whose new name is taken stays where it is.
_MIGRATE = Script("""
for i = 5, #KEYS, 2 do
  if redis.call('EXISTS', KEYS[i]) == 1 and redis.call('EXISTS', KEYS[i + 1]) == 0 then
    redis.call('RENAME', KEYS[i], KEYS[i + 1])
  end
end
for _, member in ipairs(ARGV) do
  local score = redis.call('ZSCORE', KEYS[1], member)
  if score then
    redis.call('ZADD', KEYS[2], 'NX', score, member)
    redis.call('ZREM', KEYS[1], member)
  end
  local token = redis.call('HGET', KEYS[3], member)
  if token then
    redis.call('HSETNX', KEYS[4], member, token)
    redis.call('HDEL', KEYS[3], member)
  end
end
return 1
""")


async def _old_keys(client: Client) -> dict[Channel, list[tuple[str, str]]]:
    """Each channel's keys in the first layout, with their new names."""
    found: dict[Channel, list[tuple[str, str]]] = defaultdict(list)
    async for key in client.scan_iter(match="fc:*", count=1000):
        parts = str(key).split(":")
        if parts[1] in ("game", "chat", "last") and len(parts) == 4:
            channel = Channel(parts[2], parts[3])
            new = {"game": channel.game_key, "chat": channel.settings_key}.get(parts[1])
            found[channel].append((str(key), new or channel.last_key))
        elif parts[1] == "archive" and len(parts) == 5:
            channel = Channel(parts[2], parts[3])
            found[channel].append((str(key), channel.archive_key(parts[4])))
    return found


class Migration(StoreBase):
    """`migrate`, run at start-up."""

    @guarded
    async def migrate(self) -> int:
        """Move the first layout's keys into the bucketed one; returns how many channels
        moved. Idempotent: a second run, or a run on a migrated or empty store, changes no
        data. On a cluster there is nothing to migrate (the old layout needed one Redis)."""
        client = await self._client()
        if isinstance(client, RedisCluster) or await client.get(LAYOUT_KEY) == str(LAYOUT):
            return 0
        keys = await _old_keys(client)
        members: dict[Channel, list[str]] = defaultdict(list)
        for member in [*await client.zrange(DEADLINES_KEY, 0, -1), *await client.hkeys(CLAIMS_KEY)]:
            channel = Deadline._parse(str(member), 0.0).channel
            if member not in members[channel]:
                members[channel].append(str(member))
        channels = sorted(set(keys) | set(members), key=str)
        for channel in channels:
            pairs = [key for pair in keys.get(channel, []) for key in pair]
            fixed = [DEADLINES_KEY, channel.deadlines_key, CLAIMS_KEY, channel.claims_key]
            await _MIGRATE(client, [*fixed, *pairs], members.get(channel, []))
        await client.set(LAYOUT_KEY, LAYOUT)
        if channels:
            log.info("moved %d channel(s) to the bucketed key layout", len(channels))
        return len(channels)
