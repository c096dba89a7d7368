"""Details of the store that the broader store tests leave open, on one Redis and on a
Redis Cluster: the key layout computed afresh and which keys name a live game; what a bad
id, an oversized record and a version conflict say; the user index as Redis holds it (not
as `user_games` repairs it); a migration sharing its Redis with other applications' keys;
the connection settings, connecting once and letting go on close, the retry pauses; and the
wait for a replica after a save: who is asked, what is logged, when it is skipped."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import signal
import time
from contextlib import AbstractContextManager
from datetime import timedelta

import pytest
import redis
import redis.asyncio as aioredis
from redis.asyncio import BlockingConnectionPool
from redis.asyncio.cluster import RedisCluster
from redis.crc import key_slot
from redis.exceptions import ConnectionError as RedisConnectionError

import tests.legacy_store as legacy
from bot.local_redis.server import RedisServer
from bot.store import (
    MAX_CONNECTIONS,
    MAX_DATA_BYTES,
    Channel,
    Conflict,
    Deadline,
    Policy,
    Store,
)
from bot.store.connecting import Replicas
from bot.store.keys import bucket_tags
from tests.conftest import Pair
from tests.redis_cluster import LocalCluster

BACKENDS = ("single", "cluster")
CHAN = Channel.of("discord", 1234567890)
TELEGRAM = Channel.of("telegram", -1001234)


def test_the_bucket_tags_computed_afresh_are_the_fixed_ones() -> None:
    """Every process (and every version) must find the same tags: computed again from
    scratch, not from this process's cache, they are the ones the stored games are under."""
    fresh = bucket_tags.__wrapped__()
    assert fresh == bucket_tags()
    assert fresh[:4] == ("2b7", "14", "278", "10")
    assert fresh[213] == "26"
    for bucket, tag in enumerate(fresh):
        assert bucket * 64 <= key_slot(tag.encode()) < (bucket + 1) * 64


def test_only_a_live_games_key_names_a_channel() -> None:
    for channel in (CHAN, TELEGRAM, Channel.of("console", "t")):
        assert Channel.of_game_key(channel.game_key) == channel
        assert Channel.parse(str(channel)) == channel
        for other in (
            channel.settings_key,
            channel.last_key,
            channel.moved_key,
            channel.archive_key("abc"),
            channel.deadlines_key,
            channel.claims_key,
            f"fc:user:{channel.platform}:7",
        ):
            assert Channel.of_game_key(other) is None, other
    tag = bucket_tags()[CHAN.bucket]
    assert Channel.of_game_key(f"app:{{{tag}}}:game:discord:1") is None  # not the bot's
    assert Channel.of_game_key(f"fc:{{{tag}}}:game:discord") is None  # no channel id
    assert Channel.of_game_key(f"fc:{{{tag}}}:game:discord:1:old") is None


async def test_a_bad_key_part_is_refused_by_name(store: Store) -> None:
    """A separator or a space in an id would make keys ambiguous: refused before Redis is
    touched, saying which part is wrong."""

    def refused(part: str, value: str) -> AbstractContextManager[pytest.ExceptionInfo[ValueError]]:
        text = re.escape(f"{part} must be non-empty without ':' or spaces: {value!r}")
        return pytest.raises(ValueError, match=f"^{text}$")

    with refused("platform", ""):
        Channel("", "1")
    with refused("channel_id", "a:b"):
        Channel.of("discord", "a:b")
    with refused("kind", "re minder"):
        CHAN.deadline_member("re minder")
    with refused("user id", "a b"):
        await store.create(CHAN, "{}", creator=1, players=[1, "a b"], language="en")
    with refused("platform", "tele:gram"):
        await store.user_games("tele:gram", 1)
    with refused("user", ""):
        await store.user_games("discord", "")
    with refused("platform", "dis cord"):
        await store.set_dms_closed("dis cord", 1, 10.0, keep=timedelta(days=1))
    with refused("user", "7:8"):
        await store.dms_closed_at("discord", "7:8")
    assert await store.load(CHAN) is None
    assert [key async for key in store.client.scan_iter(match="fc:*")] == []


