"""Tile art: one cell of the table drawn as it looks on the real table, cached by value.

A game only ever shows a few hundred distinct (code, owner, size) cells, so each is drawn once,
supersampled for smooth edges, and then only pasted: this is what keeps a whole table under a
few milliseconds to compose. The cache is bounded by bytes (`ART_CACHE_BYTES`): the cells of
every table a process serves share it, and a miss costs a third of a millisecond.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from engine.forbidden_city.tiles import Tile

from .. import paint
from ..fonts import font, seal_font
from ..memo import ImageCache, image_bytes
from . import palette as pal

SUPERSAMPLE = 4
# Tile art is cached mapped to the palette (1 byte a pixel). The tables a process serves draw
# from one deck, at four cell sizes, owned and hatched in many ways: 200 tables' moves asked
# for about 23 MB of cells. With 8 MB, 1 ask in 8 missed and redrew its cell (3.4 ms a move);
# with 32 MB, 1 in 80.
ART_CACHE_BYTES = 32 << 20
Point = tuple[float, float]

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


def wall_width(size: int) -> int:
    """Wall thickness in final pixels: bold enough to read on a phone, at least 2 px."""
    return max(2, round(size * 0.09))


def _poly(points: tuple[Point, ...], s: float) -> list[Point]:
    return [(x * s, y * s) for x, y in points]


def draw_marker(
    draw: ImageDraw.ImageDraw, seat: str, cx: float, cy: float, r: float, line: float
) -> None:
    """A seat's marker: its colour in its own shape (circle, square, triangle, diamond)."""
    shape, fill, width = pal.SHAPE[seat], pal.SEAT[seat], max(1, round(line))
    if shape == "circle":
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=pal.OUTLINE, width=width)
        return
    if shape == "square":
        h = r * 0.88
        box = (cx - h, cy - h, cx + h, cy + h)
        draw.rectangle(box, fill=fill, outline=pal.OUTLINE, width=width)
        return
    if shape == "triangle":
        points = [
            (cx, cy - r * 1.12),
            (cx + r * 1.12, cy + r * 0.82),
            (cx - r * 1.12, cy + r * 0.82),
        ]
    else:  # diamond
        points = [(cx, cy - r * 1.22), (cx + r * 1.0, cy), (cx, cy + r * 1.22), (cx - r * 1.0, cy)]
    draw.polygon(points, fill=fill, outline=pal.OUTLINE, width=width)


@lru_cache(maxsize=64)
def marker_icon(seat: str, size: int) -> Image.Image:
    """A seat's marker as an RGBA icon `size` pixels square, for headers and badges."""
    k = SUPERSAMPLE
    image = Image.new("RGBA", (size * k, size * k), (0, 0, 0, 0))
    s = size * k
    draw_marker(ImageDraw.Draw(image), seat, s / 2, s / 2, s * 0.36, s * 0.08)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def _side_box(side: int, s: float, u0: float, u1: float, v0: float, v1: float) -> list[float]:
    """Box from u0..u1 along edge `side` and v0..v1 in from it (pixels)."""
    if side == 0:
        return [u0, v0, u1, v1]
    if side == 2:
        return [u0, s - v1, u1, s - v0]
    if side == 3:
        return [v0, u0, v1, u1]
    return [s - v1, u0, s - v0, u1]


def _pillar(draw: ImageDraw.ImageDraw, cx: float, cy: float, half: float, line: float) -> None:
    draw.rectangle(
        (cx - half, cy - half, cx + half, cy + half),
        fill=pal.PILLAR,
        outline=pal.OUTLINE,
        width=max(1, round(line)),
    )


def _walls(draw: ImageDraw.ImageDraw, edges: str, s: float, t: float) -> None:
    """Walls along the edges; an archway is a gap in the wall between two red posts."""
    gap = s * 0.36
    for side, edge in enumerate(edges):
        if edge == ".":
            continue
        if edge == "#":
            draw.rectangle(_side_box(side, s, 0, s, 0, t), fill=pal.WALL)
            continue
        a, b = (s - gap) / 2, (s + gap) / 2
        draw.rectangle(_side_box(side, s, 0, a, 0, t), fill=pal.WALL)
        draw.rectangle(_side_box(side, s, b, s, 0, t), fill=pal.WALL)
        for u in (a, b):
            box = _side_box(side, s, u, u, t / 2, t / 2)
            _pillar(draw, box[0], box[1], t * 0.75, t * 0.22)


