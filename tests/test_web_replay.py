"""A kept game's replay page, against the real server and Redis and in Chromium: linked from
`/fc history` and `/fc replay`, every position drawn as the channel saw it (its board in SVG
on the page, its seats and scores beside it), the actions as the table saw them (a secret
bribe stays `bribe ?`), stepped through with buttons, the moves and the keyboard."""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator

import aiohttp
import pytest
from playwright.async_api import expect

import render.forbidden_city as render
from bot.exchange.actor import Actor
from bot.games.verbotene_stadt import MODULE
from bot.records.finished import Result, ResultSeat
from bot.records.table import Table
from bot.service import GameService
from bot.store import Channel, Store
from engine.verbotene_stadt import Game as StadtGame
from tests.browser import chromium
from tests.conftest import Site, fixed_seeds
from tests.pixels import picture
from tests.tables import load_game
from tests.test_results_details import keep_result
from tests.test_web_table import other_game, settings
from tests.views import to_play

CHANNEL = "room1"
LINK = re.compile(r"https://fc\.example/r/console/room1/([0-9a-f]{32})")
# A position's: as the chat drew it, its board as the page draws it, what is beside that.
TYPES = {"png": "image/png", "svg": "image/svg+xml", "html": "text/html"}


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
        got: dict[str, list[bytes]] = {kind: [] for kind in TYPES}
        for number in (0, 1, moves):
            for kind, into in got.items():
                async with http.get(f"{address}{path}/frame/{number}.{kind}") as answer:
                    assert answer.status == 200 and answer.content_type == TYPES[kind]
                    assert "immutable" in answer.headers["Cache-Control"]
                    into.append(await answer.read())
        frames, boards, besides = got["png"], got["svg"], got["html"]
        for wrong in (
            *(f"{path}/frame/{moves + 1}.{kind}" for kind in TYPES),
            *(f"{path}/frame/x.{kind}" for kind in TYPES),
            f"{path}/frame/0.gif",
            other_game(path) + "/frame/0.svg",
            other_game(path),
        ):
            async with http.get(address + wrong) as answer:
                assert answer.status == 404, wrong
    assert len({picture(f) for f in frames}) == 3  # the deal, the first move and the end differ
    assert len(set(boards)) == 3
    for board in boards:
        # An SVG with a size of its own: shown as large as its PNG was, not as a guess.
        root = re.match(rb'<svg [^>]*width="(\d+)" height="(\d+)"', board)
        assert root and int(root[1]) > 300 and int(root[2]) > 300, board[:200]
    # Beside the board, its seats and scores, as the chat's picture shows them above it.
    deal, _, end = (_seats(b.decode()) for b in besides)
    assert len(deal) == len(end) == 2 and all("0 coins" in row for row in deal), deal
    for name in ("Ann", "Bob"):
        assert any(name in row for row in deal) and any(name in row for row in end)
    assert any("winner" in row for row in end) and not any("winner" in row for row in deal)
    assert _seats(html) == deal  # the page opens with the deal's
    assert html.count('data-step="') == moves + 1  # the deal, then every move
    assert f'data-last="{moves}"' in html
    assert re.search(r'data-step="1">(Ann|Bob): -?\d+,-?\d+', html)


