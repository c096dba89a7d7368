"""Reading rendered PNGs back, for the pixel probes of the image tests."""

from __future__ import annotations

import io

from PIL import Image

RGB = tuple[int, int, int]


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    return image.convert("RGB")


def pixel(image: Image.Image, x: float, y: float) -> RGB:
    value = image.getpixel((round(x), round(y)))
    assert isinstance(value, tuple)
    return (value[0], value[1], value[2])


def near(a: RGB, b: RGB, tolerance: int = 6) -> bool:
    return all(abs(p - q) <= tolerance for p, q in zip(a, b, strict=True))
