"""An exported game (the JSON record `Game.to_json` writes) stepped through, one position per
move, and a position written as a position file (docs/forbidden-city-notation.md).

This is not in record.py because it needs `Game`, and game.py imports record.py (the import
contracts in pyproject.toml forbid the cycle).
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.core.record import Step, parse
from engine.core.record import steps as replay_steps

from .game import Game, dealt
from .record import GameRecord

__all__ = ["Step", "position_text", "steps", "steps_of"]


def steps_of(record: GameRecord) -> Iterator[Step[Game]]:
    """The game of `record` from its deal (step 0) through every move (step N after move N).

    Every step holds the same live `Game`, changed in place by the next move: read it before
    asking for the next step. A bad deal raises `CorruptRecord` at once; a refused move raises it
    when its step is asked for, and coins that differ from the record's when the steps run out.
    """
    game, actions = dealt(record)
    return replay_steps(game, actions, {"coins": record.coins}, lambda g: {"coins": g.coins})


def steps(text: str | bytes) -> Iterator[Step[Game]]:
    """`steps_of` the record in JSON `text` (what `Game.to_json` writes and `Game.from_json`
    reads); `CorruptRecord` at once if it is not one."""
    return steps_of(parse(GameRecord, text))


def position_text(game: Game) -> str:
    """The table as a position file: `players:`, `start:`, then an `at` line per tile in the
    order they were placed; comment lines give the coins and the tiles in hand (or the
    winners). `score` reads it back to the same table."""
    lines = [f"players: {' '.join(game.players)}", f"start: {game.start}"]
    for (x, y), placed in game.board.cells.items():
        if placed.kind == "tile" and placed.tile is not None and placed.owner is not None:
            lines.append(f"at {x} {y} {game.players[placed.owner]} {placed.tile.code}")
    lines.append("# coins: " + ", ".join(f"{c} {n}" for c, n in game.scores.items()))
    if game.is_over:
        lines.append("# game over, winners: " + ", ".join(game.winners))
    else:
        hands = ", ".join(f"{c} {game.hand(c)}" for c in game.players)
        lines.append(f"# {game.current} to play; in hand: {hands}")
    return "\n".join(lines)
