"""Properties of random legal games: records, replay, conservation, and the room structure."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.forbidden_city import Game, Place, Tile, TileDiscarded, TilePlaced
from engine.forbidden_city.board import Board
from engine.forbidden_city.tiles import DELTAS, OPEN

games = st.builds(
    lambda players, start, seed: Game(players, start, seed=seed),
    st.sampled_from([2, 3, 4]),
    st.sampled_from(["beginner", "advanced"]),
    st.integers(min_value=0, max_value=2**32),
)
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def orbit(code: str) -> str:
    """A tile's name whatever its rotation: the smallest of its four codes."""
    tile = Tile.parse(code)
    return min(tile.rotated(r).code for r in range(4))


def scratch_rooms(
    board: Board, seats: int
) -> dict[frozenset[tuple[tuple[int, int], int]], tuple[Any, ...]]:
    """Every room with its stats, found by flood fill from the cells alone."""
    rooms = {}
    for room in board.recomputed_rooms():
        cells = {cell for cell, _ in room}
        dragons = 0
        advisors = [0] * seats
        open_edges = 0
        for cell, index in room:
            placed = board.cells[cell]
            tile = placed.tile
            if tile is not None and tile.content_part == index:
                dragons += tile.dragon
                if placed.owner is not None:
                    advisors[placed.owner] += tile.advisors
            for side in range(4):
                owner = tile.owners[side] if tile is not None else 0
                if owner != index or placed.edges[side] != OPEN:
                    continue
                dx, dy = DELTAS[side]
                if (cell[0] + dx, cell[1] + dy) not in board.cells:
                    open_edges += 1
        rooms[room] = (len(cells), dragons, tuple(advisors), open_edges)
    return rooms


def incremental_rooms(
    board: Board,
) -> dict[frozenset[tuple[tuple[int, int], int]], tuple[Any, ...]]:
    return {
        frozenset(info.parts): (info.tiles, info.dragons, tuple(info.advisors), info.open_edges)
        for info in board.rooms()
    }


@SETTINGS
@given(games, st.randoms(use_true_random=False))
def test_random_games_keep_every_invariant(game: Game, rng: random.Random) -> None:
    seen_closed: list[frozenset[tuple[int, int, int]]] = []
    dealt = {c: Counter(orbit(code) for code in game.stacks[i]) for i, c in enumerate(game.players)}
    step = 0
    while not game.is_over:
        result = game.play(rng.choice(game.legal_moves()))
        step += 1
        for event in result.closed:
            cells = frozenset(event.cells)
            # A closed room is paid once: it never closes again, nor grows into another.
            assert all(not (cells & earlier) for earlier in seen_closed)
            seen_closed.append(cells)
        if step % 7 == 0 or game.is_over:
            assert incremental_rooms(game.board) == scratch_rooms(game.board, len(game.players))
    # Tiles are conserved: placed + discarded + revealed = dealt, seat by seat.
    assert game.ended is not None
    used = {c: Counter(orbit(code) for code in game.ended.revealed[c]) for c in game.players}
    for result in game.results:
        for told in result.events:
            if isinstance(told, TilePlaced | TileDiscarded):
                used[told.seat][orbit(told.code)] += 1
    assert used == dealt
    placed = [p for p in game.board.cells.values() if p.kind == "tile"]
    assert len(placed) == sum(1 for m in game.moves if isinstance(m, Place))


@SETTINGS
@given(games, st.randoms(use_true_random=False), st.integers(min_value=0, max_value=90))
def test_record_round_trip_and_replay_are_exact(game: Game, rng: random.Random, stop: int) -> None:
    while not game.is_over and len(game.moves) < stop:
        game.play(rng.choice(game.legal_moves()))
    text = game.to_json()
    loaded = Game.from_json(text)
    assert loaded.to_json() == text
    for seat in [None, *game.players]:
        assert loaded.view(seat) == game.view(seat)
    replayed = game.replay()
    assert replayed.board.cells == game.board.cells
    assert replayed.coins == game.coins
    assert replayed.legal_moves() == game.legal_moves()
    # The seed alone deals the same stacks again.
    assert Game(game.players, game.start, seed=game.seed).stacks == game.stacks
