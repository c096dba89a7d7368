"""Every colour the Verbotene Stadt images use.

Officials wear the five colours of the spec's letters; pavilions and their cards take the colour
names of `engine/verbotene_stadt/data/pavilions.json`, painted with `CLOTH` below (a colour name
the box may use that is missing here falls back to grey, and a test says so).
"""

from __future__ import annotations

from functools import cache
from typing import Final

from PIL import Image

RGB = tuple[int, int, int]

BACKGROUND: Final[RGB] = (38, 44, 52)
PANEL: Final[RGB] = (50, 58, 68)
TEXT: Final[RGB] = (236, 236, 230)
MUTED: Final[RGB] = (160, 168, 176)

FLOOR: Final[RGB] = (228, 216, 188)
FLOOR_LINE: Final[RGB] = (206, 192, 160)
START: Final[RGB] = (246, 214, 110)  # the yellow start squares
GREY: Final[RGB] = (190, 184, 150)  # the grey/yellow squares beside them
ROOF: Final[RGB] = (142, 52, 38)
ROOF_LINE: Final[RGB] = (112, 36, 26)
WALL: Final[RGB] = (58, 36, 28)
DOOR: Final[RGB] = (212, 170, 90)  # a pavilion's door, a gap in its wall
OPEN: Final[RGB] = (255, 196, 0)  # the ring round the open pavilion
PATH: Final[RGB] = (0, 150, 255)  # the last move's path
BRIBE: Final[RGB] = (255, 64, 160)  # the ring round a seat's own bribe

# The officials' hat and robe colours, by the spec's letters.
OFFICIAL: Final[dict[str, RGB]] = {
    "R": (206, 40, 40),
    "Y": (246, 206, 40),
    "B": (40, 96, 206),
    "G": (36, 150, 72),
    "K": (28, 28, 28),
}

# Pavilion and clothing colours, by name.
CLOTH: Final[dict[str, RGB]] = {
    "red": (214, 48, 44),
    "yellow": (240, 200, 40),
    "blue": (44, 100, 210),
    "orange": (240, 132, 32),
    "purple": (136, 64, 172),
    "white": (244, 244, 240),
    "green": (40, 150, 70),
    "black": (30, 30, 30),
    "pink": (240, 150, 190),
    "brown": (130, 84, 48),
    "grey": (150, 150, 150),
}

BLUE_DIE: Final[RGB] = (30, 80, 190)

# Fate die faces.
FACE: Final[dict[str, RGB]] = {
    "black": (24, 24, 24),
    "red": (206, 40, 40),
    "dragon": (206, 40, 40),
    "pavilion": (206, 40, 40),
}


def cloth(name: str) -> RGB:
    return CLOTH.get(name, CLOTH["grey"])


def ink_on(colour: RGB) -> RGB:
    """Black or white, whichever reads better on `colour`."""
    r, g, b = colour
    return (20, 20, 20) if 0.299 * r + 0.587 * g + 0.114 * b > 140 else (250, 250, 250)


def _flat() -> list[RGB]:
    named = [BACKGROUND, PANEL, TEXT, MUTED, FLOOR, FLOOR_LINE, START, GREY, ROOF, ROOF_LINE]
    named += [WALL, DOOR, OPEN, PATH, BRIBE, BLUE_DIE, *OFFICIAL.values(), *CLOTH.values()]
    named += [light(c) for c in CLOTH.values()]
    return list(dict.fromkeys(named))


def light(colour: RGB) -> RGB:
    """A pavilion's floor: its colour, two thirds of the way to white."""
    r, g, b = colour
    return (r + 510) // 3, (g + 510) // 3, (b + 510) // 3


@cache
def palette_image() -> Image.Image:
    """A fixed palette: every flat colour and two blend steps toward black and white (the
    anti-aliased edges of shapes and text), so mapping a picture costs no colour search."""
    flat = _flat()
    colours = list(flat)
    for ink in ((20, 20, 20), (250, 250, 250)):
        for colour in flat:
            for k in (1, 2):
                r, g, b = ((c * (3 - k) + i * k) // 3 for c, i in zip(colour, ink, strict=True))
                colours.append((r, g, b))
    colours = list(dict.fromkeys(colours))[:256]
    image = Image.new("P", (1, 1))
    image.putpalette(bytes(c for colour in colours for c in colour))  # bytes: a cache key
    return image
