"""Views the tests draw from: what the seat to play sees of a game."""

from __future__ import annotations

from engine.forbidden_city import Game
from engine.forbidden_city.view import SeatView


def to_play(game: Game) -> SeatView:
    """The view of the seat whose turn it is: its tile in hand and its legal moves."""
    return game.view(game.current)
