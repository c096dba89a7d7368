"""Tile codes: parsing, canonical printing and rotation (shared/specs/forbidden-city-positions.md).

A `Tile` is immutable and hashable so that the board can cache everything derived from it
(rotations, legality against a neighbourhood) by value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

N, E, S, W = 0, 1, 2, 3
SIDES: Final = (N, E, S, W)
SIDE_NAMES: Final = ("north", "east", "south", "west")
DELTAS: Final = ((0, -1), (1, 0), (0, 1), (-1, 0))

OPEN, WALL, ARCH = ".", "#", "a"
COLOURS: Final = {"G": "green", "P": "pink", "W": "white"}

# Which part owns each edge (N, E, S, W) for each kind of split.
_OWNER: Final[dict[str, tuple[int, int, int, int]]] = {
    "": (0, 0, 0, 0),
    "/": (0, 1, 1, 0),  # NW triangle owns N and W; SE triangle owns E and S
    "\\": (0, 0, 1, 1),  # NE triangle owns N and E; SW triangle owns S and W
}

_CODE = re.compile(
    r"^(?P<edges>[.#a]{4})"
    r"(?P<c1>[GPW])(?:(?P<diag>[/\\])(?P<darch>a?)(?P<c2>[GPW]))?"
    r"(?:\+(?:(?P<adv>[1-9])A|(?P<dragon>D))(?P<second>@2)?)?$"
)


class TileCodeError(ValueError):
    """A tile code that does not follow the notation."""


@dataclass(frozen=True, slots=True)
class Tile:
    """One room tile: four edges, one or two coloured parts, and what stands on it."""

    edges: str
    colours: tuple[str, ...]
    diagonal: str = ""
    diagonal_arch: bool = False
    advisors: int = 0
    dragon: bool = False
    content_part: int = 0

    @staticmethod
    def parse(code: str) -> Tile:
        return _parse(code)

    @property
    def code(self) -> str:
        parts = self.colours[0]
        if self.diagonal:
            parts += self.diagonal + ("a" if self.diagonal_arch else "") + self.colours[1]
        content = ""
        if self.advisors or self.dragon:
            content = "+" + (f"{self.advisors}A" if self.advisors else "D")
            if self.content_part == 1:
                content += "@2"
        return self.edges + parts + content

    def __str__(self) -> str:
        return self.code

    @property
    def owners(self) -> tuple[int, int, int, int]:
        """Index of the part that owns each edge, N E S W."""
        return _OWNER[self.diagonal]

    def colour_at(self, side: int) -> str:
        return self.colours[self.owners[side]]

    def rotated(self, quarter_turns: int = 1) -> Tile:
        """This tile turned clockwise by `quarter_turns` quarter turns."""
        return _rotated(self, quarter_turns % 4)


@lru_cache(maxsize=4096)
def _parse(code: str) -> Tile:
    match = _CODE.match(code)
    if match is None:
        raise TileCodeError(f"not a tile code: {code!r}")
    diag = match["diag"] or ""
    second = bool(match["second"])
    if second and not diag:
        raise TileCodeError(f"'@2' needs a diagonal tile: {code!r}")
    colours = (match["c1"], match["c2"]) if diag else (match["c1"],)
    return Tile(
        edges=match["edges"],
        colours=colours,
        diagonal=diag,
        diagonal_arch=bool(match["darch"]),
        advisors=int(match["adv"]) if match["adv"] else 0,
        dragon=bool(match["dragon"]),
        content_part=1 if second else 0,
    )


@lru_cache(maxsize=8192)
def _rotated(tile: Tile, turns: int) -> Tile:
    for _ in range(turns):
        edges = tile.edges[3] + tile.edges[:3]
        colours, part, diagonal = tile.colours, tile.content_part, tile.diagonal
        if diagonal == "/":
            diagonal = "\\"
        elif diagonal == "\\":
            diagonal = "/"
            colours = (colours[1], colours[0])
            part = 1 - part if (tile.advisors or tile.dragon) else 0
        tile = Tile(edges, colours, diagonal, tile.diagonal_arch, tile.advisors, tile.dragon, part)
    return tile


def rotate_code(code: str, quarter_turns: int = 1) -> str:
    """The canonical code of `code` turned clockwise."""
    return Tile.parse(code).rotated(quarter_turns).code


def canonical(code: str) -> str:
    return Tile.parse(code).code


@lru_cache(maxsize=4096)
def distinct_rotations(tile: Tile) -> tuple[int, ...]:
    """Quarter turns that give different oriented tiles (a symmetric tile has fewer than four)."""
    seen: dict[Tile, int] = {}
    for turns in range(4):
        seen.setdefault(tile.rotated(turns), turns)
    return tuple(sorted(seen.values()))
