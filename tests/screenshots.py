"""`python -m tests.screenshots`: the web table's pictures in docs/, made by the real server
in headless Chromium (as the browser tests run it) on a throwaway Redis.

A mid-game tile table as a watcher sees it, on a phone (390x844 at 3x) and a desktop
(1280x800); a player's phone with the preview of a placement touched on the board; Die
Verbotene Stadt on a phone (an official touched, its stops marked) and a desktop; a replay;
a leaderboard on a phone.
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
from bot.config import Settings
from bot.exchange.actor import Actor
from bot.local_redis.server import RedisServer, free_port
from bot.records.table import Table
from bot.service import GameService
from bot.store import Channel, Store
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
    stadt = await _stadt(service)
    async with chromium() as browser:
        phone = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3}
        desktop = {"viewport": {"width": 1280, "height": 800}, "device_scale_factor": 1}
        for name, size in (("web-phone", phone), ("web-desktop", desktop)):
            page = await browser.new_page(**size)  # type: ignore[arg-type]
            await page.goto(link)
            await page.locator("svg#board").wait_for()
            await page.screenshot(path=str(DOCS / f"{name}.png"))
            await page.close()
        # A player's phone: a spot touched on the board, the tile shown there, Place it here.
        page = await browser.new_page(**phone)  # type: ignore[arg-type]
        await page.goto(personal)
        await page.locator("#spots .spot").nth(1).click()
        await page.locator("#choices button.success").wait_for()
        await page.wait_for_timeout(500)  # the tile settles in
        await page.screenshot(path=str(DOCS / "web-seat.png"))
        await page.close()
        # Die Verbotene Stadt on a phone: an official touched, its stops marked.
        page = await browser.new_page(**phone)  # type: ignore[arg-type]
        await page.goto(stadt)
        await page.locator("#spots .spot").first.click()
        await expect(page.locator("#choices .text").first).to_contain_text("first slide")
        await page.wait_for_timeout(300)
        await page.screenshot(path=str(DOCS / "web-stadt-phone.png"))
        await page.close()
        page = await browser.new_page(**desktop)  # type: ignore[arg-type]
        await page.goto(stadt.partition("#")[0])
        await page.locator("svg#board").wait_for()
        await page.screenshot(path=str(DOCS / "web-stadt-desktop.png"))
        await page.close()
        replay, top = await _finished(service)
        page = await browser.new_page(**desktop)  # type: ignore[arg-type]
        await page.goto(replay)
        for _ in range(30):
            await page.keyboard.press("ArrowRight")
        await page.wait_for_timeout(500)
        await page.screenshot(path=str(DOCS / "web-replay.png"))
        await page.close()
        page = await browser.new_page(**phone)  # type: ignore[arg-type]
        await page.goto(top)
        await page.wait_for_timeout(300)
        await page.screenshot(path=str(DOCS / "web-leaderboard.png"), full_page=True)
    names = (
        "web-phone", "web-desktop", "web-seat", "web-stadt-phone", "web-stadt-desktop",
        "web-replay", "web-leaderboard",
    )  # fmt: skip
    print("written:", ", ".join(f"docs/{n}.png" for n in names))


async def _stadt(service: GameService) -> str:
    """A three-player Die Verbotene Stadt table in another chat, its bribes made: the personal
    link of the player to move."""

    def who(user: str) -> Actor:
        return Actor("console", "stadt", user, user.capitalize())

    assert (await service.command(who("ann"), "new stadt")).ok
    for user in ("bob", "cid"):
        assert (await service.command(who(user), "join")).ok
    assert (await service.command(who("ann"), "start")).ok
    mover = ""
    for user in ("ann", "bob", "cid"):
        [asked] = [m for m in (await service.command(who(user), "hand")).private if m.choices]
        assert (await service.press(who(user), asked.choices[user == "bob"].data)).ok
    for user in ("ann", "bob", "cid"):
        hand = await service.command(who(user), "hand")
        if any(m.text.startswith("Your turn") for m in hand.private):
            mover = user
    from bot.service.weblinks import seat_link

    loaded = await service.ctx.load(Channel.of("console", "stadt"))
    assert loaded is not None and mover
    return seat_link(service.ctx, loaded, mover)


async def _finished(service: GameService) -> tuple[str, str]:
    """A two-player game played to its end in another chat: its replay page's address and
    its leaderboard's."""

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
    replay = next(w for w in history.public[0].text.split() if "/r/" in w)
    top = await service.command(who("ann"), "top global")
    board = next(w for w in top.public[-1].text.split() if "/top/" in w)
    return replay, board


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
