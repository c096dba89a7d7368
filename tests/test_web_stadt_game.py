"""Die Verbotene Stadt played to its end by two players on their phones, each touching the
big board: the official to bribe and the official to move on its square, each slide where it
stops, then the action bar's Confirm; answers and takes with the bar's large buttons
(`tests/stadt_page.py`). From a position late in the game (twelve officials on the exile
terrace, three entries to go), so that the end comes in a few dozen presses; which official
goes where is the test's choice (`toward_the_pavilion`), what may be touched is the page's."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest
from playwright.async_api import expect

from bot.exchange.actor import Actor
from bot.records.table import Table
from bot.service import GameService
from bot.store import Channel, Store
from tests.browser import chromium
from tests.conftest import Site
from tests.stadt_page import changed, play_turn
from tests.tables import load_game
from tests.test_web_seats import Clock, settings
from tests.vs_table import OFFICIALS, position, store_position

CHANNEL = "late"
PLAYERS = ("ann", "bob")
# Twelve officials gone, none of those on the board (`OFFICIALS`).
GONE = ("YR", "YB", "YG", "YK", "BR", "BY", "BG", "BK", "GR", "GY", "GB", "GK")


@pytest.fixture
async def service(store: Store) -> AsyncIterator[GameService]:
    made = GameService(store, settings(), seeds=lambda: 7, clock=Clock())
    yield made
    made.computer.close()


async def _late_table(service: GameService) -> str:
    def who(user: str) -> Actor:
        return Actor("console", CHANNEL, user, user.capitalize())

    assert (await service.command(who("ann"), "new stadt")).ok
    assert (await service.command(who("bob"), "join")).ok
    assert (await service.command(who("ann"), "start")).ok
    game = position(2, ["RR", "KK"], exiled=GONE, officials=OFFICIALS, seed=3)
    await store_position(service.store, game, Channel.of("console", CHANNEL))
    record = await service.store.load(Channel.of("console", CHANNEL))
    assert record is not None
    return record.game_id


async def test_die_verbotene_stadt_played_to_its_end_by_touching_the_board(
    service: GameService, site: Site
) -> None:
    game_id = await _late_table(service)
    address = await site(service)
    path = f"/t/console/{CHANNEL}/{game_id}"
    rng = random.Random(2)
    presses = 0
    async with chromium() as browser:
        pages = {}
        for user in PLAYERS:
            page = await browser.new_page(viewport={"width": 390, "height": 844})
            token = await service.seat_token("console", CHANNEL, game_id, user)
            await page.goto(f"{address}{path}#seat={token}")
            pages[user] = page
        for _ in range(80):
            record = await service.store.load(Channel.of("console", CHANNEL))
            if record is None:
                break  # played out: the table is kept with the finished games
            table = Table.model_validate_json(record.data)
            game = load_game(table)
            if game.is_over:
                break
            turn = game.to_act[0]
            page = pages[table.user_of(turn.seat).user_id]
            await expect(page.locator("#table")).to_have_attribute(
                "data-version", str(record.version), timeout=10000
            )
            await play_turn(page, game, turn.seat, turn.kind, rng)
            presses += 1
            await changed(service, Channel.of("console", CHANNEL), record.version)
        else:
            raise AssertionError("the game did not end")
        for page in pages.values():
            await expect(page.locator("#table")).to_have_attribute("data-over", "true")
        status = await pages["ann"].locator("#status").inner_text()
    assert "Ann" in status and "Bob" in status
    assert presses >= 3
