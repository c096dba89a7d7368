"""Die Verbotene Stadt card sets: the best grouping against an independent brute force."""

from __future__ import annotations

from functools import cache
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.verbotene_stadt.cards import (
    ALL_CARDS,
    COLOURS,
    CardError,
    best_grouping,
    best_points,
    parse_card,
)


def group_value(group: tuple[str, ...]) -> int | None:
    """What the spec says a group is worth, None if it is no group at all."""
    colours = {c[0] for c in group}
    pieces = {c[1] for c in group}
    if len(group) == 1:
        return 1
    if len(group) == 2:
        return 4 if len(colours) == 1 else None
    if len(group) == 3 and len(colours) == 1:
        return 10
    if len(group) == 3 and len(colours) == 3 and pieces == {"H", "C", "T"}:
        return 6
    return None


@cache
def brute(hand: frozenset[str]) -> int:
    """Best total over every partition of the hand into groups (first card in each)."""
    if not hand:
        return 0
    first = min(hand)
    rest = sorted(hand - {first})
    best = 0
    for size in (0, 1, 2):
        for others in combinations(rest, size):
            value = group_value((first, *others))
            if value is not None:
                best = max(best, value + brute(hand - {first, *others}))
    return best


def check(hand: list[str]) -> None:
    grouping = best_grouping(hand)
    assert grouping.points == brute(frozenset(hand)) == best_points(hand)
    cards = [c for g in grouping.groups for c in g]
    assert sorted(cards) == sorted(hand)  # each card exactly once
    values = [group_value(g) for g in grouping.groups]
    assert None not in values
    assert sum(v for v in values if v is not None) == grouping.points


def test_every_hand_from_five_pavilions() -> None:
    cards = [c for c in ALL_CARDS if int(c[0]) <= 5]
    for mask in range(1 << len(cards)):
        hand = [c for i, c in enumerate(cards) if mask >> i & 1]
        assert best_points(hand) == brute(frozenset(hand)), hand
    for mask in range(0, 1 << len(cards), 97):
        check([c for i, c in enumerate(cards) if mask >> i & 1])


@settings(max_examples=300, deadline=None)
@given(st.sets(st.sampled_from(ALL_CARDS), max_size=14))
def test_random_hands_over_all_pavilions(hand: set[str]) -> None:
    check(sorted(hand))


@pytest.mark.parametrize(
    ("hand", "points"),
    [
        ([], 0),
        (["3H"], 1),
        (["3H", "3T"], 4),
        (["3H", "3C", "3T"], 10),
        (["1H", "2C", "3T"], 6),
        (["1H", "2H", "3T"], 3),  # two hats: no suit
        (["1H", "2C", "3H", "3T"], 7),  # 3T completes a suit, 3H alone
        (list(ALL_CARDS), 80),
    ],
)
def test_spec_values(hand: list[str], points: int) -> None:
    assert best_grouping(hand).points == points


def test_grouping_is_deterministic_and_ordered() -> None:
    assert best_grouping(["3T", "2C", "1H", "3H"]).groups == (("1H", "2C", "3T"), ("3H",))
    assert best_grouping(["1T", "1H"]).groups == (("1H", "1T"),)


def test_bad_cards() -> None:
    with pytest.raises(CardError):
        parse_card("9H")
    with pytest.raises(CardError):
        parse_card("1X")
    with pytest.raises(CardError):
        best_grouping(["1H", "1H"])
    assert parse_card(" 5c ") == "5C"


def test_eight_distinct_colours_with_green_seven() -> None:
    assert len(set(COLOURS.values())) == 8
    assert COLOURS[7] == "green"  # the rulebook's closing puzzle: "pavillon 7 vert"
