"""What one seat may know: the board, the cards face up, counts of the piles, whose decision it
is, its own bribe, its partner's in the team game, and the bribes the rules revealed; never
another seat's secret bribe.

Bots send these views, never the game itself, to anything outside the service. `Game.view`
makes them.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class LastMove(BaseModel):
    """The latest move, for drawing its path: where it began, where each slide stopped, and
    the pavilion it entered through its door (the last square of `path`), if it did."""

    model_config = ConfigDict(frozen=True)

    official: str
    seat: str
    path: list[tuple[int, int]]  # the start, then each stop
    entered: int | None


class SeatView(BaseModel):
    model_config = ConfigDict(frozen=True)

    players: list[str]
    teams: bool
    partnerships: list[tuple[str, str]]  # the teams, first seat first (none without teams)
    rules: int  # the edition of the rules the game follows (game.RULES)
    seat: str | None  # whose view this is; None for a spectator
    to_act: list[tuple[str, str]]  # seat, kind of decision
    mover: str | None
    moves_made: int  # moves in the mover's turn so far
    officials: dict[str, tuple[int, int]]
    open_pavilion: int | None
    pile_sizes: dict[int, int]  # cards left in each pavilion (not their order)
    hands: dict[str, list[str]]  # cards face up in front of each seat
    exiled: list[str]
    last_move: LastMove | None
    last_rolls: list[tuple[str, str]]  # the latest turn's fate dice: die, face
    bribe: str | None  # this seat's own
    partner_bribe: str | None  # the partner's, in the team game
    revealed: dict[str, str | None]  # bribes the rules made public and still standing
    bribes: dict[str, str | None]  # every bribe this seat knows (own, partner's, revealed)
    legal_actions: list[str]
    actions: list[tuple[str, str]]  # the log, others' bribes written `bribe ?`
    points: dict[str, int]
    scores: dict[str, int]
    over: bool
    winners: list[str]
