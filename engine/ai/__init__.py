"""Computer players for every game of the common engine shape (see `protocol.py`)."""

from .players import KINDS, LEVELS, Player, game_ai
from .protocol import Budget
from .search import Decision, search

__all__ = ["KINDS", "LEVELS", "Budget", "Decision", "Player", "game_ai", "search"]
