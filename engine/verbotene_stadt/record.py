"""JSON for a game: seats, options, seed, the start position if any, the actions, a snapshot.

`Game.to_json` writes it (`game.to_record`) and `Game.from_json` reads it: loading replays every
action through the rules (`engine.core.record.replay`) and compares the snapshot (cards in every
hand, officials exiled), so a record that does not replay to the game it claims to be is refused
with `CorruptRecord`. To step through a record position by position: `replay.steps(text)` and
`replay.steps_of(record)` (in replay.py, not here: they need `Game`, and game.py imports this
module).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class GameRecord(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    format: Literal[1] = 1
    game: Literal["verbotene-stadt"] = "verbotene-stadt"
    players: list[str]
    teams: bool = False
    seed: int
    position: dict[str, Any] | None = None
    board: str | None = None  # board text, when not the engine's own board
    actions: list[tuple[str, str]] = Field(default_factory=list)
    snapshot: dict[str, Any]
    rules: int = 1  # the edition of the rules (game.RULES); records made before it: 1
    # Who sat at each seat, as their table named them: in an exported game only, for whoever
    # steps through it (`replay` says them); the game never reads it, and a record without
    # names is written without the field.
    names: dict[str, str] = Field(default_factory=dict, exclude_if=lambda names: not names)
