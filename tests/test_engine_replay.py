"""Exported games (the engines' JSON records) loaded and stepped through: `steps`, `steps_of`
and the `replay` command of each engine's command line."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine.core.errors import CorruptRecord
from engine.core.record import Step, replay, steps
from engine.forbidden_city import replay as fc_replay
from engine.forbidden_city.__main__ import main as fc_main
from engine.forbidden_city.board import Board as FcBoard
from engine.forbidden_city.game import Game as FcGame
from engine.forbidden_city.players import choose_greedy
from engine.forbidden_city.position import score
from engine.forbidden_city.record import GameRecord as FcRecord
from engine.verbotene_stadt import replay as vs_replay
from engine.verbotene_stadt.__main__ import main as vs_main
from engine.verbotene_stadt.game import Game as VsGame
from engine.verbotene_stadt.players import choose_simple, play_out
from engine.verbotene_stadt.position import parse_position
from engine.verbotene_stadt.record import GameRecord as VsRecord

ROOT = Path(__file__).parent.parent


# ----------------------------------------------------------------- games to export
def fc_game(players: int = 3, seed: int = 5) -> FcGame:
    """A whole game between greedy seats."""
    game = FcGame(players, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        game.play(choose_greedy(game, rng))
    return game


def fc_after(game: FcGame, moves: int) -> FcGame:
    """The game's first `moves` moves played again by hand on a fresh deal."""
    again = FcGame(game.players, game.start, game.seed, game.stacks)
    for move in game.moves[:moves]:
        again.play(move)
    return again


def vs_game(players: int = 4, seed: int = 3, teams: bool = False) -> VsGame:
    """A whole game between simple seats."""
    return play_out(VsGame(players, seed=seed, teams=teams), choose_simple, random.Random(seed))


def vs_after(game: VsGame, actions: int) -> VsGame:
    """The game's first `actions` actions played again by hand on a fresh start."""
    again = VsGame(game.players, seed=game.seed, teams=game.teams, rules=game.rules)
    for seat, text in game.log[:actions]:
        again.play(seat, text)
    return again


def table(board: FcBoard) -> dict[tuple[int, int], tuple[str, str, str | None, int | None]]:
    """What stands on each cell: kind, edges, oriented tile code, owner's seat index."""
    return {
        cell: (p.kind, p.edges, None if p.tile is None else p.tile.code, p.owner)
        for cell, p in board.cells.items()
    }


def tampered(text: str, key: str, index: int, value: object) -> str:
    data = json.loads(text)
    data[key][index] = value
    return json.dumps(data)


# ----------------------------------------------------------------- engine.core.record.steps
def test_core_steps_yield_the_start_then_every_action_on_one_live_game() -> None:
    game = fc_game()
    fresh = FcGame(game.players, game.start, game.seed, game.stacks)
    seats = [game.players[i % len(game.players)] for i in range(len(game.moves))]
    actions = list(zip(seats, [str(m) for m in game.moves], strict=True))
    seen = [(s.number, s.seat, s.action, len(s.game.moves)) for s in steps(fresh, actions)]
    assert seen == [(0, None, None, 0)] + [
        (i, seat, text, i) for i, (seat, text) in enumerate(actions, start=1)
    ]
    assert fresh.coins == game.coins  # the same object, played to the end


def test_core_steps_refuse_an_illegal_action_when_its_step_comes() -> None:
    game = fc_game()
    fresh = FcGame(game.players, game.start, game.seed, game.stacks)
    first = (game.players[0], str(game.moves[0]))
    walk = steps(fresh, [first, (game.players[1], "40,40@0")])
    assert [s.number for s in (next(walk), next(walk))] == [0, 1]
    with pytest.raises(CorruptRecord, match=r"^action 2 \(yellow 40,40@0\): "):
        next(walk)


def test_step_is_frozen() -> None:
    step = Step(0, None, None, FcGame(2, seed=1))
    with pytest.raises(AttributeError):
        step.number = 1  # type: ignore[misc]


def test_replay_still_checks_the_snapshot() -> None:
    game = fc_game()
    fresh = FcGame(game.players, game.start, game.seed, game.stacks)
    seats = [game.players[i % len(game.players)] for i in range(len(game.moves))]
    actions = list(zip(seats, [str(m) for m in game.moves], strict=True))
    wrong = [game.coins[0] + 1, *game.coins[1:]]
    with pytest.raises(CorruptRecord, match="coins"):
        replay(fresh, actions, {"coins": wrong}, lambda g: {"coins": g.coins})


