"""A page held open while the real `python -m bot` is killed (kill -9) and started again:
it says it is reconnecting, then follows the game again without a reload, a move made
through the new process included. The game lives in Redis, which outlives the bot."""

from __future__ import annotations

import re
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.async_api import expect

import render.forbidden_city as render
from bot.local_redis.server import free_port
from bot.records.table import Table
from bot.store import Channel, Store
from tests.browser import chromium
from tests.procs import wait_gone
from tests.tables import load_game
from tests.test_bot_process import Bot
from tests.views import to_play

BACKENDS = ("single",)
LINK = re.compile(r"The table, live: (http://127\.0\.0\.1:\d+/t/console/table/\w+)")


def _console(data_dir: Path, redis_url: str, port: int) -> Bot:
    """`python -m bot` on the test's Redis, serving the pages on `port`."""
    return Bot(data_dir, REDIS_URL=redis_url, WEB_PORT=str(port))


def _kill(bot: Bot) -> None:
    bot.process.send_signal(signal.SIGKILL)
    assert wait_gone(bot.process.pid)
    bot.process.wait()


@pytest.fixture
def consoles() -> Iterator[list[Bot]]:
    made: list[Bot] = []
    yield made
    for console in made:
        if console.process.poll() is None:
            console.process.terminate()
            try:
                console.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                _kill(console)


async def _next_move(redis_url: str) -> str:
    """The move of the player to play, as typed in the console: `<user> play <spot> <turn>`."""
    store = Store.from_url(redis_url)
    try:
        record = await store.load(Channel.of("console", "table"))
    finally:
        await store.close()
    assert record is not None
    table = Table.model_validate_json(record.data)
    game = load_game(table)
    spot = render.spots(to_play(game))[0]
    return f"{table.user_of(game.current).user_id} play {spot.number} {spot.rotations[0]}"


async def test_a_page_follows_the_game_across_a_killed_bot(
    tmp_path: Path, redis_url: str, consoles: list[Bot]
) -> None:
    port = free_port()
    first = _console(tmp_path / "data", redis_url, port)
    consoles.append(first)
    for line in ("ann new", "bob join", "ann start"):
        first.type(line)
    first.wait_for("The table, live: ")
    link = next(found[1] for line in first.said if (found := LINK.search(line)))
    async with chromium() as browser:
        page = await browser.new_page()
        await page.goto(link)
        table = page.locator("#table")
        await expect(table).to_have_attribute("data-version", "3", timeout=10_000)

        _kill(first)  # no goodbye: the page's stream just breaks
        await expect(page.locator("#connection")).to_be_visible(timeout=10_000)

        second = _console(tmp_path / "data", redis_url, port)
        consoles.append(second)
        second.type(await _next_move(redis_url))  # a move through the new process
        await expect(page.locator("#connection")).to_be_hidden(timeout=20_000)
        await expect(table).to_have_attribute("data-version", "4", timeout=10_000)
        # The status in words follows too: the mover has one tile fewer.
        await expect(page.locator("#status")).to_contain_text("29 tiles left")