def _diagonal(draw: ImageDraw.ImageDraw, tile: Tile, s: float, t: float) -> None:
    start, end = ((0.0, s), (s, 0.0)) if tile.diagonal == "/" else ((0.0, 0.0), (s, s))
    if not tile.diagonal_arch:
        draw.line([start, end], fill=pal.WALL, width=round(t))
        return
    cut = 0.2  # share of the diagonal either side of its middle left open

    def at(f: float) -> Point:
        return (start[0] + (end[0] - start[0]) * f, start[1] + (end[1] - start[1]) * f)

    draw.line([at(-0.05), at(0.5 - cut)], fill=pal.WALL, width=round(t))
    draw.line([at(0.5 + cut), at(1.05)], fill=pal.WALL, width=round(t))
    for f in (0.5 - cut, 0.5 + cut):
        x, y = at(f)
        _pillar(draw, x, y, t * 0.75, t * 0.22)


def _hatch(
    image: Image.Image,
    polygon: list[Point],
    s: int,
    colour: pal.RGB = pal.CLOSED,
    thin: bool = False,
) -> None:
    """Stripes over one room part: amber marks a room the last move closed; thin stripes in
    the floor's seam colour, a room closed before (it stays visibly done)."""
    mask = Image.new("L", image.size, 0)
    draw = ImageDraw.Draw(mask)
    step, width = s * 0.16, max(2, round(s * (0.025 if thin else 0.05)))
    offset = -float(s)
    while offset < s:
        draw.line([(offset, s), (offset + s, 0)], fill=255, width=width)
        offset += step
    clip = Image.new("L", image.size, 0)
    ImageDraw.Draw(clip).polygon(polygon, fill=255)
    stripes = Image.new("L", image.size, 0)
    stripes.paste(mask, (0, 0), clip)
    image.paste(colour, (0, 0), stripes)


