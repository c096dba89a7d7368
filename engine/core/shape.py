"""The shape every rules engine gives its games, so one bot service, one AI and one test style
serve them all.

An engine's `Game` offers:

- `players: tuple[str, ...]`: the seats, in table order; `seed: int`: what its dice or deal come
  from (a seed and the action log replay a game exactly).
- `to_act: list[ToAct]`: every seat whose decision the game waits for now, and what kind of
  decision (several seats at once for simultaneous choices; empty once the game is over).
- `legal_actions(seat)`: that seat's legal actions now (empty when it has nothing to decide).
- `play(seat, action)`: apply an action (an object or its text notation) for a seat, returning a
  result whose `.events` say what happened in order; an illegal action raises
  `engine.core.errors.IllegalMove` and changes nothing.
- `parse_action(text)`: an action from its text notation; `str(action)` gives the notation back.
- `is_over`, `scores: dict[str, int]` (seat -> points), `winners: list[str]` (empty until the end).
- `view(seat)`: what that seat may know (`None`: a spectator).
- `to_json()` and the static `from_json(text)`: the record, replayed and checked on loading
  (`engine.core.record.replay`), `CorruptRecord` when it does not match.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

A = TypeVar("A")


@dataclass(frozen=True, slots=True)
class ToAct:
    """A seat the game waits for, and the kind of decision (e.g. "place", "move", "bribe")."""

    seat: str
    kind: str


class Result(Protocol):
    @property
    def events(self) -> Sequence[Any]: ...


class Engine(Protocol[A]):
    """The common API of a game (see the module docstring)."""

    players: tuple[str, ...]
    seed: int

    @property
    def to_act(self) -> list[ToAct]: ...

    def legal_actions(self, seat: str) -> list[A]: ...

    def play(self, seat: str, action: A | str, /) -> Result: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def scores(self) -> dict[str, int]: ...

    @property
    def winners(self) -> list[str]: ...

    def view(self, seat: str | None = None) -> Any: ...

    def to_json(self) -> str: ...

    @staticmethod
    def from_json(text: str | bytes) -> Any: ...

    @staticmethod
    def parse_action(text: str) -> A: ...
