"""The numbered legal spots offered to the player to move.

The bot shows these numbers as choices and the private image draws the same numbers, so both
come from this one function: cells in reading order (by y, then x), numbered from 1.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.forbidden_city import Place, parse_move
from engine.forbidden_city.view import SeatView


@dataclass(frozen=True, slots=True)
class Spot:
    """A cell where the tile in hand fits, and the quarter turns (0-3) that fit there."""

    number: int
    x: int
    y: int
    rotations: tuple[int, ...]

    @property
    def moves(self) -> list[str]:
        """The moves in command syntax, `x,y@r`."""
        return [f"{self.x},{self.y}@{r}" for r in self.rotations]


def spots(view: SeatView) -> list[Spot]:
    """Legal spots in the view of the seat to move, numbered 1.. by y then x; [] if it must
    discard, and in every other view."""
    by_cell: dict[tuple[int, int], set[int]] = {}
    for text in view.legal_moves:
        move = parse_move(text)
        if isinstance(move, Place):
            by_cell.setdefault((move.x, move.y), set()).add(move.rotation)
    cells = sorted(by_cell, key=lambda c: (c[1], c[0]))
    return [
        Spot(number, x, y, tuple(sorted(by_cell[(x, y)])))
        for number, (x, y) in enumerate(cells, start=1)
    ]
