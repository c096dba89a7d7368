"""The tile game's buttons (none shared with the other game or the lobby), each carrying the
move count it was made for so a stale one is refused:

    pg  a page of the spot menu (payload: the page, from 0)
    sp  a spot of the menu: its rotations (payload: the spot's number)
    pv  a preview of the tile at a cell, turned (payload `x,y@rotation`)
    ok  *Place it here*: plays the previewed tile (same payload)
"""

from __future__ import annotations

import re
from typing import Final, NamedTuple

from ...exchange.buttons import Codec, number_codec

_CELL: Final = re.compile(r"^(-?[0-9]{1,6}),(-?[0-9]{1,6})@([0-3])\Z")


class Cell(NamedTuple):
    """Where the tile goes and how it is turned (quarter turns)."""

    x: int
    y: int
    rotation: int


def _write(cell: Cell) -> str:
    return f"{cell.x},{cell.y}@{cell.rotation}"


def _read(payload: str) -> Cell | None:
    found = _CELL.match(payload)
    return None if found is None else Cell(int(found[1]), int(found[2]), int(found[3]))


PAGE: Final = number_codec("pg")
SPOT: Final = number_codec("sp")
PREVIEW: Final = Codec("pv", _write, _read)
PLACE: Final = Codec("ok", _write, _read)
KINDS: Final = frozenset({PAGE.kind, SPOT.kind, PREVIEW.kind, PLACE.kind})
