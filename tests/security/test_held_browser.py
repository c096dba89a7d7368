"""Names made to be markup, script or template stay text on every page that shows names, in
real headless Chromium (Debian's, `tests/browser.py`): no dialog opens, no script or
handler a name carries reaches the page, and the name is shown as typed (cleaned of bidi
overrides, cut at 32 characters, as everywhere). One browser and one set of tables serve the
whole module, to keep it fast.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import pytest
import pytest_asyncio
import redis
from playwright.async_api import Browser, Dialog, Page, expect

import render.forbidden_city as render
from bot.exchange.actor import Actor
from bot.exchange.replies import Reply
from bot.local_redis.server import RedisServer, free_port
from bot.records.table import Table
from bot.service import GameService
from bot.store import Channel, Store
from bot.web import serve
from tests.browser import chromium
from tests.conftest import fixed_seeds
from tests.tables import load_game
from tests.test_web_seats import personal_link, settings
from tests.views import to_play

pytestmark = pytest.mark.asyncio(loop_scope="module")

# (a player's name as their profile has it, as every page must show it)
HOSTILE = [
    ("<img src=x onerror=alert(1)>", "<img src=x onerror=alert(1)>"),
    ('"><script>alert(1)</script>', '"><script>alert(1)</script>'),
    ("javascript:alert(1)", "javascript:alert(1)"),
    ("{{7*7}}", "{{7*7}}"),
    ("</title><script>alert(1)</script>", "</title><script>alert(1)</scrip…"),
    ("\u202eAnn\u202d evil.exe", "Ann evil.exe"),
    ("' autofocus onfocus='alert(1)", "' autofocus onfocus='alert(1)"),
    ("\u2067\u202bBob\u202c\u2069 ${alert(1)}", "Bob ${alert(1)}"),
]
LIVE, KEPT = "room1", "room2"
BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f"


def actor(channel: str, user: str, name: str) -> Actor:
    return Actor("console", channel, user, name)


async def seated(
    service: GameService, channel: str, people: list[tuple[str, str]]
) -> tuple[str, Reply]:
    """A started tile game of four in `channel`, seated by (user id, name): its game id and
    the deal's reply."""
    first, *others = people
    assert (await service.command(actor(channel, *first), "new")).ok
    for person in others:
        assert (await service.command(actor(channel, *person), "join")).ok
    started = await service.command(actor(channel, *first), "start")
    assert started.ok, started.private
    record = await service.store.load(Channel.of("console", channel))
    assert record is not None
    return record.game_id, started


async def played_to_its_end(service: GameService, channel: str, names: dict[str, str]) -> None:
    """Every move made by the player to act, until the game ends and is kept (and rated)."""
    rng = random.Random(7)
    while (record := await service.store.load(Channel.of("console", channel))) is not None:
        table = Table.model_validate_json(record.data)
        game = load_game(table)
        spot = rng.choice(render.spots(to_play(game)))
        user = table.user_of(game.current).user_id
        played = await service.command(
            actor(channel, user, names[user]), f"play {spot.number} {spot.rotations[0]}"
        )
        assert played.ok, played.private


@dataclass
class Pages:
    """The served tables and the browser that opens them."""

    address: str
    browser: Browser
    live: str  # a table being played
    seat: str  # its first player's own link (`#seat=`)
    kept: str  # a kept game's replay page
    rated: str  # one of the kept game's players
    live_names: list[str] = field(default_factory=list)
    kept_names: list[str] = field(default_factory=list)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def pages(redis_server: RedisServer) -> AsyncIterator[Pages]:
    with redis.Redis.from_url(redis_server.url) as client:
        client.flushdb()
    store = Store.from_url(redis_server.url)
    service = GameService(store, settings(), seeds=fixed_seeds())
    live = [(f"live{n}", raw) for n, (raw, _) in enumerate(HOSTILE[:4])]
    kept = [(f"kept{n}", raw) for n, (raw, _) in enumerate(HOSTILE[4:])]
    await seated(service, KEPT, kept)
    await played_to_its_end(service, KEPT, dict(kept))
    history = await service.command(actor(KEPT, *kept[0]), "history")
    link = next(w for w in history.public[0].text.split() if "/r/console/" in w)
    game_id, dealt = await seated(service, LIVE, live)
    _, _, token = personal_link(dealt)  # the first to play's own link
    port = free_port()
    stop = await serve(service, "127.0.0.1", port)
    try:
        async with chromium() as browser:
            yield Pages(
                address=f"http://127.0.0.1:{port}",
                browser=browser,
                live=f"/t/console/{LIVE}/{game_id}",
                seat=f"/t/console/{LIVE}/{game_id}#seat={token}",
                kept=urlsplit(link).path,
                rated="/p/console/kept0",
                live_names=[shown for _, shown in HOSTILE[:4]],
                kept_names=[shown for _, shown in HOSTILE[4:]],
            )
    finally:
        await stop()
        service.computer.close()
        await store.close()


