"""A player of Die Verbotene Stadt on their page: each turn played by touching what the page
shows (the board's officials and stops, the tray, the action bar's buttons), each target at
least 44 CSS px; a tap on a touch screen, a click elsewhere. Which official goes where is the
test's choice (`toward_the_pavilion`), what may be touched is the page's."""

from __future__ import annotations

import asyncio
import random

from playwright.async_api import Page

from bot.games.verbotene_stadt.words import ARROWS
from bot.service import GameService
from bot.store import Channel
from engine.verbotene_stadt import Game, MoveOfficial
from tests.vs_driver import toward_the_pavilion

SMALLEST = 44  # CSS px: the least a finger is asked to hit


async def touch(page: Page, selector: str) -> float:
    """A place or button of the page, once it is there (at least 44 CSS px), tapped if the page
    has a touch screen, else clicked; then a person's pause (a token's requests are limited to
    ten a second). Its smaller side, in CSS px."""
    place = page.locator(selector).first
    for _ in range(40):
        await place.wait_for(timeout=10000)
        # None if the page laid its places anew meanwhile (a new decision replaces them):
        # measured again then.
        box = await place.bounding_box()
        if box is not None:
            break
        await asyncio.sleep(0.05)
    assert box is not None and min(box["width"], box["height"]) >= SMALLEST, (selector, box)
    if await page.evaluate("navigator.maxTouchPoints > 0"):
        await place.tap()
    else:
        await place.click()
    await asyncio.sleep(0.35)
    return min(box["width"], box["height"])


async def play_turn(
    page: Page, game: Game, seat: str, kind: str, rng: random.Random
) -> list[float]:
    """`seat`'s turn of `kind`, touched on its page; the smaller side of each place touched."""
    if kind in ("bribe", "rebribe"):
        # The secret bribe from the tray of officials drawn large (each named), or on the
        # board: the same choices.
        tray = page.locator("#choices .tray button.piece[data-choice*=':vb:']")
        await tray.first.wait_for(timeout=10000)
        assert await tray.count() == await page.locator("#spots .spot[data-choice*=':vb:']").count()
        assert "hat" in (await tray.first.get_attribute("aria-label") or "")
        return [await touch(page, "#choices .tray button.piece[data-choice*=':vb:']")]
    if kind == "move":
        action = toward_the_pavilion(game, seat, rng)
        if not isinstance(action, MoveOfficial):
            return [await touch(page, "#choices button:text-is('Pass')")]
        sizes = [
            await touch(
                page, f"#spots .spot[data-choice^='fc:vo:'][data-choice$=':{action.official}']"
            )
        ]
        for way in action.slides:
            sizes.append(await touch(page, f"#spots .spot[aria-label^='{ARROWS[way]}']"))
        sizes.append(await touch(page, "#choices button.success"))  # Confirm
        return sizes
    if kind == "answer":
        return [await touch(page, "#choices button:text-matches('^(Believe|Doubt)')")]
    # a card to take, drawn in the tray, or none
    cards = page.locator("#choices .tray button.piece")
    return [
        await touch(
            page,
            "#choices .tray button.piece" if await cards.count() else "#choices .buttons button",
        )
    ]


async def changed(service: GameService, channel: Channel, version: int) -> None:
    """The table of `channel` written since `version` (or gone to the archive)."""
    for _ in range(200):
        record = await service.store.load(channel)
        if record is None or record.version != version:
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the press changed nothing")
