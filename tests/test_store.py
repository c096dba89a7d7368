"""The Redis store against a real redis-server and a real Redis Cluster (see conftest.py)."""

from __future__ import annotations

import asyncio
import json
import time
from datetime import timedelta

import pytest
from redis.crc import key_slot

from bot import store as store_module
from bot.store import (
    AlreadyExists,
    Channel,
    Conflict,
    Deadline,
    NotFound,
    Store,
    StoreUnavailable,
)
from tests.conftest import RedisServerFactory

BACKENDS = ("single", "cluster")
CHAN = Channel.of("discord", 1234567890)
OTHER = Channel.of("telegram", -1001234)


def record(n: int) -> str:
    """A stand-in for the engine's JSON record; the store treats it as opaque."""
    return json.dumps({"move": n, "log": [f"action {i}" for i in range(n)]})


async def test_create_load_round_trip(store: Store) -> None:
    created = await store.create(
        CHAN, record(0), creator=11, players=[11, 22, 22, "33"], language="fr"
    )
    assert created.version == 1
    assert created.players == ("11", "22", "33")

    loaded = await store.load(CHAN)
    assert loaded == created
    assert loaded.data == record(0)
    assert loaded.creator == "11"
    assert loaded.language == "fr"
    assert loaded.created == loaded.updated
    assert await store.load(OTHER) is None
    assert await store.user_games("discord", 22) == [CHAN]
    assert await store.user_games("telegram", 22) == []


async def test_create_twice_is_refused_and_keeps_the_first(store: Store) -> None:
    await store.create(CHAN, record(0), creator=1, players=[1, 2], language="en")
    with pytest.raises(AlreadyExists):
        await store.create(CHAN, record(9), creator=3, players=[3], language="de")
    loaded = await store.load(CHAN)
    assert loaded is not None
    assert (loaded.data, loaded.creator, loaded.players) == (record(0), "1", ("1", "2"))
    assert await store.user_games("discord", 3) == []


async def test_save_bumps_version_and_refuses_stale_versions(store: Store) -> None:
    ticks = iter([100.0, 200.0, 300.0])
    timed = Store(store.client, clock=lambda: next(ticks))
    await timed.create(CHAN, record(0), creator=1, players=[1, 2], language="en")

    assert await timed.save(CHAN, record(1), expected_version=1) == 2
    with pytest.raises(Conflict) as info:
        await timed.save(CHAN, record(99), expected_version=1)
    assert (info.value.expected, info.value.current) == (1, 2)

    loaded = await timed.load(CHAN)
    assert loaded is not None
    assert (loaded.version, loaded.data) == (2, record(1))
    assert (loaded.created, loaded.updated) == (100.0, 200.0)


async def test_save_of_a_missing_game_is_not_found(store: Store) -> None:
    with pytest.raises(NotFound):
        await store.save(CHAN, record(1), expected_version=1)
    assert await store.load(CHAN) is None


async def test_save_with_players_updates_the_user_index(store: Store) -> None:
    await store.create(CHAN, record(0), creator=1, players=[1, 2, 3], language="en")
    await store.save(CHAN, record(1), expected_version=1, players=[1, 3, 4])
    assert [await store.user_games("discord", u) for u in (1, 2, 3, 4)] == [
        [CHAN],
        [],
        [CHAN],
        [CHAN],
    ]
    loaded = await store.load(CHAN)
    assert loaded is not None
    assert loaded.players == ("1", "3", "4")


async def test_fifty_simultaneous_identical_saves_apply_once(store: Store, redis_url: str) -> None:
    await store.create(CHAN, record(0), creator=1, players=[1, 2], language="en")
    # Several stores = several connection pools, like several processes.
    stores = [Store.from_url(redis_url) for _ in range(5)]
    try:
        results = await asyncio.gather(
            *(stores[i % 5].save(CHAN, record(1), 1) for i in range(50)),
            return_exceptions=True,
        )
    finally:
        for s in stores:
            await s.close()
    assert results.count(2) == 1
    conflicts = [r for r in results if isinstance(r, Conflict)]
    assert len(conflicts) == 49
    assert all(c.current == 2 for c in conflicts)
    loaded = await store.load(CHAN)
    assert loaded is not None
    assert loaded.version == 2


