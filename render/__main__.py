"""`python -m render bench` (timings as one JSON line) and `python -m render gallery DIR`.

The bench table is a seeded random 4-player game played to two moves before its end (about 95
cells), the size the bot renders most often late in a game.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from engine.forbidden_city import Game
from engine.verbotene_stadt import Game as StadtGame
from engine.verbotene_stadt.players import choose_greedy

from . import verbotene_stadt as stadt
from .forbidden_city.images import end_png, hand_png, preview_png, private_png, table_png

STADT_NAMES = {"north": "Mei 美玲", "east": "Łukasz", "south": "Aiko 🌸", "west": "Дарья"}


def played(seed: int, moves: int | None = None, players: int = 4, start: str = "beginner") -> Game:
    """A seeded random game, stopped after `moves` moves (None: to the end)."""
    game = Game(players, start=start, seed=seed)
    rng = random.Random(seed)
    while not game.is_over and (moves is None or len(game.moves) < moves):
        game.play(rng.choice(game.legal_moves()))
    return game


def late_game(seed: int = 2024) -> Game:
    """A 4-player game two moves before its end: the biggest table a player still moves on."""
    total = len(played(seed).moves)
    return played(seed, total - 2)


def stadt_game(seed: int = 7, exiled: int = 8) -> StadtGame:
    """A 4-player Verbotene Stadt game between greedy players, stopped in the middle of a turn
    once `exiled` officials are on the exile terrace: cards in hands, a path, dice."""
    game = StadtGame(4, seed=seed)
    rng = random.Random(seed)
    while not game.is_over and (
        len(game.exiled) < exiled or game.to_act[0].kind != "move" or not game.moves_made
    ):
        turn = game.to_act[0]
        game.play(turn.seat, choose_greedy(game, turn.seat, rng))
    return game


def _median_ms(make: Callable[[], bytes], runs: int) -> tuple[float, float, int]:
    first_start = time.perf_counter()
    data = make()
    first = (time.perf_counter() - first_start) * 1000
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        data = make()
        times.append((time.perf_counter() - start) * 1000)
    return round(statistics.median(times), 2), round(first, 1), len(data)


def bench(runs: int) -> dict[str, object]:
    game = late_game()
    table_ms, table_first, table_bytes = _median_ms(lambda: table_png(game.view(None)), runs)
    private_ms, private_first, private_bytes = _median_ms(
        lambda: private_png(game.view(game.current)), runs
    )
    stadt_view = stadt_game().view(None)
    stadt_ms, stadt_first, stadt_bytes = _median_ms(
        lambda: stadt.table_png(stadt_view, STADT_NAMES), runs
    )
    return {
        "cells": len(game.board.cells),
        "runs": runs,
        "table_ms": table_ms,
        "table_bytes": table_bytes,
        "table_first_ms": table_first,
        "private_ms": private_ms,
        "private_bytes": private_bytes,
        "private_first_ms": private_first,
        "stadt_table_ms": stadt_ms,
        "stadt_table_bytes": stadt_bytes,
        "stadt_table_first_ms": stadt_first,
    }


def gallery(directory: Path) -> list[Path]:
    """Sample images: start, mid-game (names given), late game, private view, the preview of a
    move, a waiting seat's hand, end; a Verbotene Stadt table, public and private."""
    directory.mkdir(parents=True, exist_ok=True)
    names = {"purple": "Mei 美玲", "yellow": "Łukasz", "red": "Aiko 🌸", "blue": "Дарья"}
    mid = played(11, 36)
    while not any(room.paid for room in mid.results[-1].closed):  # a room closed and paid
        mid.play(random.Random(len(mid.moves)).choice(mid.legal_moves()))
    advanced = played(5, 10, players=3, start="advanced")
    mine = mid.view(mid.current)
    waiting = mid.players[(mid.turn + 1) % len(mid.players)]
    shots = {
        "start": table_png(Game(4, seed=1).view(None)),
        "mid": table_png(mid.view(None), names),
        "advanced": table_png(advanced.view(None)),
        "private": private_png(mine, names),
        "preview": preview_png(mine, mine.legal_moves[0], names),
        "hand": hand_png(mid.view(waiting), names),
        "late": table_png(late_game().view(None)),
        "end": end_png(played(7).view(None), names),
        "stadt": stadt.table_png(stadt_game().view(None), STADT_NAMES),
        "stadt-private": stadt.table_png(stadt_game().view("north"), STADT_NAMES),
    }
    paths = []
    for name, data in shots.items():
        path = directory / f"gallery-{name}.png"
        path.write_bytes(data)
        paths.append(path)
    return paths


def parser() -> argparse.ArgumentParser:
    """The command line, every option with its help text."""
    made = argparse.ArgumentParser(prog="python -m render", description="The bot's images.")
    sub = made.add_subparsers(dest="command", required=True)
    b = sub.add_parser(
        "bench", help="time a late-game table, private view and Verbotene Stadt table (JSON line)"
    )
    b.add_argument("--runs", type=int, default=40, help="images drawn per figure (default 40)")
    g = sub.add_parser("gallery", help="write sample images to DIR")
    g.add_argument("directory", type=Path, help="the folder to write the PNG files to")
    return made


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.command == "bench":
        print(json.dumps(bench(args.runs)))
    else:
        for path in gallery(args.directory):
            print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
