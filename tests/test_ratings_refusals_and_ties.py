"""The teams of a finished game refused in words that name the trouble (partners without a
score, partners with different scores), and players of one rating listed in a stable order."""

from __future__ import annotations

import pytest

from engine.ratings import Rating, Team, leaderboard, standings


def test_partners_without_a_score_are_named() -> None:
    with pytest.raises(ValueError) as refused:
        standings({"n": 30, "e": 21}, [("n", "s"), ("e", "w")])
    assert str(refused.value) == "no score for s"
    with pytest.raises(ValueError) as refused:
        standings({"e": 21}, [("n", "s")])
    assert str(refused.value) == "no score for n, s"


def test_partners_with_different_scores_are_named() -> None:
    with pytest.raises(ValueError) as refused:
        standings({"n": 30, "s": 29, "e": 1, "w": 1}, [("n", "s")])
    assert str(refused.value) == "partners n, s have different scores"


def test_players_with_the_same_rating_are_listed_by_key() -> None:
    same = Rating(27.0, 2.0)
    table = {"cat": same, "ann": same, "bob": Rating(30.0, 1.0), "dan": same}
    assert [key for key, _ in leaderboard(table)] == ["bob", "ann", "cat", "dan"]


def test_a_partnership_of_one_is_a_player_alone() -> None:
    scores = {"a": 3.0, "b": 5.0}
    assert standings(scores, [("a",)]) == [Team(("a",), 3.0), Team(("b",), 5.0)]
