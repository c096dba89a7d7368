"""What one seat may know: the table and counts for all, the tile in hand for its owner only.

Bots send these views, never the game itself, to anything outside the service.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from .game import Game


class TableCell(BaseModel):
    model_config = ConfigDict(frozen=True)

    x: int
    y: int
    kind: str  # tile, start, temple or garden
    code: str | None  # oriented tile code; edges only for the temple and gardens
    owner: str | None


class SeatView(BaseModel):
    model_config = ConfigDict(frozen=True)

    players: list[str]
    start: str
    seat: str | None  # whose view this is; None for a spectator
    to_play: str | None
    coins: dict[str, int]
    tiles_left: dict[str, int]
    table: list[TableCell]
    hand: str | None
    legal_moves: list[str]  # only in the view of the seat to play
    moves: list[str]
    played: list[str]  # each move's tile as printed (unrotated): all lie face up on the table
    over: bool
    winners: list[str]
    revealed: dict[str, list[str]]


def view(game: Game, seat: str | None = None) -> SeatView:
    if seat is not None and seat not in game.players:
        raise ValueError(f"no seat {seat!r} at this table")
    table = []
    for (x, y), placed in sorted(game.board.cells.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        code = placed.tile.code if placed.tile is not None else placed.edges
        owner = game.players[placed.owner] if placed.owner is not None else None
        table.append(TableCell(x=x, y=y, kind=placed.kind, code=code, owner=owner))
    n = len(game.players)
    own_turn = seat is not None and not game.is_over and seat == game.current
    return SeatView(
        players=list(game.players),
        start=game.start,
        seat=seat,
        to_play=None if game.is_over else game.current,
        coins=game.scores,
        tiles_left={c: game.tiles_left(c) for c in game.players},
        table=table,
        hand=game.hand(seat) if seat is not None else None,
        legal_moves=[str(m) for m in game.legal_moves()] if own_turn else [],
        moves=[str(m) for m in game.moves],
        played=[game.stacks[i % n][i // n] for i in range(len(game.moves))],
        over=game.is_over,
        winners=game.winners,
        revealed=game.ended.revealed if game.ended else {},
    )
