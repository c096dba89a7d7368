"""JSON for a game: the deal and the moves, plus a small snapshot that catches corruption
(`Game.to_json`, `Game.from_json`; `game.to_record` and `game.from_record` for the model).

Replaying the record rebuilds the game, so loading checks every move again; the dealt stacks are
stored (not only the seed) so a corrected tile catalogue never changes a game already dealt.
To step through a record position by position: `replay.steps(text)` and `replay.steps_of(record)`
(in replay.py, not here: they need `Game`, and game.py imports this module).
"""

from __future__ import annotations

from collections import Counter
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.core.errors import CorruptRecord

from .catalogue import stack_for
from .tiles import Tile

__all__ = ["CorruptRecord", "GameRecord", "check_deal"]


class GameRecord(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    format: Literal[1] = 1
    game: Literal["forbidden-city"] = "forbidden-city"
    players: list[str]
    start: Literal["beginner", "advanced", "none"]
    seed: int
    stacks: list[list[str]]
    moves: list[str] = Field(default_factory=list)
    coins: list[int]
    # Who sat at each seat, as their table named them: in an exported game only, for whoever
    # steps through it (`replay` says them); the game never reads it, and a record without
    # names is written without the field.
    names: dict[str, str] = Field(default_factory=dict, exclude_if=lambda names: not names)


def check_deal(record: GameRecord) -> None:
    """Raise CorruptRecord unless every seat holds a full stack of the same tiles.

    Sizes come from the catalogue for the player count (24, or 30 with two players). The tiles
    are compared between seats, not with today's catalogue, so a corrected catalogue still loads
    the games dealt before the correction (docs/rules-notes.md).
    """
    players = len(record.players)
    if not 2 <= players <= 4:
        raise CorruptRecord(f"{players} players: 2 to 4 play")
    if len(record.stacks) != players:
        raise CorruptRecord(f"{len(record.stacks)} stacks for {players} players")
    try:
        size = len(stack_for(record.players[0], players))
        kinds = [Counter(Tile.parse(code).code for code in stack) for stack in record.stacks]
    except ValueError as err:  # an unknown colour or tile code
        raise CorruptRecord(f"bad deal: {err}") from None
    for colour, stack, tiles in zip(record.players, record.stacks, kinds, strict=True):
        if len(stack) != size:
            raise CorruptRecord(
                f"{colour}'s stack has {len(stack)} tiles; {players} players hold {size} each"
            )
        if tiles != kinds[0]:
            raise CorruptRecord(f"{colour}'s stack holds other tiles than {record.players[0]}'s")
