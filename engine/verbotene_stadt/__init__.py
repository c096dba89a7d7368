"""Die Verbotene Stadt (Randolph & Rüttinger): a pure rules engine.

>>> from engine.verbotene_stadt import Game
>>> game = Game(4, seed=7)
>>> [t.kind for t in game.to_act]
['bribe', 'bribe', 'bribe', 'bribe']
"""

from engine.core.errors import CorruptRecord, IllegalMove
from engine.core.shape import ToAct

from .actions import (
    Action,
    ActionSyntaxError,
    Believe,
    Bribe,
    Doubt,
    Keep,
    MoveOfficial,
    Pass,
    Take,
    parse_action,
)
from .board import Board
from .cards import Grouping, best_grouping
from .events import ActionResult
from .game import Game

__all__ = [
    "Action",
    "ActionResult",
    "ActionSyntaxError",
    "Believe",
    "Board",
    "Bribe",
    "CorruptRecord",
    "Doubt",
    "Game",
    "Grouping",
    "IllegalMove",
    "Keep",
    "MoveOfficial",
    "Pass",
    "Take",
    "ToAct",
    "best_grouping",
    "parse_action",
]
