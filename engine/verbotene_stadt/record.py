"""JSON for a game: seats, options, seed, the start position if any, the actions, a snapshot.

Loading replays every action through the rules (`engine.core.record.replay`) and compares the
snapshot (cards in every hand, officials exiled), so a record that does not replay to the game it
claims to be is refused with `CorruptRecord`.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.core.errors import CorruptRecord
from engine.core.record import parse, replay

from .board import Board
from .game import Game


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


def snapshot(game: Game) -> dict[str, object]:
    return {"hands": [list(h) for h in game.hands], "exiled": list(game.exiled)}


def to_record(game: Game) -> GameRecord:
    return GameRecord(
        players=list(game.players),
        teams=game.teams,
        seed=game.seed,
        position=game.position,
        board=None if game.board == Board.default() else game.board.to_text(),
        actions=list(game.log),
        snapshot=snapshot(game),
    )


def fresh(record: GameRecord) -> Game:
    """The game as it began, before any action."""
    try:
        board = None if record.board is None else Board.parse(record.board)
        if record.position is None:
            return Game(record.players, seed=record.seed, teams=record.teams, board=board)
        p = record.position
        return Game.from_position(
            record.players,
            officials={code: (sq[0], sq[1]) for code, sq in p["officials"].items()},
            open_pavilion=p["open_pavilion"],
            bribes=p["bribes"],
            hands=p["hands"],
            piles={int(k): v for k, v in p["piles"].items()},
            exiled=p["exiled"],
            mover=p["mover"],
            seed=record.seed,
            teams=record.teams,
            board=board,
        )
    except (ValueError, KeyError, TypeError, IndexError) as err:
        raise CorruptRecord(f"bad start: {err}") from None


def dumps(game: Game) -> str:
    return to_record(game).model_dump_json()


def loads(text: str | bytes) -> Game:
    record = parse(GameRecord, text)
    return replay(fresh(record), record.actions, record.snapshot, snapshot)
