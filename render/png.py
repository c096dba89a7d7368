"""PNG encoding of the table pictures: mapped to a fixed palette, deflated by ISA-L.

Deflating is most of a picture's cost, and Pillow's encoder can only use the system's zlib,
several times slower than ISA-L: so the rows of the palette picture are framed here (no filter:
a palette picture gains nothing from one), deflated by ISA-L and written as the four chunks a
palette PNG needs.

The rows are read where Pillow holds them, not copied out by `Image.tobytes`: the picture is
pasted into a frame one column wider, whose last column stays 0, and the frame's memory is read
through the Arrow C data interface Pillow exports (`_pixels`, a stable ABI): row after row it
holds each row's pixels then a 0, so one 0 first, then all of it but its last byte, is the
stream PNG wants (each row after its filter byte). A frame Pillow cannot export as one buffer
(over its 16 MB block) is copied by `tobytes`.

ISA-L's output is not repeatable byte for byte: now and then one picture, encoded twice, comes
out with another of two equal back-references (found once in some 100,000 encodes of the test
suite; the pixels and the PNG's size were the same). So two PNGs are compared by the pictures
they show, never by their bytes; nothing in the bot compares a PNG's bytes.

What these two choices saved, and an encoder by bands that was measured and taken out, are in
docs/operations.md ("The PNG encoder").
"""

from __future__ import annotations

import ctypes
import struct
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

from isal import isal_zlib
from PIL import Image

LEVEL: Final = 1  # ISA-L's levels are 0-3: 1 is as fast as 0 and a sixth smaller; 3 is 4x slower
SIGNATURE: Final = b"\x89PNG\r\n\x1a\n"


class _ArrowArray(ctypes.Structure):
    """`struct ArrowArray` of the Arrow C data interface."""


_ArrowArray._fields_ = [
    ("length", ctypes.c_int64),
    ("null_count", ctypes.c_int64),
    ("offset", ctypes.c_int64),
    ("n_buffers", ctypes.c_int64),
    ("n_children", ctypes.c_int64),
    ("buffers", ctypes.POINTER(ctypes.c_void_p)),
    ("children", ctypes.c_void_p),
    ("dictionary", ctypes.c_void_p),
    ("release", ctypes.c_void_p),
    ("private_data", ctypes.c_void_p),
]
_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = ctypes.c_void_p
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
# A read-only memoryview of bytes at an address: no ctypes array type is made for each
# picture's size (`c_char * size` made one, 7 µs, each a garbage cycle until a full collection).
_memory_view = ctypes.pythonapi.PyMemoryView_FromMemory
_memory_view.restype = ctypes.py_object
_memory_view.argtypes = [ctypes.c_void_p, ctypes.c_ssize_t, ctypes.c_int]
_READ: Final = 0x100  # PyBUF_READ


@contextmanager
def _pixels(image: Image.Image) -> Iterator[memoryview]:
    """The bytes of a one-band picture, row after row, where Pillow holds them (not copied),
    valid inside the block only; a copy if Pillow keeps them in more than one block."""
    size = image.width * image.height
    try:
        capsules = image.__arrow_c_array__()
    except ValueError:  # not one block
        yield memoryview(image.tobytes())
        return
    array = _ArrowArray.from_address(_capsule_pointer(capsules[1], b"arrow_array"))
    if array.length != size or array.offset != 0 or array.n_buffers != 2:
        yield memoryview(image.tobytes())
        return
    view: memoryview = _memory_view(array.buffers[1], size, _READ)
    yield view
    del capsules  # released (by Pillow's capsule destructor) only after the bytes are read


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _deflated_rows(indexed: Image.Image) -> bytes:
    """The picture's rows, each after its filter byte (0: none), deflated."""
    width, height = indexed.size
    framed = Image.new("P", (width + 1, height), 0)  # a last column of 0s
    framed.paste(indexed, (0, 0))
    deflate = isal_zlib.compressobj(LEVEL)
    with _pixels(framed) as pixels:
        data = deflate.compress(b"\0") + deflate.compress(pixels[:-1])
    return data + deflate.flush()


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
