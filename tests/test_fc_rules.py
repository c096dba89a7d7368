"""The rulebook's rules, each on a small position: placement, closing, value and payout."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.forbidden_city import payout
from engine.forbidden_city.position import PositionError, score

POSITIONS = Path(__file__).parent / "positions"


def closed(text: str) -> list[dict[str, object]]:
    result: list[dict[str, object]] = score(text).to_json()["closed"]
    return result


def test_example_1_pink_room_worth_11() -> None:
    result = score((POSITIONS / "example1.pos").read_text()).to_json()
    assert result["closed"] == [
        {"by": "blue", "colour": "pink", "tiles": 2, "dragons": 0, "value": 11,
         "paid": {"blue": 11}}
    ]  # fmt: skip
    assert result["coins"] == {"blue": 11, "purple": 0, "yellow": 0}


def test_example_2_green_room_worth_12_and_second_gets_half() -> None:
    result = score((POSITIONS / "example2.pos").read_text()).to_json()
    [room] = result["closed"]
    assert (room["colour"], room["tiles"], room["dragons"], room["value"]) == ("green", 6, 1, 12)
    assert room["paid"] == {"red": 12, "blue": 6}
    assert result["coins"] == {"red": 12, "blue": 6, "yellow": 0}


def test_example_3_tie_for_most_shares_half_each_and_blocked_archway_adds_nothing() -> None:
    result = score((POSITIONS / "example3.pos").read_text()).to_json()
    [room] = result["closed"]
    assert (room["colour"], room["tiles"], room["value"]) == ("white", 4, 6)
    assert result["coins"] == {"blue": 3, "purple": 3, "yellow": 0}


def test_example_4_two_archways_to_one_room_count_once_and_tied_seconds_get_nothing() -> None:
    result = score((POSITIONS / "example4.pos").read_text()).to_json()
    [room] = result["closed"]
    assert (room["colour"], room["tiles"], room["value"]) == ("pink", 5, 15)
    assert result["coins"] == {"yellow": 15, "red": 0, "blue": 0}


def test_room_beyond_an_adjacent_room_is_not_counted() -> None:
    text = """players: purple yellow
start: none
at 0 0 purple #a#.W+1A
at 1 0 purple #a#.G
at 2 0 purple ##..P
at 2 1 purple .#.#P
play -1 0 purple #.##W
"""
    # White (-1,0)+(0,0) closes. Green (1,0) is next to it through an archway: 1 tile. Pink
    # (2,0)+(2,1) is next to the green room only: it adds nothing.
    [room] = closed(text)
    assert (room["colour"], room["tiles"], room["value"]) == ("white", 2, 3)
    assert room["paid"] == {"purple": 3}


def test_archway_against_a_plain_wall_is_blocked() -> None:
    text = """players: purple yellow
start: none
at 1 0 purple ...#G+D
play 0 0 purple #a##W+1A
"""
    [room] = closed(text)
    assert (room["colour"], room["value"]) == ("white", 1)


@pytest.mark.parametrize("green", ["...aG+D", "....G+D"])
def test_archway_against_an_archway_or_open_edge_links_rooms(green: str) -> None:
    text = f"""players: purple yellow
