"""Command line: board, moves, reach, score (the positions spec); play, simulate, bench;
replay (an exported game, position by position).

Every error is one line on standard error and exit status 1, nothing on standard output.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import NoReturn

from engine.core.replay_cli import add_replay, run_replay

from .board import Board
from .cards import CardError, best_grouping, parse_card
from .movement import can_enter, moves
from .position import Position, PositionError, parse_position
from .replay import position_text, steps


class UsageError(Exception):
    """A bad command line argument."""


class _Parser(argparse.ArgumentParser):
    """argparse whose errors are one line and exit status 1, as the spec asks."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def _load(path: str) -> Position:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        reason = err.strerror if isinstance(err, OSError) else "not UTF-8 text"
        raise UsageError(f"{path}: cannot read: {reason}") from None
    try:
        return parse_position(text)
    except PositionError as err:
        raise UsageError(f"{path}: {err}") from None


def _board() -> int:
    print(Board.default().to_text())
    return 0


def _moves(path: str, official: str) -> int:
    position = _load(path)
    if official not in position.at:
        raise UsageError(f"{official} is not on the board in {path}")
    found = moves(position.board, position.at, official, position.open)
    ends = [f"{m.end[0]},{m.end[1]}" for m in found if m.end is not None]
    print(json.dumps({"ends": ends, "enters": any(m.end is None for m in found)}))
    return 0


def _reach(path: str, pavilion: str) -> int:
    if pavilion not in tuple("12345678"):
        raise UsageError(f"pavilion {pavilion!r}: a number from 1 to 8")
    position = _load(path)
    for code in sorted(position.at):
        move = can_enter(position.board, position.at, code, int(pavilion))
        if move is not None:
            print(f"{code} {','.join(move.slides)}")
    return 0


def _score(cards: list[str]) -> int:
    try:
        grouping = best_grouping(parse_card(card) for card in cards)
    except CardError as err:
        raise UsageError(str(err)) from None
    print(json.dumps({"points": grouping.points, "groups": [list(g) for g in grouping.groups]}))
    return 0


def _selfplay(args: argparse.Namespace) -> int:
    """`play`, `simulate` and `bench`: games between the simple players of players.py."""
    if args.command == "bench":
        from .bench import run as bench

        print(json.dumps(bench(games=max(1, args.games))))
        return 0
    if args.teams and args.players != 4:
        raise UsageError("the team game is for 4 players")
    if args.command == "play":
        from .text import transcript

        print("\n".join(transcript(args.players, args.seed, args.policy, args.teams)))
        return 0
    if args.games < 1:
        raise UsageError("--games: at least 1")
    from .simulate import run as simulate

    print(json.dumps(simulate(args.games, args.players, args.policy, args.teams)))
    return 0


def _table_options(p: argparse.ArgumentParser) -> None:
    """The seats of `play` and `simulate`, and how they play."""
    p.add_argument(
        "--players", type=int, default=4, choices=(2, 3, 4), help="seats (default %(default)s)"
    )
    p.add_argument(
        "--policy",
        default="simple",
        choices=("random", "simple", "greedy"),
        help="how every seat plays, as engine/verbotene_stadt/players.py says "
        "(default %(default)s)",
    )
    p.add_argument("--teams", action="store_true", help="the 4-player team game")


def parser() -> argparse.ArgumentParser:
    """The command line; each subcommand names its handler in `run`."""
    top = _Parser(prog="python -m engine.verbotene_stadt")
    sub = top.add_subparsers(dest="command", required=True, parser_class=_Parser)
    sub.add_parser("board", help="the engine's own board as board text")
    position = "a position file (docs/verbotene-stadt-positions.md)"
    p = sub.add_parser("moves", help="where a move of an official can end, as JSON")
    p.add_argument("file", help=position)
    p.add_argument("official", help="the code of the official that moves, e.g. RB")
    p = sub.add_parser("reach", help="the officials that can enter a pavilion in one move")
    p.add_argument("file", help=position)
    p.add_argument("pavilion", help="the pavilion's number, 1 to 8")
    p = sub.add_parser("score", help="the best grouping of clothing cards, as JSON")
    p.add_argument(
        "cards",
        nargs="*",
        metavar="CARD",
        help="a card: pavilion 1-8 then H (hat), C (coat) or T (trousers), e.g. 3H",
    )
    p = sub.add_parser("play", help="a whole game between simple players, turn by turn")
    _table_options(p)
    p.add_argument(
        "--seed",
        type=int,
        default=0,
        help="the same seed plays the same game (default %(default)s)",
    )
    p = sub.add_parser("simulate", help="figures from many games, one JSON line")
    p.add_argument(
        "--games",
        type=int,
        default=200,
        help="games played, seeds 0 to GAMES-1 (default %(default)s)",
    )
    _table_options(p)
    p = sub.add_parser("bench", help="speed figures, one JSON line")
    p.add_argument(
        "--games",
        type=int,
        default=50,
        help="whole 4-player games between simple players timed (default %(default)s)",
    )
    add_replay(sub, comment=";", notation="docs/verbotene-stadt-positions.md", move="action")
    return top


def run(args: argparse.Namespace) -> int:
    if args.command == "board":
        return _board()
    if args.command == "moves":
        return _moves(args.file, args.official)
    if args.command == "reach":
        return _reach(args.file, args.pavilion)
    if args.command == "score":
        return _score(args.cards)
    if args.command in ("play", "simulate", "bench"):
        return _selfplay(args)
    if args.command == "replay":
        return run_replay(args, steps, position_text, comment=";", move="action")
    raise UsageError(f"unknown command {args.command!r}")


def main(argv: list[str] | None = None) -> int:
    try:
        return run(parser().parse_args(argv))
    except UsageError as err:
        print(str(err).replace("\n", " "), file=sys.stderr)
        return 1


def run_cli() -> int:
    """`main`, quiet when its reader goes away (`| head`), as command-line tools are."""
    try:
        return main()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(run_cli())
