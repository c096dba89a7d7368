"""Every card of every hand the rules allow is drawn whole inside the Verbotene Stadt panel.

The game has 24 clothing cards, one of each (8 pavilions x hat, coat, trousers), and none is ever
destroyed: cards only move from the piles to the hands and, by dragons, bluffs and empty
pavilions, from hand to hand. So the largest hand a game can reach is all 24 cards in one seat's
row, and the most crowded panel is the team game's private image (four seats, the team totals,
the seat's bribe) with the 24 cards shared so that as many rows as possible wrap.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import pytest

from engine.verbotene_stadt.cards import ALL_CARDS, COLOURS
from engine.verbotene_stadt.game import Game
from engine.verbotene_stadt.players import choose_simple
from render.verbotene_stadt import palette as pal
from render.verbotene_stadt import table_image
from render.verbotene_stadt.panel import Box, panel_layout
from render.verbotene_stadt.table import frame_image

NAMES = {"north": "Ann", "east": "Bob", "south": "Chloé", "west": "Dmitri"}
PANEL = (50, 58, 68)
BACKGROUND = (38, 44, 52)


def _position(hands: Sequence[Sequence[str]], *, teams: bool = True) -> Game:
    """A mid-game position of a real 4-player game, its seats holding `hands` (the cards in no
    hand in their pavilions)."""
    played = Game(4, seed=11, teams=teams)
    rng = random.Random(11)
    while len(played.exiled) < 6 or played.to_act[0].kind != "move":
        turn = played.to_act[0]
        played.play(turn.seat, choose_simple(played, turn.seat, rng))
    return Game.from_position(
        4,
        officials=played.at,
        open_pavilion=played.open or 1,
        bribes=played.bribes,
        hands=hands,
        exiled=played.exiled,
        teams=teams,
    )


def _deal(counts: Sequence[int]) -> list[list[str]]:
    """The 24 cards shared out in these numbers, each seat's share spread over the colours (the
    fewest points and the most groups: the widest rows)."""
    spread = [c for piece in "HCT" for c in ALL_CARDS if c[1] == piece]
    hands, start = [], 0
    for n in counts:
        hands.append(spread[start : start + n])
        start += n
    assert start == len(ALL_CARDS)
    return hands


ALL_IN_ONE = [list(ALL_CARDS), [], [], []]
SHARES = {
    "24 in one hand, by colour": ALL_IN_ONE,
    "24 in one hand, spread": _deal((24, 0, 0, 0)),
    "13, 11": _deal((13, 11, 0, 0)),
    "10, 10, 4": _deal((10, 10, 4, 0)),
    "12, 12": _deal((0, 12, 0, 12)),
    "9 each and 6": _deal((9, 9, 6, 0)),
}


def _inside(box: Box, outer: Box) -> bool:
    return outer[0] <= box[0] and outer[1] <= box[1] and box[2] <= outer[2] and box[3] <= outer[3]


def _overlap(a: Box, b: Box) -> bool:
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def _cloth(card: str) -> tuple[int, int, int]:
    return pal.cloth(COLOURS[int(card[0])])


def test_the_largest_hand_the_rules_allow_is_every_card() -> None:
    game = _position(ALL_IN_ONE)
    assert len(ALL_CARDS) == 24 and len(set(ALL_CARDS)) == 24
    assert sorted(game.view(None).hands["north"]) == sorted(ALL_CARDS)


@pytest.mark.parametrize("hands", list(SHARES.values()), ids=list(SHARES))
@pytest.mark.parametrize("seat", [None, "north"], ids=["public", "private"])
def test_every_card_is_drawn_whole_inside_the_panel(
    hands: list[list[str]], seat: str | None
) -> None:
    view = _position(hands).view(seat)
    image = frame_image(view, NAMES)  # in RGB: the cards' own colours, unmapped
    plan = panel_layout(view, image.height)
    boxes = [box for seat_cards in plan.cards.values() for _, box in seat_cards]
    for name, seat_cards in plan.cards.items():
        assert sorted(card for card, _ in seat_cards) == sorted(view.hands[name])
    assert len(boxes) == 24
    for box in boxes:
        assert _inside(box, plan.inner), box
        assert not _overlap(box, plan.legend), box
        assert plan.bribe is None or not _overlap(box, plan.bribe), box
    for a, b in itertools.combinations(boxes, 2):
        assert not _overlap(a, b), (a, b)
    for seat_cards in plan.cards.values():
        for card, (x0, y0, x1, y1) in seat_cards:
            middle = (y0 + y1) // 2
            # both sides of the card, just inside its outline, in its pavilion's colour
            assert image.getpixel((x0 + 2, middle)) == _cloth(card), card
            assert image.getpixel((x1 - 2, middle)) == _cloth(card), card
    assert plan.legend[3] < (plan.bribe[1] if plan.bribe else image.height - 14)


@pytest.mark.parametrize("hands", list(SHARES.values()), ids=list(SHARES))
def test_nothing_is_drawn_past_the_panels_right_edge(hands: list[list[str]]) -> None:
    """Right of where the points end, down to the image's edge, only the panel and the
    background show: no card runs over (a 13-card row once cut 8C in half and lost 8T)."""
    view = _position(hands).view(None)
    image = table_image(view, NAMES).convert("RGB")
    players_top = 52 + 14 + 182
    right = image.width - 14 - 12
    strip = image.crop((right + 1, players_top, image.width, image.height))
    colours = {colour for _, colour in strip.getcolors(1 << 16) or ()}
    assert colours <= {PANEL, BACKGROUND}, colours - {PANEL, BACKGROUND}


def test_a_hand_that_fits_on_one_row_is_drawn_as_before() -> None:
    """A hand on one row changes nothing: the cards in scoring groups, a gap between groups."""
    view = _position([["1H", "1C", "1T", "2H", "3C", "4T"], ["5H"], [], []]).view(None)
    plan = panel_layout(view, table_image(view, NAMES).height)
    lefts = [box[0] for _, box in plan.cards["north"]]
    tops = {box[1] for _, box in plan.cards["north"]}
    assert len(tops) == 1
    assert [b - a for a, b in itertools.pairwise(lefts)] == [26, 26, 34, 26, 26]


def test_a_long_row_wraps_between_scoring_groups() -> None:
    view = _position(ALL_IN_ONE).view(None)
    plan = panel_layout(view, table_image(view, NAMES).height)
    rows: dict[int, list[str]] = {}
    for card, box in plan.cards["north"]:
        rows.setdefault(box[1], []).append(card)
    assert len(rows) == 3
    for cards in rows.values():  # eight triples: each row holds whole colours
        colours = [card[0] for card in cards]
        assert all(colours.count(c) == 3 for c in colours), cards


def test_an_image_grows_only_when_its_cards_need_the_room() -> None:
    small = table_image(_position(_deal((6, 6, 6, 6))).view("north"), NAMES)
    large = table_image(_position(ALL_IN_ONE).view("north"), NAMES)
    assert small.size == table_image(Game(4, seed=1).view(None), NAMES).size
    assert large.width == small.width and large.height > small.height
