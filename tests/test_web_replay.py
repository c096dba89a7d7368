"""A kept game's replay page, against the real server and Redis and in Chromium: linked from
`/fc history` and `/fc replay`, every position drawn as the channel saw it, the actions as
the table saw them (a secret bribe stays `bribe ?`), stepped through with buttons, the
moves and the keyboard."""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator

import aiohttp
import pytest
from playwright.async_api import expect

import render.forbidden_city as render
from bot.actor import Actor
from bot.games.verbotene_stadt import MODULE
from bot.service import GameService
from bot.store import Channel, Store
from bot.table import Table
from engine.verbotene_stadt import Game as StadtGame
from tests.browser import chromium
from tests.conftest import Site, fixed_seeds
from tests.pixels import picture
from tests.tables import load_game
from tests.test_web_table import other_game, settings
from tests.views import to_play

CHANNEL = "room1"
LINK = re.compile(r"https://fc\.example/r/console/room1/([0-9a-f]{32})")


def who(user: str) -> Actor:
    return Actor("console", CHANNEL, user, user.capitalize())


@pytest.fixture
async def service(store: Store) -> AsyncIterator[GameService]:
    made = GameService(store, settings(), seeds=fixed_seeds())
    yield made
    made.computer.close()


async def played_out(service: GameService) -> int:
    """A two-player tile game played to its end; how many moves it took."""
    assert (await service.command(who("ann"), "new")).ok
    assert (await service.command(who("bob"), "join")).ok
    assert (await service.command(who("ann"), "start")).ok
    rng = random.Random(2)
    moves = 0
    while (record := await service.store.load(Channel.of("console", CHANNEL))) is not None:
        table = Table.model_validate_json(record.data)
        game = load_game(table)
        spot = rng.choice(render.spots(to_play(game)))
        user = table.user_of(game.current).user_id
        assert (await service.command(who(user), f"play {spot.number} {spot.rotations[0]}")).ok
        moves += 1
    return moves


async def test_a_kept_game_steps_through_its_positions_on_its_page(
    service: GameService, site: Site
) -> None:
    moves = await played_out(service)
    history = await service.command(who("ann"), "history")
    [line] = [x for x in history.public[0].text.splitlines() if LINK.search(x)]
    game_id = LINK.search(line)[1]  # type: ignore[index]
    replay = await service.command(who("bob"), f"replay {game_id[:8]}")
    assert f"Step through it: https://fc.example/r/console/room1/{game_id}" in (
        replay.public[0].text
    )
    address = await site(service)
    path = f"/r/console/{CHANNEL}/{game_id}"
    async with aiohttp.ClientSession() as http:
        async with http.get(address + path) as page:
            assert page.status == 200
            html = await page.text()
        frames = []
        for number in (0, 1, moves):
            async with http.get(f"{address}{path}/frame/{number}.png") as image:
                assert image.status == 200 and image.content_type == "image/png"
                assert "immutable" in image.headers["Cache-Control"]
                frames.append(await image.read())
        for wrong in (f"{path}/frame/{moves + 1}.png", f"{path}/frame/x.png", other_game(path)):
            async with http.get(address + wrong) as answer:
                assert answer.status == 404
    assert len({picture(f) for f in frames}) == 3  # the deal, the first move and the end differ
    assert html.count('data-step="') == moves + 1  # the deal, then every move
    assert f'data-last="{moves}"' in html
    assert re.search(r'data-step="1">(Ann|Bob): -?\d+,-?\d+', html)


async def test_the_replay_page_follows_the_buttons_the_moves_and_the_keys(
    service: GameService, site: Site
) -> None:
    moves = await played_out(service)
    history = await service.command(who("ann"), "history")
    game_id = LINK.search(history.public[0].text)[1]  # type: ignore[index]
    address = await site(service)
    path = f"/r/console/{CHANNEL}/{game_id}"
    async with chromium() as browser:
        page = await browser.new_page(viewport={"width": 1280, "height": 800})
        await page.goto(address + path)
        main = page.locator("#replay")
        # It opens on the deal, at its top (not scrolled down to the last move).
        await expect(main).to_have_attribute("data-step", "0")
        await expect(page.locator("#frame")).to_have_attribute("src", f"{path}/frame/0.png")
        await expect(page.locator("#where")).to_have_text(f"0 / {moves}")
        assert await page.evaluate("window.scrollY") == 0
        await page.keyboard.press("End")
        await expect(main).to_have_attribute("data-step", str(moves))
        await page.keyboard.press("Home")
        await expect(main).to_have_attribute("data-step", "0")
        await page.keyboard.press("ArrowRight")
        await page.keyboard.press("ArrowRight")
        await expect(main).to_have_attribute("data-step", "2")
        current = page.locator('#log button[aria-current="step"]')
        await expect(current).to_have_attribute("data-step", "2")
        await page.locator("#back").click()
        await expect(main).to_have_attribute("data-step", "1")
        await page.locator('#log button[data-step="5"]').click()
        await expect(main).to_have_attribute("data-step", "5")
        await page.keyboard.press("End")
        await expect(page.locator("#where")).to_have_text(f"{moves} / {moves}")
        await page.wait_for_function("document.getElementById('frame').complete")
        assert await page.eval_on_selector("#frame", "image => image.naturalWidth > 100")


def test_a_stadt_replay_log_keeps_every_bribe_secret() -> None:
    game = StadtGame(3, seed=4)
    for seat, official in zip(game.players, ("RR", "YB", "GK"), strict=True):
        game.play(seat, f"bribe {official}")
    stadt = MODULE
    log = stadt.replay_log(stadt.dump(game))
    assert [action for _, action in log][:3] == ["bribe ?", "bribe ?", "bribe ?"]
    assert not any(o in action for _, action in log for o in ("RR", "YB", "GK"))
