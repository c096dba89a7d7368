"""Shared fixtures. Redis-backed tests use a real redis-server started here (never a fake),
so Lua scripts, expiries and reconnects behave as in production.

A test module that sets `BACKENDS = ("single", "cluster")` runs each of its Redis tests on
the single server and on a local Redis Cluster (started once, on first use); the others run
on the single server only, as do tests that ask for `redis_server` itself (its unix socket).
"""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path

import pytest
import redis

from bot.local_redis.server import RedisServer, find_redis_server, free_port
from bot.records import replayed
from bot.service import GameService
from bot.store import Store
from tests.fake_telegram import FakeBotApi
from tests.redis_cluster import LocalCluster
from tests.vendor import schemas

RedisServerFactory = Callable[..., RedisServer]
Pair = tuple[RedisServer, RedisServer]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    backends = getattr(metafunc.module, "BACKENDS", None)
    if backends is None or "backend" not in metafunc.fixturenames:
        return
    if "redis_server" in metafunc.fixturenames:
        backends = ("single",)
    metafunc.parametrize("backend", backends, indirect=True)


@pytest.fixture(autouse=True)
def refused_payloads() -> Iterator[None]:
    """A request the fake Discord or Telegram refused as breaking the platform's published
    schema fails the test that sent it, even if the bot swallowed the 400 it got."""
    schemas.take()
    yield
    violations = schemas.take()
    if violations:
        pytest.fail("requests the platform would refuse:\n" + "\n".join(map(str, violations)))


@pytest.fixture(autouse=True)
def no_kept_games() -> Iterator[None]:
    """Each test starts as a fresh process would: no game kept from another test's records
    (`bot.records.replayed`), so a test that changes how a record loads sees it replayed."""
    replayed.forget()
    yield
    replayed.forget()


def _short_tempdir() -> Path:
    # pytest's tmp_path can be too long for a unix socket path (~107 bytes).
    return Path(tempfile.mkdtemp(prefix="fcr-"))


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    """One throwaway server for the whole session, on a unix socket."""
    directory = _short_tempdir()
    server = RedisServer.for_tests(directory)
    server.start()
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture(scope="session")
def redis_cluster() -> Iterator[LocalCluster]:
    """One local cluster (three masters, one replica each) for the session, on loopback."""
    yield from _started_cluster()


@pytest.fixture
def cluster(redis_cluster: LocalCluster) -> LocalCluster:
    """The session cluster, emptied, for tests that only make sense on a cluster."""
    redis_cluster.flush()
    return redis_cluster


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """Which Redis the test's store talks to: "single" unless the module asks for more."""
    return str(getattr(request, "param", "single"))


@pytest.fixture
def redis_url(request: pytest.FixtureRequest, backend: str) -> Iterator[str]:
    """The session server's (or cluster's) URL, emptied before each test so tests don't see
    each other."""
    if backend == "cluster":
        cluster: LocalCluster = request.getfixturevalue("redis_cluster")
        cluster.flush()
        yield cluster.url
        return
    server: RedisServer = request.getfixturevalue("redis_server")
    with redis.Redis.from_url(server.url) as client:
        client.flushdb()
    yield server.url


@pytest.fixture
def redis_server_factory() -> Iterator[RedisServerFactory]:
    """Private servers a test may stop and restart (outages); all stopped afterwards.

    Not started: call `.start()`. Listens on a unix socket unless `tcp=True`.
    """
    made: list[tuple[RedisServer, Path]] = []

    def make(
        *,
        persistent: bool = False,
        tcp: bool = False,
        binary: Path | None = None,
        extra_args: tuple[str, ...] = (),
    ) -> RedisServer:
        directory = _short_tempdir()
        server = RedisServer(
            directory=directory,
            port=free_port() if tcp else 0,
            unix_socket=None if tcp else directory / "redis.sock",
            persistent=persistent,
            binary=binary or find_redis_server(),
            extra_args=extra_args,
        )
        made.append((server, directory))
        return server

    yield make
    for server, directory in made:
        server.stop()
        shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture
async def store(redis_url: str) -> AsyncIterator[Store]:
    """A store on the (emptied) session server or cluster, connected."""
    instance = Store.from_url(redis_url)
    await instance.ping()
    yield instance
    await instance.close()


Site = Callable[[GameService], Awaitable[str]]


@pytest.fixture
async def site() -> AsyncIterator[Site]:
    """Starts the web pages of a service on a free loopback port; returns their address."""
    from bot.web import serve

    stops: list[Callable[[], Awaitable[None]]] = []

    async def start(service: GameService) -> str:
        port = free_port()
        stops.append(await serve(service, "127.0.0.1", port))
        return f"http://127.0.0.1:{port}"

    yield start
    for stop in stops:
        await stop()


def fixed_seeds(first: int = 1) -> Callable[[], int]:
    """Deal seeds for `GameService(seeds=...)`: every run of a test plays the same games."""
    deals = iter(range(first, first + 1_000_000))
    return lambda: next(deals)


@pytest.fixture
async def api() -> AsyncIterator[FakeBotApi]:
    """A fake Telegram Bot API server on 127.0.0.1, recording every call."""
    server = FakeBotApi()
    await server.start()
    yield server
    await server.stop()


@pytest.fixture
def replicated(redis_server_factory: RedisServerFactory) -> Iterator[Pair]:
    """One master and its replica, linked and in sync."""
    master = redis_server_factory(tcp=True, extra_args=("--repl-diskless-sync-delay", "0"))
    master.start()
    replica = redis_server_factory(
        tcp=True,
        extra_args=("--replicaof", "127.0.0.1", str(master.port), "--replica-read-only", "yes"),
    )
    replica.start()
    deadline = time.monotonic() + 30
    with redis.Redis(port=replica.port, decode_responses=True) as client:
        while client.info("replication").get("master_link_status") != "up":
            assert time.monotonic() < deadline, "the replica did not sync"
            time.sleep(0.05)
    with redis.Redis(port=master.port, decode_responses=True) as client:  # and the master knows
        while client.info("replication").get("slave0", {}).get("state") != "online":
            assert time.monotonic() < deadline, "the master does not list its replica"
            time.sleep(0.05)
    yield master, replica
    if replica.pid is not None:
        os.kill(replica.pid, signal.SIGCONT)


@pytest.fixture
def own_cluster() -> Iterator[LocalCluster]:
    """A cluster of the test's own, for a test that leaves it with a dead node."""
    yield from _started_cluster()


def _started_cluster() -> Iterator[LocalCluster]:
    cluster = LocalCluster()
    cluster.start()
    try:
        yield cluster
    finally:
        cluster.stop()
