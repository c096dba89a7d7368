"""Drawing straight onto a palette canvas, so a finished picture needs no mapping to its palette.

Mapping a whole RGB picture to the fixed palette cost 2-5 ms an image (2.3 ns a pixel), more
than its drawing. On a canvas in P mode:
- flat shapes (`ImageDraw`, no anti-aliasing) are drawn in a palette colour as they are;
- opaque sprites (tile art, a static board) are drawn in RGB and mapped once, when first
  asked for and cached, then pasted as they are (`for_mode`);
- what blends into the picture (anti-aliased text, an RGBA icon) is painted in RGB on the few
  pixels under it, which are then mapped back (`blended`); over one flat colour, where it
  comes out the same wherever it goes, that patch is cached and pasted (`sprite`, `stamp`).
Mapping is per pixel, so every pixel comes out as it would from mapping the RGB picture whole,
except where text blends with a ground whose entry is not its exact colour (a pixel that was
itself a blend, or a white that Pillow maps to 252,251,249): the text's edge then blends with
the entry's colour, a few levels off.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PIL import Image, ImageDraw

from .memo import ImageCache, image_bytes

RGB = tuple[int, int, int]
Ink = float | tuple[int, ...] | str  # what ImageDraw takes as a colour


_NEAREST: dict[tuple[bytes, RGB], int] = {}  # (palette, colour) -> its entry, as mapped


def nearest(palette: Image.Image, colour: RGB) -> int:
    """The entry of `palette` (a P image) that mapping a picture gives `colour`: Pillow's own
    mapping, so a shape drawn on a palette canvas gets the colour it got before."""
    return nearest_entry(palette_bytes(palette), colour)


def nearest_entry(colours: bytes, colour: RGB) -> int:
    """`nearest`, for a palette given by its colours (`palette_bytes`)."""
    found = _NEAREST.get((colours, colour))
    if found is None:
        palette = Image.new("P", (1, 1))
        palette.putpalette(colours)
        dot = Image.new("RGB", (1, 1), colour).quantize(palette=palette, dither=Image.Dither.NONE)
        found = _NEAREST[(colours, colour)] = int(dot.getpixel((0, 0)))  # type: ignore[arg-type]
    return found


def palette_bytes(palette: Image.Image) -> bytes:
    """The colours of a P image, as bytes: hashable, a cache key for what is drawn on it."""
    assert palette.palette is not None
    return palette.palette.tobytes()


def canvas(size: tuple[int, int], colour: RGB, palette: Image.Image) -> Image.Image:
    """A P-mode picture of `size` filled with `colour`, carrying `palette`'s colours."""
    image = Image.new("P", size, nearest(palette, colour))
    image.putpalette(palette_bytes(palette))
    return image


def blank(size: tuple[int, int], colour: RGB, palette: Image.Image, mode: str) -> Image.Image:
    """A picture of `size` filled with `colour`, in `mode`: "P" on `palette` (`canvas`), or
    "RGB". What is drawn on it reads its mode from the picture itself."""
    return canvas(size, colour, palette) if mode == "P" else Image.new(mode, size, colour)


def for_mode(art: Image.Image, mode: str, palette: Image.Image) -> Image.Image:
    """An opaque RGB sprite as a canvas of `mode` pastes it: for "P" mapped to `palette`
    (`indexed`; callers cache what this returns, so a sprite is mapped once), else as it is."""
    return indexed(art, palette) if mode == "P" else art


