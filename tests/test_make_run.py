"""The README's first command: `make run` in a fresh clone, default settings, no token."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.procs import ROOT, bot_environment, servers_under

LINES = "ann new\nbob join\nann start\nquit\n"


def _tracked_files() -> list[str]:
    try:
        listing = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT,
            capture_output=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    names = [n for n in listing.decode().split("\0") if n]
    return [n for n in names if not n.startswith(".venv") and (ROOT / n).is_file()]


@pytest.fixture
def fresh_clone(tmp_path: Path) -> Iterator[Path]:
    """The repository's files in a new folder, sharing this test run's virtual environment.

    `make run` must not reinstall into that environment: the files its install stamp
    depends on are dated before the stamp.
    """
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    venv = Path(sys.prefix)
    stamp = venv / ".installed-stamp"
    if venv == Path(sys.base_prefix) or not stamp.exists():
        pytest.skip("the tests do not run in an environment made by `make`")
    clone = tmp_path / "fc-bot"
    for name in _tracked_files():
        (clone / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, clone / name)
    (clone / ".venv").symlink_to(venv)
    before = stamp.stat().st_mtime - 60
    for name in ("pyproject.toml", "constraints.txt"):
        if (clone / name).exists():
            os.utime(clone / name, (before, before))
    yield clone
    assert servers_under(clone) == [], "a redis-server outlived `make run`"


@pytest.mark.parametrize("dotenv", [False, True], ids=["defaults", "env-example"])
def test_make_run_in_a_fresh_clone_starts_a_game(fresh_clone: Path, dotenv: bool) -> None:
    if dotenv:
        shutil.copy(fresh_clone / ".env.example", fresh_clone / ".env")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    done = subprocess.run(
        ["make", "run"],
        cwd=fresh_clone,
        env=bot_environment(WEB_PORT=str(port)),
        input=LINES,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Forbidden City in the terminal" in done.stdout
    assert "joins the table (2/4)" in done.stdout
    assert "[#table] The game begins" in done.stdout
    # The console serves each table's page, and says where (its game's id ends the link).
    assert f"The table, live: http://127.0.0.1:{port}/t/console/table/" in done.stdout
    images = sorted((fresh_clone / "data" / "images").glob("*.png"))
    assert images and images[0].read_bytes()[:4] == b"\x89PNG"
    assert (fresh_clone / "data" / "redis").is_dir()


def test_the_readme_pipe_command_works(fresh_clone: Path) -> None:
    """The line a reader copies from the README, run as written by a shell."""
    (command,) = (
        line.strip()
        for line in (fresh_clone / "README.md").read_text().splitlines()
        if line.strip().endswith("| make run")
    )
    done = subprocess.run(
        ["sh", "-c", command],
        cwd=fresh_clone,
        env=bot_environment(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "[#table] The game begins" in done.stdout


def test_a_console_whose_web_port_is_taken_says_so_and_plays_on(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "bot"],
            cwd=ROOT,
            env=bot_environment(WEB_PORT=str(port), DATA_DIR=str(tmp_path / "data")),
            input=LINES,
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"the web pages cannot be served on 127.0.0.1:{port}" in done.stderr
    assert "WEB_PORT" in done.stderr and "Traceback" not in done.stderr
    assert "[#table] The game begins" in done.stdout and "live:" not in done.stdout
    assert servers_under(tmp_path) == []
