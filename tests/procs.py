"""Processes seen through /proc: which redis-servers run on a folder, and whether a pid is gone.

Redis renames its process (`redis-server 127.0.0.1:PORT`), so tests find servers by their
working directory, as the bot itself does.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

__all__ = ["ROOT", "bot_environment", "gone", "ours", "python_bot", "servers_under", "wait_gone"]

ROOT = Path(__file__).resolve().parent.parent

# Settings the developer's shell or a parent `make` might pass on to a child bot.
_SCRUBBED = (
    "DISCORD_TOKEN",
    "DISCORD_GUILD_ID",
    "TELEGRAM_TOKEN",
    "TELEGRAM_BASE_URL",
    "DISCORD_ACTIVITY",
    "DISCORD_CLIENT_ID",
    "DISCORD_CLIENT_SECRET",
    "REDIS_URL",
    "DATA_DIR",
    "DEFAULT_LANGUAGE",
    "REMINDER_AFTER",
    "TURN_LIMIT",
    "ARCHIVE_TTL",
    "LOG_LEVEL",
    "MAKEFLAGS",
    "MFLAGS",
    "MAKELEVEL",
)


def bot_environment(**extra: str) -> dict[str, str]:
    """The environment of a child bot: no token, no Redis URL, default data folder."""
    env = {k: v for k, v in os.environ.items() if k not in _SCRUBBED}
    env.update(extra)
    return env


def gone(pid: int) -> bool:
    """True once `pid` has exited (a zombie nobody reaped counts as exited)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")


def wait_gone(pid: int, timeout: float = 15.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if gone(pid):
            return True
        time.sleep(0.05)
    return gone(pid)


def servers_under(folder: Path) -> list[int]:
    """Live redis-server processes whose working directory is inside `folder`."""
    folder = folder.resolve()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or gone(int(entry.name)):
            continue
        try:
            cwd = Path(os.readlink(entry / "cwd"))
            exe = os.readlink(entry / "exe")
        except OSError:
            continue
        if (cwd == folder or folder in cwd.parents) and "redis" in Path(exe).name:
            found.append(int(entry.name))
    return found


def python_bot(data_dir: Path, args: tuple[str, ...] = (), **extra: str) -> subprocess.Popen[str]:
    """`python -m bot [args]` on `data_dir` with no token: the console, fed through a pipe."""
    return subprocess.Popen(
        [sys.executable, "-m", "bot", *args],
        cwd=ROOT,
        env=bot_environment(DATA_DIR=str(data_dir), **extra),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def ours(command: str) -> list[int]:
    """Processes running `command` from this checkout (the machine may run others' too), read
    from /proc: a machine with only python3, make and git has no `pgrep` (Debian's slim
    images come without procps)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid() or gone(int(entry.name)):
            continue
        try:
            line = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            if command in line and (entry / "cwd").resolve() == ROOT:
                pids.append(int(entry.name))
        except OSError:
            continue  # gone meanwhile, or not ours to read
    return pids


def run_load(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """`python -m bot load` with `args`, run to its end whatever its exit status."""
    return subprocess.run(
        [sys.executable, "-m", "bot", "load", *args],
        cwd=ROOT,
        env=bot_environment(),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def bot_load(*args: str, timeout: float = 300) -> tuple[dict[str, Any], str]:
    """`python -m bot load` run to its end (it must succeed): its figures and its stderr."""
    done = run_load(*args, timeout=timeout)
    assert done.returncode == 0, done.stderr
    figures: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures, done.stderr
