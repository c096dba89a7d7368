"""PNG encoding of the table pictures: mapped to a fixed palette, deflated by ISA-L.

Deflating is most of a picture's cost, and Pillow's encoder can only use the system's zlib:
a late 1278x1512 table took 7-8 ms at zlib level 3 (6.6 ms at level 1) on the development
machine, where ISA-L's level 1 takes 1.2 ms for a file 5 % larger. So the rows Pillow mapped
to the palette are framed here (no filter: a palette picture gains nothing from one) and
written as the four chunks a palette PNG needs.

A banded encoder that deflated again only the rows a move changed, with a per-process cache of
bands, was measured and taken out: a table's bands stay cached only while a process holds few
tables (at 1,000 tables a process they were evicted before the table's next move), a cold band
cost more than Pillow's whole encode, and the cache added 16 MB that filled for ten minutes
after a start.
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


def indexed_png(indexed: Image.Image) -> bytes:
    """A P-mode picture as an 8-bit palette PNG, its whole palette written."""
    if indexed.mode != "P":
        raise ValueError(f"a palette picture is needed, not {indexed.mode}")
    width, height = indexed.size
    framed = Image.new("P", (width + 1, height), 0)  # each row after its filter byte: none
    framed.paste(indexed, (1, 0))
    colours = bytes(indexed.getpalette() or [])
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8 bits, palette colour
    return b"".join(
        (
            SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", colours),
            _chunk(b"IDAT", isal_zlib.compress(framed.tobytes(), LEVEL)),
            _chunk(b"IEND", b""),
        )
    )


def encode(image: Image.Image, palette: Image.Image) -> bytes:
    """A picture as PNG: an RGB one mapped to the fixed `palette` first (nearest colour, no
    dither), one drawn on a palette canvas (`paint.canvas`) as it is."""
    if image.mode == "P":
        return indexed_png(image)
    return indexed_png(image.quantize(palette=palette, dither=Image.Dither.NONE))
