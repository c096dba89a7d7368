"""Die Verbotene Stadt played to its end by two players on their phones, each touching the
big board: the official to bribe and the official to move on its square, each slide where it
stops, then the action bar's Confirm; answers and takes with the bar's large buttons. From a
position late in the game (twelve officials on the exile terrace, three entries to go), so
that the end comes in a few dozen presses; which official goes where is the test's choice
(`toward_the_pavilion`), what may be touched is the page's."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator

import pytest
from playwright.async_api import Page, expect

from bot.actor import Actor
from bot.games.verbotene_stadt.words import ARROWS
from bot.service import GameService
from bot.store import Channel, Store
from bot.table import Table
from engine.verbotene_stadt import MoveOfficial
from tests.browser import chromium
from tests.conftest import Site
from tests.tables import load_game
from tests.test_web_seats import Clock, settings
from tests.vs_driver import toward_the_pavilion
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


async def _touch(page: Page, selector: str) -> None:
    """A place or button of the page, once it is there (at least 44 CSS px); then a person's
    pause (a token's requests are limited to ten a second)."""
    place = page.locator(selector).first
    await place.wait_for(timeout=10000)
    box = await place.bounding_box()
    assert box is not None and min(box["width"], box["height"]) >= 44, (selector, box)
    await place.click()
    await asyncio.sleep(0.35)


async def _play_turn(page: Page, game: object, seat: str, kind: str, rng: random.Random) -> None:
    if kind in ("bribe", "rebribe"):
        # The secret bribe from the tray of officials drawn large (each named), or on the
        # board: the same choices.
        tray = page.locator("#choices .tray button.piece[data-choice*=':vb:']")
        await tray.first.wait_for(timeout=10000)
        assert await tray.count() == await page.locator("#spots .spot[data-choice*=':vb:']").count()
        assert "hat" in (await tray.first.get_attribute("aria-label") or "")
        await _touch(page, "#choices .tray button.piece[data-choice*=':vb:']")
    elif kind == "move":
        action = toward_the_pavilion(game, seat, rng)  # type: ignore[arg-type]
        if not isinstance(action, MoveOfficial):
            await _touch(page, "#choices button:text-is('Pass')")
            return
        await _touch(
            page, f"#spots .spot[data-choice^='fc:vo:'][data-choice$=':{action.official}']"
        )
        for way in action.slides:
            await _touch(page, f"#spots .spot[aria-label^='{ARROWS[way]}']")
        await _touch(page, "#choices button.success")  # Confirm
    elif kind == "answer":
        await _touch(page, "#choices button:text-matches('^(Believe|Doubt)')")
    else:  # a card to take, drawn in the tray, or none
        cards = page.locator("#choices .tray button.piece")
        await _touch(
            page,
            "#choices .tray button.piece" if await cards.count() else "#choices .buttons button",
        )


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
            await _play_turn(page, game, turn.seat, turn.kind, rng)
            presses += 1
            await _changed(service, record.version)
        else:
            raise AssertionError("the game did not end")
        for page in pages.values():
            await expect(page.locator("#table")).to_have_attribute("data-over", "true")
        status = await pages["ann"].locator("#status").inner_text()
    assert "Ann" in status and "Bob" in status
    assert presses >= 3


async def _changed(service: GameService, version: int) -> None:
    """The table written since `version` (or gone to the archive)."""
    for _ in range(200):
        record = await service.store.load(Channel.of("console", CHANNEL))
        if record is None or record.version != version:
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the press changed nothing")
