"""Reiner Knizia's Forbidden City: a pure rules engine.

>>> from engine.forbidden_city import Game
>>> game = Game(["purple", "yellow"], seed=7)
>>> result = game.play(game.legal_moves()[0])
"""

from .board import Board, IllegalPlacement
from .catalogue import COLOURS, catalogue, start_tile
from .events import AdjacentRoom, GameEnded, MoveResult, RoomClosed, TileDiscarded, TilePlaced
from .game import Game, GameOverError, IllegalMove
from .moves import DISCARD, Discard, Move, MoveSyntaxError, Place, parse_move
from .scoring import payout
from .tiles import Tile, TileCodeError, rotate_code

__all__ = [
    "COLOURS",
    "DISCARD",
    "AdjacentRoom",
    "Board",
    "Discard",
    "Game",
    "GameEnded",
    "GameOverError",
    "IllegalMove",
    "IllegalPlacement",
    "Move",
    "MoveResult",
    "MoveSyntaxError",
    "Place",
    "RoomClosed",
    "Tile",
    "TileCodeError",
    "TileDiscarded",
    "TilePlaced",
    "catalogue",
    "parse_move",
    "payout",
    "rotate_code",
    "start_tile",
]
