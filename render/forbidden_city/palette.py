"""Every colour the images use, seat marker shapes, and the fixed PNG palette built from them.

One fixed palette lets a finished RGB picture be mapped to 8-bit colour in a few milliseconds
(no per-image colour search) and keeps PNGs small; it holds every flat colour below plus blend
steps between the pairs that meet at anti-aliased edges and text.
"""

from __future__ import annotations

from functools import cache
from typing import Final

from PIL import Image

from ..colours import mix

RGB = tuple[int, int, int]

# Table
TABLE: Final[RGB] = (44, 56, 62)  # the table cloth behind the tiles
GRID: Final[RGB] = (58, 73, 80)  # faint lines between empty cells
LABEL: Final[RGB] = (196, 206, 210)  # coordinate labels

# Floors, by tile colour letter, their seam (tile border) shades, and the temple and gardens
FLOOR: Final[dict[str, RGB]] = {"G": (132, 186, 110), "P": (240, 166, 182), "W": (247, 242, 228)}
SEAM: Final[dict[str, RGB]] = {"G": (104, 156, 86), "P": (208, 134, 150), "W": (206, 198, 180)}
TEMPLE_FLOOR: Final[RGB] = (178, 174, 166)
TEMPLE_ROOF: Final[RGB] = (36, 96, 96)
GARDEN: Final[RGB] = (92, 128, 78)
SHRUB: Final[RGB] = (52, 88, 48)
POND: Final[RGB] = (110, 164, 196)

# Walls and archways
WALL: Final[RGB] = (48, 34, 30)
PILLAR: Final[RGB] = (196, 58, 40)  # the red posts either side of an archway
GOLD: Final[RGB] = (236, 190, 72)

# Seats: colour and marker shape, so colour is never the only cue
SEAT: Final[dict[str, RGB]] = {
    "purple": (142, 68, 173),
    "yellow": (244, 196, 40),
    "red": (214, 52, 44),
    "blue": (44, 110, 216),
}
SHAPE: Final[dict[str, str]] = {
    "purple": "circle",
    "yellow": "square",
    "red": "triangle",
    "blue": "diamond",
}
OUTLINE: Final[RGB] = (24, 20, 20)  # around markers, so yellow shows on a white floor

# Highlights
LAST: Final[RGB] = (0, 229, 255)  # outline of the last placed tile
CLOSED: Final[RGB] = (255, 160, 0)  # hatching over rooms the last move closed
SPOT: Final[RGB] = (255, 255, 255)  # numbered legal spots in the private view
SPOT_RING: Final[RGB] = (0, 229, 255)

# Header and panels
HEADER: Final[RGB] = (30, 36, 40)
TITLE_BAND: Final[RGB] = (150, 36, 30)
ROW_TURN: Final[RGB] = (62, 76, 84)
TEXT: Final[RGB] = (243, 239, 230)
MUTED: Final[RGB] = (160, 170, 174)
INK: Final[RGB] = (28, 24, 22)
BADGE: Final[RGB] = (24, 24, 28)
WHITE: Final[RGB] = (255, 255, 255)

_BASE: Final[list[RGB]] = [
    TABLE, GRID, LABEL, *FLOOR.values(), *SEAM.values(), TEMPLE_FLOOR, TEMPLE_ROOF, GARDEN,
    SHRUB, POND, WALL, PILLAR, GOLD, *SEAT.values(), OUTLINE, LAST, CLOSED, SPOT, HEADER,
    TITLE_BAND, ROW_TURN, TEXT, MUTED, INK, BADGE, WHITE,
]  # fmt: skip

_BACKGROUNDS: Final[list[RGB]] = [
    *FLOOR.values(), TABLE, HEADER, TEMPLE_FLOOR, BADGE, TITLE_BAND, ROW_TURN, GARDEN, SPOT,
]  # fmt: skip
_FOREGROUNDS: Final[list[RGB]] = [
    WALL, OUTLINE, TEXT, *SEAT.values(), LAST, CLOSED, PILLAR, GOLD, LABEL, INK, MUTED,
]  # fmt: skip


@cache
def colours() -> tuple[RGB, ...]:
    """The 256 palette entries: flat colours first, then edge blends, most useful first."""
    found: dict[RGB, None] = dict.fromkeys(_BASE)
    for t in (0.5, 0.25, 0.75):
        for fg in _FOREGROUNDS:
            for bg in _BACKGROUNDS:
                if len(found) < 256:
                    found.setdefault(mix(bg, fg, t))
    while len(found) < 256:  # pad with greys; never reached with today's colours
        level = len(found)
        found.setdefault((level, level, level))
    return tuple(found)[:256]


@cache
def palette_image() -> Image.Image:
    """A 1x1 P-mode image carrying the fixed palette, for `Image.quantize(palette=...)`."""
    image = Image.new("P", (1, 1))
    flat = [channel for colour in colours() for channel in colour]
    image.putpalette(bytes(flat))  # bytes, as copies keep it: a cache key (`paint`)
    return image
