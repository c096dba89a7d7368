"""The table: tiles pasted on a grid with coordinate labels, the last move marked, legal spots.

Layout is computed apart from drawing (`layout`) so that tests (and anyone placing overlays)
can map a cell to its pixel box without rendering.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import replace
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.forbidden_city import Place, Tile, parse_move
from engine.forbidden_city.view import ClosedRoom, SeatView, TableCell

from .. import paint
from ..fonts import stamp, stamp_box
from ..memo import ImageCache, image_bytes
from . import palette as pal
from . import texts as t
from .badges import draw_badge as _badge  # looked up here: a test draws the board without it
from .layout import MIN_SPOT_TEXT as MIN_SPOT_TEXT  # importable from here, as before
from .layout import TURNS_CELL, Box, Layout
from .layout import Bounds as Bounds  # importable from here, as before
from .layout import band_for as band_for  # importable from here, as before
from .layout import bounds as bounds  # importable from here, as before
from .layout import cell_size as cell_size  # importable from here, as before
from .layout import spot_text_size as spot_text_size  # importable from here, as before
from .spots import Spot
from .tiles import cell_art


@lru_cache(maxsize=1024)
def _has_advisors(code: str) -> bool:
    return Tile.parse(code).advisors > 0


def _art_for(
    cell: TableCell, size: int, lit: tuple[int, ...], done: tuple[int, ...], mode: str
) -> Image.Image:
    """A tile in its owner's colours when it holds advisors; the temple and gardens by edges."""
    code = cell.code or ""
    owned = cell.owner is not None and _has_advisors(code)
    seat = cell.owner if owned else None
    return cell_art(cell.kind, code, seat, size, lit, done, mode=mode)


def last_placed(view: SeatView) -> Place | None:
    """Where the last move put its tile; None before the first move and after a discard."""
    if not view.moves:
        return None
    move = parse_move(view.moves[-1])
    return move if isinstance(move, Place) else None


def last_closed(view: SeatView) -> list[ClosedRoom]:
    return [room for room in view.rooms if room.move == len(view.moves) - 1]


def room_parts(rooms: Iterable[ClosedRoom]) -> dict[tuple[int, int], set[int]]:
    """Cell -> the parts of it that belong to `rooms`."""
    parts: dict[tuple[int, int], set[int]] = {}
    for room in rooms:
        for x, y, part in room.cells:
            parts.setdefault((x, y), set()).add(part)
    return parts


def draw_board(
    canvas: Image.Image,
    view: SeatView,
    layout: Layout,
    *,
    highlight_last: bool = True,
    spots: Sequence[Spot] = (),
    preview: bool = False,
    tr: t.Translate = t.english,
) -> None:
    """Paint the board at `layout` onto `canvas` (RGB, or P with the fixed palette);
    `preview` dashes the last tile's ring (a move shown, not played)."""
    draw = paint.Draw(canvas)
    b, s = layout.bounds, layout.cell
    gx0, gy0, gx1, gy1 = layout.left, layout.top, *layout.cell_box(b.x0 + b.cols, b.y0 + b.rows)[:2]
    draw.rectangle(
        (gx0 - layout.band, gy0 - layout.band, gx1 + layout.band - 1, gy1 + layout.band - 1),
        fill=pal.TABLE,
    )
    for i in range(b.cols + 1):
        x = gx0 + i * s
        draw.line([(x, gy0), (x, gy1)], fill=pal.GRID, width=1)
    for j in range(b.rows + 1):
        y = gy0 + j * s
        draw.line([(gx0, y), (gx1, y)], fill=pal.GRID, width=1)
    _labels(canvas, layout, gx1, gy1)
    if all(_inside(b, cell.x, cell.y) for cell in view.table):
        _contents(canvas, view, layout, highlight_last, spots, preview, tr)
        return
    # A board cropped to part of the table (a huge one's private picture): what lies on the
    # grid is drawn on the grid alone, so no tile, ring or badge beyond it covers the labels.
    grid = canvas.crop((gx0, gy0, gx1 + 1, gy1 + 1))
    _contents(grid, view, replace(layout, left=0, top=0), highlight_last, spots, preview, tr)
    paint.put(canvas, grid, (gx0, gy0))


def _inside(b: Bounds, x: int, y: int) -> bool:
    return b.x0 <= x < b.x0 + b.cols and b.y0 <= y < b.y0 + b.rows


