"""JSON for a game: the deal and the moves, plus a small snapshot that catches corruption.

Replaying the record rebuilds the game, so loading checks every move again; the dealt stacks are
stored (not only the seed) so a corrected tile catalogue never changes a game already dealt.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine.core.errors import CorruptRecord
from engine.core.record import replay

from .game import Game

__all__ = ["CorruptRecord", "GameRecord", "dumps", "from_record", "loads", "to_record"]


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


def to_record(game: Game) -> GameRecord:
    return GameRecord(
        players=list(game.players),
        start=game.start,  # type: ignore[arg-type]
        seed=game.seed,
        stacks=[list(s) for s in game.stacks],
        moves=[str(m) for m in game.moves],
        coins=list(game.coins),
    )


def from_record(record: GameRecord) -> Game:
    try:
        game = Game(record.players, record.start, record.seed, record.stacks)
    except ValueError as err:
        raise CorruptRecord(f"bad deal: {err}") from None
    seats = game.players
    actions = [(seats[i % len(seats)], text) for i, text in enumerate(record.moves)]
    return replay(game, actions, {"coins": record.coins}, lambda g: {"coins": g.coins})


def dumps(game: Game) -> str:
    return to_record(game).model_dump_json()


def loads(text: str | bytes) -> Game:
    try:
        record = GameRecord.model_validate_json(text)
    except ValidationError as err:
        raise CorruptRecord(f"not a game record: {err.error_count()} error(s)") from None
    return from_record(record)
