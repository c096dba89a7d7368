"""What `/fc play ...` means in Die Verbotene Stadt, read liberally, and the engine's refusals in
the user's language.

The engine's notation (docs/verbotene-stadt-notation.md) works after `play`; so do shorter
forms: `RB N,E`, `rb n e`, `RB NE`, `bribe rb`, `RB` alone while bribing, `take 5C` when only
one player holds that card. The checks here explain; the engine still decides.
"""

from __future__ import annotations

import re

from engine.core.errors import IllegalMove
from engine.verbotene_stadt import (
    Action,
    Believe,
    Bribe,
    Doubt,
    Game,
    Keep,
    MoveOfficial,
    Pass,
    Take,
)
from engine.verbotene_stadt.actions import OFFICIALS

from ...exchange.refused import Refused
from ...text.i18n import tr
from .paths import trace

WORDS: dict[str, Action] = {
    "pass": Pass(),
    "believe": Believe(),
    "doubt": Doubt(),
    "keep": Keep(),
}
_SLIDES = re.compile(r"^[NESW]+$")
_CARD = re.compile(r"^[1-8][HCT]$")
_SEAT = re.compile(r"^[1-4]$")


def _short(text: str) -> str:
    return text if len(text) <= 12 else text[:12] + "…"


def asked(lang: str, kind: str | None) -> str:
    """What the seat is asked to do now, in words."""
    if kind in ("bribe", "rebribe"):
        return tr(lang, "You are asked to choose the official you bribe: /fc play bribe RB.")
    if kind == "answer":
        return tr(lang, "You are asked whether you believe the entry: /fc play believe or doubt.")
    if kind == "take":
        return tr(lang, "You are asked to take a card: /fc play take 2 5C.")
    return tr(lang, "You are asked to move an official: /fc play RB N,E (or pass).")


def official_code(text: str, lang: str) -> str:
    code = text.upper()
    if code not in OFFICIALS:
        raise Refused(
            tr(
                lang,
                "“{text}” is not an official: hat colour then robe colour, each one of "
                "R Y B G K (e.g. RB).",
                text=_short(text),
            )
        )
    return code


FITS: dict[str, tuple[type, ...]] = {
    "bribe": (Bribe,),
    "rebribe": (Bribe, Keep),
    "move": (MoveOfficial, Pass),
    "answer": (Believe, Doubt),
    "take": (Take, Pass),
}


def fitting(action: Action, kind: str | None, lang: str) -> Action:
    """`action` if it answers what the seat is asked, else a refusal that says what is."""
    if kind is None or not isinstance(action, FITS.get(kind, ())):
        raise Refused(asked(lang, kind))
    return action


def typed(game: Game, seat: str, args: list[str], lang: str, private: bool) -> Action:
    """The action meant by the words after `play`."""
    kind = next((t.kind for t in game.to_act if t.seat == seat), None)
    return fitting(_typed(game, seat, kind, args, lang, private), kind, lang)


def _typed(
    game: Game, seat: str, kind: str | None, args: list[str], lang: str, private: bool
) -> Action:
    tokens = " ".join(args).replace(":", " ").replace(",", " ").split()
    if not tokens:
        raise Refused(asked(lang, kind))
    verb = tokens[0].lower()
    if verb in WORDS and len(tokens) == 1:
        return WORDS[verb]
    if verb == "bribe" or (kind in ("bribe", "rebribe") and len(tokens) == 1):
        if not private:
            raise Refused(
                tr(
                    lang,
                    "Bribes are secret: choose in the menu of your private message, or type "
                    "this in a private chat with me.",
                )
            )
        if len(tokens) != 2 and verb == "bribe":
            raise Refused(asked(lang, kind))
        return Bribe(official_code(tokens[-1], lang))
    if verb == "take":
        return _take(game, seat, tokens[1:], lang)
    if verb == "move":
        tokens = tokens[1:]
    if not tokens:
        raise Refused(asked(lang, kind))
    code = official_code(tokens[0], lang)
    slides: list[str] = []
    for token in tokens[1:]:
        upper = token.upper()
        if not _SLIDES.match(upper):
            raise Refused(
                tr(
                    lang,
                    "“{text}” is not a direction: the slides are N, E, S and W.",
                    text=_short(token),
                )
            )
        slides.extend(upper)
    if kind != "move":
        raise Refused(asked(lang, kind))
    if code not in game.at:
        raise Refused(tr(lang, "{official} is not on the board.", official=code))
    if not slides:
        raise Refused(
            tr(
                lang,
                "Say how {official} slides: /fc play {official} N,E (directions N, E, S, W).",
                official=code,
            )
        )
    move = MoveOfficial(code, tuple(slides))
    path = trace(game, code, move.slides)
    if path is not None and path.home:
        raise Refused(tr(lang, "A move may not end on the square where it began."))
    return move


