"""The tile game's pieces, each described once as shapes (`render.shapes`): the PNGs' cell art
(`tiles`) paints them and the web page's board (`svg`) writes them, so both show one table.

A cell is described `s` units square with walls `t` thick and seams `seam` thick: supersampled
pixels for a PNG, the drawing's own units for the SVG.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.forbidden_city.tiles import Tile

from ..shapes import Box, Ellipse, Hatch, Line, Point, Polygon, Rect, Shape, Text
from . import palette as pal

# Part outlines in unit coordinates (x east, y south), by diagonal kind and part index.
PARTS: dict[str, tuple[tuple[Point, ...], ...]] = {
    "": (((0, 0), (1, 0), (1, 1), (0, 1)),),
    "/": (((0, 0), (1, 0), (0, 1)), ((1, 0), (1, 1), (0, 1))),
    "\\": (((0, 0), (1, 0), (1, 1)), ((0, 0), (1, 1), (0, 1))),
}
CENTRES: dict[str, tuple[Point, ...]] = {
    "": ((0.5, 0.5),),
    "/": ((0.34, 0.34), (0.66, 0.66)),
    "\\": ((0.66, 0.34), (0.34, 0.66)),
}
# Direction along each diagonal, to line up two advisors in a triangle.
ALONG: dict[str, Point] = {"": (1.0, 0.0), "/": (0.707, -0.707), "\\": (0.707, 0.707)}
# Stripes over a closed room, in shares of a cell: amber for the last move's, thin in the
# floor's seam colour for those closed before.
HATCH_STEP = 0.16
HATCH_WIDTH = 0.05
HATCH_THIN = 0.025


def poly(points: tuple[Point, ...], s: float) -> tuple[Point, ...]:
    return tuple((x * s, y * s) for x, y in points)


def hatch(polygon: tuple[Point, ...], s: float, colour: str | None = None) -> Hatch:
    """Stripes over one room part: amber marks a room the last move closed; thin stripes in
    the seam colour of floor `colour`, a room closed before (it stays visibly done)."""
    if colour is None:
        return Hatch(polygon, pal.CLOSED, s * HATCH_STEP, s * HATCH_WIDTH, "lit")
    return Hatch(polygon, pal.SEAM[colour], s * HATCH_STEP, s * HATCH_THIN, f"done-{colour}")


def hatches(s: float) -> list[Hatch]:
    """Every kind of stripes a cell may have, for the SVG's patterns."""
    square = poly(PARTS[""][0], s)
    return [hatch(square, s)] + [hatch(square, s, colour) for colour in pal.SEAM]


def marker(seat: str, cx: float, cy: float, r: float, line: float) -> list[Shape]:
    """A seat's marker: its colour in its own shape (circle, square, triangle, diamond)."""
    shape, fill = pal.SHAPE[seat], pal.SEAT[seat]
    if shape == "circle":
        return [Ellipse((cx - r, cy - r, cx + r, cy + r), fill, pal.OUTLINE, line)]
    if shape == "square":
        h = r * 0.88
        return [Rect((cx - h, cy - h, cx + h, cy + h), fill, pal.OUTLINE, line)]
    points: tuple[Point, ...]
    if shape == "triangle":
        points = (
            (cx, cy - r * 1.12),
            (cx + r * 1.12, cy + r * 0.82),
            (cx - r * 1.12, cy + r * 0.82),
        )
    else:  # diamond
        points = ((cx, cy - r * 1.22), (cx + r * 1.0, cy), (cx, cy + r * 1.22), (cx - r * 1.0, cy))
    return [Polygon(points, fill, pal.OUTLINE, line)]


def _side_box(side: int, s: float, u0: float, u1: float, v0: float, v1: float) -> Box:
    """Box from u0..u1 along edge `side` and v0..v1 in from it."""
    if side == 0:
        return (u0, v0, u1, v1)
    if side == 2:
        return (u0, s - v1, u1, s - v0)
    if side == 3:
        return (v0, u0, v1, u1)
    return (s - v1, u0, s - v0, u1)


def _pillar(cx: float, cy: float, t: float) -> Rect:
    half = t * 0.75
    return Rect((cx - half, cy - half, cx + half, cy + half), pal.PILLAR, pal.OUTLINE, t * 0.22)


def _walls(edges: str, s: float, t: float) -> Iterator[Shape]:
    """Walls along the edges; an archway is a gap in the wall between two red posts."""
    gap = s * 0.36
    for side, edge in enumerate(edges):
        if edge == ".":
            continue
        if edge == "#":
            yield Rect(_side_box(side, s, 0, s, 0, t), pal.WALL)
            continue
        a, b = (s - gap) / 2, (s + gap) / 2
        yield Rect(_side_box(side, s, 0, a, 0, t), pal.WALL)
        yield Rect(_side_box(side, s, b, s, 0, t), pal.WALL)
        for u in (a, b):
            box = _side_box(side, s, u, u, t / 2, t / 2)
            yield _pillar(box[0], box[1], t)


def _diagonal(tile: Tile, s: float, t: float) -> Iterator[Shape]:
    start, end = ((0.0, s), (s, 0.0)) if tile.diagonal == "/" else ((0.0, 0.0), (s, s))
    if not tile.diagonal_arch:
        yield Line((start, end), pal.WALL, round(t))
        return
    cut = 0.2  # share of the diagonal either side of its middle left open

    def at(f: float) -> Point:
        return (start[0] + (end[0] - start[0]) * f, start[1] + (end[1] - start[1]) * f)

    yield Line((at(-0.05), at(0.5 - cut)), pal.WALL, round(t))
    yield Line((at(0.5 + cut), at(1.05)), pal.WALL, round(t))
    for f in (0.5 - cut, 0.5 + cut):
        yield _pillar(*at(f), t)