# ----------------------------------------------------------------- Forbidden City: steps
def test_fc_steps_walk_the_whole_record() -> None:
    game = fc_game()
    text = game.to_json()
    seen = []
    for step in fc_replay.steps(text):
        seen.append((step.number, step.seat, step.action))
        if step.number in (0, 1, len(game.moves) // 2):
            hand = fc_after(game, step.number)
            assert step.game.view(None) == hand.view(None)
            assert table(step.game.board) == table(hand.board)
    n = len(game.moves)
    seats = [game.players[i % len(game.players)] for i in range(n)]
    assert len(seen) == n + 1
    assert seen == [(0, None, None)] + [
        (i + 1, seats[i], str(move)) for i, move in enumerate(game.moves)
    ]
    assert step.game.is_over
    assert step.game.scores == game.scores
    assert step.game.winners == game.winners
    assert step.game.to_json() == text


def test_fc_steps_of_takes_the_record_model_the_bot_holds() -> None:
    game = fc_game(players=4, seed=11)
    data = json.loads(game.to_json())
    walked = list(fc_replay.steps_of(FcRecord.model_validate(data)))
    assert [s.number for s in walked] == list(range(len(game.moves) + 1))
    assert walked[-1].game.scores == game.scores


def test_fc_steps_refuse_a_changed_move_and_changed_coins() -> None:
    game = fc_game()
    text = game.to_json()
    with pytest.raises(CorruptRecord, match=r"^action 3 \(red 40,40@0\): "):
        list(fc_replay.steps(tampered(text, "moves", 2, "40,40@0")))
    numbers = []
    with pytest.raises(CorruptRecord, match="coins"):
        for step in fc_replay.steps(tampered(text, "coins", 0, game.coins[0] + 1)):
            numbers.append(step.number)
    assert numbers == list(range(len(game.moves) + 1))  # every step, then the check
    with pytest.raises(CorruptRecord, match="not a game record"):
        fc_replay.steps("{}")


def test_fc_position_text_scores_back_to_the_same_table() -> None:
    game = fc_game()
    for moves in (0, 7, len(game.moves)):
        hand = fc_after(game, moves)
        scored = score(fc_replay.position_text(hand))
        assert scored.players == list(game.players)
        assert table(scored.board) == table(hand.board)


# ----------------------------------------------------------------- Forbidden City: command line
@pytest.fixture
def fc_file(tmp_path: Path) -> tuple[FcGame, Path]:
    game = fc_game()
    path = tmp_path / "game.json"
    path.write_text(game.to_json(), encoding="utf-8")
    return game, path


def test_fc_cli_replay_prints_every_step(
    fc_file: tuple[FcGame, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    game, path = fc_file
    assert fc_main(["replay", str(path)]) == 0
    blocks = capsys.readouterr().out.rstrip("\n").split("\n\n")
    n = len(game.moves)
    assert len(blocks) == n + 1
    seats = [game.players[i % len(game.players)] for i in range(n)]
    headers = [block.split("\n", 1)[0] for block in blocks]
    assert headers == ["# step 0: the start"] + [
        f"# step {i + 1}: {seats[i]} {move}" for i, move in enumerate(game.moves)
    ]
    last = blocks[-1].split("\n", 1)[1]
    assert last == fc_replay.position_text(game)
    assert table(score(last).board) == table(game.board)
    middle = blocks[9].split("\n", 1)[1]
    assert table(score(middle).board) == table(fc_after(game, 9).board)


def test_fc_cli_replay_at(fc_file: tuple[FcGame, Path], capsys: pytest.CaptureFixture[str]) -> None:
    game, path = fc_file
    fresh = FcGame(game.players, game.start, game.seed, game.stacks)
    assert fc_main(["replay", str(path), "--at", "0"]) == 0
    start = capsys.readouterr().out
    assert start == fc_replay.position_text(fresh) + "\n"
    assert table(score(start).board) == table(fresh.board)
    for n in (1, 12, len(game.moves)):
        assert fc_main(["replay", str(path), "--at", str(n)]) == 0
        out = capsys.readouterr().out
        hand = fc_after(game, n)
        assert out == fc_replay.position_text(hand) + "\n"
        assert table(score(out).board) == table(hand.board)
        assert f"# coins: {', '.join(f'{c} {k}' for c, k in hand.scores.items())}" in out


def test_fc_cli_replay_moves(
    fc_file: tuple[FcGame, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    game, path = fc_file
    assert fc_main(["replay", str(path), "--moves"]) == 0
    seats = [game.players[i % len(game.players)] for i in range(len(game.moves))]
    assert capsys.readouterr().out.splitlines() == [
        f"{i + 1} {seats[i]} {move}" for i, move in enumerate(game.moves)
    ]


@pytest.mark.parametrize(
    ("key", "index", "value", "reason"),
    [
        ("moves", 4, "40,40@0", "action 5"),
        ("coins", 1, 999, "coins"),
    ],
)
def test_fc_cli_replay_refuses_a_tampered_record(
    fc_file: tuple[FcGame, Path],
    capsys: pytest.CaptureFixture[str],
    key: str,
    index: int,
    value: object,
    reason: str,
) -> None:
    _, path = fc_file
    path.write_text(tampered(path.read_text(encoding="utf-8"), key, index, value), "utf-8")
    for extra in ([], ["--at", "0"], ["--moves"]):
        assert fc_main(["replay", str(path), *extra]) == 1
        out, err = capsys.readouterr()
        assert out == ""
        assert err.startswith(f"error: {path}: ")
        assert reason in err
        assert err.count("\n") == 1


def test_fc_cli_replay_refuses_a_step_past_the_end(
    fc_file: tuple[FcGame, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    game, path = fc_file
    assert fc_main(["replay", str(path), "--at", str(len(game.moves) + 1)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"error: --at {len(game.moves) + 1}: the game has moves 0 to {len(game.moves)}\n"


def test_fc_cli_replay_reads_standard_input(fc_file: tuple[FcGame, Path]) -> None:
    game, path = fc_file
    done = subprocess.run(
        [sys.executable, "-m", "engine.forbidden_city", "replay", "-", "--at", "5"],
        input=path.read_text(encoding="utf-8"),
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == fc_replay.position_text(fc_after(game, 5)) + "\n"


# ----------------------------------------------------------------- Die Verbotene Stadt: steps
def test_vs_steps_walk_the_whole_record() -> None:
    game = vs_game()
    text = game.to_json()
    seen = []
    for step in vs_replay.steps(text):
        seen.append((step.number, step.seat, step.action))
        if step.number in (0, 4, len(game.log) // 2):
            hand = vs_after(game, step.number)
            assert step.game.view(None) == hand.view(None)
            assert (step.game.at, step.game.hands) == (hand.at, hand.hands)
    assert len(seen) == len(game.log) + 1
    assert seen == [(0, None, None)] + [
        (i, seat, action) for i, (seat, action) in enumerate(game.log, start=1)
    ]
    assert step.game.is_over
    assert step.game.scores == game.scores
    assert step.game.winners == game.winners
    assert step.game.to_json() == text


def test_vs_steps_of_takes_the_record_model_the_bot_holds() -> None:
    game = vs_game(seed=8, teams=True)
    data = json.loads(game.to_json())
    walked = list(vs_replay.steps_of(VsRecord.model_validate(data)))
    assert [s.number for s in walked] == list(range(len(game.log) + 1))
    assert walked[-1].game.scores == game.scores


def test_vs_steps_refuse_a_changed_action_and_a_changed_snapshot() -> None:
    game = vs_game()
    text = game.to_json()
    seat = game.log[4][0]
    with pytest.raises(CorruptRecord, match=rf"^action 5 \({seat} believe\): "):
        list(vs_replay.steps(tampered(text, "actions", 4, [seat, "believe"])))
    data = json.loads(text)
    data["snapshot"]["exiled"] = ["KK", *data["snapshot"]["exiled"]]
    with pytest.raises(CorruptRecord, match="exiled"):
        list(vs_replay.steps(json.dumps(data)))


def test_vs_position_text_parses_back_to_the_same_table() -> None:
    game = vs_game()
    for actions in (0, 5, 60, len(game.log)):
        hand = vs_after(game, actions)
        position = parse_position(vs_replay.position_text(hand))
        assert position.board == hand.board
        assert position.at == hand.at
        assert position.open == hand.open
        assert position.exiled == len(hand.exiled)


# ------------------------------------------------------------- Die Verbotene Stadt: command line
@pytest.fixture
def vs_file(tmp_path: Path) -> tuple[VsGame, Path]:
    game = vs_game()
    path = tmp_path / "game.json"
    path.write_text(game.to_json(), encoding="utf-8")
    return game, path


def test_vs_cli_replay_prints_every_step(
    vs_file: tuple[VsGame, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    game, path = vs_file
    assert vs_main(["replay", str(path)]) == 0
    blocks = capsys.readouterr().out.rstrip("\n").split("\n\n")
    assert len(blocks) == len(game.log) + 1
    headers = [block.split("\n", 1)[0] for block in blocks]
    assert headers == ["; step 0: the start"] + [
        f"; step {i}: {seat} {action}" for i, (seat, action) in enumerate(game.log, start=1)
    ]
    last = blocks[-1].split("\n", 1)[1]
    assert last == vs_replay.position_text(game)
    position = parse_position(last)
    assert (position.at, position.open, position.exiled) == (
        game.at,
        game.open,
        len(game.exiled),
    )
    for seat, hand in zip(game.players, game.hands, strict=True):
        assert f"; {seat}: {' '.join(hand) or '-'} = {game.points()[seat]} points" in last


def test_vs_cli_replay_at(vs_file: tuple[VsGame, Path], capsys: pytest.CaptureFixture[str]) -> None:
    game, path = vs_file
    fresh = VsGame(game.players, seed=game.seed)
    assert vs_main(["replay", str(path), "--at", "0"]) == 0
    start = capsys.readouterr().out
    assert start == vs_replay.position_text(fresh) + "\n"
    assert parse_position(start).at == fresh.at
    for n in (1, 12, len(game.log)):
        assert vs_main(["replay", str(path), "--at", str(n)]) == 0
        out = capsys.readouterr().out
        hand = vs_after(game, n)
        assert out == vs_replay.position_text(hand) + "\n"
        position = parse_position(out)
        assert (position.at, position.open, position.exiled) == (
            hand.at,
            hand.open,
            len(hand.exiled),
        )


def test_vs_cli_replay_moves(
    vs_file: tuple[VsGame, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    game, path = vs_file
    assert vs_main(["replay", str(path), "--moves"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"{i} {seat} {action}" for i, (seat, action) in enumerate(game.log, start=1)
    ]


def test_vs_cli_replay_refuses_a_tampered_record(
    vs_file: tuple[VsGame, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    game, path = vs_file
    seat = game.log[6][0]
    path.write_text(
        tampered(path.read_text(encoding="utf-8"), "actions", 6, [seat, "believe"]), "utf-8"
    )
    for extra in ([], ["--at", "0"], ["--moves"]):
        assert vs_main(["replay", str(path), *extra]) == 1
        out, err = capsys.readouterr()
        assert out == ""
        assert err.startswith(f"error: {path}: action 7 ({seat} believe): ")
        assert err.count("\n") == 1


def test_vs_cli_replay_refuses_a_file_that_is_not_a_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    path.write_text("not json", encoding="utf-8")
    assert vs_main(["replay", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"error: {path}: not a game record")
    assert vs_main(["replay", str(tmp_path / "missing.json")]) == 1
    assert capsys.readouterr().err.startswith("error: ")


def test_vs_cli_replay_reads_standard_input(vs_file: tuple[VsGame, Path]) -> None:
    game, path = vs_file
    done = subprocess.run(
        [sys.executable, "-m", "engine.verbotene_stadt", "replay", "-", "--at", "9"],
        input=path.read_text(encoding="utf-8"),
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == vs_replay.position_text(vs_after(game, 9)) + "\n"


# ----------------------------------------------------------------- who sat where
@pytest.mark.parametrize("engine", ["forbidden_city", "verbotene_stadt"])
def test_an_export_says_who_sat_where_and_a_plain_record_has_no_names(
    engine: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An exported game carries its players' names (a forgotten one's anonymous); the steps
    name each mover after their seat, and the moves' own lines stay as the notation says."""
    game: FcGame | VsGame = fc_game() if engine == "forbidden_city" else vs_game()
    plain = json.loads(game.to_json())
    assert "names" not in plain  # the game's own record: as it always was
    first, second, *rest = game.players
    sat = {first: "Ann", second: "(anonymous)", **{seat: f"P{n}" for n, seat in enumerate(rest)}}
    path = tmp_path / "export.json"
    path.write_text(json.dumps({**plain, "names": sat}), encoding="utf-8")
    main = fc_main if engine == "forbidden_city" else vs_main
    assert main(["replay", str(path)]) == 0
    headers = [b.split("\n", 1)[0] for b in capsys.readouterr().out.split("\n\n")]
    assert headers[0][1:] == " step 0: the start"  # after the engine's comment mark
    movers = [h.split(": ", 1)[1] for h in headers[1:]]
    assert all(m.startswith(tuple(f"{s} ({sat[s]}) " for s in game.players)) for m in movers)
    assert any(m.startswith(f"{first} (Ann) ") for m in movers)
    assert any(m.startswith(f"{second} ((anonymous)) ") for m in movers)
    assert main(["replay", str(path), "--moves"]) == 0
    moves = capsys.readouterr().out.splitlines()
    assert moves[0].split()[1] in game.players  # 'N SEAT MOVE': no names there
