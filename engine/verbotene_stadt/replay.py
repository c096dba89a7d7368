"""An exported game (the JSON record `Game.to_json` writes) stepped through, one position per
action, and a position written as a position file (docs/verbotene-stadt-positions.md).

This is not in record.py because it needs `Game`, and game.py imports record.py (the import
contracts in pyproject.toml forbid the cycle).
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.core.record import Step, parse
from engine.core.record import steps as replay_steps

from .actions import OFFICIALS
from .board import Board
from .game import Game, fresh, snapshot
from .record import GameRecord

__all__ = ["Step", "position_text", "steps", "steps_of"]


def steps_of(record: GameRecord) -> Iterator[Step[Game]]:
    """The game of `record` from its start (step 0) through every action (step N after
    action N).

    Every step holds the same live `Game`, changed in place by the next action: read it before
    asking for the next step. A bad start raises `CorruptRecord` at once; a refused action
    raises it when its step is asked for, and a snapshot (hands, exiled) that differs from the
    record's when the steps run out.
    """
    return replay_steps(fresh(record), record.actions, record.snapshot, snapshot)


def steps(text: str | bytes) -> Iterator[Step[Game]]:
    """`steps_of` the record in JSON `text` (what `Game.to_json` writes and `Game.from_json`
    reads); `CorruptRecord` at once if it is not one."""
    return steps_of(parse(GameRecord, text))


def position_text(game: Game) -> str:
    """The table as a position file: the board (`board: default` for the engine's own), an
    `official` line per official on it, `open` once a pavilion is open, `exiled`; comment lines
    give what the notation has no statement for: the exiled officials, the bribes, the hands
    with their points, and who acts next (or the winners). `parse_position` reads it back."""
    if game.board == Board.default():
        lines = ["board: default"]
    else:
        lines = ["board:", game.board.to_text(), "end"]
    for code in OFFICIALS:
        if code in game.at:
            x, y = game.at[code]
            lines.append(f"official {code} {x},{y}")
    if game.open is not None:
        lines.append(f"open {game.open}")
    lines.append(f"exiled {len(game.exiled)}")
    lines.append("; exiled: " + (" ".join(game.exiled) or "-"))
    bribes = zip(game.players, game.bribes, strict=True)
    lines.append("; bribes: " + ", ".join(f"{seat} {code or '-'}" for seat, code in bribes))
    points = game.points()
    for seat, hand in zip(game.players, game.hands, strict=True):
        lines.append(f"; {seat}: {' '.join(hand) or '-'} = {points[seat]} points")
    if game.teams:
        lines.append("; team scores: " + ", ".join(f"{s} {n}" for s, n in game.scores.items()))
    if game.is_over:
        lines.append("; game over, winners: " + ", ".join(game.winners))
    else:
        lines.append("; to act: " + ", ".join(f"{t.seat} ({t.kind})" for t in game.to_act))
    return "\n".join(lines)
