"""`python -m tests.screenshots`: the web table's pictures in docs/, made by the real server
in headless Chromium (as the browser tests run it) on a throwaway Redis.

A mid-game tile table as a watcher sees it, on a phone (390x844 at 3x) and a desktop
(1280x800), and a player's page showing the preview of a placement tapped on the board.
"""

from __future__ import annotations

import asyncio
import random
import shutil
import tempfile
from pathlib import Path

from playwright.async_api import expect
from pydantic import SecretStr

import render.forbidden_city as render
from bot.actor import Actor
from bot.config import Settings
from bot.redis_server import RedisServer, free_port
from bot.service import GameService
from bot.store import Channel, Store
from bot.table import Table
from bot.web import serve
from tests.browser import chromium
from tests.tables import load_game
from tests.views import to_play

DOCS = Path(__file__).resolve().parent.parent / "docs"
CHANNEL = "table"


async def _make(service: GameService, address: str) -> None:
    def who(user: str) -> Actor:
        return Actor("console", CHANNEL, user, user.capitalize())

    assert (await service.command(who("ann"), "new")).ok
    for user in ("bob", "cid"):
        assert (await service.command(who(user), "join")).ok
    assert (await service.command(who("ann"), "start")).ok
    rng = random.Random(11)
    for _ in range(14):
        record = await service.store.load(Channel.of("console", CHANNEL))
        assert record is not None
        table = Table.model_validate_json(record.data)
        game = load_game(table)
        spot = rng.choice(render.spots(to_play(game)))
        user = table.user_of(game.current).user_id
        assert (await service.command(who(user), f"play {spot.number} {spot.rotations[0]}")).ok
    record = await service.store.load(Channel.of("console", CHANNEL))
    assert record is not None
    table = Table.model_validate_json(record.data)
    mover = table.user_of(load_game(table).current).user_id
    hand = await service.command(who(mover), "board")
    link = next(w for w in hand.public[0].text.split() if w.startswith("http://"))
    from bot.service.weblinks import seat_link

    loaded = await service.ctx.load(Channel.of("console", CHANNEL))
    assert loaded is not None
    personal = seat_link(service.ctx, loaded, mover)
    async with chromium() as browser:
        for name, width, height, scale in (
            ("web-phone", 390, 844, 3),
            ("web-desktop", 1280, 800, 1),
        ):
            page = await browser.new_page(
                viewport={"width": width, "height": height}, device_scale_factor=scale
            )
            await page.goto(link)
            await page.wait_for_function("document.getElementById('board').complete")
            await page.screenshot(path=str(DOCS / f"{name}.png"))
            await page.close()
        page = await browser.new_page(viewport={"width": 1280, "height": 1100})
        await page.goto(personal)
        await page.locator("#choices .tapboard .target").nth(1).click()  # a spot on the board
        await page.locator("#choices button.success").wait_for()
        await page.locator("#choices .tapboard .target").last.hover()
        await page.wait_for_function("[...document.images].every((image) => image.complete)")
        await page.screenshot(path=str(DOCS / "web-seat.png"), full_page=True)
        replay = await _finished(service)
        page = await browser.new_page(viewport={"width": 1280, "height": 800})
        await page.goto(replay)
        for _ in range(12):
            await page.keyboard.press("ArrowLeft")
        await expect(page.locator("#frame")).to_have_js_property("complete", True)
        await page.wait_for_timeout(300)
        await page.screenshot(path=str(DOCS / "web-replay.png"))
    names = ("web-phone", "web-desktop", "web-seat", "web-replay")
    print("written:", ", ".join(f"docs/{n}.png" for n in names))


async def _finished(service: GameService) -> str:
    """A two-player game played to its end in another chat; its replay page's address."""

    def who(user: str) -> Actor:
        return Actor("console", "kept", user, user.capitalize())

    assert (await service.command(who("ann"), "new")).ok
    assert (await service.command(who("bob"), "join")).ok
    assert (await service.command(who("ann"), "start")).ok
    rng = random.Random(4)
    while (record := await service.store.load(Channel.of("console", "kept"))) is not None:
        table = Table.model_validate_json(record.data)
        game = load_game(table)
        spot = rng.choice(render.spots(to_play(game)))
        user = table.user_of(game.current).user_id
        assert (await service.command(who(user), f"play {spot.number} {spot.rotations[0]}")).ok
    history = await service.command(who("ann"), "history")
    return next(w for w in history.public[0].text.split() if "/r/" in w)


async def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="fcr-"))
    server = RedisServer.for_tests(folder)
    server.start()
    store = Store.from_url(server.url)
    port = free_port()
    address = f"http://127.0.0.1:{port}"
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None, web_url=address, web_secret=SecretStr("screenshots")
    )
    service = GameService(store, settings, seeds=lambda: 3)
    stop = await serve(service, "127.0.0.1", port)
    try:
        await _make(service, address)
    finally:
        await stop()
        service.computer.close()
        await store.close()
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    asyncio.run(main())
