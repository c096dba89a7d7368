"""Every decision a seat can make, and its text notation (docs/verbotene-stadt-notation.md).

    bribe RB        choose the official to bribe (hat colour, robe colour)
    keep            keep one's bribe when an entry allows a change
    move RB:N,E     move an official by these slides
    pass            end one's turn after a red fate face, or let a dragon go
    believe, doubt  answer an entry that the bluff rule puts to the table
    take 2 5C       take card 5C from seat 2 (seats numbered from 1 in table order)

`str(action)` is the notation and `parse_action(str(action)) == action`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from engine.core.errors import IllegalMove

from .cards import CardError, parse_card

COLOUR_LETTERS = "RYBGK"  # red, yellow, blue, green, black
OFFICIALS = tuple(h + r for h in COLOUR_LETTERS for r in COLOUR_LETTERS)
DIRECTIONS = ("N", "E", "S", "W")


class ActionSyntaxError(IllegalMove):
    """Text that is not an action; the reason says what was expected."""


@dataclass(frozen=True, slots=True)
class Bribe:
    official: str

    def __str__(self) -> str:
        return f"bribe {self.official}"


@dataclass(frozen=True, slots=True)
class Keep:
    def __str__(self) -> str:
        return "keep"


class MoveOfficial(NamedTuple):
    """A tuple rather than a dataclass: the mover's legal actions hold hundreds of them."""

    official: str
    slides: tuple[str, ...]

    def __str__(self) -> str:
        return f"move {self.official}:{','.join(self.slides)}"


@dataclass(frozen=True, slots=True)
class Pass:
    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Believe:
    def __str__(self) -> str:
        return "believe"


@dataclass(frozen=True, slots=True)
class Doubt:
    def __str__(self) -> str:
        return "doubt"


@dataclass(frozen=True, slots=True)
class Take:
    seat: int  # 1-based, table order
    card: str

    def __str__(self) -> str:
        return f"take {self.seat} {self.card}"


Action = Bribe | Keep | MoveOfficial | Pass | Believe | Doubt | Take
KEEP, PASS, BELIEVE, DOUBT = Keep(), Pass(), Believe(), Doubt()
_WORDS: dict[str, Action] = {"keep": KEEP, "pass": PASS, "believe": BELIEVE, "doubt": DOUBT}


def parse_official(text: str) -> str:
    code = text.strip().upper()
    if code not in OFFICIALS:
        raise ActionSyntaxError(
            f"not an official: {text!r} (hat then robe colour, each one of R Y B G K, e.g. RB)"
        )
    return code


def parse_action(text: str) -> Action:
    """The action written `text` (case and surrounding blanks do not matter)."""
    words = text.split()
    if not words:
        raise ActionSyntaxError("empty action")
    verb = words[0].lower()
    if verb in _WORDS and len(words) == 1:
        return _WORDS[verb]
    if verb == "bribe" and len(words) == 2:
        return Bribe(parse_official(words[1]))
    if verb == "move" and len(words) == 2 and ":" in words[1]:
        code, _, path = words[1].partition(":")
        slides = tuple(s.strip().upper() for s in path.split(","))
        if not path or any(s not in DIRECTIONS for s in slides):
            raise ActionSyntaxError(f"slides are directions N, E, S, W, comma-separated: {path!r}")
        return MoveOfficial(parse_official(code), slides)
    if verb == "take" and len(words) == 3:
        if not words[1].isdigit() or not 1 <= int(words[1]) <= 4:
            raise ActionSyntaxError(f"a seat number 1-4 in table order, not {words[1]!r}")
        try:
            card = parse_card(words[2])
        except CardError as err:
            raise ActionSyntaxError(str(err)) from None
        return Take(int(words[1]), card)
    raise ActionSyntaxError(
        f"not an action: {text!r} (bribe RB, keep, move RB:N,E, pass, believe, doubt, take 2 5C)"
    )
