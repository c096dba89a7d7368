"""`python -m bot load` and its worker's command lines, and what each runs."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import sys
from collections.abc import AsyncIterator
from typing import Any

from engine.ai import LEVELS

from ..runtime import loop


def add_load(sub: Any) -> None:
    """`load` on the bot's subcommands."""
    load = sub.add_parser(
        "load",
        help="open-loop load over several bot processes; one JSON line of figures",
        description="Play tables of both games with simulated players over several bot "
        "processes (service, Redis, images), offering moves at a fixed rate, on a scratch "
        "Redis of its own. Prints one JSON line of figures last.",
    )
    load.add_argument("--processes", type=int, default=2, help="bot processes (default 2)")
    load.add_argument("--tables", type=int, default=1000, help="tables in flight (default 1000)")
    load.add_argument(
        "--rate", type=float, default=100, help="moves offered a second (default 100)"
    )
    load.add_argument("--seconds", type=float, default=30, help="length of the run (default 30)")
    load.add_argument(
        "--computers",
        type=int,
        default=0,
        help="computer players at every table (default 0), their searches counted",
    )
    load.add_argument(
        "--level",
        choices=LEVELS,
        default="normal",
        help="the computer players' level (default normal)",
    )
    load.add_argument(
        "--kill", action="store_true", help="SIGKILL one process halfway and count what it lost"
    )
    load.add_argument(
        "--aged",
        action="store_true",
        help="before the clock starts, play each table an even share of a game's length, so "
        "tables are at every point of their games (for a soak's memory curve)",
    )
    load.add_argument(
        "--paced",
        action="store_true",
        help="instead: play games of one person against three computer players through the "
        "real Telegram and Discord adapters, against local stand-ins that pace the bot as "
        "the platforms do, and print, one JSON line a platform, how long a move takes to "
        "reach its chat as a picture (1 group, --groups groups, one beside a flooded group); "
        "each of the three runs lasts --seconds",
    )
    load.add_argument(
        "--groups",
        type=int,
        default=100,
        help="with --paced: the groups played at once in the second run (default 100)",
    )
    load.add_argument(
        "--failovers",
        type=int,
        default=0,
        metavar="N",
        help="on a local Redis Cluster, kill and restore a master N times in a row during "
        "play (instead of --seconds), and count what players would have seen go wrong",
    )


def add_worker(sub: Any) -> None:
    """`load-worker`, started by `load` only (no help: --help does not list it)."""
    worker = sub.add_parser("load-worker")
    worker.add_argument("--redis", required=True, help="the Redis URL the load run shares")
    worker.add_argument("--port", type=int, required=True, help="where the driver asks")
    worker.add_argument("--reminder", type=float, default=15.0, help="seconds to a reminder")
    worker.add_argument("--computers", type=int, default=0, help="computer players a table")
    worker.add_argument("--level", choices=LEVELS, default="normal", help="their level")


def run_load(args: argparse.Namespace) -> int:
    """The load run the arguments ask for; its figures as one JSON line."""
    from .driver import measure

    if min(args.processes, args.tables) < 1 or args.rate <= 0 or args.seconds <= 0:
        print(
            "fc-bot: --processes, --tables, --rate and --seconds must be positive",
            file=sys.stderr,
        )
        return 2
    if not 0 <= args.computers <= 3:
        print("fc-bot: --computers is 0 to 3 (a person keeps a seat)", file=sys.stderr)
        return 2
    if args.paced:
        from .paced import measure_paced

        if args.groups < 1:
            print("fc-bot: --groups must be positive", file=sys.stderr)
            return 2
        # Waits and 429s are what the run measures and counts (`refused_429`): only errors are
        # logged, and not python-telegram-bot's traceback for every 429 it passes on.
        logging.basicConfig(level="ERROR", format="%(name)s: %(message)s")
        logging.getLogger("telegram.ext.AIORateLimiter").setLevel(logging.CRITICAL)
        asyncio.run(_print_paced(measure_paced(args.groups, args.seconds)))
        return 0
    if args.failovers > 0:
        from .failovers import measure_failovers

        figures = asyncio.run(
            measure_failovers(args.processes, args.tables, args.rate, args.failovers)
        )
    else:
        figures = asyncio.run(
            measure(
                args.processes,
                args.tables,
                args.rate,
                args.seconds,
                args.kill,
                args.computers,
                args.level,
                args.aged,
            )
        )
    print(json.dumps(figures))
    return 0


async def _print_paced(lines: AsyncIterator[dict[str, Any]]) -> None:
    async for line in lines:
        print(json.dumps(line), flush=True)


def run_worker(args: argparse.Namespace) -> int:
    """One bot process of a load run, until the driver kills it."""
    from .worker import serve

    logging.basicConfig(level="WARNING")
    with contextlib.suppress(KeyboardInterrupt):
        loop.run(serve(args.redis, args.port, args.reminder, args.computers, args.level))
    return 0
