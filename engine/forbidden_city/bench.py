"""Speed figures: a whole random 4-player game, and legal-move generation on a late table."""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from .game import Game


def random_game(seed: int) -> Game:
    """A whole 4-player game where every turn generates all legal moves and picks one."""
    rng = random.Random(seed)
    game = Game(4, seed=seed)
    while not game.is_over:
        moves = game.legal_moves()
        game.play(moves[int(rng.random() * len(moves))])
    return game


def late_game(seed: int) -> Game:
    """A 4-player table with one move left to play (87 tiles down)."""
    rng = random.Random(seed)
    game = Game(4, seed=seed)
    while len(game.moves) < 87:
        moves = game.legal_moves()
        game.play(moves[int(rng.random() * len(moves))])
    return game


def run(games: int = 200) -> dict[str, Any]:
    random_game(-1)  # warm the legality cache, as a running bot would have it
    game_ms = []
    for seed in range(games):
        start = time.perf_counter()
        random_game(seed)
        game_ms.append((time.perf_counter() - start) * 1000)
    late = late_game(12345)
    frontier = len(late.board.frontier())
    legal_us = []
    for _ in range(2000):
        start = time.perf_counter()
        moves = late.legal_moves()
        legal_us.append((time.perf_counter() - start) * 1e6)
    return {
        "game_median_ms": round(statistics.median(game_ms), 3),
        "game_p90_ms": round(statistics.quantiles(game_ms, n=10)[-1], 3),
        "games": games,
        "legal_moves_median_us": round(statistics.median(legal_us), 1),
        "late_table_tiles": len(late.board),
        "late_frontier_cells": frontier,
        "late_legal_moves": len(moves),
    }
