"""Which tables change, as they change: the write scripts publish each table they write
(`scripts.CHANGES`), and a listener here hears them all, whichever process wrote.

A subscription can drop (Redis restarted, a cluster node failed over). What was published
meanwhile is lost, so after every new subscription the listener says `EVERY`: whoever
follows tables reads them all again instead of trusting it heard everything.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator

from redis.asyncio.client import PubSub
from redis.asyncio.cluster import ClusterPubSub, RedisCluster
from redis.exceptions import RedisError

from .base import StoreBase
from .keys import Channel
from .scripts import CHANGES

__all__ = ["EVERY", "Changes"]

log = logging.getLogger(__name__)

EVERY = None  # "any table may have changed": said after (re)subscribing
RETRY = 1.0  # seconds between attempts to subscribe again


def _end_if_cancelled() -> None:
    """A cancel that lands as a read's own timeout expires comes back from redis-py as
    "no message" (the timeout's exit takes it for its own): without this check the listener
    would read on, and whoever waits for it to end (a stopping server, a closing event loop)
    would wait for ever."""
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError


class Changes(StoreBase):
    async def changes(self, *, poll: float = 5.0) -> AsyncIterator[Channel | None]:
        """Each table written from now on, by any process, as its channel; `EVERY` first and
        after each new subscription. Runs until cancelled; Redis away only pauses it."""
        while True:
            try:
                client = await self._connector.get()
                pubsub: PubSub | ClusterPubSub = (
                    client.pubsub(node=client.get_random_node())
                    if isinstance(client, RedisCluster)
                    else client.pubsub()
                )
                try:
                    await pubsub.subscribe(CHANGES)
                    yield EVERY
                    while True:
                        message = await pubsub.get_message(
                            ignore_subscribe_messages=True, timeout=poll
                        )
                        _end_if_cancelled()
                        if message is None or message.get("type") != "message":
                            continue
                        try:
                            channel = Channel.parse(str(message["data"]))
                        except ValueError:
                            log.warning("a change message named no table")
                            continue
                        yield channel
                finally:
                    await asyncio.shield(pubsub.aclose())
            except (RedisError, OSError) as exc:
                log.info("table changes unheard for now (%s); subscribing again", exc)
                await asyncio.sleep(RETRY)
