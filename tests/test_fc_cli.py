"""The command line, exactly as the positions spec describes it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent

POSITIONS = Path(__file__).parent / "positions"


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine.forbidden_city", *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=Path(__file__).parent.parent,
    )


@pytest.mark.parametrize(
    ("name", "coins"),
    [
        ("example1", {"blue": 11, "purple": 0, "yellow": 0}),
        ("example2", {"red": 12, "blue": 6, "yellow": 0}),
        ("example3", {"blue": 3, "purple": 3, "yellow": 0}),
        ("example4", {"yellow": 15, "red": 0, "blue": 0}),
    ],
)
def test_score_prints_one_json_object(name: str, coins: dict[str, int]) -> None:
    done = cli("score", str(POSITIONS / f"{name}.pos"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("\n") == 1
    result = json.loads(done.stdout)
    assert result["coins"] == coins
    [room] = result["closed"]
    assert set(room) == {"by", "colour", "tiles", "dragons", "value", "paid"}


def test_score_error_names_the_line_and_prints_nothing(tmp_path: Path) -> None:
    path = tmp_path / "bad.pos"
    path.write_text(
        "# a comment\nplayers: red blue\n\nstart: none\nat 0 0 red ....G\nplay 1 0 blue ....P\n"
    )
    done = cli("score", str(path))
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert "line 6" in done.stderr and "colour" in done.stderr


@pytest.mark.parametrize(
    "text",
    ["players: red blue\nstart: sideways\n", "players: red\nplay 0 0 blue ....G\n", "hello\n",
     "players: red\nat 0 0 red ....X\n", "players: red\nat a b red ....G\n"],
)  # fmt: skip
def test_score_refuses_files_that_do_not_parse(tmp_path: Path, text: str) -> None:
    path = tmp_path / "bad.pos"
    path.write_text(text)
    done = cli("score", str(path))
    assert (done.returncode, done.stdout) == (1, "")
    assert "line" in done.stderr


def test_comment_lines_and_blanks_are_ignored_and_at_tiles_are_never_scored(tmp_path: Path) -> None:
    path = tmp_path / "p.pos"
    path.write_text("  # players: nobody\n\nplayers: purple\nstart: none\nat 0 0 purple ####G+2A\n")
    done = cli("score", str(path))
    assert json.loads(done.stdout) == {"coins": {"purple": 0}, "closed": []}


def test_rotate() -> None:
    done = cli("rotate", "#...P\\G+1A")
    assert (done.returncode, done.stdout) == (0, ".#..G/P+1A@2\n")
    bad = cli("rotate", "nonsense")
    assert bad.returncode == 1 and bad.stdout == ""


@pytest.mark.parametrize(("players", "size"), [(2, 30), (3, 24), (4, 24)])
def test_catalogue(players: int, size: int) -> None:
    done = cli("catalogue", "--players", str(players))
    stacks = json.loads(done.stdout)
    assert list(stacks) == ["purple", "yellow", "red", "blue"][:players]
    assert all(len(codes) == size for codes in stacks.values())


def test_play_prints_a_whole_game() -> None:
    done = cli("play", "--players", "3", "--seed", "4", "--quiet")
    assert done.returncode == 0, done.stderr
    assert "TT" in done.stdout  # the temple, in the text table
    assert "winner" in done.stdout


def test_bench_prints_one_json_line() -> None:
    done = cli("bench", "--games", "3")
    figures = json.loads(done.stdout)
    assert figures["game_median_ms"] > 0 and figures["legal_moves_median_us"] > 0


def test_play_prints_the_seed_it_was_given_and_a_seed_replays_the_game() -> None:
    def played(*extra: str) -> str:
        command = [sys.executable, "-m", "engine.forbidden_city", "play", "--quiet", *extra]
        done = subprocess.run(command, capture_output=True, text=True, check=True, cwd=ROOT)
        return done.stdout

    first = played("--seed", "7")
    assert first.splitlines()[0].endswith("seed 7")
    assert played("--seed", "7") == first
    unseeded = played()
    seed = unseeded.splitlines()[0].rsplit(" ", 1)[1]
    assert played("--seed", seed) == unseeded  # the header's seed plays that game again


def test_a_reader_that_stops_early_gets_no_traceback() -> None:
    for engine in ("engine.forbidden_city", "engine.verbotene_stadt"):
        shell = f"{sys.executable} -m {engine} play --seed 3 | head -1"
        done = subprocess.run(
            shell, shell=True, capture_output=True, text=True, check=True, cwd=ROOT
        )
        assert done.stdout.count("\n") == 1
        assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr
