"""Pieces described once: each piece of a board is a short list of flat shapes, and both back
ends draw that same list, `draw` with Pillow for the chat's PNGs and `shapes_svg.svg` as SVG
for the web page. Drawn by hand twice, the two pictures drifted apart (a dragon without its
seal, a temple without its posts); from one description they cannot.

Shapes keep Pillow's conventions, as the PNGs were drawn first: a coordinate is a pixel's
centre, a box holds both its corners, an outline lies inside its shape, widths and font sizes
are whole pixels. `shapes_svg.svg` follows them given the size of that pixel in its own units
(`pixel`): 1 for a picture drawn at its size, a fraction for one drawn supersampled and then
shrunk.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from PIL import Image, ImageDraw

from . import paint
from .fonts import font, seal_font, stamp

RGB = tuple[int, int, int]
Point = tuple[float, float]
Box = tuple[float, float, float, float]
Attrs = tuple[tuple[str, str], ...]  # SVG attributes for the page and its tests (data-*)
TEXT_FONT = "Noto Sans, sans-serif"  # the face the PNGs' texts are drawn in (`render.fonts`)


@dataclass(frozen=True, slots=True)
class Rect:
    box: Box
    fill: RGB | None = None
    outline: RGB | None = None
    width: float = 1
    attrs: Attrs = ()


@dataclass(frozen=True, slots=True)
class RoundedRect:
    box: Box
    radius: int
    fill: RGB | None = None
    outline: RGB | None = None
    width: float = 1


@dataclass(frozen=True, slots=True)
class Ellipse:
    box: Box
    fill: RGB | None = None
    outline: RGB | None = None
    width: float = 1


@dataclass(frozen=True, slots=True)
class Polygon:
    points: tuple[Point, ...]
    fill: RGB | None = None
    outline: RGB | None = None
    width: float = 1


@dataclass(frozen=True, slots=True)
class Line:
    """A line through `points`; `curved` rounds its joints."""

    points: tuple[Point, ...]
    fill: RGB
    width: float = 1
    curved: bool = False
    attrs: Attrs = ()


@dataclass(frozen=True, slots=True)
class Chord:
    """The part of the ellipse in `box` from `start` to `end` (degrees, clockwise from east)
    cut off by the straight line between them."""

    box: Box
    start: float
    end: float
    fill: RGB | None = None
    outline: RGB | None = None
    width: float = 1


@dataclass(frozen=True, slots=True)
class Text:
    """A text at `xy` by Pillow's two-letter `anchor`; `seal` draws it in the CJK face (SVG:
    as the glyph's outline, `shapes_svg.glyphs`, since a page's reader may have no CJK font)."""

    xy: Point
    text: str
    size: float
    fill: RGB
    anchor: str = "la"
    bold: bool = False
    seal: bool = False
    stroke: float = 0
    stroke_fill: RGB | None = None


@dataclass(frozen=True, slots=True)
class Hatch:
    """Stripes across `polygon` rising to the right, one every `step` along x, `width` thick,
    through the picture's origin; SVG fills it with its `<pattern>` named `pattern`
    (`shapes_svg.stripes` writes it)."""

    polygon: tuple[Point, ...]
    fill: RGB
    step: float
    width: float
    pattern: str


Shape = Rect | RoundedRect | Ellipse | Polygon | Line | Chord | Text | Hatch


def _px(width: float) -> int:
    return max(1, round(width))


def draw(image: Image.Image, shapes: Iterable[Shape], *, stamped: bool = False) -> None:
    """Paint `shapes` on `image` (RGB, or P with a fixed palette). `stamped` draws texts from
    the cache of rendered texts (`fonts.stamp`, no stroke), else with Pillow's own `text`."""
    pen = paint.Draw(image)
    for shape in shapes:
        if isinstance(shape, Rect):
            pen.rectangle(shape.box, shape.fill, shape.outline, _px(shape.width))
        elif isinstance(shape, RoundedRect):
            pen.rounded_rectangle(shape.box, shape.radius, shape.fill, shape.outline,
                                  _px(shape.width))  # fmt: skip
        elif isinstance(shape, Ellipse):
            pen.ellipse(shape.box, shape.fill, shape.outline, _px(shape.width))
        elif isinstance(shape, Polygon):
            pen.polygon(shape.points, shape.fill, shape.outline, _px(shape.width))
        elif isinstance(shape, Line):
            joint = "curve" if shape.curved else None
            pen.line(shape.points, shape.fill, _px(shape.width), joint)
        elif isinstance(shape, Chord):
            pen.chord(shape.box, shape.start, shape.end, shape.fill, shape.outline,
                      _px(shape.width))  # fmt: skip
        elif isinstance(shape, Text):
            _text(image, pen, shape, stamped)
        else:
            _hatch(image, shape)


def _text(image: Image.Image, pen: ImageDraw.ImageDraw, text: Text, stamped: bool) -> None:
    size = round(text.size)
    if stamped:
        assert not text.stroke, "a stamped text has no stroke"
        stamp(image, text.xy, text.text, size, text.fill, bold=text.bold, anchor=text.anchor,
              seal=text.seal)  # fmt: skip
        return
    face = seal_font(size) if text.seal else font(size, bold=text.bold)
    stroke = _px(text.stroke) if text.stroke else 0
    pen.text(text.xy, text.text, text.fill, face, text.anchor, stroke_width=stroke,
             stroke_fill=text.stroke_fill)  # fmt: skip


def _hatch(image: Image.Image, hatch: Hatch) -> None:
    """The stripes drawn on a mask of the picture's size, clipped to the polygon, pasted."""
    mask = Image.new("L", image.size, 0)
    pen = ImageDraw.Draw(mask)
    s = image.height
    offset = -float(s)
    while offset < s:
        pen.line([(offset, s), (offset + s, 0)], fill=255, width=_px(hatch.width))
        offset += hatch.step
    clip = Image.new("L", image.size, 0)
    ImageDraw.Draw(clip).polygon(hatch.polygon, fill=255)
    stripes = Image.new("L", image.size, 0)
    stripes.paste(mask, (0, 0), clip)
    image.paste(hatch.fill, (0, 0), stripes)
