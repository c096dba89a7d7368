"""The shapes of `render.shapes` written as SVG, for the web page: `svg` follows Pillow's
conventions (see `render.shapes`) given the size of a picture's pixel in its own units
(`pixel`), so the page shows what the PNGs show."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from functools import cache, lru_cache
from html import escape
from importlib import resources
from itertools import pairwise

from .fonts import font
from .shapes import (
    RGB,
    TEXT_FONT,
    Attrs,
    Box,
    Chord,
    Ellipse,
    Hatch,
    Line,
    Point,
    Polygon,
    Rect,
    RoundedRect,
    Shape,
    Text,
)


def _rgb(colour: RGB | None) -> str:
    return "none" if colour is None else "#{:02x}{:02x}{:02x}".format(*colour)


def _n(value: float) -> str:
    return f"{round(value, 3):g}"


def _whole(value: float, pixel: float) -> float:
    """`value` in whole pixels, as Pillow draws it (at least one for a width)."""
    return max(pixel, round(value / pixel) * pixel) if pixel else value


def _paint(fill: RGB | None, outline: RGB | None, width: float) -> str:
    out = f'fill="{_rgb(fill)}"'
    if outline is not None:
        out += f' stroke="{_rgb(outline)}" stroke-width="{_n(width)}"'
    return out


def _attrs(attrs: Attrs) -> str:
    return "".join(f' {name}="{escape(value)}"' for name, value in attrs)


def _box(box: Box, pixel: float) -> tuple[float, float, float, float]:
    """A Pillow box's area: from the outer edge of its first pixel to that of its last."""
    x0, y0, x1, y1 = box
    half = pixel / 2
    return x0 - half, y0 - half, x1 + half, y1 + half


def _offset(points: Sequence[Point], d: float) -> list[Point]:
    """The polygon grown by `d` (shrunk if negative), its corners mitred."""
    n = len(points)
    area = sum(points[i][0] * points[(i + 1) % n][1] - points[(i + 1) % n][0] * points[i][1]
               for i in range(n))  # fmt: skip
    turn = d if area > 0 else -d  # outward is left of the edges of a clockwise polygon
    lines = []
    for i in range(n):
        (ax, ay), (bx, by) = points[i], points[(i + 1) % n]
        length = math.hypot(bx - ax, by - ay) or 1.0
        nx, ny = (by - ay) / length * turn, -(bx - ax) / length * turn
        lines.append(((ax + nx, ay + ny), (bx + nx, by + ny)))
    out = []
    for i in range(n):
        (p1, p2), (p3, p4) = lines[i - 1], lines[i]
        dx1, dy1, dx2, dy2 = p2[0] - p1[0], p2[1] - p1[1], p4[0] - p3[0], p4[1] - p3[1]
        cross = dx1 * dy2 - dy1 * dx2
        if abs(cross) < 1e-9:
            out.append(p3)
            continue
        k = ((p3[0] - p1[0]) * dy2 - (p3[1] - p1[1]) * dx2) / cross
        out.append((p1[0] + k * dx1, p1[1] + k * dy1))
    return out


def _points(points: Iterable[Point]) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in points)


def _meet(a: tuple[Point, Point], b: tuple[Point, Point]) -> Point:
    """Where the lines through segments `a` and `b` cross (b's start if they are parallel)."""
    (x1, y1), (x2, y2) = a
    (x3, y3), (x4, y4) = b
    dx1, dy1, dx2, dy2 = x2 - x1, y2 - y1, x4 - x3, y4 - y3
    cross = dx1 * dy2 - dy1 * dx2
    if abs(cross) < 1e-9:
        return x3, y3
    k = ((x3 - x1) * dy2 - (y3 - y1) * dx2) / cross
    return x1 + k * dx1, y1 + k * dy1


def _line(line: Line, pixel: float) -> str:
    """Pillow's line: centred on its pixels, reaching the outer edges of its end pixels; one
    of even width has its odd pixel to the south of a segment drawn east, north of one drawn
    west, east of one drawn south and west of one drawn north."""
    width = _whole(line.width, pixel)
    even = bool(pixel) and round(width / pixel) % 2 == 0
    half = pixel / 2
    segments: list[tuple[Point, Point]] = []
    ends: list[Point] = []  # each segment's direction, a unit long
    for (ax, ay), (bx, by) in pairwise(line.points):
        length = math.hypot(bx - ax, by - ay) or 1.0
        ux, uy = (bx - ax) / length, (by - ay) / length
        sx, sy = (uy * half, ux * half) if even else (0.0, 0.0)
        segments.append(((ax + sx, ay + sy), (bx + sx, by + sy)))
        ends.append((ux, uy))
    if not segments:
        points = list(line.points)
    else:
        (fx, fy), (lx, ly) = segments[0][0], segments[-1][1]
        points = [(fx - ends[0][0] * half, fy - ends[0][1] * half)]
        points += [_meet(a, b) for a, b in pairwise(segments)]
        points.append((lx + ends[-1][0] * half, ly + ends[-1][1] * half))
    joins = ' stroke-linejoin="round"' if line.curved else ""
    return (
        f'<polyline points="{_points(points)}" fill="none" stroke="{_rgb(line.fill)}" '
        f'stroke-width="{_n(width)}"{joins}{_attrs(line.attrs)}/>'
    )


