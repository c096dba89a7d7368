"""Beside the page's board, what the chat's picture shows around it: each seat's marker,
name, coins or points, tiles left or cards, whose turn; in Die Verbotene Stadt the dice, the
exile terrace and the teams' totals. Checked against the game's own numbers, and in
Chromium on a phone as the game goes on."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from collections.abc import AsyncIterator

import pytest
from playwright.async_api import expect

import render.forbidden_city as fc_render
from bot.exchange.replies import Reply
from bot.games import At
from bot.games.forbidden_city import MODULE as FC
from bot.games.verbotene_stadt import MODULE as VS
from bot.service import GameService
from bot.store import Store
from engine.forbidden_city import Game as FcGame
from engine.forbidden_city import Place
from engine.forbidden_city.preview import after
from engine.verbotene_stadt.cards import COLOURS
from render.forbidden_city import palette as fc_palette
from tests.browser import chromium
from tests.conftest import Site, fixed_seeds
from tests.test_web_table import deal, move, settings
from tests.views import to_play
from tests.vs_positions import small_game

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
async def service(store: Store) -> AsyncIterator[GameService]:
    made = GameService(store, settings(), seeds=fixed_seeds())
    yield made
    made.computer.close()


NAMES = {"purple": "Ann", "yellow": "Bob", "red": "Cy"}


def _played(moves: int) -> FcGame:
    game = FC.new_game(3, {}, seed=4)
    rng = random.Random(1)
    for _ in range(moves):
        spot = rng.choice(fc_render.spots(to_play(game)))
        game.play(FC.parse_action(f"{spot.x},{spot.y}@{spot.rotations[0]}"))
    return game


def test_each_seat_of_the_tile_game_shows_its_marker_name_coins_tiles_and_turn() -> None:
    game = _played(7)
    view = game.view(None)
    at = At("en", "room", {}, NAMES)
    rows = FC.sidebar(at, view).seats
    shapes = []
    assert [row.name for row in rows] == ["Ann", "Bob", "Cy"]
    for colour, row in zip(view.players, rows, strict=True):
        coins, left = view.coins[colour], view.tiles_left[colour]
        assert row.said == f"{coins} coin{'s' if coins != 1 else ''} · {left} tiles left"
        assert row.turn == (colour == game.current)
        assert row.tag == ("to play" if colour == game.current else "")
        assert row.mark is not None
        drawn = ET.fromstring(row.mark.drawing)
        shape = next(e for e in drawn.iter() if e.get("fill", "").startswith("#"))
        assert shape.get("fill") == "#{:02x}{:02x}{:02x}".format(*fc_palette.SEAT[colour])
        shapes.append((shape.tag, shape.get("points", "").count(",")))
    assert len(set(shapes)) == len(rows)  # each seat its own shape, as on the board
    assert sum(row.turn for row in rows) == 1


def test_each_seat_of_die_verbotene_stadt_shows_its_points_and_cards_and_the_table_its_dice() -> (
    None
):
    game = small_game(["RR", "KK"], hands=[["1H", "1C", "2T"], []], exiled=["YR", "YY"])
    view = game.view(None)
    north, south = view.players
    at = At("en", "room", {}, {north: "Ann", south: "Bob"})
    sidebar = VS.sidebar(at, view)
    first, second = sidebar.seats
    assert (first.name, second.name) == ("Ann", "Bob")
    piece = {"H": "hat", "C": "coat", "T": "trousers"}
    assert sorted(p.label for p in first.pieces) == sorted(
        f"{card} ({COLOURS[int(card[0])]} {piece[card[1]]})" for card in ("1H", "1C", "2T")
    )
    assert second.pieces == ()
    points = view.points[north]
    assert first.said == ("1 pt" if points == 1 else f"{points} pts")
    assert second.said == "0 pts · no cards yet"
    assert first.turn and not second.turn
    facts = {fact.label: fact for fact in sidebar.facts}
    assert [p.label for p in facts["Exile terrace 2/15"].pieces] == [
        "YR (yellow hat, red robe)",
        "YY (yellow hat, yellow robe)",
    ]
    [blue] = facts["Dice"].pieces  # no fate die rolled yet: the open pavilion's die alone
    assert blue.label == f"Open pavilion: pavilion 1 ({COLOURS[1]})"
    # The picture's legend of the squares.
    assert "Roof: no official goes here" in facts
    assert "From these squares a slide goes one square" in facts


async def test_the_page_shows_whose_turn_it_is_and_follows_it(
    service: GameService, site: Site
) -> None:
    path = await deal(service)
    address = await site(service)
    async with chromium() as browser:
        page = await browser.new_page(viewport={"width": 390, "height": 844})
        await page.goto(f"{address}{path}")
        current = page.locator("#seats li[aria-current='true']")
        await expect(current).to_have_count(1)
        first = await current.locator(".name").inner_text()
        await expect(current.locator(".mark svg")).to_be_visible()
        await expect(current.locator(".said")).to_contain_text("tiles left")
        await move(service)
        await expect(current.locator(".name")).not_to_have_text(first)
        assert await page.locator("#seats li").count() == 2


def test_a_previews_words_say_what_the_tile_would_close_and_pay() -> None:
    """The page shows the preview on its board, not the chat's picture: the words say what
    the picture's caption says, the rooms the tile would close and who they would pay."""
    for moves in range(4, 40):
        game = _played(moves)
        mine = to_play(game)
        for spot in fc_render.spots(mine):
            for turn in spot.rotations:
                placed = after(mine, Place(spot.x, spot.y, turn))
                closing = [room for room in placed.rooms if room.move == len(placed.moves) - 1]
                if not closing:
                    continue
                at = At("en", "room", {}, NAMES, count=len(game.moves))
                data = f"{spot.x},{spot.y}@{turn}"
                reply = FC.pressed(at, game, game.current, "pv", len(game.moves), data)
                assert isinstance(reply, Reply)
                [preview] = reply.private
                room = closing[0]
                assert "would" in preview.text and f"worth {room.value}" in preview.text
                paid = [s for s, amount in room.paid.items() if amount]
                assert all(f"{NAMES[s]} +{room.paid[s]}" in preview.text for s in paid)
                return
    raise AssertionError("no preview closes a room in these games")
