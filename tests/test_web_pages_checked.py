"""Every kind of page, checked in Chromium as a phone shows it (390x844 CSS px, 3 device
pixels to the CSS px) and as a desktop does (1280x800): a table as a watcher sees it (the
tile game and Die Verbotene Stadt), a seat on its turn (before and after a tap on the board:
a spot, an official; a bribe to choose; waiting its turn), a finished game, its replay, a
leaderboard, a player's page, the page of no table and the Mini App's opening page. On each:

(a) axe-core (`tests/vendor/axe-core`) finds nothing "serious" or "critical" (its default
    rules and WCAG 2.2's target size; the colours' contrast in the dark scheme too);
(b) the page never scrolls sideways;
(c) on the phone, every control shown (buttons, links, inputs, the board's places) is at
    least 44x44 CSS px, WCAG 2.5.5's size (see `EXEMPT` for the one exception);
(d) on the phone, every picture shown is sharp: an SVG, or at least 3 pixels of its own to
    each CSS px it is shown at.

Every problem of a test's pages is said at once, with the page and the element; what axe
could not decide, and the smallest control and board place of each page, are printed."""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, BrowserContext, Page, Route, expect

import render.forbidden_city as render
from bot.exchange.actor import Actor
from bot.records.table import Table
from bot.service import GameService
from bot.store import Channel, Store
from tests.browser import chromium
from tests.conftest import Site, fixed_seeds
from tests.tables import load_game
from tests.test_standings_answers import played
from tests.test_web_seats import settings
from tests.views import to_play

AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
# Where the page fetches axe from: its own origin, answered by the test (`_inject`).
AXE_PATH = "/__tests__/axe.min.js"
SMALLEST = 44  # CSS px: WCAG 2.5.5 (Target Size, enhanced)
SHARP = 3  # device pixels to the CSS px of the phone
STADT = ("ann", "bob", "cid")


@dataclass(frozen=True)
class Screen:
    name: str
    width: int
    height: int
    scale: float

    @property
    def phone(self) -> bool:
        return self.width < 600


PHONE = Screen("phone", 390, 844, 3)
DESKTOP = Screen("desktop", 1280, 800, 1)
SCREENS = pytest.mark.parametrize("screen", [PHONE, DESKTOP], ids=lambda s: s.name)

# The one kind of control allowed below 44x44 CSS px on the phone: a replay's list of moves.
# Each is a row of text in a list that scrolls, and WCAG 2.5.8 (Target Size, minimum) lets it
# be smaller by its "equivalent" exception: every position it goes to is also reached with
# the Start / Back / Next / End buttons and the slider above it, which are all 44 px or more
# (checked here too). It is still held to 2.5.8's own least size, 24x24 CSS px, so its rows
# never grow too small to touch one at a time. There is no link in any page's text, so the
# "inline" exception is not used.
EXEMPT = "#log button"
LEAST = 24  # CSS px: WCAG 2.5.8


# What the page measures of itself: its controls, its pictures, its width.
MEASURE = """
(exempt) => {
  const shown = (e) => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && e.checkVisibility({ visibilityProperty: true });
  };
  const named = (e) => {
    const words = (e.getAttribute("aria-label") || e.textContent || e.value || "").trim();
    const id = e.id ? "#" + e.id : "";
    const cls = e.classList.length ? "." + [...e.classList].join(".") : "";
    return `${e.tagName.toLowerCase()}${id}${cls} "${words.slice(0, 30)}"`;
  };
  const controls = document.querySelectorAll(
    "button, a[href], input:not([type=hidden]), select, textarea, summary, [role=button], .spot"
  );
  const targets = [...controls].filter(shown).map((e) => {
    const r = e.getBoundingClientRect();
    return { what: named(e), width: r.width, height: r.height, exempt: !!e.closest(exempt) };
  });
  const images = [...document.images].filter(shown).map((e) => ({
    what: named(e) + " " + (e.currentSrc || e.src).slice(0, 60),
    natural: e.naturalWidth,
    width: e.getBoundingClientRect().width,
    svg: /\\.svg(\\?|#|$)|^data:image\\/svg\\+xml/.test(e.currentSrc || e.src),
  }));
  const root = document.documentElement;
  return { targets, images, scroll: root.scrollWidth, client: root.clientWidth };
}
"""