def _dragon(cx: float, cy: float, r: float) -> Iterator[Shape]:
    """A dragon: a red seal with a gold ring and the character 龍."""
    yield Ellipse((cx - r, cy - r, cx + r, cy + r), pal.PILLAR, pal.GOLD, round(r * 0.14))
    yield Text((cx, cy + r * 0.04), "龍", r * 1.25, pal.GOLD, "mm", seal=True)


def _advisors(tile: Tile, seat: str, cx: float, cy: float, s: float) -> Iterator[Shape]:
    r = s * (0.11 if tile.diagonal else 0.135)
    line = r * 0.24
    if tile.advisors == 2:
        ux, uy = ALONG[tile.diagonal]
        d = r * 1.25
        for sign in (-1, 1):
            yield from marker(seat, cx + sign * ux * d, cy + sign * uy * d, r, line)
        return
    if tile.advisors == 1:
        yield from marker(seat, cx, cy, r, line)
        return
    yield from marker(seat, cx - r * 0.7, cy, r, line)
    yield Text((cx + r * 0.55, cy), str(tile.advisors), r * 2.1, pal.WHITE, "lm", bold=True,
               stroke=r * 0.22, stroke_fill=pal.OUTLINE)  # fmt: skip


def _temple(s: float) -> Iterator[Shape]:
    """The Imperial Temple: a two-tier red hall with green roofs and gold ridges."""
    c = s / 2
    yield Rect((c - s * 0.17, s * 0.5, c + s * 0.17, s * 0.7), pal.PILLAR)
    for x in (c - s * 0.1, c, c + s * 0.1):
        yield Line(((x, s * 0.52), (x, s * 0.7)), pal.WALL, s * 0.015)
    yield Rect((c - s * 0.24, s * 0.69, c + s * 0.24, s * 0.74), pal.WALL)
    for top, half, height in ((0.36, 0.3, 0.15), (0.24, 0.19, 0.12)):
        y0, y1 = s * top, s * (top + height)
        w0, w1 = s * half * 0.55, s * half
        lift, tip = s * 0.02, s * 0.06
        roof = (
            (c - w0, y0),
            (c + w0, y0),
            (c + w1, y1 - lift),
            (c + w1 + lift * 1.5, y1 - tip),
            (c + w1 + lift, y1),
            (c - w1 - lift, y1),
            (c - w1 - lift * 1.5, y1 - tip),
            (c - w1, y1 - lift),
        )
        yield Polygon(roof, pal.TEMPLE_ROOF, pal.WALL, s * 0.01)
        yield Line(((c - w0, y0), (c + w0, y0)), pal.GOLD, s * 0.025)
    yield Rect((c - s * 0.14, s * 0.5, c + s * 0.14, s * 0.52), pal.WALL)


def _garden(s: float) -> Iterator[Shape]:
    """A dead garden corner: shrubs and a pond, clearly not a room."""
    yield Ellipse((s * 0.46, s * 0.5, s * 0.84, s * 0.78), pal.POND, pal.SHRUB, round(s * 0.02))
    for x, y, r in ((0.3, 0.3, 0.12), (0.55, 0.28, 0.09), (0.28, 0.62, 0.1), (0.72, 0.34, 0.07)):
        yield Ellipse((s * (x - r), s * (y - r), s * (x + r), s * (y + r)), pal.SHRUB)
        yield Ellipse((s * (x - r * 0.45), s * (y - r * 0.6), s * (x + r * 0.1),
                       s * (y - r * 0.05)), pal.GARDEN)  # fmt: skip


def cell(
    kind: str,
    code: str,
    seat: str | None,
    lit: tuple[int, ...],
    done: tuple[int, ...],
    s: float,
    t: float,
    seam: float,
) -> list[Shape]:
    """One cell as `tiles.cell_art` takes it (kind, code, the seat of its advisors, the parts
    hatched as just closed and as closed before), `s` units square."""
    if kind in ("temple", "garden"):
        floor = pal.TEMPLE_FLOOR if kind == "temple" else pal.GARDEN
        out: list[Shape] = [Rect((0, 0, s, s), floor)]
        if kind == "temple" and 0 in lit:
            out.append(hatch(poly(PARTS[""][0], s), s))
        elif kind == "temple" and 0 in done:
            out.append(hatch(poly(PARTS[""][0], s), s, "W"))
        out.extend(_temple(s) if kind == "temple" else _garden(s))
        out.extend(_walls(code, s, t))
        return out
    tile = Tile.parse(code)
    parts = PARTS[tile.diagonal]
    out = [Polygon(poly(parts[index], s), pal.FLOOR[colour])
           for index, colour in enumerate(tile.colours)]  # fmt: skip
    out.extend(hatch(poly(parts[index], s), s) for index in lit)
    out.extend(hatch(poly(parts[index], s), s, tile.colours[index])
               for index in sorted(set(done) - set(lit)))  # fmt: skip
    if kind == "tile":  # the seam between two tiles; the start tile is one piece of cardboard
        out.extend(Rect(_side_box(side, s, 0, s, 0, seam), pal.SEAM[tile.colour_at(side)])
                   for side in range(4))  # fmt: skip
    if tile.diagonal:
        out.extend(_diagonal(tile, s, t))
    out.extend(_walls(tile.edges, s, t))
    if tile.dragon or tile.advisors:
        ux, uy = CENTRES[tile.diagonal][tile.content_part]
        cx, cy = ux * s, uy * s
        if tile.dragon:
            out.extend(_dragon(cx, cy, s * (0.15 if tile.diagonal else 0.2)))
        elif seat is not None:
            out.extend(_advisors(tile, seat, cx, cy, s))
    return out
