"""Reading rendered PNGs back, for the pixel probes of the image tests."""

from __future__ import annotations

import io

from PIL import Image

RGB = tuple[int, int, int]
Picture = tuple[tuple[int, int], bytes]  # a picture's size and its pixels' colours (RGB)


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    return image.convert("RGB")


def picture(png: bytes) -> Picture:
    """What a PNG shows, to compare two pictures: their bytes may differ where the pictures do
    not, since the deflate of a table's PNG (ISA-L) may pick another of two equal matches."""
    image = decode(png)
    return image.size, image.tobytes()


def pictures(pngs: list[bytes | None]) -> list[Picture | None]:
    """`picture` of each PNG of a list of messages' images (None: a message without one)."""
    return [None if png is None else picture(png) for png in pngs]


def pixel(image: Image.Image, x: float, y: float) -> RGB:
    value = image.getpixel((round(x), round(y)))
    assert isinstance(value, tuple)
    return (value[0], value[1], value[2])


def near(a: RGB, b: RGB, tolerance: int = 6) -> bool:
    return all(abs(p - q) <= tolerance for p, q in zip(a, b, strict=True))
