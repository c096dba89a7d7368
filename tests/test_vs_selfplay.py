"""Die Verbotene Stadt self-play commands: play, simulate, bench, and their bad input."""

from __future__ import annotations

import json

import pytest

from engine.verbotene_stadt.__main__ import main


def test_play_prints_a_whole_game_turn_by_turn(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--players", "3", "--seed", "4"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Die Verbotene Stadt: north, east, south, seed 4, simple players"
    assert sum("goes to the exile terrace" in line for line in lines) == 15
    assert any(line.startswith("game over: ") for line in lines)
    assert [line.split(":")[0] for line in lines[-3:]] == ["north", "east", "south"]
    assert main(["play", "--players", "3", "--seed", "4"]) == 0
    assert capsys.readouterr().out.splitlines() == lines  # the seed decides everything


def test_simulate_prints_one_json_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "3", "--players", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1
    figures = json.loads(out[0])
    assert figures["games"] == 3 and figures["players"] == 2
    assert figures["cards_per_player_mean"] > 0
    assert set(figures["fate_faces"]) <= {"black", "red", "dragon", "pavilion"}


def test_bench_prints_one_json_line_with_the_goals(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--games", "2"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["legal_actions_goal_ms"] == 1.0 and figures["game_goal_ms"] == 50.0
    assert figures["games"] == 2 and figures["legal_actions_median_ms"] > 0


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--players", "5"],
        ["play", "--players", "3", "--teams"],
        ["play", "--seed", "x"],
        ["simulate", "--games", "0"],
        ["play", "--policy", "clever"],
    ],
)
def test_bad_arguments_exit_1_with_one_line(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert len(captured.err.strip().splitlines()) == 1
