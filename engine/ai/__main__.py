"""`python -m engine.ai arena --game G --players hard,greedy --games N`;
`python -m engine.ai tournament --game G --cycles N`: the levels' ratings (tournament.py)."""

from __future__ import annotations

import argparse
import json
import sys

from .arena import match
from .players import KINDS
from .tournament_cli import add_tournament, run_tournament


def parser() -> argparse.ArgumentParser:
    """The command line, every option with its help text."""
    top = argparse.ArgumentParser(prog="python -m engine.ai")
    sub = top.add_subparsers(dest="command", required=True)
    arena = sub.add_parser("arena", help="play computer players against each other")
    arena.add_argument(
        "--game",
        default="forbidden-city",
        help="the game: forbidden-city (default) or verbotene-stadt",
    )
    arena.add_argument("--players", required=True, help=f"comma-separated: {', '.join(KINDS)}")
    arena.add_argument(
        "--games",
        type=int,
        default=20,
        help="games played, the seats rotating from game to game (default %(default)s)",
    )
    arena.add_argument(
        "--seed",
        type=int,
        default=0,
        help="the first game's seed; each next game adds 1 (default %(default)s)",
    )
    arena.add_argument(
        "--jobs", type=int, default=1, help="games played at once (default %(default)s)"
    )
    add_tournament(sub)
    return top


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.command == "tournament":
        return run_tournament(args)
    kinds = [k.strip() for k in args.players.split(",")]
    bad = [k for k in kinds if k not in KINDS]
    if bad or not 2 <= len(kinds) <= 4 or args.games < 1:
        print(f"error: players must be 2 to 4 of {', '.join(KINDS)}; games >= 1", file=sys.stderr)
        return 1
    try:
        result = match(args.game, kinds, args.games, args.seed, args.jobs)
    except ModuleNotFoundError:
        print(f"error: no computer players for game {args.game!r}", file=sys.stderr)
        return 1
    for p in result["players"]:
        print(
            f"{p['slot']}:{p['player']:<7} wins {p['win_rate']:.1%} "
            f"[{p['ci95'][0]:.1%}, {p['ci95'][1]:.1%}]  mean score {p['mean_score']:>6}  "
            f"think median {p['think_ms_median']} ms, p99 {p['think_ms_p99']} ms, "
            f"max {p['think_ms_max']} ms, cut by the cap {p['cut_by_cap']} of {p['decisions']}"
        )
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
