"""Drawing straight onto a palette canvas, so a finished picture needs no mapping to its palette.

Mapping a whole RGB picture to the fixed palette cost 2-5 ms an image (2.3 ns a pixel), more
than its drawing. On a canvas in P mode:
- flat shapes (`ImageDraw`, no anti-aliasing) are drawn in a palette colour as they are;
- opaque sprites (tile art, a static board) are mapped once, when cached, and pasted as they
  are (`indexed`);
- what blends into the picture (anti-aliased text, an RGBA icon) is painted in RGB on the few
  pixels under it, which are then mapped back (`blended`).
Mapping is per pixel, so every pixel comes out as it would from mapping the RGB picture whole,
except where text blends with a ground whose entry is not its exact colour (a pixel that was
itself a blend, or a white that Pillow maps to 252,251,249): the text's edge then blends with
the entry's colour, a few levels off.
"""

from __future__ import annotations

from collections.abc import Callable

from PIL import Image, ImageDraw

RGB = tuple[int, int, int]
Ink = float | tuple[int, ...] | str  # what ImageDraw takes as a colour


_NEAREST: dict[tuple[bytes, RGB], int] = {}  # (palette, colour) -> its entry, as mapped


def nearest(palette: Image.Image, colour: RGB) -> int:
    """The entry of `palette` (a P image) that mapping a picture gives `colour`: Pillow's own
    mapping, so a shape drawn on a palette canvas gets the colour it got before."""
    colours = palette_bytes(palette)
    found = _NEAREST.get((colours, colour))
    if found is None:
        dot = Image.new("RGB", (1, 1), colour).quantize(palette=palette, dither=Image.Dither.NONE)
        found = _NEAREST[(colours, colour)] = int(dot.getpixel((0, 0)))  # type: ignore[arg-type]
    return found


def palette_bytes(palette: Image.Image) -> bytes:
    """The colours of a P image, as bytes: hashable, a cache key for what is drawn on it."""
    assert palette.palette is not None
    colours = palette.palette.palette
    return colours if isinstance(colours, bytes) else bytes(colours)


def canvas(size: tuple[int, int], colour: RGB, palette: Image.Image) -> Image.Image:
    """A P-mode picture of `size` filled with `colour`, carrying `palette`'s colours."""
    image = Image.new("P", size, nearest(palette, colour))
    image.putpalette(palette_bytes(palette))
    return image


class Draw(ImageDraw.ImageDraw):
    """`ImageDraw.Draw` for RGB and palette canvases alike: on a palette canvas an RGB colour
    is drawn as the entry `nearest` gives it (Pillow's own would add it to the palette, or
    fail once the palette is full)."""

    def _getink(self, ink: Ink | None, fill: Ink | None = None) -> tuple[int | None, int | None]:
        if self.palette is not None:
            if isinstance(ink, tuple):
                ink = nearest(self._image, (ink[0], ink[1], ink[2]))
            if isinstance(fill, tuple):
                fill = nearest(self._image, (fill[0], fill[1], fill[2]))
        return super()._getink(ink, fill)


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
    """Paste an RGBA sprite by its own alpha, onto an RGB or a palette canvas."""
    if image.mode != "P":
        image.paste(art, xy, art)
        return
    left, top = xy
    blended(
        image, (left, top, left + art.width, top + art.height), lambda r: r.paste(art, (0, 0), art)
    )


def put(
    image: Image.Image, art: Image.Image, xy: tuple[int, int], mask: Image.Image | None = None
) -> None:
    """`image.paste(art, xy, mask)` for a sprite of the canvas's own mode (where `mask`, of
    the sprite's size, is not 0), on Pillow's core pictures: Pillow's `paste` spends 7 µs
    checking its arguments, a cell's or a text's paste itself 1 µs, and a picture pastes a
    hundred of them."""
    if art.mode != image.mode:
        raise ValueError(f"a {art.mode} sprite on a {image.mode} canvas")
    left, top = xy
    box = (left, top, left + art.width, top + art.height)
    if mask is None:
        image.im.paste(art.im, box)
    else:
        image.im.paste(art.im, box, mask.im)
