"""A finished game as kept for good: who sat where, the scores and places, and the engine's
record, so the game can be replayed, exported and rated again later.

Kept when a game is played to the end, or ended by a vote after `MIN_MOVES_RATED` actions;
never an aborted one. A few KB: the record is the seed and the actions, not the positions.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, Field

from ..games import Record
from ..text.names import clean_name

SHORT = 8  # characters of the game id shown and typed (`/fc replay 1a2b3c4d`)


def _name(name: str) -> str:
    return clean_name(name) if name else ""


class ResultSeat(BaseModel):
    seat: str  # the engine's seat
    name: Annotated[str, AfterValidator(_name)]  # "" once the person asked to be forgotten
    user_id: str | None = None  # a person's platform id; None for a computer or forgotten
    level: str | None = None  # a computer player's level
    score: int
    place: int  # 1: won; partners share theirs


class Result(BaseModel):
    format: Literal[1] = 1
    id: str  # the game's id
    kind: str  # the game (`bot.games.MODULES`)
    options: dict[str, str] = Field(default_factory=dict)
    ended: float
    platform: str
    channel: str
    community: str  # the Discord server, the Telegram group
    moves: int
    voted_end: bool = False
    seats: list[ResultSeat]
    teams: list[list[str]] = Field(default_factory=list)  # partners' engine seats
    record: Record

    @property
    def short(self) -> str:
        return self.id[:SHORT]

    @property
    def ref(self) -> str:
        """Where the store keeps it: `<platform>:<channel>:<game id>`."""
        return f"{self.platform}:{self.channel}:{self.id}"

    def player(self, seat: ResultSeat) -> str:
        """Who is rated for the seat: the person, a computer level, or one anonymous player
        per forgotten seat."""
        if seat.user_id is not None:
            return f"{self.platform}:{seat.user_id}"
        if seat.level is not None:
            return f"ai:{seat.level}"
        return f"anon:{self.id[:12]}-{seat.seat}"

    def sides(self) -> list[list[ResultSeat]]:
        """The sides that finished the game: partners together, everyone else alone."""
        by_seat = {s.seat: s for s in self.seats}
        grouped = {seat for team in self.teams for seat in team}
        sides = [[by_seat[seat] for seat in team if seat in by_seat] for team in self.teams]
        sides += [[s] for s in self.seats if s.seat not in grouped]
        return [side for side in sides if side]