# axe-core's rules as it runs them by default, and WCAG 2.2's target size (24x24 CSS px,
# 2.5.8) too, which it leaves out unless asked; `only`: these rules alone.
AXE_RUN = """
async (only) => {
  const options = only.length
    ? { runOnly: { type: "rule", values: only } }
    : { rules: { "target-size": { enabled: true } } };
  const found = await axe.run(document, { ...options, resultTypes: ["violations"] });
  const told = (v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.map((n) => n.target.join(" ") + ": " + (n.failureSummary || "")),
  });
  return { violations: found.violations.map(told), unsure: found.incomplete.map(told) };
}
"""


@dataclass
class Findings:
    """What was wrong, page by page; what axe-core could not decide, or found of lesser
    impact (said, not failed); and the smallest control and board place measured on each."""

    problems: list[str] = field(default_factory=list)
    said: list[str] = field(default_factory=list)
    smallest: dict[str, str] = field(default_factory=dict)


@pytest.fixture
async def service(store: Store) -> AsyncIterator[GameService]:
    made = GameService(store, settings(), seeds=fixed_seeds())
    yield made
    made.computer.close()


async def _inject(route: Route) -> None:
    await route.fulfill(body=AXE.read_bytes(), content_type="text/javascript")


async def _context(browser: Browser, screen: Screen) -> BrowserContext:
    """A fresh browser context for `screen`. The pages' strict policy (`script-src 'self'`)
    stays in force: axe-core is not added as an inline script (which only `bypass_csp=True`
    would let run, lifting the policy for the whole context, and so for the pages' own
    scripts and styles too, which would then not be checked as they really run), but as a
    script from the page's own origin (`AXE_PATH`), which the test itself answers."""
    context = await browser.new_context(
        viewport={"width": screen.width, "height": screen.height},
        device_scale_factor=screen.scale,
    )
    await context.route(f"**{AXE_PATH}", _inject)
    return context


async def _settled(page: Page) -> None:
    """Once the page's pictures have loaded and its motions ended. (A function, not an
    expression: the pages' policy forbids evaluating strings.)"""
    await page.wait_for_function(
        "() => [...document.images].every((i) => i.complete)"
        " && document.getAnimations().every((a) => a.playState !== 'running')"
    )


def _size(target: dict[str, Any]) -> str:
    return f"{target['width']:.1f}x{target['height']:.1f} {target['what']}"


async def _axe(page: Page, where: str, findings: Findings, only: tuple[str, ...] = ()) -> None:
    if not await page.evaluate("() => typeof axe !== 'undefined'"):
        await page.add_script_tag(url=AXE_PATH)
    found = await page.evaluate(AXE_RUN, list(only))
    for kind, results in (("", found["violations"]), ("unsure: ", found["unsure"])):
        for result in results:
            told = f"{where}: axe {kind}{result['id']} ({result['impact']}): {result['help']}"
            told += "".join(f"\n    {node}" for node in result["nodes"][:5])
            serious = result["impact"] in ("serious", "critical")
            (findings.problems if serious and not kind else findings.said).append(told)