class Draw(ImageDraw.ImageDraw):
    """`ImageDraw.Draw` for RGB and palette canvases alike: on a palette canvas an RGB colour
    is drawn as the entry `nearest` gives it (Pillow's own would add it to the palette, or
    fail once the palette is full). Each shape the pictures use takes its colours through
    `drawn`, then is drawn by Pillow."""

    def __init__(self, image: Image.Image) -> None:
        super().__init__(image)
        self.canvas = image
        self.colours = palette_bytes(image) if image.mode == "P" else None

    def drawn(self, colour: Ink | None) -> Ink | None:
        """`colour` as this canvas draws it: on a palette canvas, an RGB colour's entry."""
        if self.colours is None or not isinstance(colour, tuple):
            return colour
        return nearest_entry(self.colours, (colour[0], colour[1], colour[2]))

    def rectangle(
        self, xy: Any, fill: Ink | None = None, outline: Ink | None = None, width: int = 1
    ) -> None:
        super().rectangle(xy, self.drawn(fill), self.drawn(outline), width)

    def ellipse(
        self, xy: Any, fill: Ink | None = None, outline: Ink | None = None, width: int = 1
    ) -> None:
        super().ellipse(xy, self.drawn(fill), self.drawn(outline), width)

    def polygon(
        self, xy: Any, fill: Ink | None = None, outline: Ink | None = None, width: int = 1
    ) -> None:
        super().polygon(xy, self.drawn(fill), self.drawn(outline), width)

    def line(
        self, xy: Any, fill: Ink | None = None, width: int = 1, joint: str | None = None
    ) -> None:
        super().line(xy, self.drawn(fill), width, joint)

    def chord(
        self,
        xy: Any,
        start: float,
        end: float,
        fill: Ink | None = None,
        outline: Ink | None = None,
        width: int = 1,
    ) -> None:
        super().chord(xy, start, end, self.drawn(fill), self.drawn(outline), width)

    def text(self, xy: Any, text: Any, fill: Ink | None = None, *args: Any, **kwargs: Any) -> None:
        if "stroke_fill" in kwargs:
            kwargs["stroke_fill"] = self.drawn(kwargs["stroke_fill"])
        super().text(xy, text, self.drawn(fill), *args, **kwargs)

    def rounded_rectangle(
        self,
        xy: Any,
        radius: float = 0,
        fill: Ink | None = None,
        outline: Ink | None = None,
        width: int = 1,
        *,
        corners: tuple[bool, bool, bool, bool] | None = None,
    ) -> None:
        """`ImageDraw.rounded_rectangle`; a small one on a palette canvas, at whole pixels, is
        drawn once by Pillow and cached as masks (`_rounded`), and its colours pasted through
        them: 14-16 µs of pie slices a card or a die became a few, a dozen times a picture.
        Past `ROUNDED_MASKED` pixels, pasting through a mask costs more than drawing."""
        fill, outline = self.drawn(fill), self.drawn(outline)
        box = _whole_box(xy)
        if (
            self.colours is None
            or box is None
            or (box[2] - box[0] + 1) * (box[3] - box[1] + 1) > ROUNDED_MASKED
            or corners is not None
            or not isinstance(radius, int)
            or (fill is None and outline is None)
            or not isinstance(fill, int | None)
            or not isinstance(outline, int | None)
        ):
            super().rounded_rectangle(xy, radius, fill, outline, width, corners=corners)
            return
        x0, y0, x1, y1 = box
        outlined = outline is not None and outline != fill and width != 0  # else Pillow skips it
        key = ((x1 - x0 + 1, y1 - y0 + 1), radius, width, fill is not None, outlined)
        inside, edge = _rounded.get(key, lambda: _rounded_masks(*key))
        where = (x0, y0, x1 + 1, y1 + 1)
        if fill is not None:
            self.canvas.paste(fill, where, inside)
        if outline is not None and outlined:
            self.canvas.paste(outline, where, edge)


def _whole_box(xy: object) -> tuple[int, int, int, int] | None:
    """(x0, y0, x1, y1) if `xy` is a box of four whole numbers, the first corner first."""
    if not isinstance(xy, tuple | list) or len(xy) != 4:
        return None
    if not all(type(v) is int for v in xy):
        return None
    x0, y0, x1, y1 = xy
    return (x0, y0, x1, y1) if x1 >= x0 and y1 >= y0 else None


def _rounded_masks(
    size: tuple[int, int], radius: int, width: int, filled: bool, outlined: bool
) -> tuple[Image.Image, Image.Image]:
    """Where `ImageDraw.rounded_rectangle` puts the fill, and where its outline, for a box of
    `size` at the origin (whole-pixel shapes land the same wherever they are drawn)."""
    shape = Image.new("L", size, 0)
    ImageDraw.Draw(shape).rounded_rectangle(
        (0, 0, size[0] - 1, size[1] - 1),
        radius,
        fill=1 if filled else None,
        outline=2 if outlined else None,
        width=width,
    )
    return shape.point([0, 255] + [0] * 254), shape.point([0, 0, 255] + [0] * 253)


