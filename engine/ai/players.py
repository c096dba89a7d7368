"""The computer players: two baselines and three search levels.

Every player decides from a seat's view alone. Levels differ only in search budget, which each
game sets (`GameAI.levels`; `LEVELS` by default); `hard` stays under two seconds a decision on a
2-core machine (see `python -m engine.ai arena`).
"""

from __future__ import annotations

import importlib
import random
from dataclasses import dataclass
from typing import Any, cast

from .protocol import Budget, GameAI
from .search import search

LEVELS: dict[str, Budget] = {
    "easy": Budget(iterations=60, determinizations=8),
    "normal": Budget(iterations=300, determinizations=16),
    "hard": Budget(iterations=1200, determinizations=32, max_seconds=1.9),
}
BASELINES = ("random", "greedy")
KINDS = (*BASELINES, *LEVELS)


def game_ai(game: str) -> GameAI:
    """The AI module of `engine/<game>/` (hyphens and underscores alike)."""
    module = importlib.import_module(f"engine.{game.replace('-', '_')}.ai")
    return cast(GameAI, module.AI)


@dataclass(frozen=True, slots=True)
class Player:
    kind: str
    ai: GameAI

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown player {self.kind!r}: one of {', '.join(KINDS)}")

    def decide(self, view: Any, seat: str, rng: random.Random) -> Any:
        """The action this player takes for `seat`, seeing only `view`."""
        return self.think(view, seat, rng)[0]

    def think(self, view: Any, seat: str, rng: random.Random) -> tuple[Any, bool]:
        """The action, and whether the search's time cap cut it short (never a baseline's)."""
        if self.kind in LEVELS:
            decision = search(view, seat, self.ai, self.ai.levels()[self.kind], rng)
            return decision.action, decision.capped
        world = self.ai.determinize(view, seat, rng)
        if self.kind == "greedy":
            return self.ai.greedy(world, seat, rng), False
        legal = list(world.legal_actions(seat))
        return legal[int(rng.random() * len(legal))], False
