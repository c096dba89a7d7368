"""The board as SVG, for the web page: the same table as the Pillow images (`table`), drawn
from a view in vector shapes, so it is crisp at any size and on any screen density.

    >>> from render.forbidden_city.svg import board_svg
    >>> text = board_svg(game.view(None))  # the channel's board, as watchers see it

Like the images, it is drawn from a view and never from a game, so a secret cannot reach it.
Each cell is `CELL` units square in the drawing's own coordinates; colours are attributes,
not styles, so the page's strict policy (no inline style) holds when it is shown.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from html import escape

from engine.forbidden_city import Tile
from engine.forbidden_city.view import SeatView, TableCell

from . import palette as pal
from .table import Bounds, bounds, last_closed, last_placed, room_parts
from .tiles import ALONG, CENTRES, PARTS

CELL = 100
BAND = 34  # coordinate labels around the grid
WALL = 9  # wall thickness, as `tiles.wall_width` makes it for a cell
Point = tuple[float, float]


def _rgb(colour: pal.RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


def _points(points: tuple[Point, ...] | list[Point]) -> str:
    return " ".join(f"{x * CELL:g},{y * CELL:g}" for x, y in points)


def _patterns() -> str:
    """Stripes over room parts: amber for rooms the last move closed, thin stripes of the
    floor's seam colour for rooms closed before."""
    out = [
        '<pattern id="lit" width="16" height="16" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(-45)">'
        f'<rect width="5" height="16" fill="{_rgb(pal.CLOSED)}"/></pattern>'
    ]
    for colour, seam in pal.SEAM.items():
        out.append(
            f'<pattern id="done-{colour}" width="16" height="16" patternUnits="userSpaceOnUse" '
            'patternTransform="rotate(-45)">'
            f'<rect width="2.5" height="16" fill="{_rgb(seam)}"/></pattern>'
        )
    return "<defs>" + "".join(out) + "</defs>"


def _side(side: int, u0: float, u1: float, v0: float, v1: float) -> tuple[float, ...]:
    """x, y, width, height of a strip from u0..u1 along edge `side`, v0..v1 in from it."""
    if side == 0:
        return (u0, v0, u1 - u0, v1 - v0)
    if side == 2:
        return (u0, CELL - v1, u1 - u0, v1 - v0)
    if side == 3:
        return (v0, u0, v1 - v0, u1 - u0)
    return (CELL - v1, u0, v1 - v0, u1 - u0)


def _rect(box: tuple[float, ...], fill: pal.RGB) -> str:
    x, y, w, h = box
    return f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" fill="{_rgb(fill)}"/>'


def _pillar(cx: float, cy: float) -> str:
    half = WALL * 0.75
    return (
        f'<rect x="{cx - half:g}" y="{cy - half:g}" width="{2 * half:g}" height="{2 * half:g}" '
        f'fill="{_rgb(pal.PILLAR)}" stroke="{_rgb(pal.OUTLINE)}" stroke-width="2"/>'
    )


def _walls(edges: str) -> Iterator[str]:
    """Walls along the edges; an archway is a gap in the wall between two red posts."""
    gap = CELL * 0.36
    a, b = (CELL - gap) / 2, (CELL + gap) / 2
    for side, edge in enumerate(edges):
        if edge == "#":
            yield _rect(_side(side, 0, CELL, 0, WALL), pal.WALL)
        elif edge != ".":
            yield _rect(_side(side, 0, a, 0, WALL), pal.WALL)
            yield _rect(_side(side, b, CELL, 0, WALL), pal.WALL)
            for u in (a, b):
                x, y, _, _ = _side(side, u, u, WALL / 2, WALL / 2)
                yield _pillar(x, y)


def _diagonal(tile: Tile) -> Iterator[str]:
    start, end = ((0.0, CELL), (CELL, 0.0)) if tile.diagonal == "/" else ((0.0, 0.0), (CELL, CELL))

    def at(f: float) -> Point:
        return (start[0] + (end[0] - start[0]) * f, start[1] + (end[1] - start[1]) * f)

    pieces = [(0.0, 1.0)] if not tile.diagonal_arch else [(-0.05, 0.3), (0.7, 1.05)]
    for f0, f1 in pieces:
        (x0, y0), (x1, y1) = at(f0), at(f1)
        yield (
            f'<line x1="{x0:g}" y1="{y0:g}" x2="{x1:g}" y2="{y1:g}" '
            f'stroke="{_rgb(pal.WALL)}" stroke-width="{WALL}"/>'
        )
    if tile.diagonal_arch:
        for f in (0.3, 0.7):
            yield _pillar(*at(f))


def marker(seat: str, cx: float, cy: float, r: float) -> str:
    """A seat's marker: its colour in its own shape (circle, square, triangle, diamond)."""
    fill, shape = _rgb(pal.SEAT[seat]), pal.SHAPE[seat]
    edge = f'fill="{fill}" stroke="{_rgb(pal.OUTLINE)}" stroke-width="{r * 0.24:g}"'
    if shape == "circle":
        return f'<circle cx="{cx:g}" cy="{cy:g}" r="{r:g}" {edge}/>'
    if shape == "square":
        h = r * 0.88
        return f'<rect x="{cx - h:g}" y="{cy - h:g}" width="{2 * h:g}" height="{2 * h:g}" {edge}/>'
    if shape == "triangle":
        points = [
            (cx, cy - r * 1.12),
            (cx + r * 1.12, cy + r * 0.82),
            (cx - r * 1.12, cy + r * 0.82),
        ]
    else:
        points = [(cx, cy - r * 1.22), (cx + r, cy), (cx, cy + r * 1.22), (cx - r, cy)]
    shown = " ".join(f"{x:g},{y:g}" for x, y in points)
    return f'<polygon points="{shown}" {edge}/>'


