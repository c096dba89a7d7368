"""The rated tournament between computer levels (engine/ai/tournament.py): the schedule, its
determinism and the ratings it prints."""

from __future__ import annotations

import json
import math
from collections import Counter

import pytest

from engine.ai.__main__ import main
from engine.ai.arena import GameOutcome, Uncapped
from engine.ai.players import game_ai
from engine.ai.tournament import Fixture, rate_games, schedule, tournament


def test_every_pairing_plays_every_seat_rotation_on_one_deal() -> None:
    fixtures = schedule(["random", "easy", "normal", "hard"], [2, 3, 4], cycles=2, seed=1)
    # per cycle: 6 pairs x 2 rotations + 4 triples x 3 + 1 quartet x 4
    assert len(fixtures) == 2 * (12 + 12 + 4)
    by_deal: dict[int, list[Fixture]] = {}
    for f in fixtures:
        by_deal.setdefault(f.seed, []).append(f)
    assert len(by_deal) == 2 * (6 + 4 + 1)
    for deal in by_deal.values():
        assert len({f.kinds for f in deal}) == 1
        assert sorted(f.rotation for f in deal) == list(range(len(deal[0].kinds)))
    seats = Counter(k for f in fixtures for k in f.kinds)
    assert len(set(seats.values())) == 1  # every level plays as often
    assert schedule(["random", "easy"], [2], 1, seed=1) != schedule(["random", "easy"], [2], 1, 2)


def test_games_are_rated_as_each_level_scored() -> None:
    fixtures = [Fixture(("random", "hard"), 0, 1), Fixture(("random", "hard"), 1, 1)]
    outcomes = [GameOutcome([0.0, 1.0], [20, 45]), GameOutcome([0.0, 1.0], [18, 50])]
    ratings = rate_games(fixtures, outcomes)
    assert ratings["hard"].mu > ratings["random"].mu
    assert ratings["hard"].shown > 1000 > ratings["random"].shown


def test_a_tournament_is_the_same_for_the_same_seed_and_orders_known_strengths() -> None:
    first = tournament("forbidden-city", ["random", "greedy"], [2], cycles=3, seed=4)
    again = tournament("forbidden-city", ["random", "greedy"], [2], cycles=3, seed=4)
    assert first == again
    assert first.games == 6
    assert [s.level for s in first.standings] == ["greedy", "random"]
    gap = first.gaps[0]
    assert (gap.weaker, gap.stronger) == ("random", "greedy")
    assert gap.mu_gap > 0 and gap.meetings == 6


def test_without_the_time_cap_the_levels_search_their_whole_budget() -> None:
    ai = game_ai("forbidden-city")
    levels = Uncapped(ai).levels()
    assert set(levels) == set(ai.levels())
    assert all(math.isinf(b.max_seconds) for b in levels.values())
    assert all(levels[k].iterations == b.iterations for k, b in ai.levels().items())
    assert Uncapped(ai).name == ai.name  # everything else is the game's own


def test_the_command_prints_each_levels_rating_and_the_verdict(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["tournament", "--game", "forbidden-city", "--levels", "random,greedy", "--cycles", "2"]
    assert main(argv) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "forbidden-city: 4 games, seed 0"
    assert out[1].startswith("  1. greedy") and out[2].startswith("  2. random")
    assert "±" in out[1]
    assert out[3].startswith("  random < greedy: mu gap +")
    data = json.loads(out[-1])
    assert [s["level"] for s in data["standings"]] == ["greedy", "random"]
    assert data["games"] == 4


@pytest.mark.parametrize(
    "argv",
    [
        ["--levels", "random,wizard"],
        ["--levels", "random,random"],
        ["--levels", "random,easy", "--sizes", "3"],
        ["--sizes", "x"],
        ["--cycles", "0"],
    ],
)
def test_the_command_refuses_bad_input(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", *argv]) == 1
    assert capsys.readouterr().err.startswith("error:")
