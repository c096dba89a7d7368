"""What one seat may know: the table and counts for all, the tile in hand for its owner only.

Bots send these views, never the game itself, to anything outside the service, and the images
are drawn from them: a view holds everything a picture shows (the rooms closed so far with who
was paid, the end bonus once revealed) and nothing a seat may not see.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from .game import TILES_LEFT_AT_END, Game
from .moves import Move


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
    rooms = [
        ClosedRoom(move=index, colour=room.colour, value=room.value, cells=room.cells,
                   paid=room.paid)
        for index, result in enumerate(game.results)
        for room in result.closed
    ]  # fmt: skip
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
        rooms=rooms,
        over=game.is_over,
        winners=game.winners,
        revealed=game.ended.revealed if game.ended else {},
        bonus=game.ended.bonus if game.ended else {},
    )


def after(seen: SeatView, move: Move | str) -> SeatView:
    """The view of the seat to play as it would be once `move` is played: the tile on the
    table, the rooms it closes paid. What only playing reveals stays out: the tile drawn next
    (no hand), and, if the move ends the game, the end bonus and the winners (then nobody is to
    play and the game is not over yet). Raises IllegalMove (a ValueError for a view that is
    not the seat to play's) as `Game.play` would."""
    if seen.seat is None or seen.seat != seen.to_play or seen.hand is None:
        raise ValueError("only the view of the seat to play can try a move")
    n = len(seen.players)
    # A deal made of public tiles: each seat's played tiles, the mover's hand, and spare copies
    # of that hand so that no stack runs low enough to end this game early.
    spare = [seen.hand] * (TILES_LEFT_AT_END + 1)
    stacks = [
        [*seen.played[index::n], *([seen.hand] if colour == seen.seat else []), *spare]
        for index, colour in enumerate(seen.players)
    ]
    game = Game(seen.players, seen.start, seed=0, stacks=stacks)
    for done in seen.moves:
        game.play(done)
    game.play(move)
    tiles_left = dict(seen.tiles_left)
    tiles_left[seen.seat] -= 1
    last = all(left <= TILES_LEFT_AT_END for left in tiles_left.values())
    return view(game, seen.seat).model_copy(
        update={
            "to_play": None if last else game.current,
            "tiles_left": tiles_left,
            "hand": None,
            "legal_moves": [],
        }
    )