async def check(page: Page, name: str, screen: Screen, findings: Findings) -> None:
    """(a) to (d) of the module's docstring, on the page as it is now; what fails is added
    to `findings` under `name` (the page and the screen)."""
    where = f"{name} [{screen.name}]"
    await _settled(page)
    measured = await page.evaluate(MEASURE, EXEMPT)
    if measured["scroll"] > measured["client"]:
        findings.problems.append(
            f"{where}: scrolls sideways ({measured['scroll']} > {measured['client']} px)"
        )
    targets = measured["targets"]
    places = [t for t in targets if t["what"].startswith("button.spot")]
    exempt = [t for t in targets if t["exempt"]]
    kinds = (
        ("control", [t for t in targets if not t["exempt"]]),
        ("board place", places),
        (f"control of {EXEMPT} (exempt)", exempt),
    )
    for kind, among in kinds:
        if among:
            least = min(among, key=lambda t: min(t["width"], t["height"]))
            findings.smallest[f"{where}, smallest {kind}"] = _size(least)
    if screen.phone:
        for target in targets:
            size = SMALLEST if not target["exempt"] else LEAST
            if target["width"] < size - 0.01 or target["height"] < size - 0.01:
                findings.problems.append(f"{where}: {_size(target)} is under {size}x{size}")
        for image in measured["images"]:
            if image["svg"] or image["natural"] >= SHARP * image["width"] - 0.5:
                continue
            findings.problems.append(
                f"{where}: {image['what']} has {image['natural']} px for "
                f"{image['width']:.1f} CSS px, under {SHARP}x"
            )
    await _axe(page, where, findings)
    # The dark colours too, whose contrast the light ones say nothing of.
    await page.emulate_media(color_scheme="dark")
    await _axe(page, where + " dark", findings, ("color-contrast",))
    await page.emulate_media(color_scheme="light")


def _report(findings: Findings) -> None:
    for where, size in findings.smallest.items():
        print(f"{where}: {size}")
    for said in findings.said:
        print(said)
    assert not findings.problems, "\n" + "\n".join(findings.problems)


def _who(channel: str, user: str) -> Actor:
    return Actor("console", channel, user, user.capitalize())


async def _game_id(service: GameService, channel: str) -> str:
    record = await service.store.load(Channel.of("console", channel))
    assert record is not None
    return record.game_id


async def _tile_game(service: GameService, channel: str) -> tuple[str, str]:
    """A two-player tile game dealt in `channel`: its id, and whose turn it is."""
    assert (await service.command(_who(channel, "ann"), "new")).ok
    assert (await service.command(_who(channel, "bob"), "join")).ok
    assert (await service.command(_who(channel, "ann"), "start")).ok
    record = await service.store.load(Channel.of("console", channel))
    assert record is not None
    table = Table.model_validate_json(record.data)
    return record.game_id, table.user_of(load_game(table).current).user_id


async def _stadt(service: GameService, channel: str) -> str:
    """Die Verbotene Stadt dealt for three, its bribes still to make; its id."""
    assert (await service.command(_who(channel, "ann"), "new stadt")).ok
    for user in STADT[1:]:
        assert (await service.command(_who(channel, user), "join")).ok
    assert (await service.command(_who(channel, "ann"), "start")).ok
    return await _game_id(service, channel)


async def _bribed(service: GameService, channel: str) -> str:
    """Every bribe made at the table of `channel`, from the private menus: who moves first."""
    for user in STADT:
        hand = await service.command(_who(channel, user), "hand")
        [asked] = [m for m in hand.private if m.choices]
        assert (await service.press(_who(channel, user), asked.choices[0].data)).ok
    for user in STADT:
        hand = await service.command(_who(channel, user), "hand")
        if any(m.text.startswith("Your turn") for m in hand.private):
            return user
    raise AssertionError("nobody moves")


async def _played_out(service: GameService, channel: str) -> str:
    """A two-player tile game played to its end in `channel`; its id."""
    game_id, _ = await _tile_game(service, channel)
    rng = random.Random(3)
    while (record := await service.store.load(Channel.of("console", channel))) is not None:
        table = Table.model_validate_json(record.data)
        game = load_game(table)
        spot = rng.choice(render.spots(to_play(game)))
        user = table.user_of(game.current).user_id
        said = f"play {spot.number} {spot.rotations[0]}"
        assert (await service.command(_who(channel, user), said)).ok
    return game_id