ROUNDED_MASKED = 16384  # pixels: a 290x50 row drew in 10.5 µs, and pasted in 8.2
ROUNDED_CACHE_BYTES = 1 << 20  # cards, dice, badges and rows, by size: a few dozen
_rounded: ImageCache[tuple[Image.Image, Image.Image]] = ImageCache(
    ROUNDED_CACHE_BYTES, lambda masks: 2 * image_bytes(masks[0]), "rounded boxes"
)


def indexed(image: Image.Image, palette: Image.Image) -> Image.Image:
    """An RGB picture mapped to `palette` (nearest colour, no dither): a sprite, once."""
    return image.quantize(palette=palette, dither=Image.Dither.NONE)


def blended(
    image: Image.Image,
    box: tuple[int, int, int, int],
    paint: Callable[[Image.Image], None],
) -> None:
    """Let `paint` draw in RGB on the part of the palette canvas `image` under `box` (its own
    top-left at (0, 0)), then put that part back, mapped to the palette."""
    region = image.crop(box).convert("RGB")
    paint(region)
    image.paste(indexed(region, image), box[:2])


def sprite(image: Image.Image, art: Image.Image, xy: tuple[int, int]) -> None:
    """Paste an RGBA sprite by its own alpha, onto an RGB or a palette canvas.

    On a palette canvas, a sprite over one flat colour (a seat's marker on a header row) is
    the same patch wherever it goes: it is blended and mapped once, cached, and pasted whole,
    as `blended` would have put it back; mapping costs 50 µs a call, a paste 1."""
    if image.mode != "P":
        image.paste(art, xy, art)
        return
    left, top = xy
    box = (left, top, left + art.width, top + art.height)
    ground = flat_entry(image, box)
    if ground is not None:
        key = (palette_bytes(image), ground, art.size, art.tobytes())
        patch = _on_ground.get(
            key, lambda: on_ground(image, art.size, ground, lambda r: r.paste(art, (0, 0), art))
        )
        put(image, patch, xy)
        return
    blended(image, box, lambda region: region.paste(art, (0, 0), art))


def flat_entry(image: Image.Image, box: tuple[int, int, int, int]) -> int | None:
    """The one entry of the palette canvas `image` under `box` (past an edge, 0: as `blended`
    reads it), or None where there are several."""
    low, high = image.crop(box).getextrema()
    return low if isinstance(low, int) and low == high else None


def entry_colour(colours: bytes, entry: int) -> RGB:
    """The colour of palette entry `entry`, from a palette's bytes (`palette_bytes`)."""
    at = 3 * entry
    return (colours[at], colours[at + 1], colours[at + 2])


def on_ground(
    palette: Image.Image, size: tuple[int, int], ground: int, paint: Callable[[Image.Image], None]
) -> Image.Image:
    """What `paint` draws in RGB on a patch of `size` in the colour of `palette`'s entry
    `ground`, mapped to that palette: `blended` over one flat colour, to be cached."""
    patch = Image.new("RGB", size, entry_colour(palette_bytes(palette), ground))
    paint(patch)
    return indexed(patch, palette)


SPRITE_CACHE_BYTES = 1 << 20  # markers and icons on their grounds: a few dozen of 1-4 KB
_on_ground: ImageCache[Image.Image] = ImageCache(
    SPRITE_CACHE_BYTES, image_bytes, "sprites on a ground"
)


def put(
    image: Image.Image, art: Image.Image, xy: tuple[int, int], mask: Image.Image | None = None
) -> None:
    """`image.paste(art, xy, mask)` for a sprite of the canvas's own mode (where `mask`, of
    the sprite's size, is not 0): a sprite of another mode would be converted, on a palette
    canvas to Pillow's own palette, so it is refused."""
    if art.mode != image.mode:
        raise ValueError(f"a {art.mode} sprite on a {image.mode} canvas")
    image.paste(art, xy, mask)
