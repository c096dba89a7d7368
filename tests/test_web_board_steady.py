"""The big board holds still while the table changes around a seat's decision: on a phone
(390x844 CSS px, three device pixels to each, a touch screen) Ann is to bribe an official of
Die Verbotene Stadt on the zoomed board, and pans it; Bob's secret bribe changes the table
but not what Ann may touch, so her buttons stay the same elements (a finger on one is not
lost to a redraw) and the board stays where she panned it. Her own bribe brings her next
decision, other places: those are laid anew."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

import aiohttp
import pytest
from playwright.async_api import Page, expect

from bot.exchange.actor import Actor
from bot.service import GameService
from bot.store import Channel, Store
from tests.browser import chromium
from tests.conftest import Site
from tests.test_web_seats import Clock, press, seat, settings
from tests.vs_table import OFFICIALS, position, store_position

CHANNEL = "steady"
WHERE = Channel.of("console", CHANNEL)
BRIBE = "#spots .spot[data-choice*=':vb:']"
# The marks the test leaves on the page's elements, and whether each is still there.
MARKED = """() => ({
    spot: !!document.querySelector("#spots .spot[data-kept]"),
    board: !!document.querySelector("#board[data-kept]"),
    choices: !!document.querySelector("#choices > [data-kept]"),
})"""


@pytest.fixture
async def service(store: Store) -> AsyncIterator[GameService]:
    made = GameService(store, settings(), seeds=lambda: 7, clock=Clock())
    yield made
    made.computer.close()


async def _both_to_bribe(service: GameService) -> str:
    """Ann and Bob at a table where each is still to choose their secret bribe; its game."""

    def who(user: str) -> Actor:
        return Actor("console", CHANNEL, user, user.capitalize())

    assert (await service.command(who("ann"), "new stadt")).ok
    assert (await service.command(who("bob"), "join")).ok
    assert (await service.command(who("ann"), "start")).ok
    await store_position(service.store, position(2, [None, None], officials=OFFICIALS), WHERE)
    record = await service.store.load(WHERE)
    assert record is not None
    return record.game_id


async def _version(page: Page) -> int:
    return int(await page.locator("#table").get_attribute("data-version") or 0)


async def _mark(page: Page) -> None:
    """A mark on a bribe's button, the drawing and the seat's first message, all as shown."""
    await page.evaluate(
        """() => {
            document.querySelector("#spots .spot[data-choice*=':vb:']").dataset.kept = "1";
            document.querySelector("#board").dataset.kept = "1";
            document.querySelector("#choices > *").dataset.kept = "1";
        }"""
    )


async def _redrawn(page: Page, version: int) -> None:
    """The page shows a table newer than `version`, drawn anew, and the seat's answer to it."""
    await page.wait_for_function(
        f"""() => Number(document.querySelector("#table").dataset.version) > {version}
            && !document.querySelector("#board[data-kept]")
            && !document.querySelector("#choices > [data-kept]")""",
        timeout=10000,
    )
    await page.wait_for_timeout(300)  # anything still to come of that change


async def test_a_change_of_the_table_keeps_the_seats_places_and_the_players_panning(
    service: GameService, site: Site
) -> None:
    game_id = await _both_to_bribe(service)
    address = await site(service)
    path = f"{address}/t/console/{CHANNEL}/{game_id}"
    async with chromium() as browser, aiohttp.ClientSession() as http:
        phone = await browser.new_context(
            viewport={"width": 390, "height": 844},
            device_scale_factor=3,
            is_mobile=True,
            has_touch=True,
        )
        page = await phone.new_page()
        ann = await service.seat_token("console", CHANNEL, game_id, "ann")
        await page.goto(f"{path}#seat={ann}")
        await page.locator(BRIBE).first.wait_for(timeout=10000)
        await expect(page.locator("#figure")).to_have_class(re.compile(r"\bzoomed\b"))
        bribes = await page.eval_on_selector_all(BRIBE, "all => all.map(b => b.dataset.choice)")
        # Ann pans the zoomed board away from where it was centred.
        centred = await page.evaluate("[figure.scrollLeft, figure.scrollTop]")
        panned = await page.evaluate(
            """() => {
                const figure = document.getElementById("figure");
                figure.scrollLeft = figure.scrollLeft > 40 ? figure.scrollLeft - 40 : 40;
                figure.scrollTop = figure.scrollTop > 40 ? figure.scrollTop - 40 : 40;
                return [figure.scrollLeft, figure.scrollTop];
            }"""
        )
        assert panned != centred
        await _mark(page)
        version = await _version(page)

        # Bob bribes in secret: the table changes, Ann's choices do not.
        bob = await service.seat_token("console", CHANNEL, game_id, "bob")
        status, body = await seat(http, path, bob)
        assert status == 200 and body["ok"]
        choice = body["messages"][0]["choices"][0]["data"]
        status, body = await press(http, path, bob, choice)
        assert status == 200 and body["ok"], body
        await _redrawn(page, version)
        assert await page.eval_on_selector_all(BRIBE, "all => all.map(b => b.dataset.choice)") == (
            bribes
        )
        assert await page.evaluate(MARKED) == {"spot": True, "board": False, "choices": False}
        assert await page.evaluate("[figure.scrollLeft, figure.scrollTop]") == panned

        # Ann's own bribe: her next decision, the official to move, on places laid anew.
        await _mark(page)
        version = await _version(page)
        await page.locator(BRIBE).first.tap()
        await page.locator("#spots .spot[data-choice^='fc:vo:']").first.wait_for(timeout=10000)
        await _redrawn(page, version)
        assert await page.locator(BRIBE).count() == 0
        assert not (await page.evaluate(MARKED))["spot"]
        await phone.close()
