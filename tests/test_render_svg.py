"""The tile game's board as SVG, for the web page: every tile of the view in its cell, the
advisors in their owner's colour and shape, the rooms the last move closed striped, the last
tile ringed; the same drawing from every seat's view (nothing private is drawn); well-formed,
with its title escaped and no style for the page's policy to refuse."""

from __future__ import annotations

import random
from xml.etree import ElementTree

import pytest

from bot.games.forbidden_city import ForbiddenCity
from engine.forbidden_city import Game, Tile, parse_move
from render.forbidden_city import palette as pal
from render.forbidden_city.svg import board_svg
from render.forbidden_city.table import last_closed

NS = "{http://www.w3.org/2000/svg}"


def _played(moves: int, seed: int) -> Game:
    game = ForbiddenCity().new_game(3, {}, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        game.play(game.current, parse_move(rng.choice(game.view(game.current).legal_moves)))
    return game


def _hex(colour: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


def _translate(element: ElementTree.Element) -> tuple[float, float]:
    x, y = element.get("transform", "").removeprefix("translate(").rstrip(")").split(",")
    return float(x), float(y)


@pytest.mark.parametrize(("moves", "seed"), [(0, 1), (12, 2), (30, 3), (45, 4)])
def test_the_svg_draws_the_views_table(moves: int, seed: int) -> None:
    game = _played(moves, seed)
    view = game.view(None)
    drawing = ElementTree.fromstring(board_svg(view, "The table"))
    assert drawing.tag == NS + "svg" and drawing.get("role") == "img"
    cells = {e.get("data-cell"): e for e in drawing.iter(NS + "g") if e.get("data-cell")}
    assert set(cells) == {f"{c.x},{c.y}" for c in view.table}
    # Cells stand on the grid as the coordinates say: one step right is one cell further.
    places = {tuple(map(int, k.split(","))): _translate(e) for k, e in cells.items() if k}
    step = {b[0] - a[0] for (x, y), a in places.items() for (u, v), b in places.items()
            if (u, v) == (x + 1, y)}  # fmt: skip
    assert len(step) <= 1
    for cell in view.table:
        group = cells[f"{cell.x},{cell.y}"]
        fills = {e.get("fill") for e in group.iter()}
        tile = Tile.parse(cell.code) if cell.kind in ("tile", "start") and cell.code else None
        for seat, colour in pal.SEAT.items():
            owned = tile is not None and tile.advisors > 0 and cell.owner == seat
            assert (_hex(colour) in fills) == owned, (cell, seat)
    lit = sum(1 for e in drawing.iter() if e.get("fill") == "url(#lit)")
    assert lit == sum(len(room.cells) for room in last_closed(view))
    ringed = [e.get("data-last") for e in drawing.iter() if e.get("data-last")]
    assert ringed == ([] if not view.moves else [view.moves[-1].partition("@")[0]])
    assert not any(e.get("style") for e in drawing.iter())


def test_every_seat_sees_the_same_board() -> None:
    game = _played(20, 7)
    public = board_svg(game.view(None))
    assert all(board_svg(game.view(seat)) == public for seat in game.players)


def test_the_title_is_escaped() -> None:
    text = board_svg(_played(0, 1).view(None), '<img src=x onerror="alert(1)">')
    assert "<img" not in text and "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in text
