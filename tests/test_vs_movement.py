"""Moving an official, rule by rule, on small hand-drawn boards (the positions spec)."""

from __future__ import annotations

import random

import pytest

from engine.core.errors import IllegalMove
from engine.verbotene_stadt.board import DELTA, DIRECTIONS, Board, Square
from engine.verbotene_stadt.movement import Move, can_enter, every_move, follow, moves

OPEN_3X3 = """\
+-+-+-+
|. . .|
+ + + +
|. . .|
+ + + +
|. . .|
+-+-+-+"""


def ends(board: Board, at: dict[str, Square], code: str, open_p: int | None = None) -> list[Square]:
    return [m.end for m in moves(board, at, code, open_p) if m.end is not None]


def test_a_slide_stops_before_a_wall_and_the_frame() -> None:
    board = Board.parse("+-+-+-+-+-+\n|. . .|. .|\n+-+-+-+-+-+")
    assert moves(board, {"RB": (0, 0)}, "RB", None) == [Move("RB", ("E",), (2, 0))]
    assert moves(board, {"RB": (4, 0)}, "RB", None) == [Move("RB", ("W",), (3, 0))]
    assert ends(board, {"RB": (1, 0)}, "RB") == [(0, 0), (2, 0)]


def test_a_slide_stops_before_roofs_and_other_officials() -> None:
    board = Board.parse("+-+-+-+-+-+-+\n|. . # . . .|\n+-+-+-+-+-+-+")
    assert ends(board, {"RB": (0, 0)}, "RB") == [(1, 0)]
    at = {"RB": (3, 0), "KK": (5, 0)}
    assert ends(board, at, "RB") == [(4, 0)]
    # the official next to another cannot slide toward it at all
    assert ends(board, {"RB": (4, 0), "KK": (5, 0)}, "RB") == [(3, 0)]


def test_an_official_hemmed_in_has_no_move() -> None:
    board = Board.parse("+-+-+-+\n|. . .|\n+-+-+-+")
    assert moves(board, {"RB": (1, 0), "KK": (0, 0), "GG": (2, 0)}, "RB", None) == []


PAVILION = """\
+-+-+-+
|. . .|
+ + +-+
|. . 1|
+ + + +
|. . .|
+-+-+-+"""


def test_only_the_open_pavilion_is_entered_and_only_through_a_door() -> None:
    board = Board.parse(PAVILION)
    # sliding east along the middle row crosses the west door of pavilion 1
    assert moves(board, {"RB": (0, 1)}, "RB", 1)[-1] == Move("RB", ("E",), None)
    assert follow(board, {"RB": (0, 1)}, "RB", ["E"], 1) is None
    # closed, it is an obstacle: the same slide stops before it
    assert follow(board, {"RB": (0, 1)}, "RB", ["E"], 2) == (1, 1)
    assert all(m.end is not None for m in moves(board, {"RB": (0, 1)}, "RB", None))
    # from the north there is a wall, not a door: 2,0 cannot go south at all
    with pytest.raises(IllegalMove, match="cannot slide S from 2,0"):
        follow(board, {"RB": (2, 0)}, "RB", ["S"], 1)
    # north from 2,2 crosses the south door
    assert follow(board, {"RB": (2, 2)}, "RB", ["N"], 1) is None


def test_the_entering_move_is_listed_last_and_ends_sorted_by_y_then_x() -> None:
    board = Board.parse(PAVILION)
    found = moves(board, {"RB": (0, 0)}, "RB", 1)
    assert found[-1].end is None
    squares = [m.end for m in found[:-1]]
    assert squares == sorted(squares, key=lambda sq: (sq[1], sq[0]))  # type: ignore[index]
    assert squares == [(2, 0), (0, 2), (2, 2)]


def test_turns_are_at_right_angles_only() -> None:
    board = Board.parse(OPEN_3X3)
    at = {"RB": (0, 0)}
    assert follow(board, at, "RB", ["E", "S"], None) == (2, 2)
    with pytest.raises(IllegalMove, match="slide 2: W is not at a right angle to E"):
        follow(board, at, "RB", ["E", "W"], None)
    with pytest.raises(IllegalMove, match="slide 3: N is not at a right angle to S"):
        follow(board, at, "RB", ["E", "S", "N"], None)


