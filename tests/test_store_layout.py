"""The key layout for a Redis Cluster: each channel's keys in its deadline bucket's slot, the
buckets spread over all slots, and calls that cover every master."""

from __future__ import annotations

import zlib

from redis.asyncio.cluster import RedisCluster
from redis.crc import key_slot

from bot.store import BUCKETS, Channel, Deadline, Store
from bot.store.keys import bucket_tags
from tests.redis_cluster import LocalCluster

BACKENDS = ("single", "cluster")
CHANNELS = [Channel.of("discord", 1000 + n) for n in range(40)]


def test_bucket_tags_spread_the_buckets_evenly_over_the_slots() -> None:
    tags = bucket_tags()
    assert len(tags) == len(set(tags)) == BUCKETS == 256
    for bucket, tag in enumerate(tags):
        assert "{" not in tag and "}" not in tag and ":" not in tag
        assert bucket * 64 <= key_slot(f"fc:{{{tag}}}:deadlines".encode()) < (bucket + 1) * 64
    # Fixed forever: stored games are found under these tags.
    assert tags[:4] == ("2b7", "14", "278", "10")
    assert tags[213] == "26"


def test_a_channels_keys_share_its_buckets_slot() -> None:
    for channel in [*CHANNELS, Channel.of("telegram", -100123), Channel.of("console", "t")]:
        assert channel.bucket == zlib.crc32(str(channel).encode()) % 256
        slots = {
            key_slot(key.encode())
            for key in (
                channel.game_key,
                channel.settings_key,
                channel.archive_key("abc"),
                channel.last_key,
                channel.moved_key,
                channel.deadlines_key,
                channel.claims_key,
            )
        }
        assert len(slots) == 1
        assert slots.pop() // 64 == channel.bucket
    assert Channel.of_game_key(CHANNELS[0].game_key) == CHANNELS[0]
    assert Channel.of_game_key(CHANNELS[0].archive_key("game")) is None


async def test_the_client_matches_the_server(store: Store, backend: str) -> None:
    assert isinstance(store.client, RedisCluster) == (backend == "cluster")


async def test_live_channels_and_due_cover_every_bucket(store: Store) -> None:
    for n, channel in enumerate(CHANNELS):
        await store.create(channel, "{}", creator=1, players=[1], language="en")
        await store.schedule(channel, "remind", 1000.0 - n)
    assert await store.live_channels() == sorted(CHANNELS, key=str)
    due = await store.due(now=1000.0, limit=5)
    assert due == [Deadline(CHANNELS[-1 - n], "remind", 961.0 + n) for n in range(5)]
    assert len(await store.due(now=1000.0)) == len(CHANNELS)
    assert len({channel.bucket for channel in CHANNELS}) > 30


async def test_the_games_are_spread_over_every_master(cluster: LocalCluster) -> None:
    store = Store.from_url(cluster.url)
    try:
        for channel in CHANNELS:
            await store.create(channel, "{}", creator=1, players=[1], language="en")
        masters = {cluster.master_of(channel.game_key).port for channel in CHANNELS}
        assert len(masters) == 3
        assert await store.live_channels() == sorted(CHANNELS, key=str)
    finally:
        await store.close()
