"""Where the board goes, computed apart from drawing so that tests (and anyone placing
overlays) can map a cell to its pixel box without rendering: the cells shown (`Bounds`), their
size, the coordinate label bands, the pixel corner (`Layout`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.forbidden_city.view import SeatView

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