async def test_a_record_may_fill_the_limit_but_not_one_byte_more(store: Store) -> None:
    """The limit is on the stored bytes (UTF-8), not on characters."""
    full = "x" * MAX_DATA_BYTES
    await store.create(CHAN, full, creator=1, players=[1], language="en")
    over = "é" * (MAX_DATA_BYTES // 2) + "x"  # fewer characters, one byte too many
    with pytest.raises(ValueError, match=f"^game record of {MAX_DATA_BYTES + 1} bytes exceeds "):
        await store.save(CHAN, over, 1)
    loaded = await store.load(CHAN)
    assert loaded is not None and (loaded.version, loaded.data) == (1, full)


async def test_a_stale_save_says_which_versions_differ(store: Store) -> None:
    await store.create(CHAN, "{}", creator=1, players=[1], language="en")
    assert await store.save(CHAN, "{1}", 1) == 2
    with pytest.raises(Conflict) as info:
        await store.save(CHAN, "{other}", 1)
    assert str(info.value) == "discord:1234567890: expected version 1, found 2"
    assert (info.value.channel, info.value.expected, info.value.current) == (CHAN, 1, 2)


async def test_repairing_the_index_of_an_empty_store_sees_no_game(store: Store) -> None:
    assert await store.repair_user_index() == 0
    await store.create(CHAN, "{}", creator=1, players=[1, 2], language="en")
    await store.create(TELEGRAM, "{}", creator=3, players=[3], language="en")
    await store.client.delete("fc:user:discord:2", "fc:user:telegram:3")
    assert await store.repair_user_index() == 2
    assert await store.user_games("discord", 2) == [CHAN]
    assert await store.user_games("telegram", 3) == [TELEGRAM]


async def test_a_table_whose_players_cannot_be_read_is_nobodys(store: Store) -> None:
    await store.create(CHAN, "{}", creator=1, players=[1, 2], language="en")
    await store.create(TELEGRAM, "{}", creator=1, players=[1], language="en")
    await store.client.hset(CHAN.game_key, "players", "[1, 2")  # cut short
    assert await store.user_games("discord", 1) == []
    assert await store.client.smembers("fc:user:discord:1") == set()
    assert await store.user_games("telegram", 1) == [TELEGRAM]


async def index_of(store: Store, platform: str, user: int) -> set[str]:
    """What the user index holds, read raw (`user_games` would repair it)."""
    return {str(m) for m in await store.client.smembers(f"fc:user:{platform}:{user}")}


async def test_the_index_follows_the_seats_and_the_end_of_a_game(store: Store) -> None:
    await store.create(CHAN, "{}", creator=1, players=[1, 2], language="en")
    assert [await index_of(store, "discord", u) for u in (1, 2, 3)] == [
        {CHAN.channel_id},
        {CHAN.channel_id},
        set(),
    ]
    assert await store.save(CHAN, "{1}", 1, players=[1, 3]) == 2
    assert [await index_of(store, "discord", u) for u in (1, 2, 3)] == [
        {CHAN.channel_id},
        set(),
        {CHAN.channel_id},
    ]
    await store.archive(CHAN)
    assert [await index_of(store, "discord", u) for u in (1, 2, 3)] == [set()] * 3


async def test_a_failed_index_update_never_fails_the_game(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    await store.client.set("fc:user:discord:2", "not a set")  # SADD on it fails
    with caplog.at_level(logging.WARNING, logger="bot.store"):
        created = await store.create(CHAN, "{}", creator=1, players=[1, 2], language="en")
    assert created.version == 1 and created.players == ("1", "2")
    loaded = await store.load(CHAN)
    assert loaded == created
    assert await index_of(store, "discord", 1) == {CHAN.channel_id}
    [warning] = warnings_of(caplog)
    assert warning.startswith("the user index of discord:1234567890 is left to be repaired: ")
    assert "WRONGTYPE" in warning


async def test_deadlines_due_at_once_come_by_channel_not_by_bucket(store: Store) -> None:
    """Ties are broken by the deadline itself (channel, then kind), never by where the
    layout happens to store it, and `limit` cuts that order."""
    assert TELEGRAM.bucket < CHAN.bucket and str(CHAN) < str(TELEGRAM)
    for channel in (TELEGRAM, CHAN):
        await store.schedule(channel, "remind", 100.0)
        await store.schedule(channel, "limit", 100.0)
    assert await store.due(now=100.0) == [
        Deadline(CHAN, "limit", 100.0),
        Deadline(CHAN, "remind", 100.0),
        Deadline(TELEGRAM, "limit", 100.0),
        Deadline(TELEGRAM, "remind", 100.0),
    ]
    assert await store.due(now=100.0, limit=1) == [Deadline(CHAN, "limit", 100.0)]


async def test_more_calls_at_once_than_connections_all_succeed(store: Store) -> None:
    """A burst (hundreds of autocompletes) waits for free connections instead of failing."""
    await store.create(CHAN, "{}", creator=1, players=[1], language="en")
    loaded = await asyncio.gather(*(store.load(CHAN) for _ in range(3 * MAX_CONNECTIONS)))
    assert all(game is not None and game.version == 1 for game in loaded)


async def test_a_store_made_from_a_url_keeps_its_clock_and_archive_lifetime(
    redis_url: str,
) -> None:
    timed = Store.from_url(redis_url, archive_ttl=timedelta(seconds=1), clock=lambda: 1000.0)
    try:
        created = await timed.create(CHAN, "{}", creator=1, players=[1], language="en")
        assert (created.created, created.updated) == (1000.0, 1000.0)
        key = await timed.archive(CHAN)  # kept one second: read its lifetime at once
        assert 0 < await timed.client.pttl(key) <= 1000
        assert 0 < await timed.client.pttl(CHAN.last_key) <= 1000
    finally:
        await timed.close()


async def test_many_first_calls_at_once_connect_once(redis_server: RedisServer) -> None:
    fresh = Store.from_url(redis_server.url)
    try:
        calls_since_last(redis_server)
        assert await asyncio.gather(*(fresh.ping() for _ in range(20))) == [True] * 20
        assert calls_since_last(redis_server)[1] == 1  # one "INFO cluster": one client
    finally:
        await fresh.close()


def connected(server: RedisServer) -> int:
    """Clients connected to the server, apart from the one asking."""
    with redis.Redis.from_url(server.url, decode_responses=True) as client:
        return int(client.info("clients")["connected_clients"]) - 1


async def test_a_closed_store_lets_its_connections_go_and_can_connect_again(
    redis_server: RedisServer,
) -> None:
    before = connected(redis_server)
    fresh = Store.from_url(redis_server.url)
    try:
        await asyncio.gather(*(fresh.ping() for _ in range(5)))
        assert connected(redis_server) > before
        held = fresh.client  # a tool still holding the client does not keep them open
        await fresh.close()
        deadline = time.monotonic() + 5
        while connected(redis_server) != before:
            assert time.monotonic() < deadline, "the store's connections stayed open"
            await asyncio.sleep(0.02)
        assert await fresh.ping() is True
        assert fresh.client is not held
        assert connected(redis_server) > before
    finally:
        await fresh.close()


async def test_a_dropped_connection_is_retried_after_short_growing_pauses(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """So an outage is reported within seconds: pauses from a tenth of a second, doubling,
    never longer than half a second (with the longest jitter)."""
    pauses: list[float] = []

    async def pause(seconds: float) -> None:
        pauses.append(seconds)

    attempts = 0

    async def dropped() -> None:
        nonlocal attempts
        attempts += 1
        raise RedisConnectionError("dropped")

    async def failed(error: Exception) -> None:
        pass

    monkeypatch.setattr("redis.asyncio.retry.sleep", pause)
    monkeypatch.setattr("redis.backoff.random.random", lambda: 1.0)
    with pytest.raises(RedisConnectionError):
        await Policy(retries=5).retry().call_with_retry(dropped, failed)
    assert attempts == 6
    assert pauses == pytest.approx([0.1, 0.2, 0.4, 0.5, 0.5])


async def write_old_game(url: str) -> None:
    """A live game in the first key layout, written by the old store itself."""
    old = legacy.Store.from_url(url, archive_ttl=timedelta(days=30))
    try:
        chan = legacy.Channel.of("discord", 1234567890)
        await old.create(chan, "{0}", creator=1, players=[1, 2], language="fr")
    finally:
        await old.close()


async def test_a_migration_leaves_other_applications_keys_alone(
    redis_server: RedisServer, store: Store
) -> None:
    await write_old_game(redis_server.url)
    raw = store.client
    foreign = {
        "session": "a",  # no separator at all
        "other:game:discord:1": "b",  # shaped like the first layout, but not the bot's
        "app:chat:x:y": "c",
        "cache:archive:discord:1:2": "d",
    }
    await raw.mset(foreign)

    assert await store.migrate() == 1
    assert {key: await raw.get(key) for key in foreign} == foreign
    loaded = await store.load(CHAN)
    assert loaded is not None and (loaded.data, loaded.players) == ("{0}", ("1", "2"))
    assert not await raw.exists("fc:game:discord:1234567890")


async def scans(store: Store) -> int:
    stats = await store.client.info("commandstats")
    return int(stats.get("cmdstat_scan", {}).get("calls", 0))


async def test_a_migration_reads_a_big_keyspace_in_few_round_trips(
    redis_server: RedisServer, store: Store
) -> None:
    await write_old_game(redis_server.url)
    await store.client.mset({f"other:{n}": "x" for n in range(4000)})
    before = await scans(store)
    assert await store.migrate() == 1
    assert 1 <= await scans(store) - before <= 10
    loaded = await store.load(CHAN)
    assert loaded is not None and loaded.data == "{0}"


async def test_the_cluster_client_has_the_same_connection_settings(
    cluster: LocalCluster, redis_server: RedisServer
) -> None:
    """One REDIS_URL setting serves both: the cluster client's connections get the same
    timeouts, retries, connection limit and health checks as the single server's."""
    on_cluster = Store.from_url(cluster.url, timeout=1.5, retries=2)
    single = Store.from_url(redis_server.url, timeout=1.5, retries=2)
    try:
        await on_cluster.ping()
        await single.ping()
        client, plain = on_cluster.client, single.client
        assert isinstance(client, RedisCluster) and not isinstance(plain, RedisCluster)
        pool = plain.connection_pool
        assert pool.max_connections == MAX_CONNECTIONS
        assert isinstance(pool, BlockingConnectionPool)
        assert pool.timeout == 1.5  # a burst of calls waits that long for a free connection
        assert pool.connection_kwargs["retry"].get_retries() == 2
        wanted = {
            "socket_timeout": 1.5,
            "socket_connect_timeout": 1.5,
            "health_check_interval": pool.connection_kwargs["health_check_interval"],
        }
        assert wanted["health_check_interval"] > 0
        assert {name: pool.connection_kwargs[name] for name in wanted} == wanted
        nodes = client.get_nodes()
        assert len(nodes) >= 3
        for node in nodes:
            assert node.max_connections == MAX_CONNECTIONS
            assert {name: node.connection_kwargs[name] for name in wanted} == wanted
        assert client.retry.get_retries() == 2
    finally:
        await on_cluster.close()
        await single.close()


async def test_a_store_from_a_bare_url_uses_the_default_policy(redis_server: RedisServer) -> None:
    """The bot builds its store from REDIS_URL alone: it gets the same policy as a store
    made around a client elsewhere (`Policy()`)."""
    store = Store.from_url(redis_server.url)
    try:
        await store.ping()
        client = store.client
        assert not isinstance(client, RedisCluster)
        pool = client.connection_pool
        assert isinstance(pool, BlockingConnectionPool)
        policy = Policy()
        assert (
            pool.timeout,
            pool.connection_kwargs["socket_timeout"],
            pool.connection_kwargs["socket_connect_timeout"],
            pool.connection_kwargs["retry"].get_retries(),
        ) == (policy.timeout, policy.timeout, policy.timeout, policy.retries)
    finally:
        await store.close()


def version_on(port: int, *, cluster: bool = False) -> str | None:
    with redis.Redis(port=port, decode_responses=True) as client:
        if cluster:
            client.execute_command("READONLY")
        value = client.hget(CHAN.game_key, "version")
    return None if value is None else str(value)


def caught_up(replica: RedisServer, version: int, *, cluster: bool = False) -> None:
    deadline = time.monotonic() + 10
    while version_on(replica.port, cluster=cluster) != str(version):
        assert time.monotonic() < deadline, "the replica did not catch up"
        time.sleep(0.02)


def warnings_of(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]


def calls_since_last(server: RedisServer) -> tuple[int, int]:
    """The WAIT and INFO commands the server ran since the last call."""
    with redis.Redis.from_url(server.url, decode_responses=True) as client:
        stats = client.info("commandstats")
        client.config_resetstat()
    wait, info = (
        int(stats.get(f"cmdstat_{name}", {}).get("calls", 0)) for name in ("wait", "info")
    )
    return wait, info


async def test_a_late_replica_is_logged_then_its_master_checked_again(
    replicated: Pair, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whether the master has a replica is asked at most every `REFRESH` seconds; after a
    WAIT that timed out (100 ms unless told otherwise, docs/operations.md), saves stop
    waiting on it until that next check, then wait again.

    The store under test waits up to 2 s: a healthy replica acknowledges long before that
    even on a busy machine, while 100 ms (the other process's) it may not."""
    monkeypatch.setattr(Replicas, "REFRESH", 60.0)
    master, replica = replicated
    store = Store.from_url(master.url, replica_wait=2.0)
    on_client = Store(aioredis.Redis.from_url(master.url, decode_responses=True))
    hasty = Store.from_url(master.url, replica_wait=0)  # still waits a little: WAIT 0 never ends
    try:
        await store.create(CHAN, "{}", creator=1, players=[1], language="en")
        with caplog.at_level(logging.WARNING, logger="bot.store"):
            assert await store.save(CHAN, "{1}", 1) == 2  # the replica is found: waited for
            assert version_on(replica.port) == "2"
            calls_since_last(master)
            assert await store.save(CHAN, "{2}", 2) == 3
            assert await store.save(CHAN, "{3}", 3) == 4
            assert calls_since_last(master) == (2, 0)  # both waited, nothing asked again
            assert version_on(replica.port) == "4"
            assert await store.save(CHAN, "{4}", 4) == 5
            assert version_on(replica.port) == "5"
        assert warnings_of(caplog) == []  # each returned once the replica had it

        assert replica.pid is not None
        calls_since_last(master)
        os.kill(replica.pid, signal.SIGSTOP)  # alive to the master, acknowledges nothing
        try:
            with caplog.at_level(logging.WARNING, logger="bot.store"):
                assert await store.save(CHAN, "{5}", 5) == 6
                late = time.monotonic()
                assert await store.save(CHAN, "{6}", 6) == 7  # not waited for
                assert await on_client.save(CHAN, "{7}", 7) == 8  # another process: waits
                assert await hasty.save(CHAN, "{8}", 8) == 9
            assert calls_since_last(master) == (3, 3)  # hasty also asked "INFO cluster"
        finally:
            os.kill(replica.pid, signal.SIGCONT)
        message = (
            "no replica of the Redis master acknowledged a saved move within {} ms (0): "
            "moves on it are not waited for until the next check"
        )
        assert warnings_of(caplog) == [message.format(2000), message.format(100), message.format(1)]
        caught_up(replica, 9)
        monkeypatch.setattr(Replicas, "REFRESH", 0.3)
        time.sleep(max(0.0, late + 0.4 - time.monotonic()))
        assert await store.save(CHAN, "{9}", 9) == 10  # checked again: waited for
        assert calls_since_last(master) == (1, 1)
        assert version_on(replica.port) == "10"
        assert len(warnings_of(caplog)) == 3  # it had the move in time
    finally:
        await store.close()
        await on_client.close()
        await hasty.close()


async def test_on_a_cluster_the_keys_master_is_asked_waited_on_and_skipped(
    cluster: LocalCluster, caplog: pytest.LogCaptureFixture
) -> None:
    """The master owning the game's key (not the node the URL names) is asked whether it
    has a replica and waited on; once its replica is late, only that master is skipped.
    The store waits up to 2 s, which a healthy replica meets even on a busy machine."""
    master = cluster.master_of(CHAN.game_key)
    replica = cluster.replica_of(master)
    other = cluster.master_of(TELEGRAM.game_key)
    assert master.port not in (cluster.ports[0], other.port)
    store = Store.from_url(cluster.url, replica_wait=2.0)
    try:
        with caplog.at_level(logging.WARNING, logger="bot.store"):
            calls_since_last(master)
            await store.create(CHAN, "{}", creator=1, players=[1], language="en")
            await store.create(TELEGRAM, "{}", creator=1, players=[1], language="en")
            assert await store.save(TELEGRAM, "{1}", 1) == 2
            assert await store.save(CHAN, "{1}", 1) == 2
            assert calls_since_last(master) == (2, 1)  # the new table and its save, asked once
            assert version_on(replica.port, cluster=True) == "2"
            assert await store.save(CHAN, "{2}", 2) == 3  # returns once the replica has it
            assert version_on(replica.port, cluster=True) == "3"
        assert warnings_of(caplog) == []

        assert replica.pid is not None
        calls_since_last(master)
        calls_since_last(other)
        os.kill(replica.pid, signal.SIGSTOP)  # alive to the master, acknowledges nothing
        try:
            with caplog.at_level(logging.WARNING, logger="bot.store"):
                assert await store.save(CHAN, "{3}", 3) == 4
                assert await store.save(CHAN, "{4}", 4) == 5  # that master is not waited on
                assert await store.save(TELEGRAM, "{2}", 2) == 3  # another master still is
            assert calls_since_last(master) == (1, 0)
            assert calls_since_last(other) == (1, 0)
        finally:
            os.kill(replica.pid, signal.SIGCONT)
        caught_up(replica, 5, cluster=True)
        assert warnings_of(caplog) == [
            f"no replica of 127.0.0.1:{master.port} acknowledged a saved move within 2000 ms "
            "(0): moves on it are not waited for until the next check"
        ]
        loaded = await store.load(CHAN)
        assert loaded is not None and (loaded.version, loaded.data) == (5, "{4}")
    finally:
        await store.close()