async def test_a_retried_save_is_recognised_as_already_applied(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """redis-py may resend a script whose reply was lost; the resend must not conflict
    with its own first attempt, while a genuinely different writer still does."""
    await store.create(CHAN, record(0), creator=1, players=[1], language="en")

    class FixedUuid:
        hex = "same-operation"

    monkeypatch.setattr("uuid.uuid4", lambda: FixedUuid())
    assert await store.save(CHAN, record(1), expected_version=1) == 2
    assert await store.save(CHAN, record(1), expected_version=1) == 2  # the resend
    monkeypatch.undo()
    with pytest.raises(Conflict):
        await store.save(CHAN, record(1), expected_version=1)
    loaded = await store.load(CHAN)
    assert loaded is not None
    assert loaded.version == 2


async def test_archive_moves_the_game_with_a_ttl_and_frees_the_channel(store: Store) -> None:
    archiving = Store(store.client, archive_ttl=timedelta(days=30))
    game = await archiving.create(CHAN, record(0), creator=1, players=[1, 2], language="it")
    await archiving.save(CHAN, record(5), expected_version=1)
    await archiving.create(OTHER, record(0), creator=2, players=[2], language="en")
    await archiving.schedule(CHAN, "reminder", time.time() + 60)
    await archiving.schedule(CHAN, "limit", time.time() + 60)
    await archiving.schedule(OTHER, "reminder", time.time() + 60)

    with pytest.raises(Conflict):
        await archiving.archive(CHAN, expected_version=1)
    assert await archiving.load(CHAN) is not None

    key = await archiving.archive(CHAN, expected_version=2, cancel_deadlines=["reminder", "limit"])
    assert key == f"fc:{{26}}:archive:discord:1234567890:{game.game_id}"
    assert await archiving.load(CHAN) is None
    ttl = await store.client.ttl(key)
    assert 30 * 86400 - 60 < ttl <= 30 * 86400
    archived = await archiving.load_archived(CHAN, game.game_id)
    assert archived is not None
    assert (archived.version, archived.data, archived.language) == (2, record(5), "it")
    assert await archiving.user_games("discord", 1) == []
    assert await archiving.user_games("discord", 2) == []
    assert await archiving.user_games("telegram", 2) == [OTHER]
    assert await archiving.deadline(CHAN, "reminder") is None
    assert await archiving.deadline(CHAN, "limit") is None
    assert await archiving.deadline(OTHER, "reminder") is not None

    with pytest.raises(NotFound):
        await archiving.archive(CHAN)
    again = await archiving.create(CHAN, record(0), creator=3, players=[3], language="en")
    assert again.game_id != game.game_id
    assert await archiving.user_games("discord", 3) == [CHAN]


async def test_deadlines_due_in_order(store: Store) -> None:
    await store.schedule(CHAN, "limit", 300.0)
    await store.schedule(OTHER, "reminder", 100.0)
    await store.schedule(CHAN, "reminder", 200.0)
    await store.schedule(OTHER, "limit", 900.0)
    assert await store.due(now=300.0) == [
        Deadline(OTHER, "reminder", 100.0),
        Deadline(CHAN, "reminder", 200.0),
        Deadline(CHAN, "limit", 300.0),
    ]
    assert await store.due(now=99.0) == []
    assert await store.cancel(CHAN, "limit") is True
    assert await store.cancel(CHAN, "limit") is False
    assert [d.kind for d in await store.due(now=300.0)] == ["reminder", "reminder"]


async def test_a_deadline_is_claimed_once_across_store_instances(
    store: Store, redis_url: str
) -> None:
    due = time.time() - 1.2345678901
    await store.schedule(CHAN, "reminder", due)
    first, second = Store.from_url(redis_url), Store.from_url(redis_url)
    try:
        seen_first, seen_second = await first.due(), await second.due()
        assert seen_first == seen_second == [Deadline(CHAN, "reminder", due)]
        wins = await asyncio.gather(*(s.claim(d) for s in (first, second) for d in seen_first * 10))
        assert wins.count(True) == 1
        assert await first.due() == []
        assert await second.claim(seen_second[0]) is False
    finally:
        await first.close()
        await second.close()


async def test_a_moved_deadline_cannot_be_claimed_at_its_old_time(store: Store) -> None:
    old = await store.schedule(CHAN, "reminder", 100.0)
    new = await store.schedule(CHAN, "reminder", 500.0)
    assert await store.claim(old) is False
    assert await store.deadline(CHAN, "reminder") == new
    assert await store.claim(new) is True


async def test_chat_settings(store: Store) -> None:
    empty = await store.chat_settings(CHAN)
    assert empty.language is None
    assert empty.notify_enabled(5) is True
    await store.set_chat_language(CHAN, "de")
    await store.set_notify(CHAN, 5, False)
    await store.set_notify(CHAN, 6, True)
    settings = await store.chat_settings(CHAN)
    assert settings.language == "de"
    assert (settings.notify_enabled(5), settings.notify_enabled(6)) == (False, True)
    assert (await store.chat_settings(OTHER)).language is None
    await store.set_chat_language(CHAN, None)
    assert (await store.chat_settings(CHAN)).language is None


async def test_a_stored_game_stays_small(store: Store) -> None:
    data = record(250)
    assert 2000 < len(data) < 4000
    await store.create(CHAN, data, creator=1, players=[1, 2, 3, 4], language="en")
    usage = await store.client.memory_usage(CHAN.game_key, samples=0)  # exact, not sampled
    assert usage is not None
    assert usage < len(data) + 2048  # the metadata fields cost about 1 KB


async def test_oversized_records_are_refused_before_writing(store: Store) -> None:
    with pytest.raises(ValueError):
        await store.create(
            CHAN, "x" * (store_module.MAX_DATA_BYTES + 1), creator=1, players=[1], language="en"
        )
    assert await store.load(CHAN) is None


def test_keys_reject_separators() -> None:
    with pytest.raises(ValueError):
        Channel("discord", "a:b")
    with pytest.raises(ValueError):
        Channel("", "1")
    with pytest.raises(ValueError):
        CHAN.deadline_member("re:minder")
    # Tagged with the channel's deadline bucket (crc32("discord:1234567890") % 256 == 213,
    # whose tag "26" lies in slots 213 * 64 ... 214 * 64 - 1), never with the channel id.
    assert CHAN.bucket == 213
    assert CHAN.game_key == "fc:{26}:game:discord:1234567890"
    assert CHAN.deadlines_key == "fc:{26}:deadlines"
    assert CHAN.claims_key == "fc:{26}:claims"
    assert 213 * 64 <= key_slot(CHAN.game_key.encode()) < 214 * 64
    assert OTHER.bucket == 63
    assert OTHER.game_key == "fc:{2d}:game:telegram:-1001234"
    assert OTHER.archive_key("g1") == "fc:{2d}:archive:telegram:-1001234:g1"


async def test_redis_down_then_back(redis_server_factory: RedisServerFactory) -> None:
    """An outage raises StoreUnavailable, writes nothing, and the same Store instance
    works again once Redis is back on the same socket, with the data intact."""
    server = redis_server_factory(persistent=True)
    server.start()
    store = Store.from_url(server.url, timeout=1, retries=1)
    try:
        await store.create(CHAN, record(0), creator=1, players=[1, 2], language="en")
        await store.save(CHAN, record(1), expected_version=1)
        await store.schedule(CHAN, "reminder", 100.0)
        server.stop()

        started = time.monotonic()
        with pytest.raises(StoreUnavailable):
            await store.save(CHAN, record(2), expected_version=2, players=[1, 3])
        with pytest.raises(StoreUnavailable):
            await store.create(OTHER, record(0), creator=1, players=[1], language="en")
        with pytest.raises(StoreUnavailable):
            await store.archive(CHAN)
        with pytest.raises(StoreUnavailable):
            await store.claim(Deadline(CHAN, "reminder", 100.0))
        with pytest.raises(StoreUnavailable):
            await store.load(CHAN)
        assert time.monotonic() - started < 30

        server.start()
        loaded = await store.load(CHAN)
        assert loaded is not None
        assert (loaded.version, loaded.data, loaded.players) == (2, record(1), ("1", "2"))
        assert await store.load(OTHER) is None
        assert await store.user_games("discord", 3) == []
        assert await store.due(now=100.0) == [Deadline(CHAN, "reminder", 100.0)]

        assert await store.save(CHAN, record(2), expected_version=2, players=[1, 3]) == 3
        assert await store.user_games("discord", 3) == [CHAN]
        assert await store.claim(Deadline(CHAN, "reminder", 100.0)) is True
    finally:
        await store.close()


async def test_unreachable_redis_from_the_start(redis_server_factory: RedisServerFactory) -> None:
    server = redis_server_factory()  # never started: the socket does not exist
    store = Store.from_url(server.url, timeout=1, retries=0)
    try:
        with pytest.raises(StoreUnavailable):
            await store.ping()
        with pytest.raises(StoreUnavailable):
            await store.due()
    finally:
        await store.close()
