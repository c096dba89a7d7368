"""`python -m engine.<game> replay FILE`: an exported game, position by position. One
definition for every engine: each gives its steps, its position writer and its comment mark."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from .errors import CorruptRecord
from .record import Step
from .shape import Engine

G = TypeVar("G", bound=Engine[Any])


def add_replay(sub: Any, *, comment: str, notation: str, move: str) -> None:
    """The `replay` subcommand on an engine's subparsers; `move` names an action ("move")."""
    p = sub.add_parser(
        "replay",
        help="an exported game (its JSON record), position by position",
        description=f"Each step: '{comment} step N: SEAT {move.upper()}' (the seat followed by "
        "who sat there, in an exported game), then the position "
        f"after it as a position file ({notation}); step 0 is the start.",
    )
    p.add_argument("file", help="the game's JSON record (Game.to_json); - reads standard input")
    only = p.add_mutually_exclusive_group()
    only.add_argument(
        "--at",
        type=int,
        default=None,
        metavar="N",
        help=f"only the position after {move} N, as a position file (0: the start)",
    )
    only.add_argument(
        "--moves",
        action="store_true",
        help=f"only the {move}s, one a line: 'N SEAT {move.upper()}'",
    )


def run_replay(
    args: argparse.Namespace,
    steps: Callable[[str], Iterator[Step[G]]],
    position_text: Callable[[G], str],
    *,
    comment: str,
    move: str,
) -> int:
    """Every position, the one after `--at`, or the numbered actions; one `error:` line on
    standard error and status 1 for a record that cannot be read or does not replay."""
    path, at = str(args.file), args.at
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        reason = err.strerror if isinstance(err, OSError) else "not UTF-8 text"
        return _error(f"{path}: cannot read: {reason}")
    names = _names(text)
    blocks: list[str] = []
    last = 0
    try:  # every step, to the end, before printing: a record that does not replay prints nothing
        for step in steps(text):
            last = step.number
            if args.moves:
                if step.number:
                    blocks.append(f"{step.number} {step.seat} {step.action}")
            elif at is None or step.number == at:
                seat = step.seat
                said = "the start" if seat is None else f"{_seat(seat, names)} {step.action}"
                header = [] if at is not None else [f"{comment} step {step.number}: {said}"]
                blocks.append("\n".join([*header, position_text(step.game)]))
    except CorruptRecord as err:
        return _error(f"{path}: {err}")
    if at is not None and not 0 <= at <= last:
        return _error(f"--at {at}: the game has {move}s 0 to {last}")
    print(("\n" if args.moves else "\n\n").join(blocks))
    return 0


def _names(text: str) -> dict[str, str]:
    """Who sat where, if the record says (an exported game does): read for the headers only,
    the steps check the record itself."""
    try:
        names = json.loads(text).get("names", {})
    except (ValueError, AttributeError, RecursionError):
        return {}
    if not isinstance(names, dict):
        return {}
    return {str(k): str(v) for k, v in names.items() if isinstance(v, str)}


def _seat(seat: str, names: dict[str, str]) -> str:
    """`purple (Ann)`: the seat as the notation names it, then who sat there."""
    name = names.get(seat, "")
    return f"{seat} ({name})" if name else seat


def _error(text: str) -> int:
    print(f"error: {text}", file=sys.stderr)
    return 1
