"""JSON for a game: the deal and the moves, plus a small snapshot that catches corruption.

Replaying the record rebuilds the game, so loading checks every move again; the dealt stacks are
stored (not only the seed) so a corrected tile catalogue never changes a game already dealt.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .game import Game
from .moves import parse_move


class CorruptRecord(ValueError):
    """A record that does not replay to the game it claims to be."""


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
    for index, text in enumerate(record.moves):
        try:
            game.play(parse_move(text))
        except ValueError as err:
            raise CorruptRecord(f"move {index + 1} ({text}): {err}") from None
    if game.coins != record.coins:
        raise CorruptRecord(f"coins {record.coins} do not match the replayed {game.coins}")
    return game


def dumps(game: Game) -> str:
    return to_record(game).model_dump_json()


def loads(text: str | bytes) -> Game:
    try:
        record = GameRecord.model_validate_json(text)
    except ValidationError as err:
        raise CorruptRecord(f"not a game record: {err.error_count()} error(s)") from None
    return from_record(record)