start: none
at 1 0 purple {green}
play 0 0 purple #a##W+1A
"""
    [room] = closed(text)
    assert room["value"] == 1 + 1 + 3


def test_room_with_only_archways_facing_empty_cells_is_closed() -> None:
    [room] = closed("players: purple\nstart: none\nplay 0 0 purple aaaaP+1A\n")
    assert (room["tiles"], room["value"], room["paid"]) == (1, 1, {"purple": 1})


DIAGONAL = """players: purple yellow
start: none
at 0 -1 purple ##.#G+1A
at 1 0 yellow ###.G
at 0 1 yellow .###P+1A
at -1 0 purple #.##P
play 0 0 yellow {code}
"""


def test_diagonal_tile_counts_for_both_rooms_and_one_play_closes_two() -> None:
    # The '\\' tile's NE triangle (green) joins the tiles north and east, its SW triangle
    # (pink) the tiles south and west: two rooms of 3 tiles, both closed by this one play.
    rooms = closed(DIAGONAL.format(code="....G\\P"))
    assert [(r["colour"], r["tiles"], r["value"], r["paid"]) for r in rooms] == [
        ("green", 3, 3, {"purple": 3}),
        ("pink", 3, 3, {"yellow": 3}),
    ]


def test_archway_in_a_diagonal_wall_links_its_two_rooms() -> None:
    rooms = closed(DIAGONAL.format(code="....G\\aP"))
    assert [(r["colour"], r["value"]) for r in rooms] == [("green", 6), ("pink", 6)]


@pytest.mark.parametrize(
    ("advisors", "expected"),
    [
        ({}, {}),
        ({"red": 1}, {"red": 10}),
        ({"red": 3, "blue": 2, "yellow": 1}, {"red": 10, "blue": 5}),
        ({"red": 2, "blue": 2, "yellow": 1}, {"red": 5, "blue": 5}),
        ({"red": 2, "blue": 2, "yellow": 2}, {"red": 5, "blue": 5, "yellow": 5}),
        ({"red": 3, "blue": 1, "yellow": 1}, {"red": 10}),
        ({"red": 3, "blue": 0}, {"red": 10}),
    ],
)
def test_payout_rules(advisors: dict[str, int], expected: dict[str, int]) -> None:
    assert payout(10, advisors) == expected


def test_half_is_rounded_down() -> None:
    assert payout(11, {"red": 2, "blue": 1}) == {"red": 11, "blue": 5}
    assert payout(11, {"red": 2, "blue": 2}) == {"red": 5, "blue": 5}


def test_room_without_advisors_pays_nobody() -> None:
    [room] = closed("players: purple yellow\nstart: none\nplay 0 0 purple ####G+D\n")
    assert (room["value"], room["paid"]) == (4, {})


def test_temple_counts_as_one_tile_and_gardens_never_count() -> None:
    # The beginner side's north arm is pink, with an archway to the temple and gardens on both
    # sides. A pink tile closing it makes a 2-tile room: 2 + the temple's 1, gardens nothing.
    [room] = closed("players: red blue\nstart: beginner\nplay 0 -2 red ##.#P+1A\n")
    assert (room["colour"], room["tiles"], room["value"], room["paid"]) == (
        "pink",
        2,
        3,
        {"red": 3},
    )


def test_closing_the_beginner_arm_counts_the_temple_and_no_garden() -> None:
    result = closed("players: red blue\nstart: beginner\nplay 0 -2 red ###.W+1A\n")
    # White tile: south wall meets the pink arm's open north edge: the arm closes (1 tile + temple
    # through its archway = 2), nobody's advisor is in it. The white tile stays open to the west.
    assert [(r["colour"], r["tiles"], r["value"], r["paid"]) for r in result] == [
        ("pink", 1, 2, {})
    ]


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("play 5 5 purple ....G", "touches no tile"),
        ("play 0 0 purple ....G", "already taken"),
        ("play 1 0 purple ....P", "different colours"),
    ],
)
def test_illegal_plays_name_their_line(line: str, reason: str) -> None:
    text = f"players: purple yellow\nstart: none\nat 0 0 yellow ....G\n{line}\n"
    with pytest.raises(PositionError) as err:
        score(text)
    assert err.value.line == 4
    assert reason in err.value.reason


def test_different_colours_may_meet_at_a_wall() -> None:
    text = "players: purple yellow\nstart: none\nat 0 0 yellow ....G\nplay 1 0 purple ...#P\n"
    assert score(text).to_json()["closed"] == []


def test_diagonal_neighbour_is_not_a_neighbour() -> None:
    text = "players: purple yellow\nstart: none\nat 0 0 yellow ....G\nplay 1 1 purple ....G\n"
    with pytest.raises(PositionError, match="touches no tile"):
        score(text)


def test_diagonal_tile_with_both_parts_in_one_room_counts_once() -> None:
    text = """players: purple
start: none
at 0 -1 purple #..#G
at 1 -1 purple ##..G
at 1 0 purple .##.G
play 0 0 purple ..##G/G+1A
"""
    # Both triangles of the new tile join the same ring of green tiles: 4 tiles, not 5.
    [room] = closed(text)
    assert (room["tiles"], room["value"], room["paid"]) == (4, 4, {"purple": 4})
