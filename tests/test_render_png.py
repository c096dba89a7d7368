"""The table pictures' PNG encoding: any decoder reads back a palette picture whose every pixel is
the palette colour nearest the drawn one."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from render import png

# 256 colours on a grid 32 apart: a pixel a few steps off one of them is nearest to it alone.
GRID = [((i % 8) * 32 + 16, (i // 8 % 8) * 32 + 16, (i // 64) * 64 + 32) for i in range(256)]


@pytest.mark.parametrize(("width", "height"), [(1, 1), (7, 31), (301, 97), (640, 65)])
def test_a_decoder_reads_back_each_pixel_as_its_nearest_palette_colour(
    width: int, height: int
) -> None:
    palette = Image.new("P", (1, 1))
    palette.putpalette([c for colour in GRID for c in colour])
    rng = random.Random(width * height)
    chosen = [GRID[rng.randrange(256)] for _ in range(width * height)]
    drawn = Image.new("RGB", (width, height))
    drawn.putdata([tuple(c + rng.randint(-5, 5) for c in colour) for colour in chosen])
    back = Image.open(io.BytesIO(png.encode(drawn, palette)))
    assert back.format == "PNG" and back.mode == "P" and back.size == (width, height)
    assert list(back.convert("RGB").get_flattened_data()) == chosen


def test_a_table_picture_stays_small() -> None:
    """Flat pictures deflate well: a 900x1432 picture of 40 flat blocks is a few KB."""
    palette = Image.new("P", (1, 1))
    palette.putpalette([c for colour in GRID for c in colour])
    drawn = Image.new("RGB", (900, 1432), GRID[0])
    for i in range(40):
        drawn.paste(GRID[i * 6], (i * 20, i * 30, i * 20 + 100, i * 30 + 100))
    assert len(png.encode(drawn, palette)) < 20_000
