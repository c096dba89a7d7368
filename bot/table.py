"""A table as stored in Redis: who sits where, the engine's record, and turn bookkeeping.

Everything the bot knows about a game is here, so any process can pick it up after a restart.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, Field

from engine.forbidden_city import Game
from engine.forbidden_city.record import GameRecord, from_record, to_record

from .names import clean_name

Side = Literal["beginner", "advanced"]
MAX_SEATS = 4
MIN_SEATS = 2


class Seat(BaseModel):
    user_id: str
    name: Annotated[str, AfterValidator(clean_name)]  # also cleans names stored before


class Table(BaseModel):
    """Lobby first (`game` None), then the game; seats follow the engine's seat order."""

    format: Literal[1] = 1
    creator: str
    side: Side = "beginner"
    seats: list[Seat]
    game: GameRecord | None = None
    turn_started: float = 0.0
    hinted: list[str] = Field(default_factory=list)  # users told once they cannot get DMs
    votes: dict[str, Literal["skip", "end"]] = Field(default_factory=dict)
    limit_passed: bool = False
    voted_end: bool = False  # the players ended the game before its last tile

    @property
    def started(self) -> bool:
        return self.game is not None

    def seat_of(self, user_id: str) -> Seat | None:
        return next((s for s in self.seats if s.user_id == user_id), None)

    def user_ids(self) -> list[str]:
        return [s.user_id for s in self.seats]

    def load_game(self) -> Game:
        if self.game is None:
            raise ValueError("the game has not started")
        return from_record(self.game)

    def keep(self, game: Game) -> None:
        self.game = to_record(game)

    def colour_of(self, user_id: str) -> str | None:
        if self.game is None:
            return None
        for seat, colour in zip(self.seats, self.game.players, strict=True):
            if seat.user_id == user_id:
                return colour
        return None

    def user_of(self, colour: str) -> Seat:
        assert self.game is not None
        return self.seats[self.game.players.index(colour)]

    def names(self) -> dict[str, str]:
        """Seat colour -> player name, for the images."""
        if self.game is None:
            return {}
        return {c: s.name for c, s in zip(self.game.players, self.seats, strict=True)}
