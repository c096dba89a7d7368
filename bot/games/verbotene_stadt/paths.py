"""A move built one slide at a time, as the buttons build it: where it stands, what may follow.

The engine's `movement.follow` decides every slide; nothing is played, so no die is rolled. A
path may pass over the square where it began (the rules allow it) but not end there.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.errors import IllegalMove
from engine.verbotene_stadt import Game, MoveOfficial
from engine.verbotene_stadt.board import DIRECTIONS, Square
from engine.verbotene_stadt.movement import follow

# A button's payload (at most 24 characters) holds a path packed: the official's two letters,
# the number of slides, then three slides per character (N E S W as base-4 digits).
PACK = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-."
MAX_SLIDES = 63


def pack(official: str, slides: tuple[str, ...]) -> str:
    """`RB` and N, E as a button payload."""
    digits = [DIRECTIONS.index(s) for s in slides]
    digits += [0] * (-len(digits) % 3)
    chunks = [digits[k] * 16 + digits[k + 1] * 4 + digits[k + 2] for k in range(0, len(digits), 3)]
    return official + PACK[len(slides)] + "".join(PACK[c] for c in chunks)


def unpack(payload: str) -> tuple[str, tuple[str, ...]] | None:
    """The official and slides of a payload made by `pack`; None for anything else."""
    if len(payload) < 4 or any(c not in "RYBGK" for c in payload[:2]):
        return None
    if any(c not in PACK for c in payload[2:]):
        return None
    count = PACK.index(payload[2])
    slides: list[str] = []
    for char in payload[3:]:
        value = PACK.index(char)
        slides += [DIRECTIONS[value // 16], DIRECTIONS[value // 4 % 4], DIRECTIONS[value % 4]]
    found = (payload[:2], tuple(slides[:count]))
    if count < 1 or pack(*found) != payload:
        return None
    return found


@dataclass(frozen=True, slots=True)
class Path:
    official: str
    slides: tuple[str, ...]
    trail: tuple[Square, ...]  # where each slide stopped (an entry: the square at the door)
    entered: bool
    home: bool  # back on its first square: it may go on, not stop there


def trace(game: Game, official: str, slides: tuple[str, ...]) -> Path | None:
    """The path of these slides, or None if the rules forbid one of them."""
    if official not in game.at or not slides:
        return None
    trail: list[Square] = []
    try:
        end = follow(game.board, game.at, official, slides, game.open, trail)
    except IllegalMove:
        if len(trail) == len(slides) and trail[-1] == game.at[official]:
            return Path(official, slides, tuple(trail), False, True)
        return None
    return Path(official, slides, tuple(trail), end is None, False)


def next_slides(game: Game, path: Path) -> list[str]:
    """The directions that may follow: legal slides, an entry only where the mover may enter."""
    if len(path.slides) >= MAX_SLIDES or path.entered:
        return []
    out = []
    for d in DIRECTIONS:
        nxt = trace(game, path.official, (*path.slides, d))
        if nxt is not None and (not nxt.entered or game.may_enter(path.official)):
            out.append(d)
    return out


def first_slides(game: Game, official: str) -> list[str]:
    if official not in game.at:
        return []
    out = []
    for d in DIRECTIONS:
        nxt = trace(game, official, (d,))
        if nxt is not None and (not nxt.entered or game.may_enter(official)):
            out.append(d)
    return out


def movable(game: Game, seat: str) -> list[str]:
    """The officials the seat may move now, from the engine's legal moves."""
    found: list[str] = []
    for action in game.legal_actions(seat):
        if isinstance(action, MoveOfficial) and action.official not in found:
            found.append(action.official)
    return found
