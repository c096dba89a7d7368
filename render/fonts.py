"""The fonts shipped with the package (Noto Sans subsets, OFL: fonts/OFL.txt).

System fonts differ from host to host; shipping subsets keeps every image identical
everywhere. Noto Sans covers Latin (extended), Greek and Cyrillic for player names and
translated texts; a tiny Noto Sans CJK subset carries the 禁 of the seal and the 龍 of the
dragons. Faces are loaded once per size.
"""

from __future__ import annotations

import io
import math
from functools import cache
from importlib import resources

from PIL import Image, ImageDraw, ImageFont

from .memo import ImageCache, image_bytes

Font = ImageFont.FreeTypeFont

_FILES = {False: "NotoSans-Regular-subset.ttf", True: "NotoSans-Bold-subset.ttf"}
_SEAL_FILE = "NotoSansSC-Bold-subset.otf"
TEXT_CACHE_BYTES = 4 << 20  # a table needs ~100 KB of text; captions change every move


@cache
def _data(name: str) -> bytes:
    return resources.files(__package__).joinpath("fonts", name).read_bytes()


@cache
def font(size: int, bold: bool = False) -> Font:
    """The text font at `size` pixels (cached: loading a face costs about a millisecond)."""
    return ImageFont.truetype(io.BytesIO(_data(_FILES[bold])), max(6, size))


@cache
def seal_font(size: int) -> Font:
    """The CJK face, bold: only 紫禁城龍 (the seal and the dragons)."""
    return ImageFont.truetype(io.BytesIO(_data(_SEAL_FILE)), max(6, size))


Mask = tuple[Image.Image, int, int]
_masks: ImageCache[Mask] = ImageCache(TEXT_CACHE_BYTES, lambda m: image_bytes(m[0]))


def _text_mask(text: str, f: Font, anchor: str) -> Mask:
    box = f.getbbox(text, anchor=anchor)
    left, top, right, bottom = (
        math.floor(box[0]),
        math.floor(box[1]),
        math.ceil(box[2]),
        math.ceil(box[3]),
    )
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=f, fill=255, anchor=anchor)
    return mask, left, top


def stamp(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: tuple[int, int, int],
    *,
    bold: bool = False,
    anchor: str = "la",
    seal: bool = False,
) -> None:
    """Draw `text` like `ImageDraw.text`, from a cache of rendered masks.

    Labels, numbers and names repeat on every image; rendering each glyph run once makes text
    cost a paste instead of a FreeType call. The cache is keyed on the text as drawn, so
    languages never mix. `seal` picks the CJK face.
    """
    f = seal_font(size) if seal else font(size, bold)
    key = (text, size, bold, anchor, seal)
    mask, left, top = _masks.get(key, lambda: _text_mask(text, f, anchor))
    image.paste(fill, (round(xy[0]) + left, round(xy[1]) + top), mask)
