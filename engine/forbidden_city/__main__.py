"""Command line: score, rotate, catalogue (as the positions spec says), play, bench, simulate,
replay (an exported game, position by position)."""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from pathlib import Path

from engine.core.replay_cli import add_replay, run_replay

from .catalogue import catalogue
from .game import Game
from .players import choose_greedy
from .position import PositionError, score
from .replay import position_text, steps
from .text import draw
from .tiles import TileCodeError, rotate_code


def _score(path: str) -> int:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as err:
        print(f"{path}: {err.strerror}", file=sys.stderr)
        return 1
    try:
        result = score(text)
    except PositionError as err:
        print(f"{path}: {err}", file=sys.stderr)
        return 1
    print(json.dumps(result.to_json()))
    return 0


def _rotate(code: str) -> int:
    try:
        print(rotate_code(code))
    except TileCodeError as err:
        print(str(err), file=sys.stderr)
        return 1
    return 0


def _catalogue(players: int) -> int:
    try:
        print(json.dumps(catalogue(players)))
    except ValueError as err:
        print(str(err), file=sys.stderr)
        return 1
    return 0


def _play(args: argparse.Namespace) -> int:
    # A seed the header prints, so a run without --seed can be played again with it.
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    rng = random.Random(seed)
    seats = ["purple", "yellow"] if args.players == 2 else ["purple", "yellow", "red", "blue"]
    seats = seats[: args.players]
    if args.random_seats:
        rng.shuffle(seats)
    game = Game(seats, start=args.start, seed=rng.getrandbits(32))
    print(f"Forbidden City: {', '.join(seats)} ({args.start} side), seed {seed}")
    while not game.is_over:
        seat = game.current
        move = choose_greedy(game, rng) if args.greedy else rng.choice(game.legal_moves())
        result = game.play(move)
        if not args.quiet:
            print(f"{seat:>6} {move}", end="")
            for event in result.closed:
                paid = ", ".join(f"{c} +{n}" for c, n in event.paid.items()) or "nobody paid"
                print(f"  closes a {event.colour} room worth {event.value}: {paid}", end="")
            print()
    print(draw(game.board, game.players))
    assert game.ended is not None
    for colour in game.players:
        shown = " ".join(game.ended.revealed[colour])
        extra = game.ended.bonus[colour]
        print(f"{colour:>6}: {game.scores[colour]:>4} coins (bonus {extra}: {shown})")
    print("winner" + ("s" if len(game.winners) > 1 else "") + ": " + ", ".join(game.winners))
    return 0


def parser() -> argparse.ArgumentParser:
    """The command line, every option with its help text."""
    top = argparse.ArgumentParser(prog="python -m engine.forbidden_city")
    sub = top.add_subparsers(dest="command", required=True)
    p = sub.add_parser("score", help="score a position file")
    p.add_argument("file", help="a position file (docs/forbidden-city-notation.md)")
    p = sub.add_parser("rotate", help="a tile code turned 90 degrees clockwise")
    p.add_argument("code", help="a tile code, e.g. '#...P/G'")
    p = sub.add_parser("catalogue", help="every seat's tiles")
    p.add_argument("--players", type=int, required=True, help="seats in the game: 2, 3 or 4")
    p = sub.add_parser("play", help="a whole game, the engine against itself")
    p.add_argument("--players", type=int, default=4, choices=(2, 3, 4), help="seats (default 4)")
    p.add_argument(
        "--start", default="beginner", choices=("beginner", "advanced"), help="start tile side"
    )
    p.add_argument("--seed", type=int, default=None, help="the same seed plays the same game")
    p.add_argument("--random-seats", action="store_true", help="seats in a random order")
    p.add_argument("--greedy", action="store_true", help="seats play greedily, not at random")
    p.add_argument("--quiet", action="store_true", help="only the final board and scores")
    p = sub.add_parser("bench", help="speed figures, one JSON line")
    p.add_argument(
        "--games",
        type=int,
        default=200,
        help="whole random 4-player games timed (default %(default)s)",
    )
    p = sub.add_parser("simulate", help="catalogue calibration figures, one JSON line")
    p.add_argument(
        "--games",
        type=int,
        default=500,
        help="games played, seeds 0 to GAMES-1 (default %(default)s)",
    )
    p.add_argument(
        "--players", type=int, default=4, choices=(2, 3, 4), help="seats (default %(default)s)"
    )
    p.add_argument(
        "--start",
        default="beginner",
        choices=("beginner", "advanced"),
        help="start tile side (default %(default)s)",
    )
    p.add_argument(
        "--policy",
        default="greedy",
        choices=("random", "greedy"),
        help="random: any legal move; greedy: the move that pays the seat most "
        "(default %(default)s)",
    )
    add_replay(sub, comment="#", notation="docs/forbidden-city-notation.md", move="move")
    return top


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.command == "score":
        return _score(args.file)
    if args.command == "rotate":
        return _rotate(args.code)
    if args.command == "catalogue":
        return _catalogue(args.players)
    if args.command == "play":
        return _play(args)
    if args.command == "replay":
        return run_replay(args, steps, position_text, comment="#", move="move")
    if args.command == "bench":
        from .bench import run

        print(json.dumps(run(args.games)))
        return 0
    from .simulate import run as simulate

    print(json.dumps(simulate(args.games, args.players, args.start, args.policy)))
    return 0


def run_cli() -> int:
    """`main`, quiet when its reader goes away (`| head`), as command-line tools are."""
    try:
        return main()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(run_cli())
