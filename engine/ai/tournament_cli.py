"""`python -m engine.ai tournament`: the rated tournament's command line and its printout."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .players import KINDS
from .tournament import LEVELS_RATED, TournamentResult, tournament

GAMES = ("forbidden-city", "verbotene-stadt")


def add_tournament(sub: Any) -> None:
    """Register the subcommand on the `python -m engine.ai` parser's subparsers."""
    p = sub.add_parser(
        "tournament", help="rate the computer levels against each other (engine/ratings.py)"
    )
    p.add_argument("--game", action="append", choices=GAMES, help="repeat for both (default)")
    p.add_argument("--levels", default=",".join(LEVELS_RATED), help="weakest first")
    p.add_argument("--sizes", help="table sizes played (default: 2 up to 4 or the levels)")
    p.add_argument("--cycles", type=int, default=1, help="rounds of every pairing and rotation")
    p.add_argument("--seed", type=int, default=0, help="the first deal (default 0)")
    p.add_argument("--jobs", type=int, default=1, help="games played at once (default 1)")
    p.add_argument("--time-cap", action="store_true", help="the bot's wall-clock cap per decision")


def report(result: TournamentResult) -> list[str]:
    """The ratings table, then each adjacent pair of levels and whether they are told apart."""
    lines = [f"{result.game}: {result.games} games, seed {result.seed}"]
    for rank, s in enumerate(result.standings, start=1):
        lines.append(
            f"  {rank}. {s.level:<7} {s.rating.shown:>5} ± {s.rating.uncertainty:<4} "
            f"(mu {s.rating.mu:6.2f}, sigma {s.rating.sigma:4.2f})  "
            f"{s.games} games, {s.wins:g} wins"
        )
    for g in result.gaps:
        verdict = "separated" if g.mu_gap > 0 and g.separated else "NOT separated"
        lines.append(
            f"  {g.weaker} < {g.stronger}: mu gap {g.mu_gap:+.2f} ({g.z:+.1f} sigma), "
            f"{g.stronger} finished higher in {g.head_to_head:.0%} of {g.meetings}: {verdict}"
        )
    return lines


def run_tournament(args: argparse.Namespace) -> int:
    levels = [k.strip() for k in args.levels.split(",")]
    default = ",".join(str(n) for n in range(2, min(4, len(levels)) + 1))
    try:
        sizes = [int(n) for n in (args.sizes or default).split(",")]
    except ValueError:
        sizes = []
    bad = [k for k in levels if k not in KINDS] or len(set(levels)) != len(levels)
    if bad or not sizes or any(not 2 <= n <= min(4, len(levels)) for n in sizes):
        print(
            f"error: levels are 2 or more of {', '.join(KINDS)}, each once; sizes 2 to 4, "
            "at most the number of levels",
            file=sys.stderr,
        )
        return 1
    if args.cycles < 1:
        print("error: cycles >= 1", file=sys.stderr)
        return 1
    for game in args.game or GAMES:
        result = tournament(
            game, levels, sizes, args.cycles, args.seed, args.jobs, capped=args.time_cap
        )
        print("\n".join(report(result)))
        print(json.dumps(result.to_json()))
    return 0
