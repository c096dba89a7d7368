"""The tile catalogue and the start tile, read from the data files beside this module.

The pictures of the real tiles are missing from our sources, so these are reconstructions
(docs/rules-notes.md); keeping them as JSON lets someone holding the box correct them without
touching code.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any, Final

from .tiles import OPEN, Tile

COLOURS: Final = ("purple", "yellow", "red", "blue")
TWO_PLAYER_COLOURS: Final = ("purple", "yellow")
START_SIDES: Final = ("beginner", "advanced")


def _load(name: str) -> Any:
    return json.loads(resources.files(__package__).joinpath("data", name).read_text("utf-8"))


@cache
def _catalogue() -> dict[str, list[str]]:
    data = _load("catalogue.json")
    for key in ("stack", "two_player_extra"):
        data[key] = [Tile.parse(code).code for code in data[key]]
    return {"stack": data["stack"], "two_player_extra": data["two_player_extra"]}


def default_seats(players: int) -> tuple[str, ...]:
    if not 2 <= players <= 4:
        raise ValueError("Forbidden City is played by 2, 3 or 4 players")
    return COLOURS[:players]


def stack_for(colour: str, players: int) -> list[str]:
    """Every tile of one seat's stack, as printed (unrotated), in catalogue order."""
    if colour not in COLOURS:
        raise ValueError(f"unknown seat colour {colour!r}")
    cat = _catalogue()
    tiles = list(cat["stack"])
    if players == 2:
        if colour not in TWO_PLAYER_COLOURS:
            raise ValueError("a 2-player game is played with purple and yellow")
        tiles += cat["two_player_extra"]
    return tiles


def catalogue(players: int) -> dict[str, list[str]]:
    return {colour: stack_for(colour, players) for colour in default_seats(players)}


StartCell = tuple[str, str]  # (kind, code or edges): kind is "start", "temple" or "garden"


@cache
def start_tile(side: str) -> dict[tuple[int, int], StartCell]:
    if side not in START_SIDES:
        raise ValueError(f"unknown start side {side!r}: beginner or advanced")
    cells: dict[tuple[int, int], StartCell] = {}
    for where, text in _load("start_tiles.json")[side].items():
        x, y = (int(v) for v in where.split(","))
        if ":" in text:
            kind, edges = text.split(":")
            if kind not in ("temple", "garden") or len(edges) != 4 or OPEN in edges:
                raise ValueError(f"bad start cell {where}: {text!r}")
            cells[(x, y)] = (kind, edges)
        else:
            cells[(x, y)] = ("start", Tile.parse(text).code)
    return cells
