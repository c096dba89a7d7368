"""`python -m bot` as a process: how it stops (Ctrl-C, kill -9, a Redis it cannot use) and
that its embedded redis-server never outlives it."""

from __future__ import annotations

import queue
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.procs import python_bot, servers_under, wait_gone


class Bot:
    """A console bot fed through a pipe, whose output is read as it comes; `env`: settings
    beside the data folder (a Redis, a port for the pages)."""

    def __init__(self, data_dir: Path, **env: str) -> None:
        self.process = python_bot(data_dir, (), **{"PYTHONUNBUFFERED": "1", **env})
        self.said: list[str] = []
        self._lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def type(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def wait_for(self, text: str, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while not any(text in line for line in self.said):
            try:
                line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                pytest.fail(f"no {text!r} within {timeout}s; said: {self.said}")
            if line is None:
                pytest.fail(f"exited before {text!r}; said: {self.said}")
            self.said.append(line)


@pytest.fixture
def data_dir(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path / "data"
    assert servers_under(tmp_path) == [], "a redis-server outlived its bot"


def _server_pid(data_dir: Path) -> int:
    return int((data_dir / "redis" / "redis-server.pid").read_text())


def test_ctrl_c_stops_the_console_at_once(data_dir: Path) -> None:
    bot = Bot(data_dir)
    bot.wait_for("Forbidden City in the terminal")
    server = _server_pid(data_dir)
    started = time.monotonic()
    bot.process.send_signal(signal.SIGINT)  # stdin stays open: nobody presses Enter
    try:
        code = bot.process.wait(timeout=10)
    finally:
        bot.process.kill()
    assert time.monotonic() - started < 5
    assert code == 0
    assert wait_gone(server, timeout=1)


def test_the_embedded_redis_dies_with_a_killed_bot(data_dir: Path) -> None:
    bot = Bot(data_dir)
    bot.type("ann new")
    bot.type("bob join")
    bot.wait_for("joins the table (2/4)")
    server = _server_pid(data_dir)
    bot.process.kill()  # kill -9: no handler, no cleanup
    bot.process.wait()
    assert wait_gone(server), "the redis-server outlived its killed bot"
    again = python_bot(data_dir)
    out, err = again.communicate("carl join\nquit\n", timeout=60)
    assert again.returncode == 0, err
    assert "joins the table (3/4)" in out  # the same game, on the same folder


def test_a_second_bot_on_the_same_folder_is_refused(data_dir: Path) -> None:
    first = Bot(data_dir)
    first.type("ann new")
    first.wait_for("opens a Forbidden City table")
    second = python_bot(data_dir)
    _, err = second.communicate("bob join\nquit\n", timeout=60)
    assert second.returncode == 1
    assert "in use by another bot" in err and "Traceback" not in err
    first.type("bob join")
    first.wait_for("joins the table (2/4)")
    first.type("quit")
    assert first.process.wait(timeout=30) == 0


def test_a_ratings_rebuild_beside_a_running_bot_says_so_in_one_line(data_dir: Path) -> None:
    """The rebuild starts the same embedded Redis as the bot, so it is refused the same way:
    the same single line, the same exit code, no traceback."""
    first = Bot(data_dir)
    first.wait_for("Forbidden City in the terminal")
    second = python_bot(data_dir)
    _, refused = second.communicate("quit\n", timeout=60)
    rebuild = python_bot(data_dir, args=("ratings", "rebuild"))
    out, err = rebuild.communicate("", timeout=60)
    assert (rebuild.returncode, err) == (second.returncode, refused) == (1, refused)
    assert err.count("\n") == 1 and "in use by another bot" in err and not out
    first.type("quit")
    assert first.process.wait(timeout=30) == 0


def test_data_a_server_cannot_read_stops_the_bot(data_dir: Path) -> None:
    saved = data_dir / "redis" / "dump.rdb"
    saved.parent.mkdir(parents=True)
    saved.write_bytes(b"REDIS0099" + bytes(64))
    bot = python_bot(data_dir)
    out, err = bot.communicate("ann new\nquit\n", timeout=60)
    assert bot.returncode == 1
    assert "RDB format 99" in err and "newer Redis" in err
    assert "Traceback" not in err
    assert "opens a Forbidden City table" not in out
    assert saved.read_bytes() == b"REDIS0099" + bytes(64)


def test_quit_and_end_of_input_leave_without_a_server(data_dir: Path) -> None:
    for ending in ("quit\n", ""):  # 'quit', then Ctrl-D (end of input)
        bot = python_bot(data_dir)
        out, _ = bot.communicate("ann status\n" + ending, timeout=60)
        assert bot.returncode == 0
        assert "Forbidden City in the terminal" in out
        assert servers_under(data_dir) == []
