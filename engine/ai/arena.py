"""Matches between computer players: win rates with confidence intervals, scores, thinking time.

Seats rotate from game to game so that no player keeps the first seat's advantage.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any, cast

from .players import Player, game_ai
from .protocol import Budget, GameAI


@dataclass(slots=True)
class GameOutcome:
    wins: list[float]  # per player slot: 1 for a win, 1/k for a victory shared by k
    scores: list[int]
    think: list[list[float]] = field(default_factory=list)  # seconds per decision, per slot
    capped: list[int] = field(default_factory=list)  # decisions the time cap cut, per slot


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


class Uncapped:
    """A game's AI whose levels search their whole iteration budget, with no wall-clock cap."""

    def __init__(self, ai: GameAI) -> None:
        self._ai = ai

    def levels(self) -> dict[str, Budget]:
        return {k: replace(b, max_seconds=math.inf) for k, b in self._ai.levels().items()}

    def __getattr__(self, name: str) -> Any:
        return getattr(self._ai, name)


def play_one(
    game_name: str, kinds: Sequence[str], index: int, seed: int, capped: bool = True
) -> GameOutcome:
    """Game `index` of a match: slot i sits at seat (i + index) mod n. `capped=False` lifts the
    levels' time cap, so that the game depends on the seed alone, even on a busy machine."""
    ai = game_ai(game_name) if capped else cast(GameAI, Uncapped(game_ai(game_name)))
    n = len(kinds)
    game = ai.new_game(n, seed)
    seats = list(game.players)
    slot_of = {seats[(slot + index) % n]: slot for slot in range(n)}
    players = {seat: Player(kinds[slot], ai) for seat, slot in slot_of.items()}
    rng = random.Random(seed * 7919 + index)
    think: list[list[float]] = [[] for _ in kinds]
    cuts = [0] * n
    while not game.is_over:
        seat = game.to_act[0].seat
        view = ai.view(game, seat)
        started = time.perf_counter()
        action, cut = players[seat].think(view, seat, rng)
        think[slot_of[seat]].append(time.perf_counter() - started)
        cuts[slot_of[seat]] += cut
        game.play(seat, action)
    winners = game.winners
    wins = [0.0] * n
    scores = [0] * n
    for seat, slot in slot_of.items():
        scores[slot] = game.scores[seat]
        if seat in winners:
            wins[slot] = 1 / len(winners)
    return GameOutcome(wins, scores, think, cuts)


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def match(
    game_name: str, kinds: Sequence[str], games: int, seed: int = 0, jobs: int = 1
) -> dict[str, Any]:
    args = [(game_name, list(kinds), i, seed + i) for i in range(games)]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            outcomes = list(pool.map(play_one, *zip(*args, strict=True)))
    else:
        outcomes = [play_one(*a) for a in args]
    players = []
    for slot, kind in enumerate(kinds):
        wins = sum(o.wins[slot] for o in outcomes)
        low, high = wilson(wins, games)
        times = [t for o in outcomes for t in o.think[slot]]
        players.append(
            {
                "slot": slot,
                "player": kind,
                "win_rate": round(wins / games, 3),
                "ci95": [round(low, 3), round(high, 3)],
                "mean_score": round(statistics.mean(o.scores[slot] for o in outcomes), 1),
                "think_ms_median": round(statistics.median(times) * 1000, 2) if times else 0.0,
                "think_ms_p99": round(_p99(times) * 1000, 2) if times else 0.0,
                "think_ms_max": round(max(times) * 1000, 2) if times else 0.0,
                "decisions": len(times),
                "cut_by_cap": sum(o.capped[slot] for o in outcomes),
            }
        )
    return {"game": game_name, "games": games, "seed": seed, "players": players}
