"""PNG encoding of the table pictures: mapped to a fixed palette, deflated by Pillow.

A banded encoder that deflated again only the rows a move changed, with a per-process cache of
bands, was measured and taken out: a table's bands stay cached only while a process holds few
tables (at 1,000 tables a process they were evicted before the table's next move), a cold band
costs more than Pillow's whole encode (7.4 ms against 6.5 ms for a late 900x1432 table
picture), and the cache added 16 MB that filled for ten minutes after a start.
"""

from __future__ import annotations

import io
from typing import Final

from PIL import Image

LEVEL: Final = 3  # zlib level: as fast as 1 on these flat pictures, and a third smaller


def encode(image: Image.Image, palette: Image.Image) -> bytes:
    """An RGB picture mapped to the fixed `palette` (nearest colour, no dither), as PNG."""
    indexed = image.quantize(palette=palette, dither=Image.Dither.NONE)
    out = io.BytesIO()
    indexed.save(out, "PNG", compress_level=LEVEL)
    return out.getvalue()
