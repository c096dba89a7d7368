"""What one seat may know: the table and counts for all, the tile in hand for its owner only.

Bots send these views, never the game itself, to anything outside the service, and the images
are drawn from them: a view holds everything a picture shows (the rooms closed so far with who
was paid, the end bonus once revealed) and nothing a seat may not see. `Game.view` makes them;
`preview.after` shows one as it would be after a move.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class TableCell(BaseModel):
    model_config = ConfigDict(frozen=True)

    x: int
    y: int
    kind: str  # tile, start, temple or garden
    code: str | None  # oriented tile code; edges only for the temple and gardens
    owner: str | None


class ClosedRoom(BaseModel):
    """A room closed during the game, told to everyone when it closed."""

    model_config = ConfigDict(frozen=True)

    move: int  # index in `SeatView.moves` of the move that closed it
    colour: str  # green, pink, white or temple
    value: int
    cells: list[tuple[int, int, int]]  # x, y, part index on that tile
    paid: dict[str, int]  # seat -> coins, in the order the engine paid them


class SeatView(BaseModel):
    model_config = ConfigDict(frozen=True)

    players: list[str]
    start: str
    seat: str | None  # whose view this is; None for a spectator
    to_play: str | None  # None once over, and in the `after` view of the game's last move
    coins: dict[str, int]
    tiles_left: dict[str, int]
    table: list[TableCell]
    hand: str | None
    legal_moves: list[str]  # only in the view of the seat to play
    moves: list[str]
    played: list[str]  # each move's tile as printed (unrotated): all lie face up on the table
    rooms: list[ClosedRoom]  # every room closed so far, in the order they closed
    over: bool
    winners: list[str]
    revealed: dict[str, list[str]]
    bonus: dict[str, int]  # coins each seat's revealed tiles added at the end
