"""Tile art: one cell of the table drawn as it looks on the real table, cached by value. Its
shapes are the web page's too (`art`): this paints them, `svg` writes them.

A game only ever shows a few hundred distinct (code, owner, size) cells, so each is drawn once,
supersampled for smooth edges, and then only pasted: this is what keeps a whole table under a
few milliseconds to compose. The cache is bounded by bytes (`ART_CACHE_BYTES`): the cells of
every table a process serves share it, and a miss costs a third of a millisecond.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image

from .. import paint, shapes
from ..memo import ImageCache, image_bytes
from . import art
from . import palette as pal

SUPERSAMPLE = 4
# Tile art is cached mapped to the palette (1 byte a pixel). The tables a process serves draw
# from one deck, at four cell sizes, owned and hatched in many ways: 200 tables' moves asked
# for about 23 MB of cells. With 8 MB, 1 ask in 8 missed and redrew its cell (3.4 ms a move);
# with 32 MB, 1 in 80.
ART_CACHE_BYTES = 32 << 20


def wall_width(size: int) -> int:
    """Wall thickness in final pixels: bold enough to read on a phone, at least 2 px."""
    return max(2, round(size * 0.09))


@lru_cache(maxsize=64)
def marker_icon(seat: str, size: int) -> Image.Image:
    """A seat's marker as an RGBA icon `size` pixels square, for headers and badges."""
    k = SUPERSAMPLE
    image = Image.new("RGBA", (size * k, size * k), (0, 0, 0, 0))
    s = size * k
    shapes.draw(image, art.marker(seat, s / 2, s / 2, s * 0.36, s * 0.08))
    return image.resize((size, size), Image.Resampling.LANCZOS)


_art: ImageCache[Image.Image] = ImageCache(ART_CACHE_BYTES, image_bytes, "tile art")


def cell_art(
    kind: str,
    code: str,
    seat: str | None,
    size: int,
    lit: tuple[int, ...] = (),
    done: tuple[int, ...] = (),
    *,
    mode: str = "P",
) -> Image.Image:
    """One cell, `size` pixels square, from the cache (callers must not draw on it), for a
    canvas of `mode` (the canvas's own: `paint.for_mode`): drawn in RGB, and for a palette
    canvas mapped to the fixed palette once, when first asked for.

    kind is the board's: "tile" or "start" (code: the oriented tile code), "temple" or
    "garden" (code: the edges). `seat` colours the advisors; `lit` lists the parts (or [0] for
    the temple) to hatch as just closed, `done` those of rooms closed before.
    """
    key = (kind, code, seat, size, lit, done, mode)

    def draw() -> Image.Image:
        drawn = _draw_cell(kind, code, seat, size, lit, done)
        return paint.for_mode(drawn, mode, pal.palette_image())

    return _art.get(key, draw)


def _draw_cell(
    kind: str, code: str, seat: str | None, size: int, lit: tuple[int, ...], done: tuple[int, ...]
) -> Image.Image:
    k = SUPERSAMPLE
    s = size * k
    image = Image.new("RGB", (s, s), pal.TABLE)
    shapes.draw(image, art.cell(kind, code, seat, lit, done, s, wall_width(size) * k, max(1, k)))
    return image.reduce(k)
