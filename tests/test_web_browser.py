"""The table page in a real headless Chromium: it shows the table, follows moves made in the
chat by itself, says when it is reconnecting and catches up after the server comes back, and
shows a name made of markup as text, with no script run and no policy broken."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest
from playwright.async_api import Page, expect

from bot.local_redis.server import free_port
from bot.service import GameService
from bot.store import Store
from bot.web import serve
from tests.browser import chromium
from tests.conftest import Site, fixed_seeds
from tests.test_web_table import deal, move, settings


@pytest.fixture
async def service(store: Store) -> AsyncIterator[GameService]:
    made = GameService(store, settings(), seeds=fixed_seeds())
    yield made
    made.computer.close()


async def _cells(page: Page) -> int:
    """The tiles the page's own board draws (inline SVG, drawn and wider than a thumbnail)."""
    await expect(page.locator("svg#board")).to_be_visible()
    box = await page.locator("svg#board").bounding_box()
    assert box is not None and box["width"] > 300
    return await page.locator("svg#board [data-cell]").count()


async def test_the_page_follows_the_game_and_the_server_coming_back(
    service: GameService,
) -> None:
    path = await deal(service)
    port = free_port()
    server: list[Callable[[], Awaitable[None]]] = [await serve(service, "127.0.0.1", port)]
    problems: list[str] = []
    try:
        await _follow(service, path, port, server, problems)
    finally:
        for stop in server:  # a failure stops the server too, or its listener outlives the test
            await stop()
    # The only errors allowed are the refused connections while the server was away.
    cut = ("ERR_CONNECTION_REFUSED", "ERR_INCOMPLETE_CHUNKED_ENCODING")
    assert all(any(c in p for c in cut) for p in problems), problems


async def _follow(
    service: GameService,
    path: str,
    port: int,
    server: list[Callable[[], Awaitable[None]]],
    problems: list[str],
) -> None:
    async with chromium() as browser:
        page = await browser.new_page(viewport={"width": 390, "height": 844})
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: problems.append(str(e)))
        await page.goto(f"http://127.0.0.1:{port}{path}")
        table = page.locator("#table")
        await expect(table).to_have_attribute("data-version", "3")
        cells = await _cells(page)
        await expect(page.locator("#seats li")).to_have_count(2)

        moved = await move(service)  # a move in the chat: the page changes by itself
        await expect(table).to_have_attribute("data-version", "4", timeout=1500)
        told = await page.locator("#story li").last.text_content()  # in the chat's words
        assert told and "places a tile" in told and told in moved.public[0].text
        # The board drawn again in the page: one tile more, ringed as the last laid.
        await expect(page.locator("svg#board [data-cell]")).to_have_count(cells + 1)
        await expect(page.locator("svg#board [data-last]")).to_have_count(1)

        await server.pop()()  # the bot's web server goes away
        await expect(page.locator("#connection")).to_be_visible(timeout=5000)
        await expect(page.locator("#connection")).to_have_text("Reconnecting…")
        await move(service)  # the game goes on meanwhile
        server.append(await serve(service, "127.0.0.1", port))
        await expect(page.locator("#connection")).to_be_hidden(timeout=5000)
        await expect(table).to_have_attribute("data-version", "5")
        await move(service)
        await expect(table).to_have_attribute("data-version", "6", timeout=1500)
        status = await page.locator("#status").text_content()
        assert status and "Ann" in status and "\x02" not in status


async def test_a_name_made_of_markup_stays_text_in_the_browser(
    service: GameService, site: Site
) -> None:
    evil = "<img src=x onerror=alert(1)>"
    path = await deal(service, {"bob": evil})
    base = await site(service)
    dialogs: list[str] = []
    violations: list[str] = []
    async with chromium() as browser:
        page = await browser.new_page()
        page.on("dialog", lambda d: dialogs.append(d.message))
        page.on(
            "console",
            lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None,
        )
        await page.goto(f"{base}{path}")
        await expect(page.locator("#table")).to_have_attribute("data-version", "3")
        names = await page.locator("#seats .name").all_text_contents()
        assert evil in names
        await move(service)  # drawn again by the script, from the server's JSON
        await expect(page.locator("#table")).to_have_attribute("data-version", "4")
        assert evil in await page.locator("#seats .name").all_text_contents()
        assert await page.locator("#seats img").count() == 0
        await asyncio.sleep(0.3)
    assert dialogs == [] and violations == []
