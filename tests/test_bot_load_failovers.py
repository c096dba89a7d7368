"""`python -m bot load --failovers N` plays on a local Redis Cluster while it kills and
restores masters, and accounts for what players would have seen go wrong: one JSON line of
figures, last (docs/operations.md has a run of 30)."""

from __future__ import annotations

from tests.procs import bot_load, ours

SMALL = ["--processes", "1", "--tables", "12", "--rate", "6"]


def test_a_failover_under_play_answers_no_table_never_and_loses_no_copied_move() -> None:
    figures, _ = bot_load("--failovers", "1", *SMALL, timeout=600)
    assert figures["failovers"] == 1 and figures["cycles_without_play"] == 0
    assert figures["moves"] >= 3  # the quarter of the tables moved before the kill
    assert figures["answered_try_again"] > 0  # the outage was met, and said so
    assert figures["no_table_answers"] == figures["tables_read_absent"] == 0
    assert figures["moves_lost_copied"] == 0
    assert figures["deadlines_missed"] == figures["deadlines_twice"] == figures["errors"] == 0
    assert ours("bot load-worker") == [], "a worker outlived the load run"