async def _fresh(context: BrowserContext, page: Page) -> Page:
    """A new page in place of `page`, closed: each holds its table's event stream open, and
    Chromium opens at most six connections to one server at a time."""
    await page.close()
    return await context.new_page()


async def _watched(page: Page, url: str) -> None:
    await page.goto(url)
    await expect(page.locator("#table")).to_have_attribute("data-version", re.compile(r"\d"))
    await page.locator("#board").wait_for()


async def _seated(page: Page, url: str, token: str) -> None:
    await page.goto(f"{url}#seat={token}")
    await page.locator("#board").wait_for()
    try:
        await page.locator("#spots .spot").first.wait_for(timeout=5000)
    except Exception:
        raise AssertionError(await page.locator("#mine").inner_text()) from None


@SCREENS
async def test_live_tables_as_watched_and_as_played(
    service: GameService, site: Site, screen: Screen
) -> None:
    findings = Findings()
    tiles, tiles_mover = await _tile_game(service, "room1")
    stadt = await _stadt(service, "room2")
    address = await site(service)
    tiles_url = f"{address}/t/console/room1/{tiles}"
    stadt_url = f"{address}/t/console/room2/{stadt}"
    async with chromium() as browser:
        context = await _context(browser, screen)
        page = await context.new_page()
        await _watched(page, tiles_url)
        await check(page, "tile game, watched", screen, findings)

        token = await service.seat_token("console", "room1", tiles, tiles_mover)
        page = await _fresh(context, page)
        await _seated(page, tiles_url, token)
        await check(page, "tile game, a seat on its turn", screen, findings)
        await page.locator("#spots .spot").first.click()
        await expect(page.locator("#choices .text").first).to_contain_text("Preview")
        await check(page, "tile game, a seat's preview", screen, findings)
        waiting = "bob" if tiles_mover == "ann" else "ann"
        token = await service.seat_token("console", "room1", tiles, waiting)
        page = await _fresh(context, page)
        await page.goto(f"{tiles_url}#seat={token}")
        await expect(page.locator("#choices .text").first).to_contain_text("Your tile")
        await check(page, "tile game, a seat waiting its turn", screen, findings)

        token = await service.seat_token("console", "room2", stadt, "ann")
        page = await _fresh(context, page)
        await _seated(page, stadt_url, token)
        await expect(page.locator("#choices .text").first).to_contain_text("in secret")
        await check(page, "Die Verbotene Stadt, a seat choosing its bribe", screen, findings)
        mover = await _bribed(service, "room2")
        page = await _fresh(context, page)
        await _watched(page, stadt_url)
        await check(page, "Die Verbotene Stadt, watched", screen, findings)
        token = await service.seat_token("console", "room2", stadt, mover)
        page = await _fresh(context, page)
        await _seated(page, stadt_url, token)
        await check(page, "Die Verbotene Stadt, a seat on its turn", screen, findings)
        await page.locator("#spots .spot").first.click()
        choose = page.locator("#choices .text").first
        await expect(choose).to_contain_text("Choose its first")
        await check(page, "Die Verbotene Stadt, an official tapped", screen, findings)
        await asyncio.sleep(0.3)  # a person's pace: the server limits a token's requests
        await page.locator("#choices .buttons button[data-choice*=':vs:']").first.click()
        await expect(choose).to_contain_text("Preview")
        await check(page, "Die Verbotene Stadt, a seat's preview", screen, findings)
        await context.close()
    _report(findings)


