"""What every game module would otherwise copy: `EngineModule`, the base of a game's class.

A game's class inherits `EngineModule[Game, SeatView, Action]`, names its engine's `Game` in
`game_type`, and writes only what is its own. The base gives:

- `visit`, which hands the module to a visitor with its own types;
- the engine's `view` and `parse_action` (the common shape, `engine/core/shape.py`), and
  `observe` as that view (a game whose computer players see more overrides it);
- the usual answers, for a game to override when it differs: its options in no words, any
  number of seats from `min_players` to `max_players`, nothing done by the table itself
  after an action, a vote at the turn limit (so no `default_text`), and the last table drawn
  as any other.

Whatever the base does not give stays abstract: the class cannot be made without it.
"""

from __future__ import annotations

from typing import Any, Literal, ParamSpec, Protocol, TypeVar

from . import A, At, GameModule, Playing, V, Visitor

P = ParamSpec("P")
R = TypeVar("R")
V_co = TypeVar("V_co", covariant=True)
A_co = TypeVar("A_co", covariant=True)


class Shaped(Playing, Protocol[V_co, A_co]):
    """An engine's game as the base reads it (`engine.core.shape.Engine`)."""

    def view(self, seat: str | None = None) -> V_co: ...

    @staticmethod
    def parse_action(text: str) -> A_co: ...


G = TypeVar("G", bound="Shaped[Any, Any]")


class EngineModule(GameModule[G, V, A]):
    """A game module with its pass-throughs to the engine and the usual answers written once."""

    game_type: type[Shaped[V, A]]  # the engine's `Game`: its `parse_action`

    def visit(self, visitor: Visitor[P, R], /, *args: P.args, **kwargs: P.kwargs) -> R:
        return visitor(self, *args, **kwargs)

    def view(self, game: G, seat: str | None) -> V:
        seen: V = game.view(seat)
        return seen

    def observe(self, game: G, seat: str) -> object:
        return self.view(game, seat)

    def parse_action(self, text: str) -> A:
        return self.game_type.parse_action(text)

    def options_text(self, options: dict[str, str], lang: str) -> str:
        return ""

    def seats(self, options: dict[str, str]) -> tuple[int, int]:
        return self.min_players, self.max_players

    def check_start(self, options: dict[str, str], players: int, lang: str) -> None:
        return None

    def after_play(self, at: At, game: G) -> list[str]:
        return []

    def on_limit(self, kind: str) -> Literal["vote", "default"]:
        return "vote"

    def default_text(self, at: At, game: G, seat: str, kind: str) -> str:
        return ""

    def final_image(self, at: At, view: V, voted_end: bool) -> bytes:
        return self.table_image(at, view)
