"""`/fc forget me` leaves nothing of the person on disk: Redis keeps every earlier write in its
append-only file and its last snapshot until it rewrites them, so the forget has every server
rewrite both (masters and replicas of a cluster) and answers once they are written.

Each test runs its own persistent redis-server (or cluster) in a folder it owns, plays a game
to its end with a person of a distinctive name, forgets them and reads every byte of every file
under the folder. The servers save their snapshots uncompressed (`rdbcompression no`): a name
inside a compressed string would escape the search, and the test would then prove nothing.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import redis

from bot.local_redis.server import RedisServer, find_redis_server, free_port
from bot.service import GameService
from bot.store import Store
from tests.conftest import RedisServerFactory, fixed_seeds
from tests.redis_cluster import LocalCluster
from tests.test_redis_folder import redis_major
from tests.test_results import finish, member
from tests.test_service import Clock, settings

FILES_LOG = "bot.store.files"
USER = "quillonius7"  # the id; the name the console gives them is "Quillonius7"
NAME = USER.capitalize()
PLAIN = ("--rdbcompression", "no")
DONE = "Done: you are forgotten."


def holding(folder: Path, words: list[str]) -> list[str]:
    """Every file under `folder` (recursively) whose bytes hold any of `words`."""
    needles = [word.encode() for word in words]
    return sorted(
        str(path.relative_to(folder))
        for path in folder.rglob("*")
        if path.is_file() and any(needle in path.read_bytes() for needle in needles)
    )


async def on_disk(folder: Path, words: list[str]) -> list[str]:
    """Once the server has written what it was told (the AOF is written after each command,
    and synced every second), the files that hold the words."""
    for _ in range(600):
        found = holding(folder, words)
        if found:
            return found
        await asyncio.sleep(0.05)
    return []


@pytest.fixture
def server(redis_server_factory: RedisServerFactory) -> RedisServer:
    made = redis_server_factory(persistent=True, extra_args=PLAIN)
    made.start()
    return made


@pytest.fixture
def persistent_cluster() -> Iterator[LocalCluster]:
    cluster = LocalCluster(persistent=True, extra_args=PLAIN)
    cluster.start()
    try:
        yield cluster
    finally:
        cluster.stop()


async def service_on(url: str) -> AsyncIterator[GameService]:
    store = Store.from_url(url)
    await store.ping()
    made = GameService(store, settings(), clock=Clock(), seeds=fixed_seeds())
    try:
        yield made
    finally:
        made.computer.close()
        await store.close()


@pytest.fixture
async def single(server: RedisServer) -> AsyncIterator[GameService]:
    async for made in service_on(server.url):
        yield made


@pytest.fixture
async def clustered(persistent_cluster: LocalCluster) -> AsyncIterator[GameService]:
    async for made in service_on(persistent_cluster.url):
        yield made


def limited(factory: RedisServerFactory, *denied: str) -> str:
    """A persistent Redis on TCP whose user `bot` may run anything but the `denied` commands
    (an ACL, as a managed Redis has); the URL that logs in as that user."""
    server = factory(persistent=True, tcp=True)
    server.start()
    with redis.Redis.from_url(server.url) as admin:
        admin.acl_setuser(
            "bot",
            enabled=True,
            passwords=["+secret"],
            keys=["*"],
            channels=["*"],
            categories=["+@all"],
            commands=[f"-{command}" for command in denied],
        )
    return f"redis://bot:secret@127.0.0.1:{server.port}/0"


async def files_log(
    store: Store, caplog: pytest.LogCaptureFixture, patience: float = 60.0
) -> list[str]:
    """Ask the store to have Redis write its files again, which must answer no; then close
    the store. What the log said about the files, for the operator."""
    try:
        with caplog.at_level(logging.ERROR, logger=FILES_LOG):
            assert await store.rewrite_files(patience) is False
    finally:
        await store.close()
    return [r.getMessage() for r in caplog.records if r.name == FILES_LOG]


def master_and_replica(factory: RedisServerFactory) -> tuple[RedisServer, RedisServer]:
    """A persistent Redis on TCP and a persistent replica of it, both started."""
    master = factory(persistent=True, tcp=True, extra_args=PLAIN)
    master.start()
    replica = factory(
        persistent=True, tcp=True, extra_args=(*PLAIN, "--replicaof", "127.0.0.1", str(master.port))
    )
    replica.start()
    return master, replica


async def forget(service: GameService, user: str) -> str:
    asked = await service.command(member(user), "forget me")
    done = await service.press(member(user), asked.private[0].buttons[0][0].data)
    assert done.ok, done.private
    return done.private[0].text


async def only_others_on_disk(service: GameService, *folders: Path) -> None:
    """USER and Bob finish a game, which reaches the first folder's files, then USER is
    forgotten: no file in any of the folders holds USER's name or id, and Bob's name is still
    there (the files do hold what was not forgotten)."""
    await finish(service, [USER, "bob"])
    assert await on_disk(folders[0], [NAME, USER])
    assert await forget(service, USER) == DONE
    for folder in folders:
        assert holding(folder, [NAME, USER]) == []
        assert holding(folder, ["Bob"])


async def test_no_file_of_the_server_keeps_a_forgotten_person(
    single: GameService, server: RedisServer
) -> None:
    await only_others_on_disk(single, server.directory)


async def test_a_snapshot_left_by_a_server_without_save_points_is_written_again(
    redis_server_factory: RedisServerFactory,
) -> None:
    """A server that keeps an AOF and no `save` points may still have a `dump.rdb`: one a
    replica got at its first sync, or made by `redis-cli BGSAVE`."""
    server = redis_server_factory(persistent=True, extra_args=(*PLAIN, "--save", ""))
    server.start()
    async for service in service_on(server.url):
        await finish(service, [USER, "bob"])
        with redis.Redis.from_url(server.url) as admin:
            admin.save()
        assert (server.directory / "dump.rdb").exists()
        assert await forget(service, USER) == DONE
    assert holding(server.directory, [NAME, USER]) == []


async def test_no_file_of_a_single_redis_replica_keeps_a_forgotten_person(
    redis_server_factory: RedisServerFactory,
) -> None:
    """A replica copies the master's writes into its own AOF: it writes its files again too,
    once it has the forget's writes."""
    master, replica = master_and_replica(redis_server_factory)
    async for service in service_on(master.url):
        await only_others_on_disk(service, replica.directory, master.directory)


