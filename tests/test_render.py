"""Pixel probes on the rendered PNGs: floors, walls, archways, markers, highlights, spots, sizes."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest
from PIL import Image

import render.forbidden_city as render
from engine.forbidden_city import Game, Place, Tile
from render.__main__ import late_game, main, played
from render.forbidden_city import palette as pal
from render.forbidden_city.images import ranking
from render.forbidden_city.table import outline_width
from render.forbidden_city.tiles import wall_width
from tests.pixels import RGB, decode, near, pixel


def table_with(tiles: dict[tuple[int, int], tuple[str, int]], players: int = 4) -> Game:
    """A beginner table with extra tiles put straight on the board (no legality, no scoring)."""
    game = Game(players, seed=1)
    for cell, (code, seat) in tiles.items():
        game.board.put(cell, Tile.parse(code), seat)
    return game


def at(box: tuple[int, int, int, int], fx: float, fy: float) -> tuple[float, float]:
    """Point at fractions (fx, fy) of a cell box."""
    left, top, right, bottom = box
    return left + (right - left) * fx, top + (bottom - top) * fy


def test_floor_colours_at_tile_centres() -> None:
    game = table_with({(2, 0): ("....G", 0), (0, -2): ("....P", 1), (0, 2): ("....W", 2)})
    image = decode(render.table_png(game.view(None)))
    for cell, letter in (((2, 0), "G"), ((0, -2), "P"), ((0, 2), "W")):
        box = render.cell_box(game.view(None), *cell)
        assert near(pixel(image, *at(box, 0.5, 0.5)), pal.FLOOR[letter]), cell


def test_walls_archways_and_diagonals() -> None:
    game = table_with({(2, 0): ("#...G", 0), (0, -2): ("a...P", 1), (2, 1): ("....G/P", 2)})
    image = decode(render.table_png(game.view(None)))
    size = render.cell_box(game.view(None), 0, 0)[2] - render.cell_box(game.view(None), 0, 0)[0]
    in_wall = wall_width(size) / 2 / size
    wall = render.cell_box(game.view(None), 2, 0)
    assert near(pixel(image, *at(wall, 0.5, in_wall)), pal.WALL)
    assert near(pixel(image, *at(wall, 0.5, 0.5)), pal.FLOOR["G"])
    arch = render.cell_box(game.view(None), 0, -2)
    assert near(pixel(image, *at(arch, 0.5, in_wall)), pal.FLOOR["P"])  # the opening
    assert near(pixel(image, *at(arch, 0.1, in_wall)), pal.WALL)  # the wall beside it
    diagonal = render.cell_box(game.view(None), 2, 1)
    assert near(pixel(image, *at(diagonal, 0.25, 0.25)), pal.FLOOR["G"])  # north-west part
    assert near(pixel(image, *at(diagonal, 0.75, 0.75)), pal.FLOOR["P"])  # south-east part
    assert near(pixel(image, *at(diagonal, 0.5, 0.5)), pal.WALL)


def test_temple_and_gardens() -> None:
    game = Game(4, seed=1)
    image = decode(render.table_png(game.view(None)))
    assert near(
        pixel(image, *at(render.cell_box(game.view(None), 0, 0), 0.2, 0.2)), pal.TEMPLE_FLOOR
    )
    garden = render.cell_box(game.view(None), 1, 1)
    assert near(pixel(image, *at(garden, 0.9, 0.12)), pal.GARDEN)


def _marker_widths(image: Image.Image, box: tuple[int, int, int, int], colour: RGB) -> list[int]:
    """Width of the marker (pixels of `colour`) at 20%, 50% and 80% of its height."""
    rows: dict[int, int] = {}
    for y in range(box[1], box[3]):
        for x in range(box[0], box[2]):
            if near(pixel(image, x, y), colour, 10):
                rows[y] = rows.get(y, 0) + 1
    top, bottom = min(rows), max(rows)
    return [rows.get(round(top + (bottom - top) * f), 0) for f in (0.2, 0.5, 0.8)]


def test_each_seat_has_its_colour_and_its_own_marker_shape() -> None:
    cells = {(2, 0): 0, (-2, 0): 1, (0, -2): 2, (0, 2): 3}
    game = table_with({cell: ("....W+1A", seat) for cell, seat in cells.items()})
    image = decode(render.table_png(game.view(None)))
    widths = {}
    for cell, seat in cells.items():
        colour = game.players[seat]
        box = render.cell_box(game.view(None), *cell)
        assert near(pixel(image, *at(box, 0.5, 0.5)), pal.SEAT[colour])
        widths[render.SHAPE[colour]] = _marker_widths(image, box, pal.SEAT[colour])
    top, middle, bottom = widths["square"]
    assert abs(top - middle) <= 2 and abs(bottom - middle) <= 2
    top, middle, bottom = widths["triangle"]
    assert top < middle < bottom
    top, middle, bottom = widths["diamond"]
    assert top < middle * 0.75 and bottom < middle * 0.75
    top, middle, bottom = widths["circle"]
    assert middle * 0.7 < top < middle and middle * 0.7 < bottom < middle


def test_two_advisors_show_two_markers() -> None:
    game = table_with({(2, 0): ("....W+2A", 0)})
    image = decode(render.table_png(game.view(None)))
    box = render.cell_box(game.view(None), 2, 0)
    y = (box[1] + box[3]) // 2
    runs, inside = 0, False
    for x in range(box[0], box[2]):
        hit = near(pixel(image, x, y), pal.SEAT["purple"], 10)
        runs += hit and not inside
        inside = hit
    assert runs == 2


def test_last_tile_is_outlined_and_others_are_not() -> None:
    game = Game(4, seed=3)
    move = game.legal_moves()[0]
    assert isinstance(move, Place)
    game.play(move)
    image = decode(render.table_png(game.view(None)))
    left, top, right, bottom = render.cell_box(game.view(None), move.x, move.y)
    middle = (top + bottom) // 2
    assert near(pixel(image, left, middle), pal.LAST)
    assert near(pixel(image, right - 1, middle), pal.LAST)
    plain = decode(render.table_png(game.view(None), highlight_last=False))
    assert not near(pixel(plain, left, middle), pal.LAST)
    assert outline_width(right - left) >= 3


def _closing_game() -> tuple[Game, list[tuple[int, int, int]]]:
    game = Game(4, seed=5)
    rng = random.Random(5)
    while True:
        result = game.play(rng.choice(game.legal_moves()))
        if result.closed and result.closed[0].paid:
            return game, result.closed[0].cells


def test_closed_room_is_hatched_and_labelled() -> None:
    game, cells = _closing_game()
    image = decode(render.table_png(game.view(None)))
    closed = 0
    for x, y, _ in cells:
        box = render.cell_box(game.view(None), x, y)
        closed += sum(
            near(pixel(image, px, py), pal.CLOSED, 12)
            for px in range(box[0], box[2], 2)
            for py in range(box[1], box[3], 2)
        )
    assert closed > 20 * len(cells)
    quiet = decode(render.table_png(game.view(None), highlight_last=False))
    box = render.cell_box(game.view(None), cells[0][0], cells[0][1])
    assert not any(
        near(pixel(quiet, px, py), pal.CLOSED, 12)
        for px in range(box[0], box[2], 2)
        for py in range(box[1], box[3], 2)
    )


def test_header_shows_every_seat_marker() -> None:
    game = Game(4, seed=1)
    image = decode(render.table_png(game.view(None)))
    header = image.crop((0, 0, image.width, render.cell_box(game.view(None), -2, -2)[1]))
    present = {colour for _, colour in header.getcolors(1 << 16) or []}
    for colour in game.players:
        assert pal.SEAT[colour] in present


def test_spots_are_numbered_by_row_then_column_and_match_legal_moves() -> None:
    game = played(9, 20)
    found = render.spots(game.view(game.current))
    assert [s.number for s in found] == list(range(1, len(found) + 1))
    assert [(s.y, s.x) for s in found] == sorted((s.y, s.x) for s in found)
    moves = {str(m) for m in game.legal_moves()}
    assert {m for s in found for m in s.moves} == moves


def test_private_view_marks_every_spot() -> None:
    game = played(9, 20)
    image = decode(render.private_png(game.view(game.current)))
    for spot in render.spots(game.view(game.current)):
        box = render.cell_box(game.view(game.current), spot.x, spot.y, view="private")
        size = box[2] - box[0]
        cx, cy = at(box, 0.5, 0.5)
        cy -= size * 0.08 if size >= 48 else 0
        assert near(pixel(image, cx, cy - size * 0.3 * 0.75), pal.SPOT), spot
        r = round(size * 0.15)
        ink = [pixel(image, cx + dx, cy + dy) for dx in range(-r, r) for dy in range(-r, r)]
        assert any(near(p, pal.INK, 30) for p in ink), spot  # the number


def test_private_view_only_for_the_seat_to_move() -> None:
    game = Game(4, seed=1)
    with pytest.raises(ValueError):
        render.private_png(game.view(game.players[1]))
    with pytest.raises(ValueError):
        render.private_png(game.view(None))


@pytest.mark.parametrize("vertical", [False, True])
def test_a_long_line_of_tiles_scales_down_within_chat_limits(vertical: bool) -> None:
    tiles = {((0, 2 + i) if vertical else (2 + i, 0)): ("....G", i % 4) for i in range(88)}
    game = table_with(tiles)
    png = render.table_png(game.view(None))
    image = decode(png)
    w, h = image.size
    assert w + h <= 10000 and max(w / h, h / w) <= 20
    assert len(png) < 5_000_000
    far = (0, 89) if vertical else (89, 0)
    box = render.cell_box(game.view(None), *far)
    assert box[2] <= w and box[3] <= h
    assert near(pixel(image, *at(box, 0.5, 0.5)), pal.FLOOR["G"])


def test_late_game_png_is_small_and_indexed() -> None:
    png = render.table_png(late_game().view(None))
    assert len(png) < 250_000
    assert Image.open(io.BytesIO(png)).mode == "P"


def test_end_image_ranks_and_requires_an_ended_game() -> None:
    with pytest.raises(ValueError):
        render.end_png(Game(4, seed=1).view(None))
    game = played(7)
    assert game.is_over
    image = decode(render.end_png(game.view(None)))
    assert image.height > render.cell_box(game.view(None), 0, 0, view="end")[3]
    ranks = ranking(game.view(None))
    assert [game.scores[c] for _, c in ranks] == sorted(game.coins, reverse=True)
    best = [c for r, c in ranks if r == 1]
    assert best == game.winners


def test_names_do_not_move_the_board() -> None:
    game = Game(4, seed=1)
    names = {"purple": "A rather long player name"}
    assert render.cell_box(game.view(None), 0, 0) == render.cell_box(game.view(None), 0, 0, names)
    decode(render.table_png(game.view(None), names))


def test_gallery_and_bench_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["gallery", str(tmp_path)]) == 0
    written = sorted(p.name for p in tmp_path.iterdir())
    assert "gallery-private.png" in written and "gallery-end.png" in written
    assert main(["bench", "--runs", "2"]) == 0
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert report["table_bytes"] > 0 and report["cells"] > 80
