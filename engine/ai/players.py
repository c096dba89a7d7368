"""The computer players: two baselines and three levels.

Every player decides from a seat's view alone. The levels search, each with its game's budget
(`GameAI.levels`; `LEVELS` by default), and the two lower ones also slip: a share of their
decisions (`Budget.slip`, tuned per game) is a random legal action instead of the search's.
Budgets alone did not make levels a player can tell apart: past a few dozen iterations the
searches play too alike (in Die Verbotene Stadt above all), so a player moving up a level could
meet no harder opponent. `hard` never slips and stays under two seconds a decision on a 2-core
machine (see `python -m engine.ai arena`).
"""

from __future__ import annotations

import importlib
import random
from dataclasses import dataclass
from typing import Any, cast

from .protocol import Budget, GameAI
from .search import search

LEVELS: dict[str, Budget] = {
    "easy": Budget(iterations=60, determinizations=8, slip=0.5),
    "normal": Budget(iterations=300, determinizations=16, slip=0.3),
    "hard": Budget(iterations=900, determinizations=32, max_seconds=1.9),
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

    def think(
        self, view: Any, seat: str, rng: random.Random, budget: Budget | None = None
    ) -> tuple[Any, bool]:
        """The action, and whether the search's time cap cut it short (never a baseline's nor a
        slip's). `budget` replaces the level's search budget (the bot's time limit, the tests'
        speed), never its slip."""
        level = self.ai.levels().get(self.kind)
        if level is not None and not (level.slip and rng.random() < level.slip):
            decision = search(view, seat, self.ai, budget or level, rng)
            return decision.action, decision.capped
        world = self.ai.determinize(view, seat, rng)
        if self.kind == "greedy":
            return self.ai.greedy(world, seat, rng), False
        legal = list(world.legal_actions(seat))
        return legal[int(rng.random() * len(legal))], False
