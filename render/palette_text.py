"""Text on a palette canvas (`fonts.stamp` there): over one flat colour, the text drawn on
that ground and mapped to the palette once, cached and pasted where its mask has ink;
elsewhere the pixels under it blended in RGB and mapped back (`paint.blended`)."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image

from .memo import ImageCache
from .paint import blended as paint_blended
from .paint import entry_colour, flat_entry, indexed, on_ground, palette_bytes, put

GROUND_CACHE_BYTES = 4 << 20  # the same texts on their grounds: 200 tables filled 1.5 MB
# Texts drawn on a flat ground and mapped to a palette, with where their ink is, or None for a
# text with emoji, put back whole (`stamp` on a palette canvas): a palette byte and a mask
# byte a pixel.
_on_ground: ImageCache[tuple[Image.Image, Image.Image | None]] = ImageCache(
    GROUND_CACHE_BYTES, lambda pair: 2 * pair[0].width * pair[0].height, "text on a ground"
)


_INKED = [0] + [255] * 255  # a mask's pixels with any ink


@lru_cache(maxsize=512)
def _blend_entries(
    colours: bytes, ground: tuple[int, int, int], fill: tuple[int, ...]
) -> list[int]:
    """The palette entry that mapping gives `fill` laid over `ground` at each coverage, 0 to
    255. A text of one colour on a flat ground takes every pixel from these 256, so its mask
    maps through them (`Image.point`, a few µs) where mapping its RGB patch cost 50 µs or
    more, Pillow's set-up of each mapping: the header's new texts, captions and counts, came
    to a fifth of a millisecond a picture."""
    palette = Image.new("P", (1, 1))
    palette.putpalette(colours)
    steps = Image.new("RGB", (256, 1), ground)
    steps.paste(fill, (0, 0), Image.frombytes("L", (256, 1), bytes(range(256))))
    return list(indexed(steps, palette).tobytes())


def stamp_on_palette(
    image: Image.Image,
    where: tuple[int, int],
    key: tuple[object, ...],
    mask: Image.Image,
    colour: Image.Image | None,
) -> None:
    """`stamp` on a palette canvas. On a flat ground (most text: labels, numbers, names on a
    band), the text drawn on that ground and mapped to the palette is cached, and pasted where
    its mask has ink; a text with emoji, whole, as blending it would put it back. Elsewhere
    the pixels under it are blended in RGB and mapped back."""
    fill = key[-1]
    assert isinstance(fill, tuple)
    box = (where[0], where[1], where[0] + mask.width, where[1] + mask.height)
    ground_entry = flat_entry(image, box)  # the one entry under the text, if one

    def paint(region: Image.Image) -> None:
        region.paste(fill, (0, 0), mask)
        if colour is not None:
            region.paste(colour, (0, 0), colour)

    if ground_entry is None:
        paint_blended(image, box, paint)
        return
    entry = ground_entry
    colours = palette_bytes(image)
    ground = entry_colour(colours, entry)

    def make() -> tuple[Image.Image, Image.Image | None]:
        if colour is not None:  # put back whole, as `paint_blended` does
            return on_ground(image, mask.size, entry, paint), None
        ink = mask.point(_blend_entries(colours, ground, fill))
        ink.putpalette(colours)  # the entries, read as a palette picture's
        return ink, mask.point(_INKED, "1")

    ink, where_ink = _on_ground.get((key, ground, colours), make)
    put(image, ink, where, where_ink)
