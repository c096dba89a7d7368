"""The table: tiles pasted on a grid with coordinate labels, the last move marked, legal spots.

Layout is computed apart from drawing so that tests (and anyone placing overlays) can map a
cell to its pixel box without rendering.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import product

from PIL import Image, ImageDraw

from engine.forbidden_city import Place, Tile, parse_move
from engine.forbidden_city.view import ClosedRoom, SeatView, TableCell

from .. import paint
from ..fonts import stamp, stamp_box, text_width
from ..memo import ImageCache, image_bytes
from . import palette as pal
from . import texts as t
from .spots import Spot
from .tiles import cell_art, marker_icon

Box = tuple[int, int, int, int]  # left, top, right, bottom (right and bottom exclusive)

# Cell sizes tried from the largest down; few sizes keep the tile-art cache small.
CELL_SIZES = (96, 80, 64, 48, 40, 32, 24, 16)
BOARD_MAX_W = 1280  # the board's own width budget: about what a phone shows at full width
BOARD_MAX_H = 1440
MIN_SPOT_TEXT = 14  # px: the smallest spot number a phone shows legibly
TURNS_CELL = 48  # the smallest cell whose spot shows the turns that fit (`@0,2`)


@dataclass(frozen=True, slots=True)
class Bounds:
    """Cells shown: the tiles in play plus a one-cell margin."""

    x0: int
    y0: int
    cols: int
    rows: int


@dataclass(frozen=True, slots=True)
class Layout:
    """Where the board sits in an image: cell size and the pixel corner of cell (x0, y0)."""

    bounds: Bounds
    cell: int
    band: int  # width of the coordinate label bands around the grid
    left: int
    top: int

    def cell_box(self, x: int, y: int) -> Box:
        """Pixel box of cell (x, y), which need not be inside the bounds."""
        left = self.left + (x - self.bounds.x0) * self.cell
        top = self.top + (y - self.bounds.y0) * self.cell
        return (left, top, left + self.cell, top + self.cell)

    @property
    def width(self) -> int:
        """Board width including label bands."""
        return self.bounds.cols * self.cell + 2 * self.band

    @property
    def height(self) -> int:
        return self.bounds.rows * self.cell + 2 * self.band


def bounds(view: SeatView) -> Bounds:
    if not view.table:
        return Bounds(-1, -1, 3, 3)
    xs = [cell.x for cell in view.table]
    ys = [cell.y for cell in view.table]
    x0, y0 = min(xs) - 1, min(ys) - 1
    return Bounds(x0, y0, max(xs) + 2 - x0, max(ys) + 2 - y0)


def cell_size(b: Bounds) -> int:
    for size in CELL_SIZES:
        if b.cols * size <= BOARD_MAX_W and b.rows * size <= BOARD_MAX_H:
            return size
    return CELL_SIZES[-1]


def band_for(cell: int) -> int:
    return max(14, round(cell * 0.34))


def union(many: Iterable[Bounds]) -> Bounds:
    """The smallest bounds holding all of `many` (a replay's board: every cell any move shows)."""
    every = list(many)
    x0, y0 = min(b.x0 for b in every), min(b.y0 for b in every)
    x1, y1 = max(b.x0 + b.cols for b in every), max(b.y0 + b.rows for b in every)
    return Bounds(x0, y0, x1 - x0, y1 - y0)


def spot_text_size(cell: int, number: int) -> int:
    """The size of a spot's number in a cell of `cell` pixels (three digits drawn smaller, to
    stay inside the disc)."""
    return round(cell * 0.3 * (1.15 if number < 100 else 0.9))


def readable_cell(last: int) -> int:
    """The smallest cell size at which spot numbers up to `last` are legible and the turns
    that fit are drawn: a private picture never shows its spots smaller."""
    for size in reversed(CELL_SIZES):
        if size >= TURNS_CELL and spot_text_size(size, last) >= MIN_SPOT_TEXT:
            return size
    return CELL_SIZES[0]


def around(b: Bounds, cells: Iterable[tuple[int, int]]) -> Bounds:
    """The part of `b` holding `cells` and a one-cell margin round them: where a private
    picture's spots are, with the tiles they touch."""
    xs, ys = zip(*cells, strict=True)
    x0, y0 = max(b.x0, min(xs) - 1), max(b.y0, min(ys) - 1)
    x1, y1 = min(b.x0 + b.cols, max(xs) + 2), min(b.y0 + b.rows, max(ys) + 2)
    return Bounds(x0, y0, x1 - x0, y1 - y0)


def board_layout(
    view: SeatView, left: int, top: int, shown: Bounds | None = None, cell: int | None = None
) -> Layout:
    """Layout of the board whose label band's top-left corner is at (left, top): the cells
    `shown` (by default the view's tiles and a one-cell margin), `cell` pixels each (by
    default the largest size the board's budget takes)."""
    b = shown or bounds(view)
    cell = cell or cell_size(b)
    band = band_for(cell)
    return Layout(b, cell, band, left + band, top + band)


@lru_cache(maxsize=1024)
def _has_advisors(code: str) -> bool:
    return Tile.parse(code).advisors > 0


def _art_for(
    cell: TableCell, size: int, lit: tuple[int, ...], done: tuple[int, ...], indexed: bool
) -> Image.Image:
    """A tile in its owner's colours when it holds advisors; the temple and gardens by edges."""
    code = cell.code or ""
    owned = cell.owner is not None and _has_advisors(code)
    seat = cell.owner if owned else None
    return cell_art(cell.kind, code, seat, size, lit, done, indexed=indexed)


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
        paint.put(canvas, _art_for(cell, s, parts, before, canvas.mode == "P"), box[:2])

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
        if canvas.mode == "P":
            strip = paint.canvas(size, pal.TABLE, canvas)
        else:
            strip = Image.new(canvas.mode, size, pal.TABLE)
        for x, y, text in labels:
            stamp(strip, (x, y), text, text_size, pal.LABEL, bold=True, anchor="mm")
        return strip

    return _strips.get(key, make)


def _overlap(a: Box, b: Box) -> int:
    return max(0, min(a[2], b[2]) - max(a[0], b[0])) * max(0, min(a[3], b[3]) - max(a[1], b[1]))


def _room_anchor(
    layout: Layout,
    cells: Iterable[tuple[int, int, int]],
    size: tuple[int, int],
    others: Mapping[tuple[int, int], str],
) -> tuple[int, int]:
    """Centre of a room's badge (`size` wide and high). Tried on each room cell, nearest the
    room's middle first: on its lower edge, on its upper edge (the cell's content stays in
    sight), then inside it at the foot or the head, each centred on the cell or flush with one
    of its sides; the first that covers least of the tiles outside the room wins, the temple
    counting ten times a tile: it must never be hidden."""
    points = [(x, y) for x, y, _ in cells]
    mx = sum(x for x, _ in points) / len(points)
    my = sum(y for _, y in points) / len(points)
    points.sort(key=lambda p: ((p[0] - mx) ** 2 + (p[1] - my) ** 2, p[1], p[0]))
    width, height = size
    margin = max(2, layout.cell // 16)
    best: tuple[int, tuple[int, int]] | None = None
    for rank, (x, y), align in product(range(4), points, range(3)):
        left, top, right, bottom = layout.cell_box(x, y)
        cy = (bottom, top, bottom - height // 2 - margin, top + height // 2 + margin)[rank]
        cx = ((left + right) // 2, left + margin + width // 2, right - margin - width // 2)[align]
        box = (cx - width // 2, cy - height // 2, cx + width // 2, cy + height // 2)
        cost = 0
        for (ox, oy), kind in others.items():
            cost += _overlap(box, layout.cell_box(ox, oy)) * (10 if kind == "temple" else 1)
        if best is None or cost < best[0]:
            best = (cost, (cx, cy))
        if cost == 0:
            break
    assert best is not None
    return best[1]


def _badge(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    layout: Layout,
    room: ClosedRoom,
    table: Sequence[TableCell],
    tr: t.Translate,
) -> None:
    """Value of a room just closed and what each seat was paid: `11  ●+11 ■+5`, placed clear
    of the temple and, where it can be, of the tiles around the room."""
    size = max(12, round(layout.cell * 0.3))
    small_size = round(size * 0.85)
    icon = round(size * 0.9)
    pieces: list[tuple[str, str | None]] = [(str(room.value), None)]
    paid = [(colour, amount) for colour, amount in room.paid.items() if amount]
    for colour, amount in paid:
        pieces.append((f"+{amount}", colour))
    if not paid:
        pieces.append((tr(t.UNPAID), None))
    gap = round(size * 0.35)
    widths = []
    for index, (text, seat) in enumerate(pieces):
        text_size = size if index == 0 else small_size
        widths.append(round(text_width(text, text_size, bold=True)) + (icon + 2 if seat else 0))
    width = sum(widths) + gap * (len(pieces) - 1) + size
    height = round(size * 1.5)
    own = {(x, y) for x, y, _ in room.cells}
    others = {(c.x, c.y): c.kind for c in table if (c.x, c.y) not in own or c.kind == "temple"}
    cx, cy = _room_anchor(layout, room.cells, (width, height), others)
    left, top = cx - width // 2, cy - height // 2
    draw.rounded_rectangle(
        (left, top, left + width, top + height), radius=height // 3, fill=pal.BADGE,
        outline=pal.CLOSED, width=max(2, size // 8),
    )  # fmt: skip
    x = left + size // 2
    for index, ((text, seat), w) in enumerate(zip(pieces, widths, strict=True)):
        if seat is not None:
            marker = marker_icon(seat, icon)
            paint.sprite(canvas, marker, (x, cy - icon // 2))
            x += icon + 2
        ink = pal.CLOSED if index == 0 else pal.TEXT
        stamp(
            canvas,
            (x, cy),
            text,
            size if index == 0 else small_size,
            ink,
            bold=True,
            anchor="lm",
        )
        x += w - (icon + 2 if seat else 0) + gap


def _spot(canvas: Image.Image, draw: ImageDraw.ImageDraw, layout: Layout, spot: Spot) -> None:
    """A legal spot: its number in a white disc, and the turns that fit there (`@0,2`). On a
    palette canvas, a spot on a bare cell is pasted from the two drawn alone and cached: the
    disc with its number above, the turns below (`_lone`)."""
    left, top, right, bottom = layout.cell_box(spot.x, spot.y)
    s = layout.cell
    if canvas.mode == "P":
        low, high = canvas.im.crop((left + 1, top + 1, right, bottom)).getextrema()
        split = _split(s, spot.rotations)
        if low == high == paint.nearest(canvas, pal.TABLE) and split is not None:
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
