"""The leaderboard and player pages: what `/fc top` and `/fc stats` say (which link to them
when the pages are served), as a table with no picture, a community's board apart from the
global one, names escaped, and `forget me` reaching them at once."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from html import unescape

import aiohttp
import pytest

from bot.exchange.actor import Actor
from bot.service import GameService
from bot.service import results as kept
from bot.store import Store
from tests.conftest import Site, fixed_seeds
from tests.test_service import Clock
from tests.test_standings_answers import FC, game, played, seat
from tests.test_web_seats import settings

BACKENDS = ("single",)
LINK = re.compile(r"On the web: (https://fc\.example(/\S+))$")


@pytest.fixture
async def service(store: Store) -> AsyncIterator[GameService]:
    made = GameService(store, settings(), clock=Clock(), seeds=fixed_seeds())
    yield made
    made.computer.close()


def member(user: str) -> Actor:
    return Actor("console", "room1", user, user.capitalize(), community="guild1")


async def _page(http: aiohttp.ClientSession, address: str, path: str) -> tuple[int, str]:
    async with http.get(address + path, headers={"Accept-Language": "en"}) as answer:
        return answer.status, await answer.text()


def _cells(html: str) -> list[list[str]]:
    """The table's body, row by row, each cell's text (its markup and spaces dropped)."""
    body = re.search(r"<tbody>(.*)</tbody>", html, re.S)
    assert body, html
    rows = re.findall(r"<tr>(.*?)</tr>", body[1], re.S)
    cells = [re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S) for row in rows]
    return [[" ".join(unescape(re.sub(r"<[^>]+>", " ", c)).split()) for c in row] for row in cells]


def _paragraphs(html: str) -> list[str]:
    return [unescape(p) for p in re.findall(r"<(?:h1[^>]*|p[^>]*)>(.*?)</(?:h1|p)>", html)]


async def test_the_boards_and_a_players_page_say_what_the_chat_says(
    service: GameService, site: Site
) -> None:
    await played(service)
    address = await site(service)
    here = await service.command(member("ann"), "top")
    everywhere = await service.command(member("ann"), "top global")
    stats = await service.command(member("ann"), "stats")
    paths = []
    async with aiohttp.ClientSession() as http:
        for reply in (here, everywhere, stats):
            title, *lines, note, link = reply.public[0].text.split("\n")
            found = LINK.match(link)
            assert found, link
            paths.append(found[2])
            status, html = await _page(http, address, found[2])
            assert status == 200
            assert "<img" not in html  # no picture drawn for the page
            said = _paragraphs(html)
            assert said[0] == title and said[-1] == note
            # One row of the table a line of the chat's board, or a game of the player's.
            cells = _cells(html)
            assert len(cells) == len(lines)
            for line, row in zip(lines, cells, strict=True):
                rank, name, rated, games, wins, _ = row
                if reply is stats:
                    assert line.startswith(f"{name}: rating {rated.replace(' ± ', ' (± ')})")
                    assert f"place {rank} of" in line
                else:
                    assert line.startswith(f"{rank}. {name} {rated} (")
                assert f"{games} game" in line and f"{wins} win" in line
    assert paths == ["/top/forbidden_city/console/guild1", "/top/forbidden_city", "/p/console/ann"]
    assert "Gus" in " ".join(everywhere.public[0].text.split("\n"))
    assert "Gus" not in here.public[0].text  # guild2's player is on the global board only
    async with aiohttp.ClientSession() as http:
        _, mine = await _page(http, address, "/p/console/ann")
    # What the table does not say of the player: their totals, best scores and opponents.
    assert "Forbidden City: place 1 of 7, best score 30. Most played against: Bob (2)" in mine
    assert "Trend: " in mine


async def test_a_wrong_board_is_refused_and_an_unknown_player_has_no_games(
    service: GameService, site: Site
) -> None:
    address = await site(service)
    async with aiohttp.ClientSession() as http:
        status, html = await _page(http, address, "/top/chess")
        assert status == 404
        status, html = await _page(http, address, "/p/console/nobody")
        assert status == 200 and "No rated games yet for this player." in html


async def test_a_name_made_of_markup_is_text_on_the_board(service: GameService, site: Site) -> None:
    evil = "<img src=x onerror=alert(1)>"
    bad = seat("eve", 1, 30).model_copy(update={"name": evil})
    assert await kept.apply(service.ctx, game(9, FC, [bad, seat("bob", 2, 3)]))
    address = await site(service)
    async with aiohttp.ClientSession() as http:
        status, html = await _page(http, address, "/top/forbidden_city")
        assert status == 200 and evil not in html
        assert "&lt;img src=x onerror=alert(1)&gt;" in html


async def test_forget_me_reaches_the_pages_at_once(service: GameService, site: Site) -> None:
    await played(service)
    address = await site(service)
    async with aiohttp.ClientSession() as http:
        _, before = await _page(http, address, "/top/forbidden_city")
        assert "Bob" in before
        asked = await service.command(member("bob"), "forget me")
        [button] = [b for m in asked.private for row in m.buttons for b in row]
        assert (await service.press(member("bob"), button.data)).ok
        _, after = await _page(http, address, "/top/forbidden_city")
        assert "Bob" not in after
        status, mine = await _page(http, address, "/p/console/bob")
        assert status == 200 and "No rated games yet" in mine


async def test_the_boards_and_a_players_page_fit_a_phone(service: GameService, site: Site) -> None:
    """At 390 CSS px nothing runs off the side: the table fits the width, and so do its
    lines."""
    from tests.browser import chromium

    await played(service)
    address = await site(service)
    async with chromium() as browser:
        page = await browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=3)
        for path in ("/top/forbidden_city/console/guild1", "/top/forbidden_city", "/p/console/ann"):
            await page.goto(address + path)
            fits = await page.evaluate(
                "[document.documentElement.scrollWidth, document.documentElement.clientWidth,"
                " document.querySelector('table').getBoundingClientRect().right]"
            )
            assert fits[0] <= fits[1] and fits[2] <= 390, (path, fits)
