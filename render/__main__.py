"""`python -m render bench` (timings as one JSON line) and `python -m render gallery DIR`.

The bench table is a seeded random 4-player game played to two moves before its end (about 95
cells), the size the bot renders most often late in a game. The bench replays are whole
4-player games between greedy players, one frame a move, drawn and encoded as an animated GIF.
"""

from __future__ import annotations

import argparse
import io
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from PIL import GifImagePlugin, Image

from engine.forbidden_city import Game
from engine.forbidden_city.players import choose_greedy as choose_greedy_tile
from engine.forbidden_city.view import SeatView
from engine.verbotene_stadt import Game as StadtGame
from engine.verbotene_stadt.players import choose_greedy
from engine.verbotene_stadt.view import SeatView as StadtView

from . import verbotene_stadt as stadt
from .animation import animate, palette_frames
from .forbidden_city import palette as tile_palette
from .forbidden_city.images import (
    end_png,
    hand_png,
    preview_png,
    private_png,
    table_png,
)
from .forbidden_city.replay import replay_drawer
from .leaderboard import Row, leaderboard_png
from .verbotene_stadt import palette as stadt_palette

NAMES = {"purple": "Mei 美玲", "yellow": "Łukasz", "red": "Aiko 🌸", "blue": "Дарья"}
STADT_NAMES = {"north": "Mei 美玲", "east": "Łukasz", "south": "Aiko 🌸", "west": "Дарья"}
BOARD = (  # a plausible leaderboard: several scripts, computer levels, every kind of trend
    Row(1, "Mei 美玲", 1612, 48, 41, 23, (1500, 1531, 1526, 1570, 1588, 1612)),
    Row(2, "Computer (hard)", 1580, 35, 120, 61, (1601, 1596, 1590, 1588, 1580)),
    Row(3, "Łukasz", 1544, 60, 22, 10, (1480, 1502, 1544)),
    Row(4, "Aiko 🌸", 1502, 71, 15, 6, (1520, 1490, 1515, 1502)),
    Row(5, "محمد", 1475, 66, 18, 7, (1475,)),
    Row(6, "Дарья", 1460, 82, 9, 3, ()),
    Row(7, "Computer (normal)", 1433, 30, 150, 52, (1440, 1436, 1433, 1433)),
    Row(8, "Priyā प्रिया", 1398, 90, 7, 2, (1350, 1420, 1398)),
)
REPLAY_DOCS_LIMIT = 3 * 1024 * 1024  # the gallery's replay, kept light for the README
V = TypeVar("V")


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


def tile_views(seed: int = 3, players: int = 4) -> list[SeatView]:
    """The public view before the first move and after each move of a seeded game between
    greedy players (88 moves with the defaults)."""
    game = Game(players, seed=seed)
    rng = random.Random(seed)
    views = [game.view(None)]
    while not game.is_over:
        game.play(choose_greedy_tile(game, rng))
        views.append(game.view(None))
    return views


def stadt_views(seed: int = 7) -> list[StadtView]:
    """The public view before the first action and after each action of a seeded 4-player
    Verbotene Stadt game between greedy players."""
    game = StadtGame(4, seed=seed)
    rng = random.Random(seed)
    views = [game.view(None)]
    while not game.is_over:
        turn = game.to_act[0]
        game.play(turn.seat, choose_greedy(game, turn.seat, rng))
        views.append(game.view(None))
    return views


def _replay(
    views: Sequence[V],
    names: dict[str, str],
    drawer: Callable[[Sequence[V], dict[str, str]], Callable[[V], Image.Image]],
    palette: Image.Image,
) -> dict[str, object]:
    """A replay as the bot makes one: its frames drawn (`drawer` sets up what they share), then
    encoded; times in ms and the GIF's size."""
    start = time.perf_counter()
    frames = palette_frames(views, drawer(views, names), palette)
    drawn = time.perf_counter()
    gif = animate(frames)
    draw_ms, encode_ms = (drawn - start) * 1000, (time.perf_counter() - drawn) * 1000
    with Image.open(io.BytesIO(gif)) as shown:
        assert isinstance(shown, GifImagePlugin.GifImageFile)
        count = shown.n_frames
    return {
        "views": len(views),
        "frames": count,
        "draw_ms": round(draw_ms),
        "encode_ms": round(encode_ms),
        "total_ms": round(draw_ms + encode_ms),
        "bytes": len(gif),
    }


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
    board_ms, board_first, board_bytes = _median_ms(
        lambda: leaderboard_png("Forbidden City: best players", BOARD), runs
    )
    replay = {
        "forbidden_city": _replay(tile_views(), NAMES, replay_drawer, tile_palette.palette_image()),
        "verbotene_stadt": _replay(
            stadt_views(), STADT_NAMES, stadt.replay_drawer, stadt_palette.palette_image()
        ),
    }
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
        "leaderboard_ms": board_ms,
        "leaderboard_bytes": board_bytes,
        "leaderboard_first_ms": board_first,
        "replay": replay,
    }


def gallery(directory: Path) -> list[Path]:
    """Sample images: start, mid-game (names given), late game, private view, the preview of a
    move, a waiting seat's hand, end; a Verbotene Stadt table, public and private; a
    leaderboard; and the replay of a whole 2-player game (GIF, at most 3 MB)."""
    directory.mkdir(parents=True, exist_ok=True)
    names = NAMES
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
    shots["leaderboard"] = leaderboard_png(
        "Forbidden City: best players everywhere",
        BOARD,
        subtitle="A cautious estimate of skill: the ± shrinks as more games are played.",
    )
    replayed = tile_views(seed=3, players=2)
    frames = palette_frames(replayed, replay_drawer(replayed, names), tile_palette.palette_image())
    paths = []
    for name, data in shots.items():
        path = directory / f"gallery-{name}.png"
        path.write_bytes(data)
        paths.append(path)
    path = directory / "gallery-replay.gif"
    path.write_bytes(animate(frames, limit=REPLAY_DOCS_LIMIT))
    paths.append(path)
    return paths


def parser() -> argparse.ArgumentParser:
    """The command line, every option with its help text."""
    made = argparse.ArgumentParser(prog="python -m render", description="The bot's images.")
    sub = made.add_subparsers(dest="command", required=True)
    b = sub.add_parser(
        "bench",
        help="time a late-game table, private view, Verbotene Stadt table, leaderboard and "
        "whole-game replays (JSON line)",
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
