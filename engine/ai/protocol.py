"""What the computer players need: from a game, its common shape; from its AI module, its hooks.

A game `engine/<name>/` takes part by shipping `engine/<name>/ai.py` with a module-level object
`AI` satisfying `GameAI`. Nothing in `engine/ai/` names a game, so a third game brings its own
module and is played at once.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from engine.core.shape import Engine

Rewards = dict[str, float]  # seat -> value in [0, 1], higher is better for that seat


SearchGame = Engine[Any]


@dataclass(frozen=True, slots=True)
class Budget:
    """How long a level searches: iterations (the same decision from a seed on any machine),
    worlds drawn, and a cap in seconds for a slow or busy machine; and how often it slips, the
    share of its decisions taken at random instead (each game tunes it, as its luck differs)."""

    iterations: int
    determinizations: int = 24
    max_seconds: float = 2.0
    slip: float = 0.0


class GameAI(Protocol):
    """One game's knowledge for the search: how to fill in what a seat cannot see, and how to
    play and judge quickly."""

    name: str
    playout_depth: int  # actions played by `policy` before `evaluate` judges the position

    def determinize(self, view: Any, seat: str, rng: random.Random) -> SearchGame:
        """A whole game that agrees with `view`, with every hidden thing drawn at random."""
        ...

    def view(self, game: Any, seat: str) -> Any:
        """The seat's view of a real game: the only thing a player is given."""
        ...

    def copy(self, game: SearchGame) -> SearchGame: ...

    def policy(self, game: SearchGame, seat: str, rng: random.Random) -> Any:
        """A fast, reasonable action for playouts."""
        ...

    def searched(self, game: SearchGame, actor: str, seat: str) -> bool:
        """Whether `actor`'s decision below the root grows `seat`'s tree (else `policy` plays
        it)."""
        ...

    def candidates(self, game: SearchGame, seat: str, rng: random.Random) -> Sequence[Any]:
        """The seat's actions worth searching now (all of them, or the promising few)."""
        ...

    def greedy(self, game: SearchGame, seat: str, rng: random.Random) -> Any:
        """The greedy baseline's action: best immediate gain, on a determinized game."""
        ...

    def evaluate(self, game: SearchGame) -> Rewards:
        """Each seat's chances, from the position alone."""
        ...

    def levels(self) -> dict[str, Budget]:
        """The search budget of each level (easy, normal, hard) for this game's decisions."""
        ...

    def new_game(self, players: int, seed: int) -> Any:
        """A fresh game for the arena."""
        ...
