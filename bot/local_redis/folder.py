"""One data folder, one redis-server: the folder's lock, servers left on it, and whether its
saved data can be read by the server about to start.

Two servers appending to one AOF corrupt it, and a server left behind by a crashed bot
later overwrites `dump.rdb` with an older game; a server that cannot read the files it
finds may start empty and then overwrite them. Each of these is refused or cleaned up
before a server starts.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import os
import re
import signal
import subprocess
import tempfile
import time
from pathlib import Path

__all__ = ["FolderError", "FolderLock", "check_readable", "servers_in", "stop_servers"]

_LOCKFILE = "redis-server.lock"
_RDB_MAGIC = b"REDIS"
_AOF_DIR = "appendonlydir"  # Redis 7's append-only files; older servers ignore the folder
_ADVICE = (
    "They were saved by a newer Redis: run the bot with that Redis (a redis-server on PATH "
    "comes first) or point REDIS_URL at it. Nothing was started and the files are untouched."
)


class FolderError(RuntimeError):
    """The folder is in use by another bot, or holds data this server cannot read."""


class FolderLock:
    """An exclusive `flock` on `folder/redis-server.lock`, held while our server may run.

    The kernel drops it when the holder dies however it dies, so a crashed bot never
    blocks the next one; the descriptor is not inherited by redis-server.
    """

    def __init__(self, folder: Path) -> None:
        self.path = folder / _LOCKFILE
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> None:
        if self._fd is not None:
            return
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 32).decode(errors="replace").strip() or "?"
            os.close(fd)
            raise FolderError(
                f"{self.path.parent} is in use by another bot (pid {holder}); "
                "two servers on one data folder would corrupt it. Stop that bot first, "
                "or give this one another DATA_DIR."
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)  # closing drops the lock


def _alive(pid: int) -> bool:
    """Exited processes, zombies included (an orphan's reaper may be slow), are not alive."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


def servers_in(folder: Path, pidfile_pid: int | None = None) -> list[int]:
    """redis-server processes working in `folder`, found by their working directory:
    Redis renames its process (`redis-server 127.0.0.1:PORT`), so its command line
    does not name the folder. A process counts if it is the one in the pidfile or runs
    a binary named redis-something, so that a shell opened in the folder is left alone."""
    folder = folder.resolve()
    found = []
    with contextlib.suppress(OSError):
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit() or int(entry.name) == os.getpid():
                continue
            try:
                if Path(os.readlink(entry / "cwd")) != folder:
                    continue
                exe = Path(os.readlink(entry / "exe")).name
            except OSError:
                continue
            pid = int(entry.name)
            if (pid == pidfile_pid or exe.startswith("redis")) and _alive(pid):
                found.append(pid)
    return found


def stop_servers(pids: list[int], timeout: float) -> None:
    """SIGTERM (Redis then saves and exits), SIGKILL whatever is left after `timeout`."""
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for pid in pids:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, os.WNOHANG)  # reap it if it is our own child
        if not any(_alive(pid) for pid in pids):
            return
        time.sleep(0.05)
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def _rdb_version(path: Path) -> int | None:
    """The format version in an RDB header (`REDIS0011`), also at the start of an AOF
    with an RDB preamble; None for any other file."""
    try:
        with path.open("rb") as file:
            head = file.read(9)
    except OSError:
        return None
    if len(head) == 9 and head.startswith(_RDB_MAGIC) and head[5:].isdigit():
        return int(head[5:])
    return None


@functools.cache
def _unreadable(binary: Path, version: int) -> str | None:
    """Why `binary` cannot load RDB format `version`, or None if it can.

    Asked of the binary itself (in its `redis-check-rdb` mode, on an empty file of that
    version) rather than of a table of Redis releases, which forks such as Valkey break.
    """
    with tempfile.TemporaryDirectory(prefix="fcr-") as tmp:
        probe = Path(tmp) / "probe.rdb"
        # Header, EOF opcode, a zero checksum (meaning: not computed).
        probe.write_bytes(_RDB_MAGIC + b"%04d" % version + b"\xff" + bytes(8))
        check = subprocess.run(
            ["redis-check-rdb", str(probe)],
            executable=binary,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=60,
        )
    if check.returncode == 0:
        return None
    said = [line for line in (check.stdout + check.stderr).splitlines() if "RDB" in line]
    return said[-1].split("] ", 1)[-1] if said else f"redis-check-rdb exited {check.returncode}"


@functools.cache
def _version(binary: Path) -> tuple[int, int] | None:
    """(major, minor) from `redis-server --version`, None if it does not say."""
    said = subprocess.run(
        [str(binary), "--version"], capture_output=True, text=True, timeout=60
    ).stdout
    found = re.search(r"v=(\d+)\.(\d+)", said)
    return (int(found[1]), int(found[2])) if found else None


def check_readable(folder: Path, binary: Path) -> None:
    """Refuse to start `binary` on data it cannot load: Redis would start empty (an
    append-only file it does not know is ignored) and later overwrite the games."""
    version = _version(binary) if (folder / _AOF_DIR).is_dir() else None
    if version is not None and version < (7, 0):
        raise FolderError(
            f"the games in {folder} were saved by Redis 7 or newer ({_AOF_DIR}/), which "
            f"{binary} (Redis {version[0]}.{version[1]}) cannot read. {_ADVICE}"
        )
    candidates = [*folder.glob("*.rdb"), *folder.glob("*.aof"), *folder.glob("*/*.rdb")]
    for path in sorted(candidates):
        rdb = _rdb_version(path)
        if rdb is None:
            continue
        reason = _unreadable(binary, rdb)
        if reason is not None:
            raise FolderError(
                f"the games in {folder} were saved in RDB format {rdb} "
                f"({path.relative_to(folder)}), which {binary} cannot read ({reason}). " + _ADVICE
            )
