"""The one way a game record replays and checks itself.

A record holds how the game began (seats, options, seed), the actions played as
`(seat, text)` pairs and a small snapshot (e.g. the scores). Loading starts a fresh game, plays
every action again through the rules and compares the snapshot, so a record edited by hand, or
one that a changed rule no longer explains, is refused rather than loaded wrong. `steps` walks
the same replay one action at a time, for exported games looked at position by position.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ValidationError

from .errors import CorruptRecord
from .shape import Engine

G = TypeVar("G", bound=Engine[Any])
R = TypeVar("R", bound=BaseModel)


def parse(model: type[R], text: str | bytes) -> R:
    """The record `model` read from JSON text, or CorruptRecord saying it is not one."""
    try:
        return model.model_validate_json(text)
    except ValidationError as err:
        raise CorruptRecord(f"not a game record: {err.error_count()} error(s)") from None


@dataclass(frozen=True, slots=True)
class Step(Generic[G]):
    """One position of a replayed record: `number` actions played so far (0: the start, with
    `seat` and `action` None), the last one played by `seat`, written `action` in the engine's
    notation, and `game` after it.

    `game` is the one live game being replayed, not a copy: the next step plays on it, so read
    what you need from a step (a view, a position text) before asking for the next one.
    """

    number: int
    seat: str | None
    action: str | None
    game: G


def steps(
    game: G,
    actions: Iterable[tuple[str, str]],
    expected: Mapping[str, object] | None = None,
    snapshot: Callable[[G], Mapping[str, object]] | None = None,
) -> Iterator[Step[G]]:
    """Yield the fresh `game` (step 0), then play each `(seat, text)` of `actions` on it and
    yield after every one (step N after the N-th action).

    Every step holds the same `game` object, changed in place by the actions that follow.
    A refused action raises `CorruptRecord("action N (seat text): reason")`, N counted from 1,
    when that step is asked for; with `expected` and `snapshot`, asking for a step after the
    last one compares `snapshot(game)` with `expected` and raises `CorruptRecord` naming an
    entry that differs.
    """
    yield Step(0, None, None, game)
    for index, (seat, text) in enumerate(actions, start=1):
        try:
            game.play(seat, text)
        except ValueError as err:
            raise CorruptRecord(f"action {index} ({seat} {text}): {err}") from None
        yield Step(index, seat, text, game)
    if expected is not None and snapshot is not None:
        replayed = snapshot(game)
        for key, value in expected.items():
            if replayed.get(key) != value:
                raise CorruptRecord(
                    f"{key} {value!r} does not match the replayed {replayed.get(key)!r}"
                )


def replay(
    game: G,
    actions: Iterable[tuple[str, str]],
    expected: Mapping[str, object] | None = None,
    snapshot: Callable[[G], Mapping[str, object]] | None = None,
) -> G:
    """Play `actions` on the fresh `game`, then check `snapshot(game)` against `expected`.

    Any refused action becomes `CorruptRecord("action N (seat text): reason")`, N counted from
    1; a snapshot entry that differs becomes `CorruptRecord` naming it (`steps`, run to its end).
    """
    for _ in steps(game, actions, expected, snapshot):
        pass
    return game
