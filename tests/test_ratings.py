"""Players' ratings (engine/ratings.py): what a player sees change after a game."""

from __future__ import annotations

import itertools

import pytest

from engine.ratings import NEWCOMER, Rating, Team, leaderboard, ranks, rate, standings


def solo(**scores: float) -> list[Team]:
    return [Team((key,), score) for key, score in scores.items()]


def test_a_newcomer_is_shown_1000_with_a_wide_uncertainty() -> None:
    assert Rating() == NEWCOMER
    assert str(NEWCOMER) == "1000 ± 208"


def test_the_winner_goes_up_and_the_loser_down() -> None:
    new = rate({}, solo(ann=52, bob=40))
    assert new["ann"].mu > NEWCOMER.mu > new["bob"].mu
    assert new["ann"].shown > NEWCOMER.shown > new["bob"].shown


def test_in_four_players_the_order_of_finish_orders_the_new_ratings() -> None:
    new = rate({}, solo(ann=70, bob=61, cat=55, dan=30))
    assert new["ann"].mu > new["bob"].mu > new["cat"].mu > new["dan"].mu
    assert new["ann"].mu > NEWCOMER.mu > new["dan"].mu
    # every rated game makes the model surer of each player
    assert all(r.sigma < NEWCOMER.sigma for r in new.values())


def test_beating_a_stronger_player_gains_more_than_beating_a_weaker_one() -> None:
    strong, weak = Rating(32.0, 4.0), Rating(18.0, 4.0)
    over_strong = rate({"ann": NEWCOMER, "bob": strong}, solo(ann=60, bob=50))["ann"]
    over_weak = rate({"ann": NEWCOMER, "bob": weak}, solo(ann=60, bob=50))["ann"]
    assert over_strong.mu - NEWCOMER.mu > over_weak.mu - NEWCOMER.mu > 0
    assert over_strong.shown > over_weak.shown


def test_losing_to_a_weaker_player_costs_more_than_losing_to_a_stronger_one() -> None:
    me = Rating(25.0, 4.0)
    to_weak = rate({"me": me, "bob": Rating(18.0, 4.0)}, solo(me=10, bob=20))["me"]
    to_strong = rate({"me": me, "bob": Rating(32.0, 4.0)}, solo(me=10, bob=20))["me"]
    assert to_weak.mu < to_strong.mu < me.mu


def test_the_same_result_from_the_same_state_gives_the_same_numbers() -> None:
    before = {"ann": Rating(27.1, 5.2), "bob": Rating(24.3, 3.9), "cat": NEWCOMER}
    first = rate(before, solo(ann=44, bob=58, cat=44))
    again = rate(dict(before), solo(ann=44, bob=58, cat=44))
    assert first == again
    assert before["ann"] == Rating(27.1, 5.2)  # the ratings given are not changed


def test_the_order_players_are_listed_in_changes_nothing() -> None:
    before = {"ann": Rating(27.1, 5.2), "bob": Rating(24.3, 3.9), "dan": Rating(30.0, 2.0)}
    teams = solo(ann=44, bob=58, cat=44, dan=12)
    results = [rate(before, list(order)) for order in itertools.permutations(teams)]
    assert all(r == results[0] for r in results)


def test_a_tie_shares_a_place() -> None:
    assert ranks(solo(a=50, b=61, c=50, d=12)) == [2, 1, 2, 4]
    new = rate({}, solo(ann=40, bob=40))
    assert new["ann"] == new["bob"]
    assert new["ann"].mu == pytest.approx(NEWCOMER.mu)


def test_partners_move_together() -> None:
    teams = [Team(("ann", "cat"), 30), Team(("bob", "dan"), 21)]
    new = rate({}, teams)
    assert new["ann"] == new["cat"]
    assert new["bob"] == new["dan"]
    assert new["ann"].mu > NEWCOMER.mu > new["bob"].mu
    # partners of unequal ratings still move the same way
    before = {"ann": Rating(34.0, 2.0), "cat": NEWCOMER}
    new = rate(before, teams)
    assert new["ann"].mu > 34.0 and new["cat"].mu > NEWCOMER.mu


def test_standings_from_an_engines_scores_pair_the_partners() -> None:
    scores = {"n": 30, "e": 21, "s": 30, "w": 21}
    assert standings(scores, [("n", "s"), ("e", "w")]) == [
        Team(("n", "s"), 30),
        Team(("e", "w"), 21),
    ]
    assert standings({"a": 3, "b": 5}) == [Team(("a",), 3), Team(("b",), 5)]
    with pytest.raises(ValueError, match="different scores"):
        standings({"n": 30, "s": 29, "e": 1, "w": 1}, [("n", "s")])


@pytest.mark.parametrize(
    "teams",
    [
        solo(ann=1),
        solo(a=1, b=2, c=3, d=4, e=5),
        [Team(("a", "b"), 3), Team(("b",), 2)],
        [Team(("a", "b"), 3)],
        [Team(("a", "b"), 3), Team((), 2)],
    ],
)
def test_impossible_games_are_refused(teams: list[Team]) -> None:
    with pytest.raises(ValueError):
        rate({}, teams)


def test_the_leaderboard_ranks_by_the_shown_conservative_rating() -> None:
    table = {
        "lucky": Rating(30.0, 7.0),  # few games: high mean, unsure
        "proven": Rating(28.0, 1.5),
        "weak": Rating(10.0, 1.0),
    }
    order = [key for key, _ in leaderboard(table)]
    assert order == ["proven", "lucky", "weak"]
    assert [r.shown for _, r in leaderboard(table)] == sorted(
        (r.shown for r in table.values()), reverse=True
    )