@cache
def _glyphs() -> tuple[int, dict[str, str]]:
    """`data/glyphs.json`: outlines of the seal face's (`fonts.seal_font`) characters, made
    with fontTools, a build-time tool like the fonts' (`fonts/README.md`): each glyph drawn
    through `SVGPathPen` in a `TransformPen` of (1, 0, 0, -1, -advance / 2, (ascender +
    descender) / 2) of the font's hhea, which puts it about Pillow's "mm" anchor, y down."""
    text = resources.files(__package__).joinpath("data", "glyphs.json").read_text("utf-8")
    data = json.loads(text)
    return int(data["em"]), {str(k): str(v) for k, v in data["glyphs"].items()}


def glyph(char: str) -> tuple[int, str]:
    """The seal face's outline of `char` (`data/glyphs.json`): its em and its path, y down,
    about Pillow's "mm" anchor."""
    em, glyphs = _glyphs()
    return em, glyphs[char]


def _glyph_id(char: str) -> str:
    return f"glyph-{ord(char):x}"


def glyphs() -> str:
    """The seal's outlines, for a document's `<defs>`: each `Text` in the seal face is one
    of them, placed (the path would be 1 KB a dragon)."""
    return "".join(f'<path id="{_glyph_id(char)}" d="{glyph(char)[1]}"/>' for char in _glyphs()[1])


def _origin(text: Text, pixel: float) -> Point:
    """Where Pillow puts the text's origin (left end of its baseline) for its anchor: the
    same face at the same size in pixels (`pixel` units each) says, to the whole pixel it
    rounds to."""
    scale = pixel or 1.0
    dx, dy = _anchored(text.text, max(1, round(text.size / scale)), text.bold, text.anchor)
    return text.xy[0] + dx * scale, text.xy[1] + dy * scale


@lru_cache(maxsize=1024)
def _anchored(text: str, size: int, bold: bool, anchor: str) -> tuple[int, int]:
    """How far Pillow moves a text's origin from the point it anchors the text at."""
    face = font(size, bold=bold)
    anchored, origin = face.getbbox(text, anchor=anchor), face.getbbox(text, anchor="ls")
    return int(anchored[0] - origin[0]), int(anchored[1] - origin[1])


def _text_svg(text: Text, pixel: float) -> str:
    size = _whole(text.size, pixel)
    if text.seal:
        # Pillow places a text by its pixels' corners, not their centres.
        x, y = text.xy[0] - pixel / 2, text.xy[1] - pixel / 2
        assert text.anchor == "mm", "the seal's outlines are about its middle"
        em, _ = glyph(text.text)
        return (
            f'<use href="#{_glyph_id(text.text)}" fill="{_rgb(text.fill)}" '
            f'transform="translate({_n(x)},{_n(y)}) scale({_n(size / em)})"/>'
        )
    x, y = _origin(text, pixel)
    x, y = x - pixel / 2, y - pixel / 2
    out = (
        f'<text x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}" font-family="{TEXT_FONT}" '
        f'fill="{_rgb(text.fill)}"'
    )
    if text.bold:
        out += ' font-weight="bold"'
    if text.stroke:  # Pillow's stroke lies outside the letters: half of SVG's is hidden
        stroke = 2 * _whole(text.stroke, pixel)
        out += (
            f' stroke="{_rgb(text.stroke_fill)}" stroke-width="{_n(stroke)}" '
            'stroke-linejoin="round" paint-order="stroke"'
        )
    return f"{out}>{escape(text.text)}</text>"