def test_a_dead_end_ends_the_move() -> None:
    board = Board.parse("+-+-+-+\n|. . .|\n+-+-+ +\n|. . .|\n+-+-+-+")
    at = {"RB": (2, 1)}
    # west along the bottom row into 0,1: nothing at a right angle is open there
    assert follow(board, at, "RB", ["W"], None) == (0, 1)
    with pytest.raises(IllegalMove, match="0,1 is a dead end"):
        follow(board, at, "RB", ["W", "N"], None)
    assert ends(board, at, "RB") == [(0, 0), (2, 0), (0, 1)]


def test_a_move_never_ends_where_it_began_but_may_pass_over_it() -> None:
    board = Board.parse(OPEN_3X3)
    at = {"RB": (0, 0)}
    with pytest.raises(IllegalMove, match="may not end on the square where it began"):
        follow(board, at, "RB", ["E", "S", "W", "N"], None)
    assert follow(board, at, "RB", ["E", "S", "W", "N", "E"], None) == (2, 0)
    assert (0, 0) not in ends(board, at, "RB")
    # from the middle of the top row: round the board and back west over the start square
    at = {"RB": (1, 0)}
    assert follow(board, at, "RB", ["W", "S", "E", "N", "W"], None) == (0, 0)


def test_start_squares_move_exactly_one_square_and_end_the_move() -> None:
    board = Board.parse("+-+-+-+-+\n|. s . .|\n+-+-+-+-+")
    assert moves(board, {"RB": (1, 0)}, "RB", None) == [
        Move("RB", ("W",), (0, 0)),
        Move("RB", ("E",), (2, 0)),
    ]
    with pytest.raises(IllegalMove, match="already over"):
        follow(board, {"RB": (1, 0)}, "RB", ["E", "N"], None)
    # sliding over a start square from elsewhere is an ordinary slide
    assert follow(board, {"RB": (3, 0)}, "RB", ["W"], None) == (0, 0)


def test_a_slide_that_begins_on_a_grey_square_mid_move_goes_one_square() -> None:
    board = Board.parse("+-+-+-+\n|. . .|\n+ + + +\n|. . .|\n+ + + +\n|g . .|\n+-+-+-+")
    at = {"RB": (2, 2)}
    assert follow(board, at, "RB", ["W", "N"], None) == (0, 1)
    with pytest.raises(IllegalMove, match="already over"):
        follow(board, at, "RB", ["W", "N", "E"], None)
    # 0,1 is reached only that way: from anywhere else a slide north or south along the
    # west column goes on to the frame
    assert Move("RB", ("W", "N"), (0, 1)) in moves(board, at, "RB", None)


def test_a_start_square_next_to_the_open_pavilion_steps_in() -> None:
    board = Board.parse("+-+-+\n|s 2|\n+-+-+")
    assert moves(board, {"RB": (0, 0)}, "RB", 2) == [Move("RB", ("E",), None)]
    assert moves(board, {"RB": (0, 0)}, "RB", 1) == []


REACH = """\
+-+-+-+
|. . 1|
+ + + +
|. . .|
+ + + +
|. . .|
+-+-+-+"""


def test_fewest_slides_then_north_east_south_west() -> None:
    board = Board.parse(REACH)
    # from 0,2 both N,E (west door) and E,N (south door) enter: N,E is first
    assert can_enter(board, {"RB": (0, 2)}, "RB", 1) == Move("RB", ("N", "E"), None)
    # from 0,0 one slide east enters, though N is first in order it cannot move
    assert can_enter(board, {"RB": (0, 0)}, "RB", 1) == Move("RB", ("E",), None)
    # from 2,2 one slide north enters; W,N,E would too, but it is longer
    assert can_enter(board, {"RB": (2, 2)}, "RB", 1) == Move("RB", ("N",), None)
    # each end square too gets the fewest slides, then the first in N, E, S, W order
    found = {m.end: m.slides for m in moves(board, {"RB": (0, 2)}, "RB", None)}
    assert found[(1, 0)] == ("N", "E")  # stops before pavilion 1, closed
    assert found[(2, 2)] == ("E",)
    assert found[(0, 0)] == ("N",)


def test_can_enter_treats_the_asked_pavilion_as_open() -> None:
    board = Board.parse(REACH)
    at = {"RB": (0, 2), "KK": (1, 0)}
    # KK blocks the top row: RB goes round by the south door instead
    assert can_enter(board, at, "RB", 1) == Move("RB", ("E", "N"), None)
    assert can_enter(board, at, "RB", 2) is None


