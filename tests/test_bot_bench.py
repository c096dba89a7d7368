"""`python -m bot bench` plays both games through the service, Redis and the images."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_bench_prints_one_json_line_with_figures_for_both_games() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot", "bench", "--games", "2", "--moves", "8"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    [line] = done.stdout.strip().splitlines()
    figures = json.loads(line)
    assert figures["timed_plays"] == 8 and figures["stadt_timed_moves"] == 8
    assert 0 < figures["play_median_ms"] <= figures["play_p99_ms"]
    assert 0 < figures["stadt_move_median_ms"] <= figures["stadt_move_p99_ms"]
    assert 0 < figures["stadt_stored_game_bytes_max"] < 16_000  # a few KB per game
    # The message budget of one person against three computers at the default pause: a
    # person deciding every 6 s keeps each group within Telegram's 20 a minute and each
    # channel within Discord's 5 in 5 s; computers moving in turn are told in one post.
    budget = figures["messages"]
    for game in ("knizia", "stadt"):
        quick = budget["person_every_6s"][game]
        assert quick["telegram"]["group_worst_minute"] < 20, quick
        assert quick["discord"]["group_worst_5s"] < 5, quick
        for pace in budget.values():
            told = pace[game]
            assert 0 < told["discord"]["group_posts"] <= told["telegram"]["group_posts"]
            assert told["telegram"]["group_posts"] < told["actions"] * 0.6, told
            assert told["discord"]["group_worst_5s"] < 5, told