@SCREENS
async def test_a_finished_game_and_its_replay(
    service: GameService, site: Site, screen: Screen
) -> None:
    findings = Findings()
    game_id = await _played_out(service, "room3")
    address = await site(service)
    async with chromium() as browser:
        context = await _context(browser, screen)
        page = await context.new_page()
        await _watched(page, f"{address}/t/console/room3/{game_id}")
        await expect(page.locator("#table")).to_have_attribute("data-over", "true")
        await check(page, "a finished tile game", screen, findings)
        token = await service.seat_token("console", "room3", game_id, "ann")
        page = await _fresh(context, page)
        await page.goto(f"{address}/t/console/room3/{game_id}#seat={token}")
        await expect(page.locator("#said")).to_contain_text("This game is over")
        await check(page, "a finished tile game, from a seat", screen, findings)
        await page.goto(f"{address}/r/console/room3/{game_id}")
        await expect(page.locator("#replay")).to_have_attribute("data-step", "0")
        await check(page, "the replay, at the deal", screen, findings)
        await page.keyboard.press("End")
        await expect(page.locator('#log button[aria-current="step"]')).to_be_visible()
        await check(page, "the replay, at the end", screen, findings)
        await context.close()
    _report(findings)


@SCREENS
async def test_a_leaderboard_and_a_players_page(
    service: GameService, site: Site, screen: Screen
) -> None:
    findings = Findings()
    await played(service)
    address = await site(service)
    async with chromium() as browser:
        context = await _context(browser, screen)
        page = await context.new_page()
        for name, path in (
            ("the leaderboard", "/top/forbidden_city"),
            ("a community's leaderboard", "/top/forbidden_city/console/guild1"),
            ("a player's page", "/p/console/ann"),
            ("a player with no games", "/p/console/nobody"),
        ):
            answer = await page.goto(address + path)
            assert answer is not None and answer.status == 200, path
            await check(page, name, screen, findings)
        await context.close()
    _report(findings)


async def test_a_leaderboard_is_a_table_of_its_rated_players_on_a_phone(
    service: GameService, site: Site
) -> None:
    """At 390x844 a board is a real table: a row a rated player, best first, with the
    picture's headings, each trend a line with its words, all within the screen's width;
    a player's page, a row a game they played."""
    await played(service)
    address = await site(service)
    boards = (
        ("/top/forbidden_city/console/guild1", ["Ann", "Cat", "Bob", "Fay", "Computer (easy)"]),
        ("/top/forbidden_city", ["Ann", "Gus", "Cat", "Bob", "Hal", "Fay", "Computer (easy)"]),
        ("/p/console/ann", ["Forbidden City", "Die Verbotene Stadt"]),
    )
    async with chromium() as browser:
        context = await _context(browser, PHONE)
        page = await context.new_page()
        for path, names in boards:
            await page.goto(address + path)
            table = page.locator("table.standings")
            assert await table.locator("tbody tr").count() == len(names), path
            assert await table.locator("tbody th.name").all_inner_texts() == names, path
            headings = await table.locator("thead th").all_inner_texts()
            name = "Game" if path.startswith("/p/") else "Player"
            assert headings == ["Rank", name, "Rating", "Games", "Wins", "Trend"], path
            lines = table.locator("tbody svg.spark[aria-label^='Trend: ']")
            assert await lines.count() == len(names), path
            assert await page.locator("img").count() == 0, path  # no picture drawn
            box = await table.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, path
        await context.close()


@SCREENS
async def test_no_table_and_the_mini_apps_opening(
    service: GameService, site: Site, screen: Screen
) -> None:
    findings = Findings()
    address = await site(service)
    async with chromium() as browser:
        context = await _context(browser, screen)
        page = await context.new_page()
        answer = await page.goto(f"{address}/t/console/nowhere/{'0' * 32}")
        assert answer is not None and answer.status == 404
        await check(page, "no such table", screen, findings)
        answer = await page.goto(f"{address}/app")
        assert answer is not None and answer.status == 200
        await expect(page.locator("#said")).not_to_be_empty()  # opened outside Telegram
        await check(page, "the Mini App's opening", screen, findings)
        await context.close()
    _report(findings)
