"""A tall board stays readable in the private picture: a column grown to 50 rows and more once
shrank its cells to 24 pixels and less, the spot numbers to a few pixels. The picture now shows
the spots in cells as large as their numbers need (the part of the board around them, when
that is all it takes), and the cells stay where `cell_boxes` says: the bot's taps land on them.
"""

from __future__ import annotations

from functools import cache

import pytest
from PIL import Image

import render.forbidden_city as render
from engine.forbidden_city import Game, Place
from engine.forbidden_city.view import SeatView
from render.fonts import stamp
from render.forbidden_city import palette as pal
from render.forbidden_city.images import MAX_RATIO, MAX_SUM, View
from render.forbidden_city.table import MIN_SPOT_TEXT, band_for, spot_text_size
from tests.pixels import decode, near, pixel

Box = tuple[int, int, int, int]
PINK = "....P"  # open on all four sides: a column of them is legal, and closes no room
COLUMN_TOP = -2  # the column grows north from the start tile's pink arm at 0,-1


def _column(placed: int, hand: str = PINK) -> SeatView:
    """The view of the seat to play once `placed` pink tiles stand in one column north of the
    start tile, four seats each holding 24 tiles; `hand` is the tile it then holds."""
    stacks = [[PINK] * 24 for _ in range(4)]
    stacks[placed % 4][placed // 4] = hand
    game = Game(4, stacks=stacks)
    for k in range(placed):
        game.play(Place(0, COLUMN_TOP - k, 0))
    return game.view(game.current)


def _grey(image: Image.Image, box: Box) -> Image.Image:
    return image.crop(box).convert("L")


def _disc(image: Image.Image, box: Box) -> Box | None:
    """The bounding box, within the cell `box`, of the white of a spot's disc."""
    return _grey(image, box).point(lambda v: 255 if v >= 240 else 0).getbbox()


def _digits_height(image: Image.Image, box: Box) -> int:
    """The height in pixels of the dark digits drawn in the disc in the cell `box`: the ink
    inside the disc, away from its rim (beyond which lies the dark table)."""
    disc = _disc(image, box)
    assert disc is not None, box
    cx, cy, r = (disc[0] + disc[2]) / 2, (disc[1] + disc[3]) / 2, (disc[2] - disc[0]) / 2
    inner = (round(cx - 0.8 * r), round(cy - 0.55 * r), round(cx + 0.8 * r), round(cy + 0.55 * r))
    ink = _grey(image, box).crop(inner).point(lambda v: 255 if v < 100 else 0).getbbox()
    return 0 if ink is None else ink[3] - ink[1]


@cache
def _legible_height(number: int) -> int:
    """The height of `number`'s digits drawn as the spots draw them, at the smallest size
    asked for (`MIN_SPOT_TEXT`, 14 px), measured the same way."""
    image = Image.new("RGB", (200, 100), pal.SPOT)
    stamp(image, (100, 50), str(number), MIN_SPOT_TEXT, pal.INK, bold=True, anchor="mm")
    ink = image.convert("L").point(lambda v: 255 if v < 100 else 0).getbbox()
    assert ink is not None
    return ink[3] - ink[1]


def _within_limits(image: Image.Image) -> None:
    width, height = image.size
    assert width + height <= MAX_SUM
    assert width <= MAX_RATIO * height and height <= MAX_RATIO * width


def _spots_legible_where_their_boxes_are(mine: SeatView, image: Image.Image) -> list[Box]:
    """Each spot's box holds its whole disc, centred, with digits at least as tall as 14 px
    text; returns the boxes."""
    legal = render.spots(mine)
    boxes = render.cell_boxes(mine, [(s.x, s.y) for s in legal], view="private")
    for spot, box in zip(legal, boxes, strict=True):
        left, top, right, bottom = box
        assert 0 <= left < right <= image.width and 0 <= top < bottom <= image.height, spot
        cell = right - left
        assert spot_text_size(cell, spot.number) >= MIN_SPOT_TEXT, (spot, cell)
        disc = _disc(image, box)
        assert disc is not None, spot  # the box is on the spot's disc ...
        assert disc[0] > 0 and disc[1] > 0 and disc[2] < cell and disc[3] < cell, spot
        assert abs((disc[0] + disc[2]) / 2 - cell / 2) <= 2, spot  # ... and centred on it
        assert _digits_height(image, box) >= _legible_height(spot.number), (spot, cell)
    return boxes


@pytest.mark.parametrize("placed", [50, 87], ids=["50 tiles", "the tallest a game reaches"])
def test_a_long_column_keeps_its_spot_numbers_legible(placed: int) -> None:
    """50 tiles north of the start, then 87 (four seats of 24 tiles place 88 in all, the last
    ending the game): the pink tile fits beside every one of them and on top, so the spots
    run the board's whole height, in cells no smaller than their numbers need."""
    mine = _column(placed)
    image = decode(render.private_png(mine))
    _within_limits(image)
    boxes = _spots_legible_where_their_boxes_are(mine, image)
    assert len(boxes) > 100  # three-digit spot numbers
    # The boxes are on the very cells: the column's tiles between the spots, and nothing
    # beside the top spot, which sits on the column's end.
    top = COLUMN_TOP - placed + 1
    for y in range(top, COLUMN_TOP + 1):
        column = render.cell_box(mine, 0, y, view="private")
        centre = ((column[0] + column[2]) / 2, (column[1] + column[3]) / 2)
        assert near(pixel(image, *centre), pal.FLOOR["P"]), y
    assert render.cell_box(mine, 0, top - 1, view="private") == boxes[0]
    for x in (-1, 1):
        assert _disc(image, render.cell_box(mine, x, top - 1, view="private")) is None


def test_spots_only_by_the_start_show_that_part_with_its_true_coordinates() -> None:
    """On the tallest board, a green tile fits only by the start tile: the picture shows the
    cells around it in large cells, labelled as the table numbers them (as a fresh table's
    labels of the same cells), the column beyond its top edge cut there."""
    mine = _column(87, "....G")
    image = decode(render.private_png(mine))
    _within_limits(image)
    boxes = _spots_legible_where_their_boxes_are(mine, image)
    assert all(box[2] - box[0] >= 96 for box in boxes)
    temple = render.cell_box(mine, 0, 0, view="private")
    assert near(pixel(image, temple[0] + 0.2 * 96, temple[1] + 0.2 * 96), pal.TEMPLE_FLOOR)
    edge = render.cell_box(mine, 0, COLUMN_TOP, view="private")  # the column's first tile
    assert near(pixel(image, (edge[0] + edge[2]) / 2, (edge[1] + edge[3]) / 2), pal.FLOOR["P"])

    fresh = Game(4, seed=1).view(None)  # its board: cells -2..2 both ways, 96 pixels
    table = decode(render.table_png(fresh))
    band = band_for(96)

    def labels(picture: Image.Image, seen: SeatView, view: View) -> dict[str, bytes]:
        """The label band's pixels over each column and beside each row of -2..2."""
        patches = {}
        for k in range(-2, 3):
            left, top, right, _ = render.cell_box(seen, k, -2, view=view)
            patches[f"x {k}"] = picture.crop((left, top - band, right, top)).tobytes()
            left, top, _, bottom = render.cell_box(seen, -2, k, view=view)
            patches[f"y {k}"] = picture.crop((left - band, top, left, bottom)).tobytes()
        return patches

    drawn, expected = labels(image, mine, "private"), labels(table, fresh, "table")
    assert [name for name in expected if drawn[name] != expected[name]] == []
