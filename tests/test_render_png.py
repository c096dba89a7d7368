"""The table pictures' PNG encoding: any decoder reads back a palette picture whose every pixel is
the palette colour nearest the drawn one."""

from __future__ import annotations

import io
import random
import struct
import zlib

import pytest
from PIL import Image

from render import png
from render.__main__ import late_game
from render.forbidden_city import table_image

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


def _chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    """The file's chunks, each CRC checked, read without Pillow."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    found, at = [], 8
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length : at + 12 + length])
        assert crc == zlib.crc32(kind + body), kind
        found.append((kind, body))
        at += 12 + length
    return found


def test_the_file_is_a_well_formed_palette_png_that_zlib_inflates() -> None:
    """Checked by hand, not by Pillow alone: chunk order and CRCs, an 8-bit palette header,
    and IDAT data that the standard zlib inflates into unfiltered rows of the right indices."""
    palette = Image.new("P", (1, 1))
    palette.putpalette([c for colour in GRID for c in colour])
    drawn = Image.new("RGB", (37, 5), GRID[3])
    drawn.paste(GRID[200], (10, 1, 20, 4))
    data = png.encode(drawn, palette)
    chunks = _chunks(data)
    assert [kind for kind, _ in chunks] == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
    assert struct.unpack(">IIBBBBB", chunks[0][1]) == (37, 5, 8, 3, 0, 0, 0)
    assert chunks[1][1][3 * 200 : 3 * 201] == bytes(GRID[200])
    rows = zlib.decompress(chunks[2][1])
    assert len(rows) == 5 * 38
    for y in range(5):
        row = rows[y * 38 : (y + 1) * 38]
        assert row[0] == 0  # no filter
        expected = [200 if 1 <= y < 4 and 10 <= x < 20 else 3 for x in range(37)]
        assert list(row[1:]) == expected
    Image.open(io.BytesIO(data)).verify()


def test_a_picture_pillow_keeps_in_several_blocks_is_encoded_all_the_same() -> None:
    """Over Pillow's 16 MB block, a picture's rows are not one buffer: the file is the same
    picture all the same."""
    palette = Image.new("P", (1, 1))
    palette.putpalette([c for colour in GRID for c in colour])
    drawn = Image.new("P", (4500, 4000), 3)
    drawn.putpalette(palette.getpalette() or [])
    drawn.paste(200, (4490, 3990, 4500, 4000))
    drawn.paste(17, (0, 0, 3, 2))
    back = Image.open(io.BytesIO(png.indexed_png(drawn)))
    assert back.size == (4500, 4000)
    assert back.getpixel((4499, 3999)) == 200 and back.getpixel((4489, 3999)) == 3
    assert back.getpixel((0, 0)) == 17 and back.getpixel((3, 0)) == 3
    assert back.getpixel((0, 2)) == 3


def test_a_table_shows_the_same_picture_as_pillows_own_png_of_it() -> None:
    """The hand encoder is kept for its speed alone (docs/operations.md, "The PNG encoder"):
    a drawn table, decoded, has the indices and the palette Pillow's own PNG of it has."""
    drawn = table_image(late_game().view(None))
    ours = Image.open(io.BytesIO(png.indexed_png(drawn)))
    theirs_file = io.BytesIO()
    drawn.save(theirs_file, format="PNG", compress_level=1)
    theirs = Image.open(theirs_file)
    assert ours.tobytes() == theirs.tobytes() == drawn.tobytes()
    assert ours.getpalette() == theirs.getpalette() == drawn.getpalette()