async def test_no_file_of_any_cluster_node_keeps_a_forgotten_person(
    clustered: GameService, persistent_cluster: LocalCluster
) -> None:
    await only_others_on_disk(clustered, persistent_cluster.directory)


async def test_a_rewrite_already_under_way_is_followed_by_one_of_the_forget(
    single: GameService, server: RedisServer
) -> None:
    """A rewrite started before the forget copies the data as it was then, name included:
    the forget waits for it, then has the files written again."""
    await finish(single, [USER, "bob"])
    with redis.Redis.from_url(server.url, decode_responses=True) as admin:
        keys = int(admin.dbsize())
        admin.config_set("rdb-key-save-delay", 5_000_000 // keys)  # µs a key: 5 s a copy
        admin.bgrewriteaof()
        admin.execute_command("BGSAVE", "SCHEDULE")
        admin.config_set("rdb-key-save-delay", 0)  # the copy running keeps its own pace
        assert admin.info("persistence")["aof_rewrite_in_progress"] == 1
    assert await forget(single, USER) == DONE
    assert holding(server.directory, [NAME, USER]) == []


async def test_a_server_that_refuses_to_rewrite_is_told_in_words(
    redis_server_factory: RedisServerFactory,
) -> None:
    """A Redis that does not let the bot rewrite its files (a managed one, an ACL): the person
    is forgotten from the data and told that the files may hold their name a while longer."""
    url = limited(redis_server_factory, "bgrewriteaof", "bgsave", "config")
    async for service in service_on(url):
        await finish(service, [USER, "bob"])
        said = await forget(service, USER)
        assert said.startswith(DONE) and said != DONE and "files" in said
        board = await service.command(member("bob"), "board")
        assert "(anonymous)" in board.public[0].text and NAME not in board.public[0].text


async def test_files_of_a_redis_that_cannot_be_reached_are_not_said_to_be_written() -> None:
    """Redis gone by the time of the rewrite: the store answers no (so the person hears their
    name may stay on disk a while) instead of raising or saying it was done."""
    store = Store.from_url(f"redis://127.0.0.1:{free_port()}")
    try:
        assert await store.rewrite_files(5.0) is False
    finally:
        await store.close()


async def test_the_log_says_which_command_a_server_refused_and_why(
    redis_server_factory: RedisServerFactory, caplog: pytest.LogCaptureFixture
) -> None:
    """A Redis that lets the bot save but not rewrite its AOF: the store stops at once (the
    refusal will not go away by waiting) and the operator reads the refusal in the log."""
    store = Store.from_url(limited(redis_server_factory, "bgrewriteaof"))
    [said] = await files_log(store, caplog)
    assert said.startswith("redis did not write its files again: BGREWRITEAOF: ")
    assert "no permissions to run the 'bgrewriteaof' command" in said


async def test_the_log_says_a_snapshot_failed(
    redis_server_factory: RedisServerFactory, caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    """A snapshot that fails on disk (its folder gone): not written, and the log says how
    the save ended."""
    # Redis 7 refuses to move `dir` at run time unless told it may; Redis 6.2 always may.
    allow = ("--enable-protected-configs", "yes") if redis_major(find_redis_server()) >= 7 else ()
    server = redis_server_factory(tcp=True, extra_args=("--save", "3600", "1", *allow))
    server.start()
    gone = tmp_path / "gone"
    gone.mkdir()
    with redis.Redis.from_url(server.url) as admin:
        admin.config_set("dir", str(gone))
    gone.rmdir()
    assert await files_log(Store.from_url(server.url), caplog) == [
        "redis did not write its files again: BGSAVE ended with rdb_last_bgsave_status:err"
    ]


async def test_a_replica_that_cannot_be_reached_is_told_in_the_log(
    redis_server_factory: RedisServerFactory, caplog: pytest.LogCaptureFixture
) -> None:
    """A replica that announces an address the bot cannot reach (behind a NAT, say): its
    files cannot be vouched for, and the log says what failed."""
    master = redis_server_factory(persistent=True, tcp=True)
    master.start()
    nowhere = free_port()
    replica = redis_server_factory(
        persistent=True,
        tcp=True,
        extra_args=(
            *("--replicaof", "127.0.0.1", str(master.port)),
            *("--replica-announce-port", str(nowhere)),
        ),
    )
    replica.start()
    with redis.Redis.from_url(master.url, decode_responses=True) as admin:
        while admin.info("replication").get("slave0", {}).get("port") != nowhere:
            await asyncio.sleep(0.05)
    [said] = await files_log(Store.from_url(master.url), caplog)
    assert said.startswith("Redis' files could not be written again: ")
    assert f"127.0.0.1:{nowhere}" in said


async def test_a_server_that_keeps_only_snapshots_makes_a_new_one(
    redis_server_factory: RedisServerFactory,
) -> None:
    """No AOF, only `save` points: the last `dump.rdb` held the person, the new one does not."""
    server = redis_server_factory(extra_args=(*PLAIN, "--save", "3600", "1"))
    server.start()
    async for service in service_on(server.url):
        await finish(service, [USER, "bob"])
        with redis.Redis.from_url(server.url) as admin:
            admin.save()
        assert holding(server.directory, [NAME, USER]) == ["dump.rdb"]
        assert await forget(service, USER) == DONE
    assert holding(server.directory, [NAME, USER]) == []
    assert holding(server.directory, ["Bob"]) == ["dump.rdb"]


async def test_a_server_that_keeps_nothing_on_disk_is_done_at_once(
    redis_server_factory: RedisServerFactory,
) -> None:
    """No AOF and no `save` points: nothing to write again, and the person is told it is done;
    a server kept in memory only is not made to write a file."""
    server = redis_server_factory()
    server.start()
    async for service in service_on(server.url):
        await finish(service, [USER, "bob"])
        assert await forget(service, USER) == DONE
    assert holding(server.directory, [NAME, USER]) == []
    assert not (server.directory / "dump.rdb").exists()


async def test_the_answer_waits_for_a_slow_snapshot_to_be_written(
    redis_server_factory: RedisServerFactory,
) -> None:
    """A snapshot that takes its time (here a second): the person hears it is done only once
    the new `dump.rdb` has replaced the one that held them."""
    server = redis_server_factory(extra_args=(*PLAIN, "--save", "3600", "1"))
    server.start()
    async for service in service_on(server.url):
        await finish(service, [USER, "bob"])
        with redis.Redis.from_url(server.url) as admin:
            admin.save()
            admin.config_set("rdb-key-save-delay", 1_000_000 // int(admin.dbsize()))
        assert await forget(service, USER) == DONE
        assert holding(server.directory, [NAME, USER]) == []


async def test_a_redis_gone_during_the_rewrite_is_told_in_the_log(
    redis_server_factory: RedisServerFactory, caplog: pytest.LogCaptureFixture
) -> None:
    """The store reached Redis, then Redis went away: the files are not said to be written,
    and the operator reads why."""
    server = redis_server_factory(persistent=True, tcp=True)
    server.start()
    store = Store.from_url(server.url, retries=0)
    await store.ping()
    server.stop()
    [said] = await files_log(store, caplog)
    assert said.startswith("Redis' files could not be written again: ")