def test_every_move_lists_each_official_in_code_order() -> None:
    board = Board.parse(OPEN_3X3)
    at = {"YY": (0, 0), "BR": (2, 2)}
    assert every_move(board, at, None) == moves(board, at, "BR", None) + moves(
        board, at, "YY", None
    )


def test_follow_refuses_what_is_not_a_move() -> None:
    board = Board.parse(OPEN_3X3)
    with pytest.raises(IllegalMove, match="at least one slide"):
        follow(board, {"RB": (0, 0)}, "RB", [], None)
    with pytest.raises(IllegalMove, match="not a direction"):
        follow(board, {"RB": (0, 0)}, "RB", ["X"], None)
    with pytest.raises(IllegalMove, match="not on the board"):
        follow(board, {"RB": (0, 0)}, "KK", ["E"], None)
    with pytest.raises(IllegalMove, match="already over"):
        follow(Board.parse(PAVILION), {"RB": (0, 1)}, "RB", ["E", "N"], 1)


# ------------------------------------------------------------ against a plain reading
TURNS = {"N": "EW", "S": "EW", "E": "NS", "W": "NS"}


def slide_by_steps(
    board: Board, others: set[Square], sq: Square, d: str, open_p: int | None
) -> Square | str | None:
    """One slide, step by step as the spec words it: a square, None (entered) or "stuck"."""
    limit = 1 if board.kind(sq) in "sg" else board.width * board.height
    dx, dy = DELTA[d]
    steps = 0
    while steps < limit and not board.wall(sq, d):
        nxt = (sq[0] + dx, sq[1] + dy)
        kind = board.kind(nxt)
        if kind.isdigit():
            if open_p is not None and int(kind) == open_p:
                return None
            break
        if kind == "#" or nxt in others:
            break
        sq, steps = nxt, steps + 1
    return sq if steps else "stuck"


def reference(
    board: Board, at: dict[str, Square], code: str, open_p: int | None, depth: int
) -> dict[Square | None, tuple[str, ...]]:
    """Every sequence of up to `depth` slides, level by level, each level in N, E, S, W order:
    the first sequence found for an outcome is its best."""
    others = {s for c, s in at.items() if c != code}
    origin = at[code]
    best: dict[Square | None, tuple[str, ...]] = {}
    level: list[tuple[Square, tuple[str, ...]]] = [(origin, ())]
    for _ in range(depth):
        deeper = []
        for sq, path in level:
            for d in DIRECTIONS if not path else [t for t in DIRECTIONS if t in TURNS[path[-1]]]:
                out = slide_by_steps(board, others, sq, d, open_p)
                if out is None:
                    best.setdefault(None, (*path, d))
                elif isinstance(out, tuple):
                    if out != origin:
                        best.setdefault(out, (*path, d))
                    if board.kind(sq) not in "sg":
                        deeper.append((out, (*path, d)))
        level = deeper
    return best


def random_board(rng: random.Random, w: int, h: int) -> Board:
    lines = ["+-" * w + "+"]
    for _y in range(h):
        row = "|" + "".join(rng.choice(".....sg#12") + rng.choice("    |") for _ in range(w))
        lines.append(row)
        lines.append("+" + "".join(rng.choice("    -") + "+" for _ in range(w)))
    return Board.parse("\n".join(lines))


def test_moves_match_a_step_by_step_reading_of_the_rules() -> None:
    rng = random.Random(8)
    depth = 9
    checked = 0
    for _ in range(150):
        board = random_board(rng, rng.randint(3, 5), rng.randint(3, 5))
        floor = [sq for sq in board.squares if board.can_stand(sq)]
        rng.shuffle(floor)
        at = dict(zip(["RB", "KK", "GY", "YG"], floor, strict=False))
        open_p = rng.choice([1, 2, None])
        for code in at:
            found = {m.end: m.slides for m in moves(board, at, code, open_p)}
            expected = reference(board, at, code, open_p, depth)
            assert {k: v for k, v in found.items() if len(v) <= depth} == expected, (
                board.to_text(),
                at,
                code,
                open_p,
            )
            for slides in found.values():
                end = follow(board, at, code, slides, open_p)
                assert end in found and found[end] == slides
            checked += len(found)
    assert checked > 500