def _contents(
    canvas: Image.Image,
    view: SeatView,
    layout: Layout,
    highlight_last: bool,
    spots: Sequence[Spot],
    preview: bool,
    tr: t.Translate,
) -> None:
    """The tiles, the last move's ring and badges, and the spots, on the ground drawn."""
    draw = paint.Draw(canvas)
    b, s = layout.bounds, layout.cell
    closed = last_closed(view) if highlight_last else []
    lit = room_parts(closed)
    done = room_parts(view.rooms)
    for cell in view.table:
        if not _inside(b, cell.x, cell.y):
            continue
        box = layout.cell_box(cell.x, cell.y)
        parts = tuple(sorted(lit.get((cell.x, cell.y), ())))
        before = tuple(sorted(done.get((cell.x, cell.y), set()) - set(parts)))
        paint.put(canvas, _art_for(cell, s, parts, before, canvas.mode), box[:2])

    if highlight_last:
        placed = last_placed(view)
        if placed is not None:
            outline_cell(draw, layout, placed.x, placed.y, dashed=preview)
        for room in closed:
            _badge(canvas, draw, layout, room, view.table, tr)
    for spot in spots:
        _spot(canvas, draw, layout, spot)


def outline_width(cell: int) -> int:
    return max(3, round(cell * 0.07))


