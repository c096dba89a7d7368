"""The banded PNG encoder: any decoder reads back the exact pixels and palette, the zlib stream's
checksum is right, and a picture that changed in one band deflates only that band again."""

from __future__ import annotations

import io
import random
import struct
import zlib

import pytest
from PIL import Image

from render import png


def noise(width: int, height: int, seed: int) -> Image.Image:
    rng = random.Random(seed)
    image = Image.frombytes("P", (width, height), rng.randbytes(width * height))
    image.putpalette([rng.randrange(256) for _ in range(768)])
    return image


def chunks(data: bytes) -> dict[bytes, bytes]:
    """Each chunk's data by type (IDAT joined), checking every CRC on the way."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    found: dict[bytes, bytes] = {}
    at = 8
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length : at + 12 + length])
        assert crc == zlib.crc32(kind + body), kind
        found[kind] = found.get(kind, b"") + body
        at += 12 + length
    return found


@pytest.mark.parametrize(("width", "height"), [(1, 1), (7, 31), (64, 32), (301, 97), (640, 65)])
def test_a_decoder_reads_back_the_exact_pixels_and_palette(width: int, height: int) -> None:
    image = noise(width, height, width * height)
    data = png.png_bytes(image)
    back = Image.open(io.BytesIO(data))
    back.load()
    assert (back.mode, back.size) == ("P", (width, height))
    assert back.tobytes() == image.tobytes()
    assert back.getpalette() == image.getpalette()
    # zlib checks the stream's Adler-32 itself: a wrong one raises here.
    raw = zlib.decompress(chunks(data)[b"IDAT"])
    assert raw == b"".join(
        b"\x00" + image.tobytes()[y * width : (y + 1) * width] for y in range(height)
    )


def test_a_picture_changed_in_one_band_deflates_only_that_band_again() -> None:
    png._bands.clear()
    first = noise(200, 5 * png.BAND_ROWS + 3, 1)
    png.png_bytes(first)
    assert len(png._bands) == 6
    second = first.copy()
    spot = (150, 2 * png.BAND_ROWS + 5)
    second.putpixel(spot, (first.tobytes()[spot[1] * 200 + spot[0]] + 1) % 256)
    data = png.png_bytes(second)
    assert len(png._bands) == 7
    back = Image.open(io.BytesIO(data))
    back.load()
    assert back.tobytes() == second.tobytes()
    assert zlib.decompress(chunks(data)[b"IDAT"])  # its checksum, from the cached bands, holds


def test_the_cache_keeps_to_its_byte_budget() -> None:
    png._bands.clear()
    for seed in range(40):
        png.png_bytes(noise(1000, 4 * png.BAND_ROWS, seed))  # 160 bands of about 32 KB each
    assert 0 < png.cached_bytes() <= png._bands.budget


def test_adler32_is_combined_as_zlib_computes_it_over_the_whole() -> None:
    rng = random.Random(5)
    for length in (0, 1, 65520, 65521, 65522, 200_000):
        a, b = rng.randbytes(rng.randrange(1000)), rng.randbytes(length)
        assert png.adler32_combine(zlib.adler32(a), zlib.adler32(b), len(b)) == zlib.adler32(a + b)


def test_only_palette_images_are_taken() -> None:
    with pytest.raises(ValueError, match="palette image"):
        png.png_bytes(Image.new("RGB", (4, 4)))