def _seats(html: str) -> list[str]:
    """Each seat beside the board as its words read (its marker's, its name, its tag, its
    coins and tiles left)."""
    listed = html.split('<ol id="seats">')[1].split("</ol>")[0]
    rows = re.findall(r"<li.*?</li>", listed, re.DOTALL)
    return [" ".join(re.sub(r"<[^>]+>", " ", row).split()) for row in rows]


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
        frame = page.locator("#frame")
        seats = page.locator("#seats")
        # It opens on the deal, at its top (not scrolled down to the last move).
        await expect(main).to_have_attribute("data-step", "0")
        await expect(frame).to_have_attribute("src", f"{path}/frame/0.svg")
        await expect(page.locator("#where")).to_have_text(f"0 / {moves}")
        await expect(seats).not_to_contain_text("winner")
        assert await page.evaluate("window.scrollY") == 0
        await page.keyboard.press("End")
        await expect(main).to_have_attribute("data-step", str(moves))
        await expect(frame).to_have_attribute("src", f"{path}/frame/{moves}.svg")
        await expect(seats).to_contain_text("winner")  # what is beside the board follows
        await page.keyboard.press("Home")
        await expect(main).to_have_attribute("data-step", "0")
        await expect(seats).not_to_contain_text("winner")
        await page.keyboard.press("ArrowRight")
        await page.keyboard.press("ArrowRight")
        await expect(main).to_have_attribute("data-step", "2")
        current = page.locator('#log button[aria-current="step"]')
        await expect(current).to_have_attribute("data-step", "2")
        await page.locator("#back").click()
        await expect(main).to_have_attribute("data-step", "1")
        await page.locator('#log button[data-step="5"]').click()
        await expect(main).to_have_attribute("data-step", "5")
        await expect(main).to_have_attribute("data-beside", "5")
        await page.keyboard.press("End")
        await expect(page.locator("#where")).to_have_text(f"{moves} / {moves}")
        await expect(seats).to_contain_text("winner")
        await page.wait_for_function("document.getElementById('frame').complete")
        # Drawn as the server sized it: its viewBox's size, fitted to the page.
        shown = await frame.evaluate(
            "i => [i.naturalWidth, i.getBoundingClientRect().width, i.currentSrc]"
        )
        assert shown[0] > 300 and 300 < shown[1] <= 1280 and shown[2].endswith(".svg"), shown


async def test_a_stadt_replay_shows_its_dice_beside_its_board(
    service: GameService, site: Site
) -> None:
    """What Die Verbotene Stadt's picture draws beside its board (the dice rolled, the exile
    terrace) is beside the SVG board of each position too."""
    game = StadtGame(3, seed=4)
    rng = random.Random(1)
    for _ in range(30):
        seat = game.to_act[0].seat
        game.play(seat, MODULE.stand_in(game, seat, rng))
    seats = [ResultSeat(seat=s, name=s.title(), user_id=s, score=0, place=1) for s in game.players]
    result = Result(
        id="5" * 32,
        kind="verbotene_stadt",
        ended=1_000.0,
        platform="console",
        channel=CHANNEL,
        community="guild1",
        moves=30,
        seats=seats,
        record=MODULE.dump(game),
    )
    await keep_result(service.store, result)
    address = await site(service)
    path = f"{address}/r/console/{CHANNEL}/{result.id}/frame"
    async with aiohttp.ClientSession() as http:
        said = []
        for number in (0, 3, 30):
            async with http.get(f"{path}/{number}.html") as answer:
                assert answer.status == 200
                said.append(await answer.text())
        async with http.get(f"{path}/30.svg") as answer:
            assert answer.status == 200 and answer.content_type == "image/svg+xml"
            assert re.match(r'<svg [^>]*width="660" height="660"', await answer.text())
    for text in said:
        assert "Dice" in text and "Exile terrace 0/15" in text
        assert all(f">{name}<" in text for name in ("North", "East", "South"))
    deal, rolled, later = said
    assert "Open pavilion" not in deal  # nothing rolled yet
    assert "Open pavilion: pavilion 5" in rolled and "Open pavilion: pavilion 3" in later


def test_a_stadt_replay_log_keeps_every_bribe_secret() -> None:
    game = StadtGame(3, seed=4)
    for seat, official in zip(game.players, ("RR", "YB", "GK"), strict=True):
        game.play(seat, f"bribe {official}")
    stadt = MODULE
    log = stadt.replay_log(stadt.dump(game))
    assert [action for _, action in log][:3] == ["bribe ?", "bribe ?", "bribe ?"]
    assert not any(o in action for _, action in log for o in ("RR", "YB", "GK"))