@dataclass
class Watched:
    """What a page did while it was open: dialogs it opened, errors it logged."""

    dialogs: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def watched(page: Page) -> Watched:
    seen = Watched()

    async def dialog(opened: Dialog) -> None:
        seen.dialogs.append(f"{opened.type}: {opened.message}")
        await opened.dismiss()  # or the page waits on it for ever

    page.on("dialog", dialog)
    page.on("console", lambda m: seen.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: seen.errors.append(str(error)))
    return seen


# What a name would leave in the page had it been taken as markup: a script not served from
# /static, an element carrying a handler, a link or frame to run script, the image `x`.
INJECTED = """(origin) => {
  const all = [...document.querySelectorAll("*")];
  return [
    ...[...document.scripts]
      .filter((s) => !s.src.startsWith(origin + "/static/") || s.textContent.trim())
      .map((s) => "script " + (s.src || s.textContent)),
    ...all.flatMap((e) => [...e.attributes]
      .filter((a) => a.name.startsWith("on") || a.name === "autofocus")
      .map((a) => e.tagName + " " + a.name)),
    ...all.filter((e) => /^(IFRAME|OBJECT|EMBED|BASE|META)$/.test(e.tagName)
      && !(e.tagName === "META" && !e.httpEquiv)).map((e) => e.tagName),
    ...[...document.querySelectorAll("[href^='javascript' i], [src^='javascript' i]")]
      .map((e) => e.tagName + " javascript:"),
    ...[...document.images].filter((i) => i.getAttribute("src") === "x").map(() => "img x"),
    // The document's own title, once; the game's drawings name themselves inside their SVG.
    ...([...document.querySelectorAll("title")].filter((t) => !t.closest("svg")).length === 1
      ? [] : ["a second title"]),
  ];
}"""


async def opened(pages: Pages, path: str, ready: str | None) -> tuple[Page, Watched]:
    """`path` opened in a fresh page; `ready`: a selector its script sets once it has drawn
    the page from the server's JSON."""
    page = await pages.browser.new_page()
    seen = watched(page)
    await page.goto(pages.address + path)
    if ready is not None:
        await expect(page.locator(ready)).to_have_count(1)
    await page.wait_for_load_state("load")
    await asyncio.sleep(0.3)  # time for an injected handler (img onerror) to have run
    return page, seen


async def assert_names_are_text(pages: Pages, page: Page, seen: Watched, names: list[str]) -> None:
    text = await page.inner_text("body")
    title = await page.title()
    injected = await page.evaluate(INJECTED, pages.address)
    await page.close()
    assert seen.dialogs == []
    assert seen.errors == []
    assert injected == []
    missing = [name for name in names if name not in text]
    assert missing == [], text
    assert [c for c in text + title if c in BIDI] == []


async def test_the_table_page_shows_hostile_names_as_text(pages: Pages) -> None:
    page, seen = await opened(pages, pages.live, "#table[data-version]")
    seats = await page.locator("#seats .name").all_inner_texts()
    assert sorted(seats) == sorted(
        pages.live_names
    )  # drawn again by the script, from the server's JSON
    await assert_names_are_text(pages, page, seen, pages.live_names)


async def test_a_players_own_page_shows_hostile_names_as_text(pages: Pages) -> None:
    page, seen = await opened(pages, pages.seat, "#mine:not([hidden]) .message")
    said = await page.locator("#choices .text").first.inner_text()
    assert said.startswith("Your turn")
    await assert_names_are_text(pages, page, seen, pages.live_names)


async def test_the_replay_page_shows_hostile_names_as_text(pages: Pages) -> None:
    page, seen = await opened(pages, pages.kept, "#replay[data-step]")
    moves = await page.locator("#log button").all_inner_texts()
    assert {m.split(": ")[0] for m in moves[1:]} == set(pages.kept_names)  # who made each
    await assert_names_are_text(pages, page, seen, pages.kept_names)


async def test_the_leaderboard_shows_hostile_names_as_text(pages: Pages) -> None:
    page, seen = await opened(pages, "/top/forbidden_city", None)
    await assert_names_are_text(pages, page, seen, pages.kept_names)


async def test_a_players_page_shows_their_hostile_name_as_text(pages: Pages) -> None:
    page, seen = await opened(pages, pages.rated, None)
    assert pages.kept_names[0] in await page.title()
    await assert_names_are_text(pages, page, seen, pages.kept_names[:1])
