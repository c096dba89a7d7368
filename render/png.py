"""PNG encoding of the table pictures: mapped to a fixed palette, deflated by ISA-L.

Deflating is most of a picture's cost, and Pillow's encoder deflates with the zlib it loads:
the system's (1.2.13 here, though Pillow reports being built for zlib-ng), 9-13 ms for a
table at level 1 where ISA-L takes 0.7-1.4 ms. So the rows of the palette picture are framed
here (no filter: a palette picture gains nothing from one), deflated by ISA-L and written as
the four chunks a palette PNG needs.

The rows come from `Image.tobytes` of a frame one column wider than the picture, whose last
column stays 0: row after row it holds each row's pixels then a 0, so one 0 first, then all of
it but its last byte, is the stream PNG wants (each row after its filter byte).

ISA-L's output is not repeatable byte for byte: now and then one picture, encoded twice, comes
out with another of two equal back-references (found once in some 100,000 encodes of the test
suite; the pixels and the PNG's size were the same). So two PNGs are compared by the pictures
they show, never by their bytes; nothing in the bot compares a PNG's bytes.

The figures behind these choices are in docs/operations.md ("The PNG encoder").
"""

from __future__ import annotations

import struct
import zlib
from typing import Final

from isal import isal_zlib
from PIL import Image

LEVEL: Final = 1  # ISA-L's levels are 0-3: 1 is as fast as 0 and a sixth smaller; 3 is 4x slower
SIGNATURE: Final = b"\x89PNG\r\n\x1a\n"


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _deflated_rows(indexed: Image.Image) -> bytes:
    """The picture's rows, each after its filter byte (0: none), deflated."""
    width, height = indexed.size
    framed = Image.new("P", (width + 1, height), 0)  # a last column of 0s
    framed.paste(indexed, (0, 0))
    pixels = memoryview(framed.tobytes())
    deflate = isal_zlib.compressobj(LEVEL)
    return deflate.compress(b"\0") + deflate.compress(pixels[:-1]) + deflate.flush()


def indexed_png(indexed: Image.Image) -> bytes:
    """A P-mode picture as an 8-bit palette PNG, its whole palette written."""
    if indexed.mode != "P":
        raise ValueError(f"a palette picture is needed, not {indexed.mode}")
    width, height = indexed.size
    colours = bytes(indexed.getpalette() or [])
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8 bits, palette colour
    return b"".join(
        (
            SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", colours),
            _chunk(b"IDAT", _deflated_rows(indexed)),
            _chunk(b"IEND", b""),
        )
    )


def encode(image: Image.Image, palette: Image.Image) -> bytes:
    """A picture as PNG: an RGB one mapped to the fixed `palette` first (nearest colour, no
    dither), one drawn on a palette canvas (`paint.canvas`) as it is."""
    if image.mode == "P":
        return indexed_png(image)
    return indexed_png(image.quantize(palette=palette, dither=Image.Dither.NONE))
