"""The board as SVG, for the web page: the same table as the Pillow images (`table`), drawn
from a view in vector shapes, so it is crisp at any size and on any screen density.

    >>> from engine.forbidden_city import Game
    >>> from render.forbidden_city.svg import board_svg
    >>> game = Game(["purple", "yellow"], seed=7)
    >>> text = board_svg(game.view(None))  # the channel's board, as watchers see it
    >>> text.startswith("<svg")
    True

Like the images, it is drawn from a view and never from a game, so a secret cannot reach it.
Each cell is `CELL` units square in the drawing's own coordinates; colours are attributes,
not styles, so the page's strict policy (no inline style) holds when it is shown.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import lru_cache
from html import escape

from engine.forbidden_city.view import SeatView, TableCell

from .. import shapes_svg
from . import art
from . import palette as pal
from .layout import Bounds, bounds
from .table import last_closed, last_placed, room_parts
from .tiles import SUPERSAMPLE

CELL = 100
BAND = 34  # coordinate labels around the grid
WALL = 9  # wall thickness, as `tiles.wall_width` makes it for a cell
# The pieces are the PNGs' (`art`), drawn supersampled: one of those pixels at the largest
# cell, in the drawing's units; a seam is one final pixel.
PIXEL = CELL / (SUPERSAMPLE * 96)
SEAM = SUPERSAMPLE * PIXEL


def _rgb(colour: pal.RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


def _patterns() -> str:
    """Stripes over room parts (`art.hatches`): amber for rooms the last move closed, thin
    stripes of the floor's seam colour for rooms closed before; the cell, which clips what
    is drawn in it as the PNGs' cell art is clipped; and the dragons' seal."""
    out = [shapes_svg.stripes(hatch, PIXEL) for hatch in art.hatches(CELL)]
    out.append(f'<clipPath id="cell"><rect width="{CELL}" height="{CELL}"/></clipPath>')
    out.append(shapes_svg.glyphs())
    return "<defs>" + "".join(out) + "</defs>"


def marker(seat: str, cx: float, cy: float, r: float) -> str:
    """A seat's marker: its colour in its own shape (circle, square, triangle, diamond)."""
    drawn = art.marker(seat, cx, cy, r, r * 0.24)
    return shapes_svg.shifted(PIXEL) + shapes_svg.svg(drawn, PIXEL) + "</g>"


def _cell(cell: TableCell, lit: set[int], done: set[int]) -> Iterator[str]:
    """A cell's pieces as the PNGs' cell art has them (`art.cell`), clipped to the cell."""
    yield _cell_svg(cell.kind, cell.code or "", cell.owner, tuple(sorted(lit)), tuple(sorted(done)))


@lru_cache(maxsize=4096)
def _cell_svg(
    kind: str, code: str, owner: str | None, lit: tuple[int, ...], done: tuple[int, ...]
) -> str:
    """Written once per cell as it stands, like the PNGs' cell art: a board repeats them."""
    drawn = art.cell(kind, code, owner, lit, done, CELL, WALL, SEAM)
    shown = shapes_svg.shifted(PIXEL) + shapes_svg.svg(drawn, PIXEL)
    return f'<g clip-path="url(#cell)">{shown}</g></g>'


def _labels(b: Bounds) -> Iterator[str]:
    """Coordinates as the commands take them: x along the top and bottom, y down both sides."""
    size, fill = BAND * 0.62, _rgb(pal.LABEL)
    attributes = (
        f'font-size="{size:g}" font-weight="bold" font-family="sans-serif" fill="{fill}" '
        'text-anchor="middle" dominant-baseline="central"'
    )
    height, width = b.rows * CELL + BAND, b.cols * CELL + BAND
    for i in range(b.cols):
        x = BAND + i * CELL + CELL / 2
        for y in (BAND / 2, height + BAND / 2):
            yield f'<text x="{x:g}" y="{y:g}" {attributes}>{b.x0 + i}</text>'
    for j in range(b.rows):
        y = BAND + j * CELL + CELL / 2
        for x in (BAND / 2, width + BAND / 2):
            yield f'<text x="{x:g}" y="{y:g}" {attributes}>{b.y0 + j}</text>'


