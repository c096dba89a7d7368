"""What `play` arguments mean: a spot number from the private image, or x,y, then a rotation.

The checks here only explain, in the user's language, why a move cannot be; the engine still
decides what is legal.
"""

from __future__ import annotations

import re

import render.forbidden_city as render
from engine.forbidden_city import Game, GameOverError, IllegalMove, Place, Tile

from ...i18n import tr
from ...refused import Refused

# ASCII digits only, and few of them: `int` refuses "²" and numbers of thousands of digits.
CELL = re.compile(r"^(-?[0-9]{1,6})\s*,\s*(-?[0-9]{1,6})(?:\s*@\s*([0-3]))?$")
NUMBER = re.compile(r"^[0-9]+$")


_TAKEN = re.compile(r"^cell (-?\d+),(-?\d+) is already taken$")
_ALONE = re.compile(r"^cell (-?\d+),(-?\d+) touches no tile$")
_COLOURS = re.compile(r"^the \w+ edge joins rooms of different colours without a wall$")


def explain(err: IllegalMove, lang: str) -> str:
    """The engine's reason for refusing a move, in the user's language.

    The checks in `target` normally say it first; this covers any case they miss, so the
    player still learns why rather than reading a generic failure.
    """
    if isinstance(err, GameOverError):
        return tr(lang, "The game is over.")
    if taken := _TAKEN.match(err.reason):
        return tr(lang, "The cell {x},{y} is already taken.", x=taken[1], y=taken[2])
    if alone := _ALONE.match(err.reason):
        return tr(
            lang, "A tile must touch another tile: {x},{y} touches none.", x=alone[1], y=alone[2]
        )
    if _COLOURS.match(err.reason):
        return tr(lang, "Open edges must meet the same colour; different colours only at a wall.")
    return tr(lang, "That move is not allowed: {reason}.", reason=err.reason)


def target(game: Game, args: list[str], lang: str) -> Place:
    """The move meant by `play` arguments: a spot number or x,y, then a rotation."""
    if not args:
        raise Refused(
            tr(lang, "Say where: /fc play <spot> <rotation>, or /fc play <x>,<y> <rotation>.")
        )
    text = " ".join(args)
    spots = render.spots(game.view(game.current))
    words = text.replace("@", " @").split()
    where = words[0]
    rotation: int | None = None
    rest = [w.lstrip("@") for w in words[1:]]
    if rest:
        if len(rest) > 1 or rest[0] not in ("0", "1", "2", "3"):
            raise Refused(tr(lang, "The rotation is 0, 1, 2 or 3 (quarter turns clockwise)."))
        rotation = int(rest[0])
    cell_match = CELL.match(where)
    if NUMBER.match(where):
        spot = next((s for s in spots if str(s.number) == where.lstrip("0")), None)
        if spot is None:
            raise Refused(
                tr(
                    lang,
                    "There is no spot {n}. The spots are 1 to {last}.",
                    n=where if len(where) <= 6 else where[:6] + "…",
                    last=len(spots),
                )
            )
        x, y = spot.x, spot.y
    elif cell_match:
        x, y = int(cell_match[1]), int(cell_match[2])
    else:
        raise Refused(
            tr(lang, "“{text}” is not a spot number or x,y coordinates.", text=where[:20])
        )
    if (x, y) in game.board.cells:
        raise Refused(tr(lang, "The cell {x},{y} is already taken.", x=x, y=y))
    if (x, y) not in game.board.frontier():
        raise Refused(tr(lang, "A tile must touch another tile: {x},{y} touches none.", x=x, y=y))
    fits = next((s.rotations for s in spots if (s.x, s.y) == (x, y)), ())
    hand = Tile.parse(game.hand(game.turn) or "")
    if rotation is None:
        if len(fits) != 1:
            if not fits:
                raise Refused(tr(lang, "Your tile fits at {x},{y} in no rotation.", x=x, y=y))
            raise Refused(
                tr(
                    lang,
                    "Say which rotation: {turns}.",
                    turns=", ".join(str(r) for r in fits),
                )
            )
        rotation = fits[0]
    if not any(hand.rotated(r) == hand.rotated(rotation) for r in fits):
        raise Refused(
            tr(
                lang,
                "Rotation {r} does not fit at {x},{y}: open edges must meet the same colour. "
                "Rotations that fit: {turns}.",
                r=rotation,
                x=x,
                y=y,
                turns=", ".join(str(r) for r in fits) or "-",
            )
        )
    return Place(x, y, rotation)
