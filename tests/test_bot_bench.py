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
