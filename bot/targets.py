"""What `play` arguments mean: a spot number from the private image, or x,y, then a rotation.

The checks here only explain, in the user's language, why a move cannot be; the engine still
decides what is legal.
"""

from __future__ import annotations

import re

import render
from engine.forbidden_city import Game, Place, Tile

from .i18n import tr

CELL = re.compile(r"^(-?\d+)\s*,\s*(-?\d+)(?:\s*@\s*([0-3]))?$")


class Refused(Exception):
    """A command that may not run; the message is already in the user's language."""


def target(game: Game, args: list[str], lang: str) -> Place:
    """The move meant by `play` arguments: a spot number or x,y, then a rotation."""
    if not args:
        raise Refused(
            tr(lang, "Say where: /fc play <spot> <rotation>, or /fc play <x>,<y> <rotation>.")
        )
    text = " ".join(args)
    spots = render.spots(game)
    words = text.replace("@", " @").split()
    where = words[0]
    rotation: int | None = None
    rest = [w.lstrip("@") for w in words[1:]]
    if rest:
        if len(rest) > 1 or rest[0] not in ("0", "1", "2", "3"):
            raise Refused(tr(lang, "The rotation is 0, 1, 2 or 3 (quarter turns clockwise)."))
        rotation = int(rest[0])
    cell_match = CELL.match(where)
    if where.isdigit():
        number = int(where)
        spot = next((s for s in spots if s.number == number), None)
        if spot is None:
            raise Refused(
                tr(
                    lang,
                    "There is no spot {n}. The spots are 1 to {last}.",
                    n=number,
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