def _dragon(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """A dragon: a red seal with a gold ring and the character 龍."""
    draw.ellipse(
        (cx - r, cy - r, cx + r, cy + r), fill=pal.PILLAR, outline=pal.GOLD, width=round(r * 0.14)
    )
    draw.text(
        (cx, cy + r * 0.04), "龍", font=seal_font(round(r * 1.25)), fill=pal.GOLD, anchor="mm"
    )


def _advisors(
    draw: ImageDraw.ImageDraw, tile: Tile, seat: str, cx: float, cy: float, s: float
) -> None:
    small = bool(tile.diagonal)
    r = s * (0.11 if small else 0.135)
    line = r * 0.24
    if tile.advisors == 2:
        ux, uy = ALONG[tile.diagonal]
        d = r * 1.25
        for sign in (-1, 1):
            draw_marker(draw, seat, cx + sign * ux * d, cy + sign * uy * d, r, line)
        return
    if tile.advisors == 1:
        draw_marker(draw, seat, cx, cy, r, line)
        return
    draw_marker(draw, seat, cx - r * 0.7, cy, r, line)
    draw.text(
        (cx + r * 0.55, cy),
        str(tile.advisors),
        font=font(round(r * 2.1), bold=True),
        fill=pal.WHITE,
        anchor="lm",
        stroke_width=max(1, round(r * 0.22)),
        stroke_fill=pal.OUTLINE,
    )


def _temple(draw: ImageDraw.ImageDraw, s: float) -> None:
    """The Imperial Temple: a two-tier red hall with green roofs and gold ridges."""
    c = s / 2
    draw.rectangle((c - s * 0.17, s * 0.5, c + s * 0.17, s * 0.7), fill=pal.PILLAR)
    for x in (c - s * 0.1, c, c + s * 0.1):
        draw.line([(x, s * 0.52), (x, s * 0.7)], fill=pal.WALL, width=max(1, round(s * 0.015)))
    draw.rectangle((c - s * 0.24, s * 0.69, c + s * 0.24, s * 0.74), fill=pal.WALL)
    for top, half, height in ((0.36, 0.3, 0.15), (0.24, 0.19, 0.12)):
        y0, y1 = s * top, s * (top + height)
        w0, w1 = s * half * 0.55, s * half
        lift, tip = s * 0.02, s * 0.06
        roof = [
            (c - w0, y0),
            (c + w0, y0),
            (c + w1, y1 - lift),
            (c + w1 + lift * 1.5, y1 - tip),
            (c + w1 + lift, y1),
            (c - w1 - lift, y1),
            (c - w1 - lift * 1.5, y1 - tip),
            (c - w1, y1 - lift),
        ]
        draw.polygon(roof, fill=pal.TEMPLE_ROOF, outline=pal.WALL, width=max(1, round(s * 0.01)))
        draw.line([(c - w0, y0), (c + w0, y0)], fill=pal.GOLD, width=max(1, round(s * 0.025)))
    draw.rectangle((c - s * 0.14, s * 0.5, c + s * 0.14, s * 0.52), fill=pal.WALL)


def _garden(draw: ImageDraw.ImageDraw, s: float) -> None:
    """A dead garden corner: shrubs and a pond, clearly not a room."""
    draw.ellipse(
        (s * 0.46, s * 0.5, s * 0.84, s * 0.78),
        fill=pal.POND,
        outline=pal.SHRUB,
        width=round(s * 0.02),
    )
    for x, y, r in ((0.3, 0.3, 0.12), (0.55, 0.28, 0.09), (0.28, 0.62, 0.1), (0.72, 0.34, 0.07)):
        draw.ellipse((s * (x - r), s * (y - r), s * (x + r), s * (y + r)), fill=pal.SHRUB)
        draw.ellipse((s * (x - r * 0.45), s * (y - r * 0.6), s * (x + r * 0.1), s * (y - r * 0.05)),
                     fill=pal.GARDEN)  # fmt: skip


_art: ImageCache[Image.Image] = ImageCache(ART_CACHE_BYTES, image_bytes, "tile art")


def cell_art(
    kind: str,
    code: str,
    seat: str | None,
    size: int,
    lit: tuple[int, ...] = (),
    done: tuple[int, ...] = (),
    *,
    indexed: bool = False,
) -> Image.Image:
    """One cell, `size` pixels square, from the cache (callers must not draw on it): RGB, or
    mapped to the fixed palette once (`indexed`), to be pasted on a palette canvas.

    kind is the board's: "tile" or "start" (code: the oriented tile code), "temple" or
    "garden" (code: the edges). `seat` colours the advisors; `lit` lists the parts (or [0] for
    the temple) to hatch as just closed, `done` those of rooms closed before.
    """
    key = (kind, code, seat, size, lit, done, indexed)

    def draw() -> Image.Image:
        drawn = _draw_cell(kind, code, seat, size, lit, done)
        return paint.indexed(drawn, pal.palette_image()) if indexed else drawn

    return _art.get(key, draw)


def _draw_cell(
    kind: str, code: str, seat: str | None, size: int, lit: tuple[int, ...], done: tuple[int, ...]
) -> Image.Image:
    k = SUPERSAMPLE
    s = size * k
    t = wall_width(size) * k
    image = Image.new("RGB", (s, s), pal.TABLE)
    draw = ImageDraw.Draw(image)
    if kind in ("temple", "garden"):
        draw.rectangle((0, 0, s, s), fill=pal.TEMPLE_FLOOR if kind == "temple" else pal.GARDEN)
        if kind == "temple" and 0 in lit:
            _hatch(image, _poly(PARTS[""][0], s), s)
        elif kind == "temple" and 0 in done:
            _hatch(image, _poly(PARTS[""][0], s), s, pal.SEAM["W"], thin=True)
        (_temple if kind == "temple" else _garden)(draw, s)
        _walls(draw, code, s, t)
        return image.reduce(k)
    tile = Tile.parse(code)
    parts = PARTS[tile.diagonal]
    for index, colour in enumerate(tile.colours):
        draw.polygon(_poly(parts[index], s), fill=pal.FLOOR[colour])
    for index in lit:
        _hatch(image, _poly(parts[index], s), s)
    for index in set(done) - set(lit):
        _hatch(image, _poly(parts[index], s), s, pal.SEAM[tile.colours[index]], thin=True)
    if kind == "tile":  # the seam between two tiles; the start tile is one piece of cardboard
        seam = max(1, k)
        for side in range(4):
            seam_colour = pal.SEAM[tile.colour_at(side)]
            draw.rectangle(_side_box(side, s, 0, s, 0, seam), fill=seam_colour)
    if tile.diagonal:
        _diagonal(draw, tile, s, t)
    _walls(draw, tile.edges, s, t)
    if tile.dragon or tile.advisors:
        ux, uy = CENTRES[tile.diagonal][tile.content_part]
        cx, cy = ux * s, uy * s
        if tile.dragon:
            _dragon(draw, cx, cy, s * (0.15 if tile.diagonal else 0.2))
        elif seat is not None:
            _advisors(draw, tile, seat, cx, cy, s)
    return image.reduce(k)
