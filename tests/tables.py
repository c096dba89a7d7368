"""A stored table's game, read directly by tests whatever the game (the service reaches it
through the game's module, typed; tests only need to look)."""

from __future__ import annotations

import importlib
from typing import Any

import bot.records.table
from bot.games import MODULES
from bot.records.table import Table


def module_of(table: Table) -> Any:
    """The table's game module, with its typed side (`stand_in`, `load`...)."""
    return importlib.import_module(MODULES[table.kind]).MODULE


def load_game(table: Table) -> Any:
    """The table's game, replayed from its record."""
    if table.game is None:
        raise ValueError("the game has not started")
    return module_of(table).load(table.game)


def keep(table: Table, game: Any) -> None:
    """Store `game` in the table, as the service does after a move."""
    bot.records.table.keep(module_of(table), table, game)
