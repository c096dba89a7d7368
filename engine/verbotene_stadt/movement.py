"""Moving an official, exactly as the positions spec's "Moving an official" says.

A move is one or more slides; after each slide it may end or turn at a right angle, so a move can
turn for ever. The search is breadth first over (square, axis of the last slide), the axis being
all that decides which slides may follow: the first time a square or the entry is found, it is
with the fewest slides and, among those, the first in N, E, S, W order slide by slide, because the
queue stays in that order level by level. Slides use the board's precomputed rays; the other
officials are one bit mask. `_slide` states one slide plainly (for `follow`); `_search` repeats it
inline, being the hot loop of every player that searches.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.core.errors import IllegalMove

from .board import DIRECTIONS, Board, Square

# the right-angle directions after each direction, in N, E, S, W order
_TURNS = ((1, 3), (0, 2), (1, 3), (0, 2))
_ANY = (0, 1, 2, 3)
_ONE = tuple((name,) for name in DIRECTIONS)
_STUCK = -1  # a slide that cannot take a step
_ENTERS = -2  # a slide that enters the open pavilion


@dataclass(frozen=True, slots=True)
class Move:
    """One way to move `official`: its slides and where it ends (None: it entered the open
    pavilion and left the board)."""

    official: str
    slides: tuple[str, ...]
    end: Square | None


def occupied(board: Board, at: Mapping[str, Square], official: str) -> int:
    """The squares of every official but `official`, as a bit mask of square indexes."""
    bit = board.square_bit
    mask = 0
    for sq in at.values():
        mask |= bit[sq]
    return mask & ~bit[at[official]] if official in at else mask


def _slide(board: Board, occ: int, i: int, d: int, open_pavilion: int) -> int:
    """Where a slide from square index `i` toward `d` stops, or _STUCK / _ENTERS."""
    k = i * 4 + d
    if board.one_step[i]:
        nxt = board.steps[k]
        if nxt < 0:
            return _STUCK
        if board.floor[nxt]:
            return _STUCK if occ >> nxt & 1 else nxt
        return _ENTERS if open_pavilion and board.pavilion_of[nxt] == open_pavilion else _STUCK
    hit = occ & board.ray_bits[k]
    if hit:
        # the first official on the ray: the lowest bit going E or S, the highest going N or W
        if d in (1, 2):
            stop = (hit & -hit).bit_length() - 1 - board.step_offsets[d]
        else:
            stop = hit.bit_length() - 1 - board.step_offsets[d]
        return _STUCK if stop == i else stop
    if open_pavilion and board.ray_enters[k] == open_pavilion:
        return _ENTERS
    stop = board.ray_ends[k]
    return stop if stop >= 0 else _STUCK


def _search(
    board: Board, occ: int, origin: int, open_pavilion: int, first_entry_only: bool
) -> tuple[dict[int, tuple[str, ...]], tuple[str, ...] | None]:
    """Best slides to each end square index, and to the entry if any.

    A state is (square, axis of the last slide): N and S allow the same turns, as do E and W.
    """
    ends: dict[int, tuple[str, ...]] = {}
    entry: tuple[str, ...] | None = None
    seen = bytearray(len(board.floor) * 2)
    bits, ray_ends, enters = board.ray_bits, board.ray_ends, board.ray_enters
    offsets, one_step = board.step_offsets, board.one_step
    wanted = open_pavilion or -1  # never equal to ray_enters' 0 for "no pavilion"
    queue: list[tuple[int, int, tuple[str, ...]]] = [(origin, -1, ())]
    for i, last, path in queue:
        if one_step[i]:
            entered = _one_square(board, occ, i, last, path, origin, ends, wanted)
            if entered is not None and entry is None:
                entry = entered
                if first_entry_only:
                    return ends, entry
            continue
        base = i * 4
        for d in _ANY if last < 0 else _TURNS[last]:
            k = base + d
            hit = occ & bits[k]
            if hit:
                if d == 1 or d == 2:
                    stop = (hit & -hit).bit_length() - 1 - offsets[d]
                else:
                    stop = hit.bit_length() - 1 - offsets[d]
                if stop == i:
                    continue
            elif enters[k] == wanted:
                if entry is None:
                    entry = path + _ONE[d]
                    if first_entry_only:
                        return ends, entry
                continue
            else:
                stop = ray_ends[k]
                if stop < 0:
                    continue
            if stop not in ends and stop != origin:
                ends[stop] = path + _ONE[d]
            key = stop * 2 + (d & 1)
            if not seen[key]:
                seen[key] = 1
                queue.append((stop, d, path + _ONE[d]))
    return ends, entry


def _one_square(
    board: Board,
    occ: int,
    i: int,
    last: int,
    path: tuple[str, ...],
    origin: int,
    ends: dict[int, tuple[str, ...]],
    wanted: int,
) -> tuple[str, ...] | None:
    """The slides from a start square: one square each, ending the move; records the end
    squares in `ends` and returns the first entering path, if any."""
    entered = None
    for d in _ANY if last < 0 else _TURNS[last]:
        stop = board.steps[i * 4 + d]
        if stop < 0:
            continue
        if not board.floor[stop]:
            if board.pavilion_of[stop] == wanted and entered is None:
                entered = path + _ONE[d]
            continue
        if not occ >> stop & 1 and stop not in ends and stop != origin:
            ends[stop] = path + _ONE[d]
    return entered


def _origin(board: Board, at: Mapping[str, Square], official: str) -> int:
    if official not in at:
        raise IllegalMove(f"{official} is not on the board")
    return board.index(at[official])


def moves(
    board: Board, at: Mapping[str, Square], official: str, open_pavilion: int | None
) -> list[Move]:
    """Every distinct outcome of a move of `official`: one Move per end square (sorted by y then
    x) and, last, the entry into the open pavilion if one can; each with the fewest slides and,
    among those, the first in N, E, S, W order slide by slide."""
    origin = _origin(board, at, official)
    return _moves(board, occupied(board, at, official), official, origin, open_pavilion)


def _moves(
    board: Board, occ: int, official: str, origin: int, open_pavilion: int | None
) -> list[Move]:
    ends, entry = _search(board, occ, origin, open_pavilion or 0, False)
    squares = board.squares
    found = [Move(official, ends[j], squares[j]) for j in sorted(ends)]
    if entry is not None:
        found.append(Move(official, entry, None))
    return found


def every_move(board: Board, at: Mapping[str, Square], open_pavilion: int | None) -> list[Move]:
    """`moves` of every official on the board, officials in ASCII order of their codes."""
    everyone = occupied(board, at, "")
    found: list[Move] = []
    for code in sorted(at):
        bit = board.square_bit[at[code]]
        found += _moves(board, everyone & ~bit, code, bit.bit_length() - 1, open_pavilion)
    return found


def can_enter(board: Board, at: Mapping[str, Square], official: str, pavilion: int) -> Move | None:
    """The best move that takes `official` into `pavilion` (treated as the open one), if any."""
    origin = _origin(board, at, official)
    occ = occupied(board, at, official)
    _, entry = _search(board, occ, origin, pavilion, True)
    return None if entry is None else Move(official, entry, None)


def follow(
    board: Board,
    at: Mapping[str, Square],
    official: str,
    slides: Sequence[str],
    open_pavilion: int | None,
    trail: list[Square] | None = None,
) -> Square | None:
    """Where the given slides take `official` (None: into the open pavilion), or IllegalMove
    saying which slide breaks which rule. `trail`, if given, receives the square where each
    slide stopped (for an entry, the square before the door), for drawing the path."""
    origin = _origin(board, at, official)
    if not slides:
        raise IllegalMove("a move needs at least one slide")
    occ = occupied(board, at, official)
    open_p = open_pavilion or 0
    i, last = origin, -1
    over = ""
    for n, name in enumerate(slides, start=1):
        if name not in DIRECTIONS:
            raise IllegalMove(f"slide {n}: {name!r} is not a direction (N, E, S or W)")
        if over:
            raise IllegalMove(f"slide {n}: the move is already over ({over})")
        d = DIRECTIONS.index(name)
        if last >= 0 and d not in _TURNS[last]:
            raise IllegalMove(f"slide {n}: {name} is not at a right angle to {DIRECTIONS[last]}")
        x, y = board.square(i)
        stop = _slide(board, occ, i, d, open_p)
        if stop == _STUCK:
            raise IllegalMove(f"slide {n}: {official} cannot slide {name} from {x},{y}")
        if stop == _ENTERS:
            over = "it entered the pavilion"
            if trail is not None:
                end = -1 if board.one_step[i] else board.ray_ends[i * 4 + d]
                trail.append(board.square(end if end >= 0 else i))
            i = -1
            continue
        if board.one_step[i]:
            over = f"a slide from the start square {x},{y} goes one square"
        i, last = stop, d
        if trail is not None:
            trail.append(board.square(i))
        if not over and all(_slide(board, occ, i, t, open_p) == _STUCK for t in _TURNS[d]):
            ex, ey = board.square(i)
            over = f"{ex},{ey} is a dead end"
    if i < 0:
        return None
    if i == origin:
        raise IllegalMove("a move may not end on the square where it began")
    return board.square(i)
