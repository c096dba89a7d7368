"""Both sides of the start tile leave room for any tile early on, as on the real table, where
reviews report that a tile always fits somewhere (docs/rules-notes.md)."""

from __future__ import annotations

import pytest

from engine.forbidden_city import Game, Tile, catalogue, start_tile
from engine.forbidden_city.board import legal_rotations

TILES = sorted({code for stack in catalogue(2).values() for code in stack})


@pytest.mark.parametrize("side", ["beginner", "advanced"])
def test_every_tile_fits_somewhere_after_any_first_move(side: str) -> None:
    stuck = []
    for first in TILES:
        opening = Game(["purple", "yellow"], side, seed=0, stacks=[[first] * 3] * 2)
        for move in opening.legal_moves():
            game = Game(["purple", "yellow"], side, seed=0, stacks=[[first] * 3] * 2)
            game.play(move)
            keys = game.board.frontier().values()
            for second in TILES:
                if not any(legal_rotations(Tile.parse(second), key) for key in keys):
                    stuck.append((first, str(move), second))
    assert stuck == []


def test_the_advanced_side_walls_its_corners_outside_and_keeps_three_tile_rooms() -> None:
    cells = start_tile("advanced")
    assert all(kind in ("start", "temple") for kind, _ in cells.values())  # no gardens
    outer = {(-1, -1): "N W", (1, -1): "N E", (-1, 1): "S W", (1, 1): "S E"}
    for (x, y), sides in outer.items():
        edges = cells[(x, y)][1][:4]
        for side in sides.split():
            assert edges["NESW".index(side)] == "#", ((x, y), side, edges)
    game = Game(["purple", "yellow"], "advanced", seed=0)
    rooms = sorted((room.colour, room.tiles, room.open_edges) for room in game.board.rooms())
    # Pink north, white south and the two green rooms east and west: 3 tiles each, one way out.
    assert rooms == [("G", 3, 1), ("G", 3, 1), ("P", 3, 1), ("T", 1, 0), ("W", 3, 1)]
