"""Replies waiting for their platform: a move made on a web page is told in its chat by the
process that runs that chat's platform, once.

The web process stores the reply (`post`) and sets the channel's `post` deadline due now, in
one step; the platform's deadline poller claims that deadline like any other, `take`s the
replies and delivers them. A list nobody takes (its platform is not served any more) expires.
"""

from __future__ import annotations

from typing import cast

from .base import StoreBase, guarded
from .connecting import Script
from .keys import Channel

__all__ = ["POSTS_KEPT", "Outbox"]

POSTS_KEPT = 86400  # seconds a waiting reply is kept for its platform

# KEYS: posts, bucket deadlines. ARGV: reply, due, ttl, deadline member.
_POST = Script("""
redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[4])
return 1
""")

# KEYS: posts. Replies every waiting reply, oldest first, and forgets them.
_TAKE = Script("""
local posts = redis.call('LRANGE', KEYS[1], 0, -1)
redis.call('DEL', KEYS[1])
return posts
""")


class Outbox(StoreBase):
    @guarded
    async def post(self, channel: Channel, reply: str) -> None:
        """Keep `reply` (the service's serialised `Reply`) for the channel's platform, and
        make its `post` deadline due now."""
        client = await self._client()
        keys = [channel.posts_key, channel.deadlines_key]
        member = channel.deadline_member("post")
        await _POST(client, keys, [reply, repr(self._clock()), POSTS_KEPT, member])

    @guarded
    async def take(self, channel: Channel) -> list[str]:
        """The channel's waiting replies, oldest first; they are gone from Redis after."""
        client = await self._client()
        return [str(p) for p in cast(list[object], await _TAKE(client, [channel.posts_key], []))]
