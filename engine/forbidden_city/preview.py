"""A seat's view as it would be after a move not played yet (the preview before confirming).

Built from public tiles only, so a preview never shows what the mover does not know.
"""

from __future__ import annotations

from .game import TILES_LEFT_AT_END, Game
from .moves import Move
from .view import SeatView


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
    return game.view(seen.seat).model_copy(
        update={
            "to_play": None if last else game.current,
            "tiles_left": tiles_left,
            "hand": None,
            "legal_moves": [],
        }
    )
