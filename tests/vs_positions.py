"""Small Die Verbotene Stadt positions for the game tests, and seeds with known dice."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.verbotene_stadt import dice
from engine.verbotene_stadt.board import Board, Square
from engine.verbotene_stadt.game import RULES, Game

# Pavilion 1 in the north-west corner, its only door to the east; pavilion 2 in the south-east
# corner, doors north and west. An official at 4,0 sliding W enters pavilion 1 when it is open.
SMALL = """\
+-+-+-+-+-+
|1 . . . .|
+-+ + + + +
|. . . . .|
+ + + + + +
|. . . . 2|
+-+-+-+-+-+"""

SMALL_BOARD = Board.parse(SMALL)
# Ten officials that are not on the small board, to fill the exile terrace.
TEN_GONE = ("YR", "YY", "YB", "YG", "YK", "BR", "BY", "BB", "BG", "BK")


def small_game(
    bribes: Sequence[str | None],
    *,
    hands: Sequence[Sequence[str]] = (),
    officials: Mapping[str, Square] | None = None,
    piles: Mapping[int, Sequence[str]] | None = None,
    exiled: Sequence[str] = (),
    open_pavilion: int = 1,
    mover: int = 0,
    seed: int = 0,
    teams: bool = False,
    rules: int = RULES,
) -> Game:
    """A game on the small board; by default RR at 4,0 (one slide W from pavilion 1), KK at
    2,2 and GG at 0,1."""
    at = officials if officials is not None else {"RR": (4, 0), "KK": (2, 2), "GG": (0, 1)}
    return Game.from_position(
        len(bribes),
        officials=at,
        open_pavilion=open_pavilion,
        bribes=bribes,
        hands=hands,
        piles=piles,
        exiled=exiled,
        mover=mover,
        seed=seed,
        teams=teams,
        rules=rules,
        board=SMALL_BOARD,
    )


def seed_for(faces: Sequence[str]) -> int:
    """A seed whose first fate rolls (small, medium, large, one roll each) show `faces`."""
    for seed in range(100_000):
        if all(dice.fate(seed, i, i) == face for i, face in enumerate(faces)):
            return seed
    raise AssertionError(f"no seed rolls {faces}")