def shown_bounds(view: SeatView, cells: Iterable[tuple[int, int]] = ()) -> Bounds:
    """The cells a board of `view` shows: its tiles with a margin, and `cells` (a tile
    previewed at the edge keeps the board where it was)."""
    b = bounds(view)
    xs, ys = [b.x0, b.x0 + b.cols - 1], [b.y0, b.y0 + b.rows - 1]
    for x, y in cells:
        xs.append(x)
        ys.append(y)
    return Bounds(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)


def cell_box(b: Bounds, x: int, y: int) -> tuple[float, float, float, float]:
    """Cell (x, y) on a board showing `b`, in the drawing's units: left, top, right, bottom.
    The page puts its places to tap there."""
    left, top = BAND + (x - b.x0) * CELL, BAND + (y - b.y0) * CELL
    return (left, top, left + CELL, top + CELL)


def tile_svg(code: str, owner: str | None, title: str = "") -> str:
    """One tile alone, as the board draws it: the tile in a player's hand, for its tray."""
    cell = TableCell(x=0, y=0, kind="tile", code=code, owner=owner)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="-4 -4 {CELL + 8} {CELL + 8}" '
        f'role="img" aria-label="{escape(title)}">'
        + (f"<title>{escape(title)}</title>" if title else "")
        + _patterns()
        + f'<rect x="-4" y="-4" width="{CELL + 8}" height="{CELL + 8}" '
        f'fill="{_rgb(pal.OUTLINE)}"/>' + "".join(_cell(cell, set(), set())) + "</svg>"
    )


def marker_svg(seat: str, title: str) -> str:
    """A seat's marker alone, as the header's icon: beside its name on the page."""
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40" '
        f'role="img" aria-label="{escape(title)}"><title>{escape(title)}</title>'
        f"{marker(seat, 20, 20, 14.4)}</svg>"
    )


def board_svg(view: SeatView, title: str = "", shown: Bounds | None = None) -> str:
    """The table of `view` as an SVG document: its tiles on the grid with coordinates, the
    last tile ringed and the rooms it closed striped amber. `title` names it for screen
    readers (escaped here); `shown`, the cells it shows (`bounds(view)` if None)."""
    b = shown or bounds(view)
    width, height = b.cols * CELL + 2 * BAND, b.rows * CELL + 2 * BAND
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'role="img" aria-label="{escape(title)}">',
        f"<title>{escape(title)}</title>" if title else "",
        _patterns(),
        f'<rect width="{width}" height="{height}" fill="{_rgb(pal.TABLE)}"/>',
    ]
    grid = _rgb(pal.GRID)
    for i in range(b.cols + 1):
        x = BAND + i * CELL
        out.append(f'<line x1="{x}" y1="{BAND}" x2="{x}" y2="{height - BAND}" stroke="{grid}"/>')
    for j in range(b.rows + 1):
        y = BAND + j * CELL
        out.append(f'<line x1="{BAND}" y1="{y}" x2="{width - BAND}" y2="{y}" stroke="{grid}"/>')
    out.extend(_labels(b))
    lit, done = room_parts(last_closed(view)), room_parts(view.rooms)
    for cell in view.table:
        left, top = BAND + (cell.x - b.x0) * CELL, BAND + (cell.y - b.y0) * CELL
        here = lit.get((cell.x, cell.y), set())
        before = done.get((cell.x, cell.y), set()) - here
        out.append(f'<g transform="translate({left},{top})" data-cell="{cell.x},{cell.y}">')
        out.extend(_cell(cell, here, before))
        out.append("</g>")
    placed = last_placed(view)
    if placed is not None:
        left, top = BAND + (placed.x - b.x0) * CELL, BAND + (placed.y - b.y0) * CELL
        out.append(
            f'<rect x="{left}" y="{top}" width="{CELL}" height="{CELL}" fill="none" '
            f'stroke="{_rgb(pal.OUTLINE)}" stroke-width="10"/>'
            f'<rect x="{left}" y="{top}" width="{CELL}" height="{CELL}" fill="none" '
            f'stroke="{_rgb(pal.LAST)}" stroke-width="7" data-last="{placed.x},{placed.y}"/>'
        )
    out.append("</svg>")
    return "".join(out)
