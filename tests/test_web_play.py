"""A whole tile game in which Bob plays only from his page in Chromium, tapping a spot on the
board, tapping the tile to turn it and confirming, the first move with the keyboard alone
(Tab, Enter, R), while Ann plays in the chat and a spectator's page shows every move; each
of Bob's moves is told in the chat."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator

import pytest
from playwright.async_api import Page, expect

import render.forbidden_city as render
from bot.exchange.replies import Reply
from bot.local_redis.server import free_port
from bot.records.table import Table
from bot.service import GameService
from bot.store import Channel, Store
from bot.web import serve
from tests.browser import chromium
from tests.conftest import fixed_seeds
from tests.tables import load_game
from tests.test_web_seats import personal_link, settings, start, who
from tests.views import to_play


@pytest.fixture
async def service(store: Store) -> AsyncIterator[GameService]:
    made = GameService(store, settings(), seeds=fixed_seeds())
    yield made
    made.computer.close()


async def _table(store: Store) -> Table | None:
    record = await store.load(Channel.of("console", "room1"))
    return None if record is None else Table.model_validate_json(record.data)


async def _version(page: Page) -> int:
    return int(await page.locator("#table").get_attribute("data-version") or 0)


async def _preview_text(page: Page) -> str:
    await expect(page.locator("#choices .text").first).to_contain_text("Preview")
    return await page.locator("#choices .text").first.inner_text()


async def _by_keyboard(page: Page, first: bool = True) -> None:
    """A spot on the board, a turn of the tile and the confirmation, with the keyboard only:
    Tab, Enter and R. On a page just opened the board's first spot is the first Tab stop;
    later, Tab goes on from wherever the last move left the focus, round to the board."""
    await page.locator("#spots .spot").first.wait_for()
    await page.keyboard.press("Tab")
    if first:
        focused = await page.evaluate("document.activeElement.getAttribute('aria-label')")
        assert focused.startswith("Spot 1: ")  # the board's first spot comes first
    for _ in range(80):
        if await page.evaluate("document.activeElement.classList.contains('spot')"):
            break
        await page.keyboard.press("Tab")
    else:
        raise AssertionError("Tab never reaches the board's spots")
    await page.keyboard.press("Enter")
    before = await _preview_text(page)
    assert (await page.evaluate("document.activeElement.textContent")) == "Place it here"
    turns = await page.locator("#choices .buttons button[data-choice*=':pv:']").count()
    if turns:  # another turn fits: R shows it
        await page.keyboard.press("r")
        await expect(page.locator("#choices .text").first).not_to_have_text(before)
        assert "Preview" in await _preview_text(page)
        assert (await page.evaluate("document.activeElement.textContent")) == "Place it here"
    await page.keyboard.press("Enter")


async def _touchable(page: Page) -> None:
    """One board, the one touched: every place offered is at least 44 CSS px square, the
    seat's part shows no second picture of the board, and the page never scrolls sideways."""
    sizes = await page.eval_on_selector_all(
        "#spots .spot",
        "spots => spots.map(s => { const r = s.getBoundingClientRect(); "
        "return Math.min(r.width, r.height); })",
    )
    assert sizes and min(sizes) >= 44, sizes
    assert await page.locator("#choices img").count() == 0
    assert await page.locator("#tray svg").count() == 1  # the tile in hand, large
    assert await page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )


async def _by_taps(page: Page, rng: random.Random) -> None:
    """A tap on a spot of the board, a tap on the tile to turn it when it turns, and the
    confirmation."""
    spots = page.locator("#spots .spot")
    await spots.first.wait_for()
    await _touchable(page)
    spot = spots.nth(rng.randrange(await spots.count()))
    label = await spot.get_attribute("aria-label") or ""
    touched, board = await spot.bounding_box(), await page.locator("svg#board").bounding_box()
    await spot.click()
    before = await _preview_text(page)
    # The tile appears on the big board where it was touched, ringed as the one laid.
    cell = label.rpartition(" ")[2]
    await expect(page.locator("svg#board [data-last]")).to_have_attribute("data-last", cell)
    ring = await page.locator("svg#board [data-last]").bounding_box()
    now = await page.locator("svg#board").bounding_box()
    assert touched and board and ring and now
    middle = (touched["x"] + touched["width"] / 2, touched["y"] + touched["height"] / 2)
    middle = (middle[0] - board["x"] + now["x"], middle[1] - board["y"] + now["y"])
    assert ring["x"] <= middle[0] <= ring["x"] + ring["width"]
    assert ring["y"] <= middle[1] <= ring["y"] + ring["height"]
    turn = page.locator("#spots .spot[aria-label='Turn the tile (R)']")
    if await turn.count() and rng.random() < 0.5:
        await asyncio.sleep(0.3)
        await turn.click()
        await expect(page.locator("#choices .text").first).not_to_have_text(before)
    confirm = page.locator("#choices button.success")
    await expect(confirm).to_have_text("Place it here")
    await confirm.click()


