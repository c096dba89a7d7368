"""What the table shows of the latest turn: the last move's path and the fate dice it rolled."""

from __future__ import annotations

import random

from engine.verbotene_stadt.events import FateRolled, OfficialMoved
from engine.verbotene_stadt.game import Game
from engine.verbotene_stadt.players import choose_simple

STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


def _straight(a: tuple[int, int], b: tuple[int, int], direction: str) -> bool:
    dx, dy = STEP[direction]
    n = abs(b[0] - a[0]) + abs(b[1] - a[1])
    return n > 0 and (a[0] + dx * n, a[1] + dy * n) == b


def test_each_move_tells_where_every_slide_stopped() -> None:
    checked = entries = 0
    for seed in range(6):
        game = Game(3, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            turn = game.to_act[0]
            result = game.play(turn.seat, choose_simple(game, turn.seat, rng))
            for event in result.events:
                if not isinstance(event, OfficialMoved):
                    continue
                stops = [event.start, *event.path]
                assert len(event.path) == len(event.slides)
                for a, b, d in zip(stops, stops[1:], event.slides, strict=False):
                    assert _straight(a, b, d) or (a == b and event.end is None), (event, a, b)
                if event.end is None:
                    entries += 1
                    entered = game.view(None).last_move
                    assert entered is not None and entered.entered is not None
                    x, y = event.path[-1]
                    doors = game.board.doors(entered.entered)
                    assert any(
                        (sx, sy) == (x + STEP[d][0], y + STEP[d][1])
                        or (sx + STEP[d][0], sy + STEP[d][1]) == (x, y)
                        for (sx, sy), d in doors
                    )
                else:
                    assert event.path[-1] == event.end
                checked += 1
    assert checked > 100 and entries > 10


def test_the_view_shows_the_latest_turns_dice_and_move() -> None:
    game = Game(2, seed=4)
    rng = random.Random(4)
    rolled: list[tuple[str, str]] = []
    while not game.is_over and game.moves_made < 2:
        turn = game.to_act[0]
        was = game.moves_made
        result = game.play(turn.seat, choose_simple(game, turn.seat, rng))
        if was == 0 and any(isinstance(e, OfficialMoved) for e in result.events):
            rolled = []
        rolled += [(e.die, e.face) for e in result.events if isinstance(e, FateRolled)]
        moved = [e for e in result.events if isinstance(e, OfficialMoved)]
        if moved:
            view = game.view(None)
            assert view.last_move is not None
            assert view.last_move.official == moved[-1].official
            assert view.last_move.path[0] == moved[-1].start
            assert view.last_rolls == rolled
    assert rolled and rolled[0][0] == "small"
