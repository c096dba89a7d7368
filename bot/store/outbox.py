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
from .plans import PostPlan

__all__ = ["POSTS_KEPT", "Outbox"]

POSTS_KEPT = 86400  # seconds a waiting reply is kept for its platform

# KEYS: posts, bucket deadlines. ARGV: a `PostPlan`, then the reply itself: a reply holds its
# pictures (about 150 KB), which cjson would decode for nothing (0.3 ms of Redis a post).
_POST = Script("""
local posts_key, deadlines_key = KEYS[1], KEYS[2]
local plan = cjson.decode(ARGV[1])
redis.call('RPUSH', posts_key, ARGV[2])
redis.call('EXPIRE', posts_key, plan.ttl)
redis.call('ZADD', deadlines_key, plan.due, plan.member)
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
        plan = PostPlan(due=repr(self._clock()), ttl=POSTS_KEPT, member=member)
        await _POST(client, keys, [plan.to_json(), reply])

    @guarded
    async def take(self, channel: Channel) -> list[str]:
        """The channel's waiting replies, oldest first; they are gone from Redis after."""
        client = await self._client()
        return [str(p) for p in cast(list[object], await _TAKE(client, [channel.posts_key], []))]
