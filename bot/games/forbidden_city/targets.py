"""What `play` arguments mean: a spot number from the private image, or x,y, then a rotation.

The checks here only explain, in the user's language, why a move cannot be; the engine still
decides what is legal.
"""

from __future__ import annotations

import re

import render.forbidden_city as render
from engine.forbidden_city import Game, GameOverError, IllegalMove, Place, Tile

from ...exchange.refused import Refused
from ...text.i18n import tr

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
    words = " ".join(args).replace("@", " @").split()
    spots = render.spots(game.view(game.current))
    # What is wrong is said in the order it was written: the spot first, then its rotation.
    x, y = _cell(words[0], spots, lang)
    if (x, y) in game.board.cells:
        raise Refused(tr(lang, "The cell {x},{y} is already taken.", x=x, y=y))
    if (x, y) not in game.board.frontier():
        raise Refused(tr(lang, "A tile must touch another tile: {x},{y} touches none.", x=x, y=y))
    rotation = _rotation_word([w.lstrip("@") for w in words[1:]], lang)
    fits = next((s.rotations for s in spots if (s.x, s.y) == (x, y)), ())
    hand = Tile.parse(game.hand(game.turn) or "")
    return Place(x, y, _fitting(x, y, rotation, fits, hand, lang))


def _rotation_word(rest: list[str], lang: str) -> int | None:
    """The rotation typed after the spot, if any; one word at most."""
    if not rest:
        return None
    if len(rest) > 1:
        raise Refused(
            tr(
                lang,
                "Too many words: “{extra}”. Write /fc play <spot> <rotation>.",
                extra=" ".join(rest[1:])[:20],
            )
        )
    if rest[0] not in ("0", "1", "2", "3"):
        raise Refused(tr(lang, "The rotation is 0, 1, 2 or 3 (quarter turns clockwise)."))
    return int(rest[0])


def _cell(where: str, spots: list[render.Spot], lang: str) -> tuple[int, int]:
    """The cell a spot number or `x,y` names."""
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
        return spot.x, spot.y
    cell_match = CELL.match(where)
    if cell_match is None:
        raise Refused(
            tr(lang, "“{text}” is not a spot number or x,y coordinates.", text=where[:20])
        )
    return int(cell_match[1]), int(cell_match[2])


def _fitting(
    x: int, y: int, rotation: int | None, fits: tuple[int, ...], hand: Tile, lang: str
) -> int:
    """The rotation to play: the one typed if the tile fits so, else the only one that fits."""
    if rotation is None:
        if len(fits) != 1:
            if not fits:
                raise Refused(tr(lang, "Your tile fits at {x},{y} in no rotation.", x=x, y=y))
            raise Refused(
                tr(lang, "Say which rotation: {turns}.", turns=", ".join(str(r) for r in fits))
            )
        return fits[0]
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
    return rotation
