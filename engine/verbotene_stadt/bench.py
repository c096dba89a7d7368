"""Speed figures: the mover's legal actions on mid-game boards, and whole 4-player games between
simple players (goals: 1 ms and 50 ms median), in processor time: the test machine is shared,
and wall time there measures the neighbours as much as the engine."""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from .game import Game
from .players import choose_simple, play_out

LEGAL_GOAL_MS = 1.0
GAME_GOAL_MS = 50.0


def midgame(seed: int, exiled: int = 7) -> Game:
    """A 4-player game between simple players, stopped at a move once `exiled` officials are out."""
    rng = random.Random(seed)
    game = Game(4, seed=seed)
    while not game.is_over:
        waiting = game.to_act[0]
        if len(game.exiled) >= exiled and waiting.kind == "move":
            break
        game.play(waiting.seat, choose_simple(game, waiting.seat, rng))
    return game


def run(games: int = 50, boards: int = 20) -> dict[str, Any]:
    legal_ms: list[float] = []
    counts: list[int] = []
    for seed in range(boards):
        game = midgame(seed)
        if game.is_over:
            continue
        mover = game.players[game.mover]
        counts.append(len(game.legal_actions(mover)))
        for _ in range(20):
            start = time.process_time()
            game.legal_actions(mover)
            legal_ms.append((time.process_time() - start) * 1000)
    game_ms: list[float] = []
    lengths: list[int] = []
    for seed in range(games):
        start = time.process_time()
        game = play_out(Game(4, seed=seed), choose_simple, random.Random(seed))
        game_ms.append((time.process_time() - start) * 1000)
        lengths.append(sum(1 for _, text in game.log if text.startswith("move")))
    legal = statistics.median(legal_ms)
    whole = statistics.median(game_ms)
    return {
        "legal_actions_median_ms": round(legal, 3),
        "legal_actions_goal_ms": LEGAL_GOAL_MS,
        "legal_actions_ok": legal <= LEGAL_GOAL_MS,
        "midgame_boards": len(counts),
        "midgame_legal_actions_median": statistics.median(counts) if counts else 0,
        "game_median_ms": round(whole, 2),
        "game_p90_ms": round(statistics.quantiles(game_ms, n=10)[-1], 2),
        "game_goal_ms": GAME_GOAL_MS,
        "game_ok": whole <= GAME_GOAL_MS,
        "games": games,
        "moves_per_game_median": statistics.median(lengths),
    }
