"""The one way a game record replays and checks itself.

A record holds how the game began (seats, options, seed), the actions played as
`(seat, text)` pairs and a small snapshot (e.g. the scores). Loading starts a fresh game, plays
every action again through the rules and compares the snapshot, so a record edited by hand, or
one that a changed rule no longer explains, is refused rather than loaded wrong.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

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


def replay(
    game: G,
    actions: Iterable[tuple[str, str]],
    expected: Mapping[str, object] | None = None,
    snapshot: Callable[[G], Mapping[str, object]] | None = None,
) -> G:
    """Play `actions` on the fresh `game`, then check `snapshot(game)` against `expected`.

    Any refused action becomes `CorruptRecord("action N (seat text): reason")`, N counted from
    1; a snapshot entry that differs becomes `CorruptRecord` naming it.
    """
    for index, (seat, text) in enumerate(actions, start=1):
        try:
            game.play(seat, text)
        except ValueError as err:
            raise CorruptRecord(f"action {index} ({seat} {text}): {err}") from None
    if expected is not None and snapshot is not None:
        replayed = snapshot(game)
        for key, value in expected.items():
            if replayed.get(key) != value:
                raise CorruptRecord(
                    f"{key} {value!r} does not match the replayed {replayed.get(key)!r}"
                )
    return game
