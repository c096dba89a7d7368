"""Moves and their text notation: `x,y@r` places the tile in hand on cell x,y turned r quarter
turns clockwise (r = 0..3); `discard` sets aside a tile that fits nowhere."""

from __future__ import annotations

import re
from typing import NamedTuple

_PLACE = re.compile(r"^\s*(-?\d+)\s*,\s*(-?\d+)\s*@\s*([0-3])\s*$")


class Place(NamedTuple):
    x: int
    y: int
    rotation: int = 0

    def __str__(self) -> str:
        return f"{self.x},{self.y}@{self.rotation}"


class Discard(NamedTuple):
    def __str__(self) -> str:
        return "discard"


Move = Place | Discard
DISCARD = Discard()


class MoveSyntaxError(ValueError):
    """Text that is not a move."""


def parse_move(text: str) -> Move:
    if text.strip().lower() == "discard":
        return DISCARD
    match = _PLACE.match(text)
    if match is None:
        raise MoveSyntaxError(f"not a move: {text!r} (expected x,y@r or discard)")
    return Place(int(match[1]), int(match[2]), int(match[3]))