def _chord(chord: Chord, pixel: float) -> str:
    """The chord, its outline inside: the arc drawn `inset` in, and the straight side too,
    from half a pixel past the line between its ends (Pillow keeps that line's pixels)."""
    x0, y0, x1, y1 = _box(chord.box, pixel)
    inset = _whole(chord.width, pixel) / 2 if chord.outline is not None else 0.0
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    rx, ry = (x1 - x0) / 2 - inset, (y1 - y0) / 2 - inset
    a, b, mid = (math.radians(v) for v in (chord.start, chord.end, (chord.start + chord.end) / 2))
    ax, ay = cx + rx * math.cos(a), cy + ry * math.sin(a)
    bx, by = cx + rx * math.cos(b), cy + ry * math.sin(b)
    # The straight side moved towards the arc, and where it meets the ellipse again.
    reach = inset - pixel / 2
    ux, uy = bx - ax, by - ay
    nx, ny = -uy, ux
    if nx * (cx + rx * math.cos(mid) - ax) + ny * (cy + ry * math.sin(mid) - ay) < 0:
        nx, ny = -nx, -ny
    length = math.hypot(nx, ny) or 1.0
    px, py = (ax - cx) / rx + nx / length * reach / rx, (ay - cy) / ry + ny / length * reach / ry
    qx, qy = ux / rx, uy / ry
    qa, qb, qc = qx * qx + qy * qy, 2 * (px * qx + py * qy), px * px + py * py - 1
    root = qb * qb - 4 * qa * qc
    if reach and qa and root >= 0:
        t0, t1 = (-qb - math.sqrt(root)) / (2 * qa), (-qb + math.sqrt(root)) / (2 * qa)
        (ax, ay), (bx, by) = ((cx + (px + qx * t) * rx, cy + (py + qy * t) * ry) for t in (t0, t1))
    large = 1 if (chord.end - chord.start) % 360 > 180 else 0
    return (
        f'<path d="M {_n(ax)} {_n(ay)} A {_n(rx)} {_n(ry)} 0 {large} 1 {_n(bx)} {_n(by)} Z" '
        f"{_paint(chord.fill, chord.outline, 2 * inset)}/>"
    )


def _shape_svg(shape: Shape, pixel: float) -> str:
    if isinstance(shape, Rect | RoundedRect | Ellipse):
        x0, y0, x1, y1 = _box(shape.box, pixel)
        width = _whole(shape.width, pixel) if shape.outline is not None else 0.0
        x0, y0, x1, y1 = x0 + width / 2, y0 + width / 2, x1 - width / 2, y1 - width / 2
        painted = _paint(shape.fill, shape.outline, width)
        if isinstance(shape, RoundedRect):
            painted += f' rx="{_n(max(0.0, shape.radius + (pixel - width) / 2))}"'
        if isinstance(shape, Ellipse):
            centre = f'cx="{_n((x0 + x1) / 2)}" cy="{_n((y0 + y1) / 2)}"'
            rx, ry = _n((x1 - x0) / 2), _n((y1 - y0) / 2)
            if rx == ry:
                return f'<circle {centre} r="{rx}" {painted}/>'
            return f'<ellipse {centre} rx="{rx}" ry="{ry}" {painted}/>'
        attrs = _attrs(shape.attrs) if isinstance(shape, Rect) else ""
        return (
            f'<rect x="{_n(x0)}" y="{_n(y0)}" width="{_n(x1 - x0)}" height="{_n(y1 - y0)}" '
            f"{painted}{attrs}/>"
        )
    if isinstance(shape, Polygon | Hatch):
        if isinstance(shape, Hatch):
            grown, painted = _offset(shape.polygon, pixel / 2), f'fill="url(#{shape.pattern})"'
        else:
            width = _whole(shape.width, pixel) if shape.outline is not None else 0.0
            grown = _offset(shape.points, (pixel - width) / 2)
            painted = _paint(shape.fill, shape.outline, width)
        return f'<polygon points="{_points(grown)}" {painted}/>'
    if isinstance(shape, Line):
        return _line(shape, pixel)
    if isinstance(shape, Chord):
        return _chord(shape, pixel)
    return _text_svg(shape, pixel)


def svg(shapes: Iterable[Shape], pixel: float = 0.0) -> str:
    """`shapes` as SVG elements, one Pillow pixel being `pixel` units: drawn about pixels'
    centres, so they belong in a group moved by half a pixel (`shifted`)."""
    return "".join(_shape_svg(shape, pixel) for shape in shapes)


def shifted(pixel: float, attrs: str = "") -> str:
    """The opening of the group `svg`'s elements go in: Pillow's pixel centres are half a
    pixel in from SVG's grid lines."""
    half = _n(pixel / 2)
    return f'<g transform="translate({half},{half})"{attrs}>'


def stripes(hatch: Hatch, pixel: float = 0.0) -> str:
    """The `<pattern>` a `Hatch` of these stripes fills with: lines x + y = k * step."""
    period = hatch.step / math.sqrt(2)
    half = _whole(hatch.width, pixel) / 2
    fill = _rgb(hatch.fill)
    return (
        f'<pattern id="{hatch.pattern}" width="{_n(period)}" height="{_n(period)}" '
        'patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
        f'<rect width="{_n(half)}" height="{_n(period)}" fill="{fill}"/>'
        f'<rect x="{_n(period - half)}" width="{_n(half)}" height="{_n(period)}" '
        f'fill="{fill}"/></pattern>'
    )