def outline_cell(
    draw: ImageDraw.ImageDraw, layout: Layout, x: int, y: int, *, dashed: bool = False
) -> None:
    """The last placed tile: a bright ring straddling the cell border, edged in black; a
    previewed tile: gold dashes on black instead."""
    left, top, right, bottom = layout.cell_box(x, y)
    w = outline_width(layout.cell)
    half = w // 2
    outer = (left - half - 1, top - half - 1, right + half, bottom + half)
    ring = (left - half, top - half, right + half - 1, bottom + half - 1)
    if not dashed:
        draw.rectangle(outer, outline=pal.OUTLINE, width=1)
        draw.rectangle(ring, outline=pal.LAST, width=w)
        return
    draw.rectangle(outer, fill=None, outline=pal.OUTLINE, width=w + 2)
    dash = max(4, layout.cell // 8)
    x0, y0, x1, y1 = ring
    for start in range(x0, x1 + 1, 2 * dash):
        end = min(start + dash - 1, x1)
        draw.rectangle((start, y0, end, y0 + w - 1), fill=pal.GOLD)
        draw.rectangle((start, y1 - w + 1, end, y1), fill=pal.GOLD)
    for start in range(y0, y1 + 1, 2 * dash):
        end = min(start + dash - 1, y1)
        draw.rectangle((x0, start, x0 + w - 1, end), fill=pal.GOLD)
        draw.rectangle((x1 - w + 1, start, x1, end), fill=pal.GOLD)


# Coordinate label strips, each a band of the board with its labels drawn: the labels are the
# same from move to move and table to table, and a strip is one paste where its labels were 30.
LABEL_CACHE_BYTES = 6 << 20
SPOT_CACHE_BYTES = 2 << 20  # spots drawn alone, by cell size, number and turns
LabelStamps = tuple[tuple[int, int, str], ...]  # each label's anchor in its strip, and its text


def _strip_bytes(strip: Image.Image | None) -> int:
    return 0 if strip is None else image_bytes(strip)


_strips: ImageCache[Image.Image | None] = ImageCache(LABEL_CACHE_BYTES, _strip_bytes, "labels")


def _labels(canvas: Image.Image, layout: Layout, gx1: int, gy1: int) -> None:
    """Coordinates as the commands take them: x along the top and bottom, y down both sides.
    Each of the four bands is drawn once on its own and cached (`_strip`); the bands' ground is
    the table's flat colour, so a strip's pixels are those the labels would paint in place."""
    b, s, band = layout.bounds, layout.cell, layout.band
    size = max(10, round(band * 0.62))
    half = band // 2
    gx0, gy0 = layout.left, layout.top
    xs = [(gx0 + i * s + s // 2, str(b.x0 + i)) for i in range(b.cols)]
    ys = [(gy0 + j * s + s // 2, str(b.y0 + j)) for j in range(b.rows)]
    bands = (
        ((gx0 - band, gy0 - band, gx1 + band, gy0), [(x, gy0 - half, t) for x, t in xs]),
        ((gx0 - band, gy1 + 1, gx1 + band, gy1 + band), [(x, gy1 + half, t) for x, t in xs]),
        ((gx0 - band, gy0, gx0, gy1 + 1), [(gx0 - half, y, t) for y, t in ys]),
        ((gx1 + 1, gy0, gx1 + band, gy1 + 1), [(gx1 + half, y, t) for y, t in ys]),
    )
    for box, labels in bands:
        left, top = box[:2]
        placed = tuple((x - left, y - top, text) for x, y, text in labels)
        strip = _strip(canvas, (box[2] - left, box[3] - top), placed, size)
        if strip is not None:
            paint.put(canvas, strip, (left, top))
            continue
        for x, y, text in labels:  # a label would spill out of its band: drawn in place
            stamp(canvas, (x, y), text, size, pal.LABEL, bold=True, anchor="mm")


def _strip(
    canvas: Image.Image, size: tuple[int, int], labels: LabelStamps, text_size: int
) -> Image.Image | None:
    """A band of the table's colour with `labels` drawn on it, in `canvas`'s mode and palette;
    None if a label's ink would leave the band (tiny cells), which then stays drawn in place."""
    colours = paint.palette_bytes(canvas) if canvas.mode == "P" else b""
    key = (canvas.mode, colours, size, labels, text_size)

    def make() -> Image.Image | None:
        width, height = size
        for x, y, text in labels:
            box = stamp_box((x, y), text, text_size, bold=True, anchor="mm")
            if box is not None and (box[0] < 0 or box[1] < 0 or box[2] > width or box[3] > height):
                return None
        strip = paint.blank(size, pal.TABLE, canvas, canvas.mode)
        for x, y, text in labels:
            stamp(strip, (x, y), text, text_size, pal.LABEL, bold=True, anchor="mm")
        return strip

    return _strips.get(key, make)


def _spot(canvas: Image.Image, draw: ImageDraw.ImageDraw, layout: Layout, spot: Spot) -> None:
    """A legal spot: its number in a white disc, and the turns that fit there (`@0,2`). On a
    palette canvas, a spot on a bare cell is pasted from the two drawn alone and cached: the
    disc with its number above, the turns below (`_lone`)."""
    left, top, right, bottom = layout.cell_box(spot.x, spot.y)
    s = layout.cell
    if canvas.mode == "P":
        ground = paint.flat_entry(canvas, (left + 1, top + 1, right, bottom))
        split = _split(s, spot.rotations)
        if ground == paint.nearest(canvas, pal.TABLE) and split is not None:
            colours = paint.palette_bytes(canvas)
            disc = _spots.get((colours, s, spot.number), lambda: _lone(canvas, s, spot, (1, split)))
            paint.put(canvas, disc, (left + 1, top + 1))
            if s >= TURNS_CELL:
                turns = _spots.get(
                    (colours, s, spot.rotations), lambda: _lone(canvas, s, spot, (split, s))
                )
                paint.put(canvas, turns, (left + 1, top + split))
            return
    _disc(canvas, draw, (left, top, right, bottom), spot.number)
    _turns(canvas, (left, top, right, bottom), spot.rotations)


_spots: ImageCache[Image.Image] = ImageCache(SPOT_CACHE_BYTES, image_bytes, "spots")


def _split(cell: int, rotations: tuple[int, ...]) -> int | None:
    """The first row of a cell below its spot's disc (and the number inside it), if the turns
    are all below it."""
    (_, cy), r = _disc_at((0, 0, cell, cell))
    below = math.floor(cy + r) + 2
    if cell < TURNS_CELL:
        return below
    box = stamp_box(*_turns_text((0, 0, cell, cell), rotations), bold=True, anchor="ms")
    return below if box is None or box[1] >= below else None


def _lone(canvas: Image.Image, cell: int, spot: Spot, rows: tuple[int, int]) -> Image.Image:
    """The `rows` of a bare cell (within its grid lines) with `spot` drawn on it, on `canvas`'s
    palette."""
    alone = paint.canvas((cell, cell), pal.TABLE, canvas)
    _disc(alone, paint.Draw(alone), (0, 0, cell, cell), spot.number)
    _turns(alone, (0, 0, cell, cell), spot.rotations)
    return alone.crop((1, rows[0], cell, rows[1]))


def _disc_at(box: Box) -> tuple[tuple[float, float], float]:
    """The centre and radius of a spot's disc in the cell `box`."""
    left, top, right, bottom = box
    s = right - left
    return ((left + right) / 2, (top + bottom) / 2 - (s * 0.08 if s >= TURNS_CELL else 0)), s * 0.3


def _disc(canvas: Image.Image, draw: ImageDraw.ImageDraw, box: Box, number: int) -> None:
    """The spot's white disc and its number."""
    (cx, cy), r = _disc_at(box)
    width = max(2, round((box[2] - box[0]) * 0.05))
    draw.ellipse(
        (cx - r, cy - r, cx + r, cy + r), fill=pal.SPOT, outline=pal.SPOT_RING, width=width
    )
    size = spot_text_size(box[2] - box[0], number)
    stamp(canvas, (cx, cy), str(number), size, pal.INK, bold=True, anchor="mm")


def _turns_text(box: Box, rotations: tuple[int, ...]) -> tuple[tuple[float, float], str, int]:
    left, _, right, bottom = box
    s = right - left
    turns = "@" + ",".join(map(str, rotations))
    return ((left + right) / 2, bottom - s * 0.1), turns, round(s * 0.17)


def _turns(canvas: Image.Image, box: Box, rotations: tuple[int, ...]) -> None:
    """Under the disc, the quarter turns that fit (cells of 48 pixels and more)."""
    if box[2] - box[0] >= TURNS_CELL:
        xy, text, size = _turns_text(box, rotations)
        stamp(canvas, xy, text, size, pal.LABEL, bold=True, anchor="ms")
