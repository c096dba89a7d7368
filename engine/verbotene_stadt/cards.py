"""Clothing cards and how a hand scores.

A card is its code, pavilion number then piece (`3H`, `5C`, `8T`), as the positions spec writes
it; a pavilion's colour is data (`data/pavilions.json`). Scoring groups each card at most once:
three of one colour 10, two of one colour 4, a hat, a coat and trousers of three colours 6,
anything else 1.

The best total is found over per-colour piece masks: colours are interchangeable, so the value of
a hand depends only on the multiset of masks (at most 6435 of them), memoised once for all.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

PAVILIONS = tuple(range(1, 9))
PIECES = ("H", "C", "T")  # hat, coat, trousers
PIECE_BIT = {"H": 1, "C": 2, "T": 4}
ALL_CARDS = tuple(f"{p}{piece}" for p in PAVILIONS for piece in PIECES)
TRIPLE, PAIR, SUIT, SINGLE = 10, 4, 6, 1

_DATA = Path(__file__).parent / "data" / "pavilions.json"


def _colours() -> dict[int, str]:
    raw = json.loads(_DATA.read_text(encoding="utf-8"))["colours"]
    colours = {int(k): str(v) for k, v in raw.items()}
    if sorted(colours) != list(PAVILIONS) or len(set(colours.values())) != len(PAVILIONS):
        raise ValueError(f"{_DATA}: eight distinct colours for pavilions 1-8 are needed")
    return colours


COLOURS: dict[int, str] = _colours()


class CardError(ValueError):
    """Text that is not a card code, or a card given twice."""


def parse_card(text: str) -> str:
    """The card code for `text` (case-insensitive), or CardError."""
    code = text.strip().upper()
    if code not in ALL_CARDS:
        raise CardError(f"not a card: {text!r} (pavilion 1-8 then H, C or T, e.g. 3H)")
    return code


def pavilion_of(card: str) -> int:
    return int(card[0])


def card_order(card: str) -> tuple[int, int]:
    """Pavilion, then hat, coat, trousers."""
    return int(card[0]), PIECES.index(card[1])


def sort_cards(cards: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=card_order))


@cache
def _best(masks: tuple[int, ...]) -> int:
    """Best total for a hand given as sorted per-colour piece masks (zeros left out)."""
    if not masks:
        return 0
    first, rest = masks[-1], list(masks[:-1])
    low = first & -first
    options = []
    left = first & ~low
    # `low` alone, or with other pieces of its own colour
    options.append(SINGLE + _rest(rest, left))
    for other in (2, 4, 1):
        if other != low and first & other:
            options.append(PAIR + _rest(rest, left & ~other))
    if first == 7:
        options.append(TRIPLE + _best(tuple(rest)))
    # `low` in a suit with two other colours holding the two other pieces
    need = 7 & ~low
    p, q = need & -need, need & ~(need & -need)
    for i, a in enumerate(rest):
        if not a & p:
            continue
        for j, b in enumerate(rest):
            if j != i and b & q:
                after = list(rest)
                after[i] = a & ~p
                after[j] = b & ~q
                options.append(SUIT + _rest(after, left))
    return max(options)


def _rest(rest: list[int], left: int) -> int:
    masks = [m for m in rest if m]
    if left:
        masks.append(left)
    return _best(tuple(sorted(masks)))


def best_points(cards: Iterable[str]) -> int:
    """The best total of a hand (each card at most once)."""
    masks: dict[int, int] = {}
    for card in cards:
        masks[int(card[0])] = masks.get(int(card[0]), 0) | PIECE_BIT[card[1]]
    return _best(tuple(sorted(masks.values())))


@dataclass(frozen=True, slots=True)
class Grouping:
    points: int
    groups: tuple[tuple[str, ...], ...]


def best_grouping(cards: Iterable[str]) -> Grouping:
    """The best total and one grouping that reaches it, chosen deterministically.

    Cards are taken in pavilion then hat-coat-trousers order; for the first card left the first
    option that still reaches the best total wins, tried in the order: three of its colour, two of
    its colour (partner in piece order), a suit (partners in card order), alone. Groups are
    listed in the order they were formed, cards in each group in card order.
    """
    hand = list(sort_cards(cards))
    if len(set(hand)) != len(hand):
        raise CardError("a card may be given only once")
    for card in hand:
        parse_card(card)
    total = best_points(hand)
    groups: list[tuple[str, ...]] = []
    remaining = total
    while hand:
        first = hand[0]
        for group, value in _options(first, hand):
            rest = [c for c in hand if c not in group]
            if value + best_points(rest) == remaining:
                groups.append(sort_cards(group))
                hand = rest
                remaining -= value
                break
    return Grouping(total, tuple(groups))


def _options(first: str, hand: list[str]) -> list[tuple[tuple[str, ...], int]]:
    same = [c for c in hand if c[0] == first[0] and c != first]
    options: list[tuple[tuple[str, ...], int]] = []
    if len(same) == 2:
        options.append(((first, *same), TRIPLE))
    options.extend(((first, other), PAIR) for other in same)
    p, q = (piece for piece in PIECES if piece != first[1])
    for a in hand:
        if a[1] != p or a[0] == first[0]:
            continue
        for b in hand:
            if b[1] == q and b[0] not in (first[0], a[0]):
                options.append((sort_cards((first, a, b)), SUIT))
    options.append(((first,), SINGLE))
    return options
