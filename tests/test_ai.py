"""Computer players: legal, deterministic per seed, blind to what their seat cannot see, and
stronger with more search."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest

from engine.ai import LEVELS, Player, game_ai, players
from engine.ai.__main__ import main
from engine.ai.arena import match, wilson
from engine.ai.protocol import Budget
from engine.ai.search import Decision, search
from engine.forbidden_city import Game, Place
from engine.forbidden_city.players import gains

FC = game_ai("forbidden-city")


def _midgame(seed: int, moves: int = 12) -> Game:
    game = Game(["purple", "yellow", "red"], seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        legal = game.legal_moves()
        game.play(legal[int(rng.random() * len(legal))])
    return game


def test_every_player_finishes_a_game_with_legal_moves() -> None:
    result = match("forbidden-city", ["random", "greedy", "easy"], games=3, seed=5)
    assert [p["player"] for p in result["players"]] == ["random", "greedy", "easy"]
    assert sum(p["win_rate"] for p in result["players"]) == pytest.approx(1.0)


def test_a_decision_is_the_same_for_the_same_seed_and_view() -> None:
    game = _midgame(3)
    seat = game.current
    view = game.view(seat)
    first = Player("easy", FC).decide(view, seat, random.Random(11))
    again = Player("easy", FC).decide(view, seat, random.Random(11))
    assert first == again
    assert first in game.legal_moves()


def test_hidden_tiles_do_not_change_a_decision() -> None:
    """Two tables alike in all a seat sees, unlike in every other seat's hand and stack."""
    game = _midgame(4)
    seat = game.current
    me = game.players.index(seat)
    stacks = [list(s) for s in game.stacks]
    for index, stack in enumerate(stacks):
        drawn = game._next[index] - (0 if index == me else 1)
        rest = stack[drawn:]
        random.Random(index).shuffle(rest)
        rest.reverse()
        stacks[index] = stack[:drawn] + rest
    other = Game(game.players, game.start, seed=game.seed, stacks=stacks)
    for move in game.moves:
        other.play(move)
    assert other.stacks != game.stacks
    assert other.view(seat) == game.view(seat)
    for kind in ("greedy", "easy"):
        mine = Player(kind, FC).decide(game.view(seat), seat, random.Random(2))
        theirs = Player(kind, FC).decide(other.view(seat), seat, random.Random(2))
        assert mine == theirs


def test_a_determinization_agrees_with_the_view() -> None:
    game = _midgame(6, moves=20)
    seat = game.players[1]
    view = game.view(seat)
    world = FC.determinize(view, seat, random.Random(1))
    assert world.view(seat) == view
    assert isinstance(world, Game) and world.stacks != game.stacks  # the hidden part was drawn anew


def test_search_prefers_the_move_that_closes_a_room_for_itself() -> None:
    """With a paying room to close now, even a small search finds it more often than chance."""
    found = 0
    tried = 0
    for seed in range(40):
        game = _midgame(seed, moves=15)
        seat = game.current
        payoffs = {
            str(m): gains(game, m).get(seat, 0) for m in game.legal_moves() if isinstance(m, Place)
        }
        if not payoffs or max(payoffs.values()) < 4:
            continue
        tried += 1
        decision = search(game.view(seat), seat, FC, Budget(200, 8), random.Random(seed))
        found += payoffs.get(str(decision.action), 0) > 0
        if tried == 8:
            break
    assert tried >= 5
    assert found / tried >= 0.75


def test_more_search_beats_none() -> None:
    result = match("forbidden-city", ["easy", "random"], games=4, seed=1)
    assert result["players"][0]["win_rate"] >= 0.75


def test_levels_are_ordered_by_budget() -> None:
    budgets = [LEVELS[k].iterations for k in ("easy", "normal", "hard")]
    assert budgets == sorted(budgets) and len(set(budgets)) == 3


@pytest.mark.parametrize(("kind", "low", "high"), [("easy", 0.4, 0.6), ("normal", 0.22, 0.38)])
def test_the_lower_levels_slip_into_random_moves_and_hard_never_does(
    monkeypatch: pytest.MonkeyPatch, kind: str, low: float, high: float
) -> None:
    """What tells the levels apart at the table: `easy` plays a random legal move instead of its
    search's about one decision in two, `normal` one in three, `hard` never."""
    game = _midgame(4)
    seat = game.current
    legal = game.legal_moves()
    searched = legal[0]  # what the search would play, whatever the budget

    def fixed(*args: Any) -> Decision:
        return Decision(searched, 1, 0.0, {})

    monkeypatch.setattr(players, "search", fixed)
    rng = random.Random(5)
    for level, (least, most) in ((kind, (low, high)), ("hard", (0.0, 0.0))):
        picks = [Player(level, FC).decide(game.view(seat), seat, rng) for _ in range(300)]
        assert all(p in legal for p in picks)
        slipped = sum(p != searched for p in picks) / len(picks)
        assert least <= slipped <= most, (level, slipped)


def test_wilson_interval() -> None:
    low, high = wilson(7, 10)
    assert low == pytest.approx(0.397, abs=0.002) and high == pytest.approx(0.892, abs=0.002)
    assert wilson(0, 0) == (0.0, 1.0)


def test_arena_command_prints_one_json_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["arena", "--game", "forbidden-city", "--players", "greedy,random", "--games", "2"])
        == 0
    )
    last = capsys.readouterr().out.strip().splitlines()[-1]
    data = json.loads(last)
    assert data["games"] == 2 and len(data["players"]) == 2
    assert set(data["players"][0]) >= {
        "win_rate",
        "ci95",
        "mean_score",
        "think_ms_median",
        "think_ms_max",
    }


def test_arena_refuses_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--players", "hard"]) == 1
    assert main(["arena", "--players", "hard,wizard"]) == 1
    assert main(["arena", "--game", "chess", "--players", "random,random"]) == 1
    assert capsys.readouterr().out == ""


def test_time_spent_off_the_cpu_does_not_cut_a_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """A busy machine makes a search wait for a core; the cap counts the search's own CPU time,
    so the wait costs no iteration and the decision is the quiet machine's."""
    game = _midgame(4)
    seat = game.current
    budget = Budget(iterations=40, determinizations=4, max_seconds=0.5)
    quiet = search(game.view(seat), seat, FC, budget, random.Random(2))
    copy = FC.copy

    def waiting_copy(world: Any) -> Any:
        time.sleep(0.02)  # 40 of these take longer than the cap in wall time
        return copy(world)

    monkeypatch.setattr(FC, "copy", waiting_copy)
    busy = search(game.view(seat), seat, FC, budget, random.Random(2))
    assert not busy.capped and busy.iterations == quiet.iterations
    assert str(busy.action) == str(quiet.action)


def test_the_arena_counts_the_decisions_the_cap_cut(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(LEVELS, "easy", Budget(iterations=60, determinizations=4, max_seconds=0.0))
    cut = match("forbidden-city", ["easy", "normal"], games=1, seed=3)["players"]
    easy, normal = cut
    assert 0 < easy["cut_by_cap"] <= easy["decisions"]
    assert normal["cut_by_cap"] == 0 and normal["decisions"] > 0
    assert normal["think_ms_median"] <= normal["think_ms_p99"] <= normal["think_ms_max"]
