"""From the first key layout (one Redis, untagged keys, one deadline set) to the bucketed one:
the old keys are written by the old store itself (`tests/legacy_store.py`), migrated at
start-up, then read, saved and fired through the new store. Every value, expiry, deadline
and claim survives, and a second run changes nothing."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta

import redis

import tests.legacy_store as legacy
from bot.__main__ import prepare
from bot.records.table import Seat, Table
from bot.service import GameService
from bot.store import Channel, Deadline, Store
from tests.test_service import settings

CHAN = Channel.of("discord", 1234567890)
OTHER = Channel.of("telegram", -1001234)
Snapshot = dict[bytes, tuple[bytes | None, bool]]


def record(n: int) -> str:
    return json.dumps({"move": n})


def snapshot(url: str) -> Snapshot:
    """Every key's serialized value, and whether it expires."""
    with redis.Redis.from_url(url) as client:
        return {
            key: (client.dump(key), client.pttl(key) > 0)
            for key in sorted(client.scan_iter(count=1000))
        }


async def write_first_layout(
    url: str, data: Callable[[int], str] = record
) -> tuple[legacy.GameRecord, legacy.Deadline, str]:
    """A live game with deadlines and a claim, an ended game, chat settings, a user index."""
    old = legacy.Store.from_url(url, archive_ttl=timedelta(days=30))
    try:
        chan = legacy.Channel.of("discord", 1234567890)
        other = legacy.Channel.of("telegram", -1001234)
        await old.create(chan, data(0), creator=1, players=[1, 2], language="fr")
        await old.save(chan, data(1), 1, players=[1, 2, 3], deadlines={"remind": 1000.5})
        await old.save(chan, data(2), 2, deadlines={"limit": 5000.25})
        await old.schedule(chan, "bot", 900.0)
        claimed = await old.lease(legacy.Deadline(chan, "bot", 900.0), 1200.0)
        assert claimed is not None
        ended = await old.create(other, data(0), creator=4, players=[4], language="de")
        await old.archive(other, 1, data=data(9), cancel_deadlines=["remind"])
        await old.set_chat_language(chan, "it")
        await old.set_notify(chan, 5, False)
        await old.set_notify(chan, 6, True)
        await old.set_dms_closed("discord", 7, 123.0, keep=timedelta(days=1))
        live = await old.load(chan)
        assert live is not None
        return live, claimed, ended.game_id
    finally:
        await old.close()


async def test_the_first_layout_is_migrated_whole_and_once(store: Store, redis_url: str) -> None:
    live, claimed, ended_id = await write_first_layout(redis_url)
    raw = store.client
    archive_ttl = await raw.pttl(f"fc:archive:telegram:-1001234:{ended_id}")
    last_ttl = await raw.pttl("fc:last:telegram:-1001234")
    assert archive_ttl > 0 and last_ttl > 0

    assert await store.migrate() == 2
    for first_layout in ("fc:game:*", "fc:chat:*", "fc:archive:*", "fc:last:*"):
        assert [key async for key in raw.scan_iter(match=first_layout)] == []
    assert not await raw.exists("fc:deadlines", "fc:claims")

    loaded = await store.load(CHAN)
    assert loaded is not None
    assert (loaded.game_id, loaded.version, loaded.data, loaded.players) == (
        live.game_id,
        3,
        record(2),
        ("1", "2", "3"),
    )
    assert (loaded.created, loaded.updated, loaded.creator, loaded.language) == (
        live.created,
        live.updated,
        "1",
        "fr",
    )
    assert await store.deadline(CHAN, "remind") == Deadline(CHAN, "remind", 1000.5)
    assert await store.deadline(CHAN, "limit") == Deadline(CHAN, "limit", 5000.25)
    assert await store.deadline(CHAN, "bot") == Deadline(CHAN, "bot", 1200.0)  # still leased
    assert await store.done(Deadline(CHAN, "bot", 1200.0, claimed.token)) is True

    ended = await store.last_archived(OTHER)
    assert ended is not None
    assert (ended.game_id, ended.version, ended.data, ended.language) == (
        ended_id,
        2,
        record(9),
        "de",
    )
    assert archive_ttl - 5000 < await raw.pttl(OTHER.archive_key(ended_id)) <= archive_ttl
    assert last_ttl - 5000 < await raw.pttl(OTHER.last_key) <= last_ttl

    chat = await store.chat_settings(CHAN)
    assert (chat.language, chat.notify) == ("it", {"5": False, "6": True})
    assert await store.user_games("discord", 3) == [CHAN]
    assert await store.user_games("telegram", 4) == []
    assert await store.dms_closed_at("discord", 7) == 123.0

    before = snapshot(redis_url)
    assert await store.migrate() == 0
    assert snapshot(redis_url) == before

    assert await store.save(CHAN, record(3), 3, deadlines={"remind": 2000.0}) == 4
    assert await store.due(now=6000.0) == [
        Deadline(CHAN, "remind", 2000.0),
        Deadline(CHAN, "limit", 5000.25),
    ]
    assert snapshot(redis_url) != before


def lobby(n: int) -> str:
    """A table waiting for players, as the service stores it."""
    return Table(creator="1", seats=[Seat(user_id="1", name=f"Ann {n}")]).model_dump_json()


async def test_start_up_migrates_and_repairs_the_index(store: Store, redis_url: str) -> None:
    await write_first_layout(redis_url, lobby)
    await store.client.delete("fc:user:discord:3")  # an SADD lost with a dead process
    service = GameService(store, settings())
    await prepare(service)
    assert await store.client.get("fc:layout") == "2"
    assert await store.user_games("discord", 3) == [CHAN]
    loaded = await store.load(CHAN)
    assert loaded is not None and loaded.data == lobby(2)


async def test_an_empty_or_current_store_keeps_its_data(store: Store, redis_url: str) -> None:
    assert await store.migrate() == 0
    assert set(snapshot(redis_url)) == {b"fc:layout"}

    await store.client.delete("fc:layout")
    await store.create(CHAN, record(0), creator=1, players=[1], language="en")
    await store.save(CHAN, record(1), 1, deadlines={"remind": 100.0})
    await store.set_chat_language(CHAN, "fr")
    before = snapshot(redis_url)
    assert await store.migrate() == 0
    after = snapshot(redis_url)
    assert after.pop(b"fc:layout")[1] is False  # the marker, for good
    assert after == before
