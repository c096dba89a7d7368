"""What a move did, told in plain data for the chat and the renderer.

Events carry seat colours, never seat numbers, and nothing hidden: a drawn tile is not an
event, it shows only in its owner's view.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal


@dataclass(frozen=True, slots=True)
class TilePlaced:
    seat: str
    x: int
    y: int
    code: str  # as it now lies on the table
    rotation: int
    kind: Literal["placed"] = "placed"


@dataclass(frozen=True, slots=True)
class TileDiscarded:
    """A tile with no legal place, shown to all and set aside (docs/rules-notes.md)."""

    seat: str
    code: str
    kind: Literal["discarded"] = "discarded"


@dataclass(frozen=True, slots=True)
class AdjacentRoom:
    colour: str  # green, pink, white or temple
    tiles: int
    dragons: int


@dataclass(frozen=True, slots=True)
class RoomClosed:
    by: str
    colour: str
    tiles: int
    dragons: int
    value: int
    cells: list[tuple[int, int, int]]  # x, y, part index on that tile
    adjacent: list[AdjacentRoom]
    advisors: dict[str, int]
    paid: dict[str, int]
    kind: Literal["closed"] = "closed"


@dataclass(frozen=True, slots=True)
class GameEnded:
    revealed: dict[str, list[str]]
    bonus: dict[str, int]
    coins: dict[str, int]
    winners: list[str]
    kind: Literal["ended"] = "ended"


@dataclass(frozen=True, slots=True)
class MoveResult:
    """Everything one move did, in order."""

    seat: str
    events: list[TilePlaced | TileDiscarded | RoomClosed | GameEnded] = field(default_factory=list)

    @property
    def closed(self) -> list[RoomClosed]:
        return [e for e in self.events if isinstance(e, RoomClosed)]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
