"""Figures about a board: how reachable its pavilions are in mid game, and how fast moves are.

The board's design (docs/rules-notes.md) was tuned with `entry_figures`; `time_every_move` gives
the movement speed figure. Mid-game positions come from quick play: four players each bribe an
official at random; the mover enters the open pavilion with its bribed official when it can, else
moves a random official to a random end square; after an entry the entering player bribes anew
and the blue die is rolled. Play stops once the given number of officials is exiled.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from dataclasses import dataclass

from .actions import OFFICIALS
from .board import Board, Square
from .movement import can_enter, every_move, moves

PLAYERS = 4
MAX_MOVES = 3000  # a board where entries never happen still ends the play


@dataclass(frozen=True, slots=True)
class Midgame:
    at: dict[str, Square]
    open: int
    exiled: int


def start(board: Board, rng: random.Random) -> dict[str, Square]:
    """The 25 officials at random on the start squares."""
    squares = list(board.start_squares)
    rng.shuffle(squares)
    return dict(zip(OFFICIALS, squares, strict=False))


def midgame(board: Board, rng: random.Random, exiled: int = 6) -> Midgame:
    """A position reached by quick play (see the module docstring) after `exiled` entries."""
    at = start(board, rng)
    open_pavilion = rng.randint(1, 8)
    bribes = [rng.choice(sorted(at)) for _ in range(PLAYERS)]
    out = 0
    for turn in range(MAX_MOVES):
        if out >= exiled:
            break
        mover = turn % PLAYERS
        entry = can_enter(board, at, bribes[mover], open_pavilion)
        if entry is None:
            code = rng.choice(sorted(at))
            ends = [m.end for m in moves(board, at, code, open_pavilion) if m.end is not None]
            if ends:
                at[code] = rng.choice(ends)
            continue
        del at[entry.official]
        out += 1
        bribes = [b if b in at else rng.choice(sorted(at)) for b in bribes]
        open_pavilion = rng.randint(1, 8)
    return Midgame(at, open_pavilion, out)


def entry_figures(board: Board, positions: list[Midgame]) -> dict[str, object]:
    """For each pavilion as the open one: how many officials can enter it in one move
    (mean, median, max over the positions, and the share of positions where nobody can), the
    spread of those counts over all pavilions (share of 0, 1, 2 to 5, 6 or more), and how many
    officials are on the board, and how many of them off the start squares."""
    per: dict[str, object] = {}
    counts_all: list[int] = []
    for p in sorted(board.pavilions):
        counts = [
            sum(can_enter(board, pos.at, code, p) is not None for code in pos.at)
            for pos in positions
        ]
        counts_all.extend(counts)
        per[str(p)] = _summary(counts)
    on_board = [len(pos.at) for pos in positions]
    free = [sum(not board.is_start(sq) for sq in pos.at.values()) for pos in positions]
    spread = {
        name: round(sum(low <= c <= high for c in counts_all) / len(counts_all), 3)
        for name, low, high in (("0", 0, 0), ("1", 1, 1), ("2-5", 2, 5), ("6+", 6, 99))
    }
    return {
        "spread": spread,
        "off_start": _summary(free),
        "positions": len(positions),
        "officials": _summary(on_board),
        "all": _summary(counts_all),
        **per,
    }


def _summary(counts: list[int]) -> dict[str, float]:
    return {
        "mean": round(statistics.fmean(counts), 2),
        "median": statistics.median(counts),
        "max": max(counts),
        "none": round(sum(c == 0 for c in counts) / len(counts), 2),
    }


def time_every_move(board: Board, positions: list[Midgame], repeat: int = 5) -> float:
    """Median processor seconds for every move of every official (`every_move`) on a position
    (processor time, so that other work on a shared machine does not count)."""
    times = []
    for pos in positions:
        for _ in range(repeat):
            began = time.process_time()
            every_move(board, pos.at, pos.open)
            times.append(time.process_time() - began)
    return statistics.median(times)


def positions(board: Board, count: int, seed: int = 0, exiled: int = 6) -> list[Midgame]:
    rng = random.Random(seed)
    return [midgame(board, rng, exiled) for _ in range(count)]


def main() -> None:
    """Print the figures of docs/rules-notes.md for the engine's own board, as JSON."""
    board = Board.default()
    found = positions(board, 200, seed=1)
    figures = entry_figures(board, found)
    figures["every_move_ms"] = round(time_every_move(board, found[:50]) * 1000, 3)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