def _contents(tile: Tile, owner: str | None) -> Iterator[str]:
    ux, uy = CENTRES[tile.diagonal][tile.content_part]
    cx, cy = ux * CELL, uy * CELL
    if tile.dragon:
        r = CELL * (0.15 if tile.diagonal else 0.2)
        yield (
            f'<circle cx="{cx:g}" cy="{cy:g}" r="{r:g}" fill="{_rgb(pal.PILLAR)}" '
            f'stroke="{_rgb(pal.GOLD)}" stroke-width="{r * 0.14:g}"/>'
            f'<circle cx="{cx:g}" cy="{cy:g}" r="{r * 0.45:g}" fill="none" '
            f'stroke="{_rgb(pal.GOLD)}" stroke-width="{r * 0.12:g}"/>'
        )
        return
    if owner is None or not tile.advisors:
        return
    r = CELL * (0.11 if tile.diagonal else 0.135)
    if tile.advisors == 2:
        ax, ay = ALONG[tile.diagonal]
        for sign in (-1, 1):
            yield marker(owner, cx + sign * ax * r * 1.25, cy + sign * ay * r * 1.25, r)
    elif tile.advisors == 1:
        yield marker(owner, cx, cy, r)
    else:
        yield marker(owner, cx - r * 0.7, cy, r)
        yield (
            f'<text x="{cx + r * 0.55:g}" y="{cy:g}" font-size="{r * 2.1:g}" font-weight="bold" '
            f'dominant-baseline="central" fill="#ffffff" stroke="{_rgb(pal.OUTLINE)}" '
            f'stroke-width="{r * 0.22:g}" paint-order="stroke">{tile.advisors}</text>'
        )


def _temple() -> Iterator[str]:
    """The Imperial Temple: a two-tier red hall with green roofs and gold ridges."""
    s, c = CELL, CELL / 2
    yield _rect((c - s * 0.17, s * 0.5, s * 0.34, s * 0.2), pal.PILLAR)
    yield _rect((c - s * 0.24, s * 0.69, s * 0.48, s * 0.05), pal.WALL)
    for top, half, height in ((0.36, 0.3, 0.15), (0.24, 0.19, 0.12)):
        y0, y1 = s * top, s * (top + height)
        w0, w1 = s * half * 0.55, s * half
        lift, tip = s * 0.02, s * 0.06
        roof = [
            (c - w0, y0), (c + w0, y0), (c + w1, y1 - lift), (c + w1 + lift * 1.5, y1 - tip),
            (c + w1 + lift, y1), (c - w1 - lift, y1), (c - w1 - lift * 1.5, y1 - tip),
            (c - w1, y1 - lift),
        ]  # fmt: skip
        shown = " ".join(f"{x:g},{y:g}" for x, y in roof)
        yield (
            f'<polygon points="{shown}" fill="{_rgb(pal.TEMPLE_ROOF)}" '
            f'stroke="{_rgb(pal.WALL)}" stroke-width="1"/>'
            f'<line x1="{c - w0:g}" y1="{y0:g}" x2="{c + w0:g}" y2="{y0:g}" '
            f'stroke="{_rgb(pal.GOLD)}" stroke-width="2.5"/>'
        )


def _garden() -> Iterator[str]:
    """A dead garden corner: shrubs and a pond, clearly not a room."""
    yield (
        f'<ellipse cx="65" cy="64" rx="19" ry="14" fill="{_rgb(pal.POND)}" '
        f'stroke="{_rgb(pal.SHRUB)}" stroke-width="2"/>'
    )
    shrub = _rgb(pal.SHRUB)
    for x, y, r in ((0.3, 0.3, 0.12), (0.55, 0.28, 0.09), (0.28, 0.62, 0.1), (0.72, 0.34, 0.07)):
        yield f'<circle cx="{x * CELL:g}" cy="{y * CELL:g}" r="{r * CELL:g}" fill="{shrub}"/>'


def _cell(cell: TableCell, lit: set[int], done: set[int]) -> Iterator[str]:
    code = cell.code or ""
    if cell.kind in ("temple", "garden"):
        floor = pal.TEMPLE_FLOOR if cell.kind == "temple" else pal.GARDEN
        yield _rect((0, 0, CELL, CELL), floor)
        if cell.kind == "temple" and (0 in lit or 0 in done):
            fill = "url(#lit)" if 0 in lit else "url(#done-W)"
            yield f'<rect width="{CELL}" height="{CELL}" fill="{fill}"/>'
        yield from _temple() if cell.kind == "temple" else _garden()
        yield from _walls(code)
        return
    tile = Tile.parse(code)
    parts = PARTS[tile.diagonal]
    for index, colour in enumerate(tile.colours):
        yield f'<polygon points="{_points(parts[index])}" fill="{_rgb(pal.FLOOR[colour])}"/>'
        if index in lit or index in done:
            fill = "url(#lit)" if index in lit else f"url(#done-{colour})"
            yield f'<polygon points="{_points(parts[index])}" fill="{fill}"/>'
    if cell.kind == "tile":  # the seam between two tiles; the start tile is one piece
        for side in range(4):
            yield _rect(_side(side, 0, CELL, 0, 1.5), pal.SEAM[tile.colour_at(side)])
    if tile.diagonal:
        yield from _diagonal(tile)
    yield from _walls(tile.edges)
    yield from _contents(tile, cell.owner)


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
