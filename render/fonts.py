"""The fonts shipped with the package (a Noto Sans CJK SC subset, OFL: fonts/OFL.txt).

System fonts differ from host to host and rarely carry 禁; shipping a small subset keeps every
image identical everywhere. Loaded once per size.
"""

from __future__ import annotations

import io
import math
from functools import cache, lru_cache
from importlib import resources

from PIL import Image, ImageDraw, ImageFont

Font = ImageFont.FreeTypeFont

_FILES = {False: "NotoSansSC-Regular-subset.otf", True: "NotoSansSC-Bold-subset.otf"}


@cache
def _data(bold: bool) -> bytes:
    return resources.files(__package__).joinpath("fonts", _FILES[bold]).read_bytes()


@cache
def font(size: int, bold: bool = False) -> Font:
    """The shipped font at `size` pixels (cached: loading a face costs about a millisecond)."""
    return ImageFont.truetype(io.BytesIO(_data(bold)), max(6, size))


@lru_cache(maxsize=4096)
def _text_mask(text: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int]:
    f = font(size, bold)
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
) -> None:
    """Draw `text` like `ImageDraw.text`, from a cache of rendered masks.

    Labels, numbers and names repeat on every image; rendering each glyph run once makes text
    cost a paste instead of a FreeType call.
    """
    mask, left, top = _text_mask(text, size, bold, anchor)
    image.paste(fill, (round(xy[0]) + left, round(xy[1]) + top), mask)
