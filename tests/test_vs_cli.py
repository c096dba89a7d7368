"""The command line of Die Verbotene Stadt, byte for byte as the positions spec describes it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.verbotene_stadt.__main__ import main
from engine.verbotene_stadt.board import Board

ROOT = Path(__file__).parent.parent

# The rulebook's closing puzzle, in shape (the file's comments describe the board).
PUZZLE_FILE = Path(__file__).parent / "positions" / "vs_puzzle.txt"
PUZZLE = PUZZLE_FILE.read_text(encoding="utf-8")


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine.verbotene_stadt", *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )


@pytest.fixture
def puzzle() -> Path:
    return PUZZLE_FILE


def test_board_prints_the_engine_board(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["board"]) == 0
    out = capsys.readouterr().out
    assert out == Board.default().to_text() + "\n"
    lines = out.splitlines()
    assert len(lines) == 31 and all(len(line) == 31 for line in lines)
    assert Board.parse(out) == Board.default()


def test_reach_answers_the_puzzle(puzzle: Path) -> None:
    done = cli("reach", str(puzzle), "7")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    # GG: S to 5,4, W to 4,4 (KY at 3,4), N to 4,3 (wall under 4,2), W through the east door;
    #     W first stops at 1,0 under... beside RB, and the roof at 1,1 blocks the way south.
    # KY: W to 2,4 (wall), N to 2,3 (YK at 2,2), W through the east door; nothing shorter.
    # RB: S to 0,2 (wall), E to 1,2 (YK at 2,2), S through the north door.
    # YK stands on a start square: one square and the move is over, never next to a door.
    assert done.stdout == "GG S,W,N,W\nKY W,N,W\nRB S,E,S\n"


def test_reach_prints_nothing_when_nobody_can(puzzle: Path) -> None:
    done = cli("reach", str(puzzle), "3")
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_moves_lists_ends_and_entry(puzzle: Path) -> None:
    done = cli("moves", str(puzzle), "YK")
    assert done.returncode == 0, done.stderr
    # from the start square 2,2: one square each way, sorted by y then x
    assert done.stdout == '{"ends": ["2,1", "1,2", "3,2", "2,3"], "enters": false}\n'
    done = cli("moves", str(puzzle), "KY")
    found = json.loads(done.stdout)
    assert found["enters"] is True
    assert {"3,0", "5,4", "2,4", "2,3"} <= set(found["ends"])
    assert "3,4" not in found["ends"]


def test_moves_without_open_never_enters(tmp_path: Path) -> None:
    path = tmp_path / "p.txt"
    path.write_text(PUZZLE.replace("open 7\n", ""), encoding="utf-8")
    done = cli("moves", str(path), "KY")
    assert json.loads(done.stdout)["enters"] is False
    # closed, the pavilion stops RB at 1,2 (S, E, then nothing further south)
    done = cli("moves", str(path), "RB")
    found = json.loads(done.stdout)
    assert "1,2" in found["ends"]
    assert found["enters"] is False


def test_score_prints_the_best_grouping() -> None:
    done = cli("score", "1H", "1C", "1T", "2H", "3C", "4T", "5H")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["points"] == 17
    assert sorted(map(sorted, result["groups"])) == [["1C", "1H", "1T"], ["2H", "3C", "4T"], ["5H"]]
    assert done.stdout.startswith('{"points": 17, "groups": [[')


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("score", "9H"), "not a card"),
        (("score", "1H", "1H"), "only once"),
        (("reach", "{file}", "9"), "pavilion '9'"),
        (("moves", "{file}", "KK"), "KK is not on the board"),
        (("moves", "{missing}", "GG"), "cannot read"),
        (("frobnicate",), "invalid choice"),
        (("moves", "{file}"), "required"),
    ],
)
def test_bad_arguments_one_line_exit_1(puzzle: Path, args: tuple[str, ...], needle: str) -> None:
    real = [a.format(file=puzzle, missing=puzzle.with_name("nope.txt")) for a in args]
    done = cli(*real)
    assert done.returncode == 1
    assert done.stdout == ""
    assert needle in done.stderr
    assert done.stderr.count("\n") == 1


def test_bad_file_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(PUZZLE.replace("official KY 3,4", "official KY 1,3"), encoding="utf-8")
    for args in (("moves", str(path), "GG"), ("reach", str(path), "7")):
        done = cli(*args)
        assert done.returncode == 1
        assert done.stdout == ""
        assert (
            done.stderr == f"{path}: line 20: 1,3 is pavilion 7: an official cannot stand there\n"
        )


def test_reach_on_the_default_board(tmp_path: Path) -> None:
    # row 1 from 2,1 to 6,1 is pavilion 1's lane (docs/rules-notes.md): west from 4,1 enters
    path = tmp_path / "lane.txt"
    path.write_text("board: default\nofficial RB 4,1\nopen 1\n", encoding="utf-8")
    done = cli("reach", str(path), "1")
    assert (done.returncode, done.stdout, done.stderr) == (0, "RB W\n", "")
    found = json.loads(cli("moves", str(path), "RB").stdout)
    assert found["enters"] is True
    # north: the wall under 4,0; east: 5,1 6,1 then the wall; south: the roof at 4,2
    assert "6,1" in found["ends"]
    # 4,0 is never a stop: the wall under it, and row 0 between its walls (west of 2,0, east
    # of 5,0) stops a slide only at 2,0 or 5,0
    assert "4,0" not in found["ends"]