def _take(game: Game, seat: str, tokens: list[str], lang: str) -> Action:
    usage = tr(
        lang, "Say which card: /fc play take 2 5C (the seat number in turn order, the card)."
    )
    cards = [t.upper() for t in tokens if _CARD.match(t.upper())]
    seats = [t for t in tokens if _SEAT.match(t)]
    if len(cards) != 1 or len(seats) > 1 or len(tokens) != len(cards) + len(seats):
        raise Refused(usage)
    if seats:
        return Take(int(seats[0]), cards[0])
    holders = [
        Take(a.seat, a.card)
        for a in game.legal_actions(seat)
        if isinstance(a, Take) and a.card == cards[0]
    ]
    if len(holders) != 1:
        raise Refused(usage)
    return holders[0]


_SLIDE_STUCK = re.compile(r"^slide (\d+): (\w\w) cannot slide (\w) from (\d+),(\d+)$")
_SLIDE_TURN = re.compile(r"^slide (\d+): \w is not at a right angle")
_SLIDE_OVER = re.compile(r"^slide (\d+): the move is already over")
_NOT_ON_BOARD = re.compile(r"^(\w\w) is not on the board")
_NOT_AMONG = re.compile(r"^take (\d) (\w\w) is not among")


def explain(err: IllegalMove, lang: str) -> str:
    """The engine's reason for refusing an action, in the user's language."""
    reason = err.reason
    if reason == "the game is over":
        return tr(lang, "The game is over.")
    if found := _SLIDE_STUCK.match(reason):
        return tr(
            lang,
            "Slide {n}: {official} cannot slide {direction} from {x},{y}.",
            n=found[1],
            official=found[2],
            direction=found[3],
            x=found[4],
            y=found[5],
        )
    if found := _SLIDE_TURN.match(reason):
        return tr(lang, "Slide {n} must turn at a right angle to the one before.", n=found[1])
    if found := _SLIDE_OVER.match(reason):
        return tr(
            lang,
            "Slide {n} comes after the move is over (a dead end, a start square, or the pavilion).",
            n=found[1],
        )
    if reason.startswith("a move may not end"):
        return tr(lang, "A move may not end on the square where it began.")
    if reason.startswith("until you and another player hold a card"):
        return tr(
            lang,
            "Until you and another player hold a card, only the official you bribed may enter "
            "the pavilion.",
        )
    if reason == "the first move of a turn is compulsory":
        return tr(lang, "The first move of a turn is compulsory: move an official.")
    if reason == "only a player holding a card may doubt":
        return tr(lang, "Only a player who holds a card may doubt.")
    if reason.startswith("this card must be taken"):
        return tr(lang, "This card must be taken: choose one.")
    if reason == "you must choose an official to bribe now":
        return tr(lang, "You must choose an official now: keeping yours is not possible.")
    if found := _NOT_ON_BOARD.match(reason):
        return tr(lang, "{official} is not on the board.", official=found[1])
    if found := _NOT_AMONG.match(reason):
        return tr(lang, "You cannot take {card} from seat {n} now.", card=found[2], n=found[1])
    return tr(lang, "That move is not allowed: {reason}.", reason=reason)
