"""The real `python -m bot` (the console, serving its pages) under a small limit of open files,
flooded with connections and event streams: it refuses what it has no room for, and a move
still finds the descriptors it needs (its image, Redis). Before, the flood took every
descriptor and the next move's image crashed the bot (`OSError: [Errno 24]`)."""

from __future__ import annotations

import queue
import re
import resource
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.config import Settings
from bot.console import Console
from bot.local_redis.server import free_port
from bot.records.table import Table
from bot.service import GameService
from bot.store import Channel, Store
from tests.conftest import fixed_seeds
from tests.procs import ROOT, bot_environment
from tests.test_bot_process import Bot

LIMIT = 200  # open files the bot may have: far fewer than the flood below


def _small_limit() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (LIMIT, LIMIT))


class LimitedBot(Bot):
    """A console bot whose process may open `LIMIT` files at most, soft and hard alike."""

    def __init__(self, data_dir: Path, **env: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bot"],
            cwd=ROOT,
            env=bot_environment(DATA_DIR=str(data_dir), PYTHONUNBUFFERED="1", **env),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            preexec_fn=_small_limit,
        )
        self.said: list[str] = []
        self._lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()


@pytest.fixture
def port() -> int:
    return free_port()


@pytest.fixture
def bot(tmp_path: Path, port: int) -> Iterator[LimitedBot]:
    made = LimitedBot(tmp_path / "data", WEB_PORT=str(port))
    yield made
    if made.process.poll() is None:
        made.process.kill()
        made.process.wait(timeout=30)


def _get(port: int, path: str) -> tuple[int, bytes]:
    """A plain HTTP/1.1 GET, its status and what came before the connection closed (or the
    first second of a stream). A connection refused over the limit may be reset before its
    503 is read (the request was still unread when the bot closed it): status 0."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as connection:
        connection.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        connection.settimeout(1)
        got = b""
        try:
            while chunk := connection.recv(65536):
                got += chunk
        except TimeoutError:
            pass
        except ConnectionResetError:
            return 0, got
    match = re.match(rb"HTTP/1\.1 (\d{3})", got)
    return (int(match[1]) if match else 0), got


def test_a_flood_of_connections_is_refused_and_moves_go_on(bot: LimitedBot, port: int) -> None:
    bot.type("ann new")
    bot.type("bob join")
    bot.type("ann start")
    bot.wait_for("Play on the board")  # the deal told, the first player's notice last
    told = next(line for line in bot.said if "live:" in line)
    link = re.search(r"http://\S+/t/console/\S+", told)
    assert link is not None
    path = "/" + link[0].split("/", 3)[3]
    assert _get(port, path)[0] == 200
    mover = next(re.search(r"\[DM (\w+)\]", line) for line in bot.said if "[DM " in line)
    assert mover is not None
    flood: list[socket.socket] = []
    try:
        for _ in range(2 * LIMIT):  # idle connections, each a descriptor of the bot's
            flood.append(socket.create_connection(("127.0.0.1", port), timeout=5))
        time.sleep(0.5)
        refused = 0
        for connection in flood:
            connection.settimeout(0.01)
            try:
                if connection.recv(100).startswith(b"HTTP/1.1 503"):
                    refused += 1
            except (TimeoutError, ConnectionError):
                pass
        assert refused >= LIMIT // 2  # told at once that there is no room
        # The move needs an image written and Redis: both still have their descriptors.
        bot.type(f"{mover[1]} press fc:sp:table:0:1")
        bot.wait_for("press fc:pv:table:0:", timeout=30)
        assert bot.process.poll() is None
    finally:
        for connection in flood:
            connection.close()
    # The flood gone, pages are served again.
    deadline = time.monotonic() + 20
    while _get(port, path)[0] != 200:
        assert time.monotonic() < deadline, "pages were not served again after the flood"
        time.sleep(0.2)
    assert not [line for line in bot.said if "Traceback" in line or "Errno 24" in line]
    bot.type("quit")
    assert bot.process.wait(timeout=30) == 0


async def test_a_picture_that_cannot_be_written_is_said_and_the_game_goes_on(
    store: Store, tmp_path: Path
) -> None:
    """Whatever stops an image from being written (no descriptor left, a full disk), the
    move is saved already: the console says so and plays on."""
    blocked = tmp_path / "images"
    blocked.write_text("a file where the images' folder should be")
    service = GameService(store, Settings(_env_file=None), seeds=fixed_seeds())  # type: ignore[call-arg]
    console = Console(service, blocked)
    await console.handle_line("ann new")
    await console.handle_line("bob join")
    dealt = await console.handle_line("ann start")
    assert any(line.startswith("[#table] (not written: ") for line in dealt)
    record = await store.load(Channel.of("console", "table"))
    assert record is not None and Table.model_validate_json(record.data).started
    assert any("press fc:sp:table:0:1" in line for line in dealt)  # the turn goes on
    service.computer.close()
