"""The ratings of one game checked against figures worked out by hand from openskill's
Plackett-Luce update (Weng & Lin, 2011, algorithm 4), and impossible games refused in words
that name the trouble.

For two newcomers (mu 25, sigma 25/3) the model first adds its dynamics tau = 25/300 to each
sigma: sigma^2 = 625/9 + 1/144 = 69.45139. With beta = 25/6, c^2 = 2 (sigma^2 + beta^2) =
173.625, c = 13.17668. Both strengths are equal, so every probability is 1/2:
  - the winner's omega is (1 - 1/2) sigma^2 / c = +2.63539, the loser's -(1/2) sigma^2 / c;
  - each delta is (1/2)(1/2) sigma^2 / c^2 = 0.10000, times gamma = sigma / c = 0.63247;
  - so mu = 25 +- 2.63539 and sigma = 8.33375 sqrt(1 - 0.063248) = 8.06590.
Shown: 1000 + 25 (mu - 3 sigma): 1085.94 -> 1086 for the winner, 954.17 -> 954 for the
loser, and "± 25 sigma" = 201.65 -> 202. In a tie both omegas are 0 (each team is once
itself and once the other, a half each, over two tied places) and the deltas the same:
mu stays 25, shown 1000 + 25 (25 - 24.19770) = 1020.06 -> 1020."""

from __future__ import annotations

import pytest

from engine.ratings import Rating, Team, rate

WINNER_MU, LOSER_MU, SIGMA = 27.63539, 22.36461, 8.06590


def test_two_newcomers_after_a_win_are_rated_as_worked_out_by_hand() -> None:
    new = rate({}, [Team(("bob",), 20), Team(("ann",), 31)])
    assert new["ann"].mu == pytest.approx(WINNER_MU, abs=1e-4)
    assert new["bob"].mu == pytest.approx(LOSER_MU, abs=1e-4)
    assert new["ann"].sigma == pytest.approx(SIGMA, abs=1e-4)
    assert new["bob"].sigma == pytest.approx(SIGMA, abs=1e-4)
    assert str(new["ann"]) == "1086 ± 202" and str(new["bob"]) == "954 ± 202"


def test_two_newcomers_after_a_tie_are_rated_as_worked_out_by_hand() -> None:
    new = rate({}, [Team(("bob",), 20), Team(("ann",), 20)])
    for key in ("ann", "bob"):
        assert new[key].mu == pytest.approx(25.0, abs=1e-9)
        assert new[key].sigma == pytest.approx(SIGMA, abs=1e-4)
        assert str(new[key]) == "1020 ± 202"


def test_partners_of_equal_ratings_move_alike_whatever_the_order() -> None:
    """Two newcomers against two: partners get equal new ratings, the winners gain what the
    losers lose, and the order sides and partners are listed in changes nothing."""
    first = rate({}, [Team(("ann", "cat"), 30), Team(("bob", "dan"), 21)])
    second = rate({}, [Team(("dan", "bob"), 21), Team(("cat", "ann"), 30)])
    assert first == second
    assert first["ann"] == first["cat"] and first["bob"] == first["dan"]
    assert first["ann"].mu - 25 == pytest.approx(25 - first["bob"].mu)


@pytest.mark.parametrize(
    ("teams", "words"),
    [
        ([Team(("ann",), 1)], "1 players: a game has 2 to 4"),
        ([Team((p,), n) for n, p in enumerate("abcde")], "5 players: a game has 2 to 4"),
        ([Team(("a", "b"), 3), Team(("b",), 2)], "a player appears twice in one game"),
        ([Team(("a", "b"), 3)], "a game needs at least two sides, each with a player"),
        ([Team(("a", "b"), 3), Team((), 2)], "a game needs at least two sides, each with a player"),
    ],
)
def test_impossible_games_are_refused_in_words_that_name_the_trouble(
    teams: list[Team], words: str
) -> None:
    with pytest.raises(ValueError) as refused:
        rate({"a": Rating(30.0, 2.0)}, teams)
    assert str(refused.value) == words