async def _ann_moves(service: GameService, table: Table, rng: random.Random) -> Reply:
    game = load_game(table)
    spot = rng.choice(render.spots(to_play(game)))
    reply = await service.command(who("ann", "room1"), f"play {spot.number} {spot.rotations[0]}")
    assert reply.ok, reply.private
    return reply


def _link_for(reply: Reply, user: str) -> tuple[str, str] | None:
    """`user`'s personal link, if the reply sends them a turn notice."""
    for direct in reply.direct:
        if direct.user_id == user:
            mine = Reply(direct=[direct])
            return personal_link(mine)[1:]
    return None


@pytest.mark.parametrize("keyboard", [False, True], ids=["touch", "keyboard"])
async def test_a_whole_game_with_one_player_on_the_page(
    service: GameService, store: Store, keyboard: bool
) -> None:
    """Bob's moves all from his phone's page: by touching the board (the first by keyboard),
    or every one by keyboard alone."""
    dealt, game_id = await start(service, "room1")
    port = free_port()
    stop = await serve(service, "127.0.0.1", port)
    try:
        await _play(service, store, port, game_id, dealt, keyboard)
    finally:
        await stop()


async def _polled(service: GameService) -> list[tuple[str, str, Reply]]:
    """What the console's deadline poller delivers once the page's press has answered (it
    polls every second; here, every 50 ms for up to 5 s)."""
    for _ in range(100):
        told = await service.fire_due("console")
        if told:
            return told
        await asyncio.sleep(0.05)
    return []


async def _play(
    service: GameService, store: Store, port: int, game_id: str, dealt: Reply, keyboard: bool
) -> None:
    rng = random.Random(5)
    bob_link = _link_for(dealt, "bob")
    moves_on_page = moves_in_chat = 0
    async with chromium() as browser:
        watcher = await browser.new_page(viewport={"width": 1280, "height": 800})
        await watcher.goto(f"http://127.0.0.1:{port}/t/console/room1/{game_id}")
        await expect(watcher.locator("#table")).to_have_attribute("data-version", "3")
        await expect(watcher.locator("#mine")).to_be_hidden()  # no token: a spectator
        bob = await browser.new_page(viewport={"width": 390, "height": 844})
        while (table := await _table(store)) is not None:
            version = await _version(watcher)
            if table.user_of(load_game(table).current).user_id == "ann":
                reply = await _ann_moves(service, table, rng)
                bob_link = bob_link or _link_for(reply, "bob")
                moves_in_chat += 1
            else:
                assert bob_link is not None, "Bob's turn notice carries his link"
                if moves_on_page == 0:
                    path, token = bob_link
                    await bob.goto(f"http://127.0.0.1:{port}{path}#seat={token}")
                    assert "seat=" not in bob.url  # the token leaves the address bar
                    await _by_keyboard(bob)
                elif keyboard:
                    await asyncio.sleep(0.3)
                    await _by_keyboard(bob, first=False)
                else:
                    await asyncio.sleep(0.3)  # a person's pace: the server limits a token's
                    await _by_taps(bob, rng)  # requests to 10 a second
                moves_on_page += 1
                try:
                    await expect(watcher.locator("#table")).not_to_have_attribute(
                        "data-version", str(version), timeout=3000
                    )
                except AssertionError:
                    said = await bob.locator("#said").text_content()
                    shown = await bob.locator("#choices").inner_text()
                    raise AssertionError(f"not played: {said!r} / {shown!r}") from None
                told = await _polled(service)  # the chat's poller posts the move
                assert [(p, c) for p, c, _ in told] == [("console", "room1")]
                assert told[0][2].public and told[0][2].public[0].image is not None
            await expect(watcher.locator("#table")).not_to_have_attribute(
                "data-version", str(version), timeout=3000
            )
        await expect(watcher.locator("#table")).to_have_attribute("data-over", "true")
        await expect(bob.locator("#said")).to_have_text(
            "This game is over: the page shows how it ended."
        )
        final = await watcher.locator("#status").text_content()
    assert final and "Bob" in final and "Ann" in final
    assert moves_on_page >= 5 and moves_in_chat >= 5
