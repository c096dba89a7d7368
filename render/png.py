"""PNG encoding of palette images that deflates again only the rows a move changed.

A move changes a few tiles and a header line; deflating the whole picture again cost a third of
a move's CPU. Here the rows are cut into bands, each deflated on its own and ended with a full
flush, so a band's compressed bytes do not depend on the bands before it and can be joined to
any others into one valid zlib stream. Bands are cached by their content (never by table or
seat): an unchanged band of any earlier picture, of any table, is reused as it is. The cache is
per process and bounded in bytes, so a process that restarts only deflates everything once.
"""

from __future__ import annotations

import struct
import zlib
from functools import partial
from typing import Final

from PIL import Image

from .memo import ImageCache

BAND_ROWS: Final = 32  # a tile is 40-96 pixels high: a move touches a few bands
LEVEL: Final = 3  # zlib level: as fast as 1 on these flat images and a third smaller
SIGNATURE: Final = b"\x89PNG\r\n\x1a\n"
ZLIB_HEADER: Final = b"\x78\x5e"  # deflate, 32 KB window, level 2-5 (the header only informs)
LAST_BLOCK: Final = b"\x03\x00"  # an empty final fixed-Huffman block

# Keyed by content: (row width, band bytes, CRC-32, Adler-32) of the band's pixels, 64 bits of
# checksum over a band whose size is also in the key. Each entry holds the band deflated and the
# Adler-32 of its filtered rows, which the stream's own checksum is combined from.
_bands: ImageCache[tuple[bytes, int]] = ImageCache(16 * 1024 * 1024, lambda band: len(band[0]))
ADLER_BASE: Final = 65521


def _chunk(kind: bytes, data: bytes) -> bytes:
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))


def _band(pixels: memoryview, stride: int) -> tuple[bytes, int]:
    """The band's rows, each after its filter byte 0 (none: flat palette images gain nothing
    from the others), deflated as a self-contained run of blocks that a next band may follow,
    and their Adler-32."""
    raw = b"".join(b"\x00" + pixels[at : at + stride] for at in range(0, len(pixels), stride))
    compressor = zlib.compressobj(LEVEL, zlib.DEFLATED, -15)
    return compressor.compress(raw) + compressor.flush(zlib.Z_FULL_FLUSH), zlib.adler32(raw)


def adler32_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of two byte strings joined, from theirs (zlib's `adler32_combine`)."""
    rem = second_length % ADLER_BASE
    sum1 = first & 0xFFFF
    sum2 = (rem * sum1) % ADLER_BASE
    sum1 += (second & 0xFFFF) + ADLER_BASE - 1
    sum2 += (first >> 16) + (second >> 16) + ADLER_BASE - rem
    return (sum1 % ADLER_BASE) | ((sum2 % ADLER_BASE) << 16)


def pixels(indexed: Image.Image) -> bytes:
    """The image's bytes in one pass of Pillow's raw encoder, with a buffer the image's size:
    `tobytes` asks it for 64 KB at a time, five times slower on a table picture."""
    width, height = indexed.size
    encoder = Image._getencoder(indexed.mode, "raw", indexed.mode)
    try:
        encoder.setimage(indexed.im, (0, 0, width, height))
        _, finished, data = encoder.encode(width * height + 1)
    finally:
        encoder.cleanup()
    return data if finished == 1 and len(data) == width * height else indexed.tobytes()


def png_bytes(indexed: Image.Image) -> bytes:
    """`indexed` (mode P) as PNG bytes: 8-bit palette colour, no filter, its whole palette."""
    if indexed.mode != "P":
        raise ValueError(f"a palette image is needed, not {indexed.mode}")
    width, height = indexed.size
    rows = memoryview(pixels(indexed))
    palette = bytes((indexed.getpalette() or [0, 0, 0])[: 3 * 256])
    parts = [ZLIB_HEADER]
    adler = 1
    for top in range(0, height, BAND_ROWS):
        band = rows[top * width : min(height, top + BAND_ROWS) * width]
        key = (width, len(band), zlib.crc32(band), zlib.adler32(band))
        deflated, band_adler = _bands.get(key, partial(_band, band, width))
        parts.append(deflated)
        adler = adler32_combine(adler, band_adler, len(band) + len(band) // width)
    parts += [LAST_BLOCK, struct.pack(">I", adler)]
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join(
        (
            SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", palette),
            _chunk(b"IDAT", b"".join(parts)),
            _chunk(b"IEND", b""),
        )
    )


def encode(image: Image.Image, palette: Image.Image) -> bytes:
    """An RGB picture mapped to the fixed `palette` (nearest colour, no dither), as PNG."""
    return png_bytes(image.quantize(palette=palette, dither=Image.Dither.NONE))


def cached_bytes() -> int:
    """Bytes the band cache holds now (for memory figures)."""
    return _bands.total
