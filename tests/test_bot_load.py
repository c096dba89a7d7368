"""`python -m bot load` drives bot processes of its own over a scratch Redis, kills one when
asked, and accounts for what that cost: one JSON line of figures, last."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.procs import ROOT, bot_environment, ours

SMALL = ["--rate", "12", "--seconds", "4", "--kill"]


def test_a_small_load_with_a_killed_process_loses_nothing() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot", "load", "--processes", "2", "--tables", "24", *SMALL],
        cwd=ROOT,
        env=bot_environment(),
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["processes"] == 2 and figures["tables"] == 24
    assert figures["offered_per_s"] == 12.0
    assert 0 < figures["achieved_per_s"] <= 13
    assert 0 < figures["p50_ms"] <= figures["p99_ms"] <= figures["max_ms"]
    assert figures["errors"] == 0
    assert figures["cpu_ms_per_move"] > 0
    assert 500 < figures["redis_bytes_per_table"] < 16_000  # a few KB a table
    assert figures["moves_lost"] == figures["deadlines_missed"] == figures["deadlines_twice"] == 0
    assert ours("bot load-worker") == [], "a worker outlived the load run"


def test_bad_figures_are_refused() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot", "load", "--rate", "0"],
        cwd=ROOT,
        env=bot_environment(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "must be positive" in done.stderr
