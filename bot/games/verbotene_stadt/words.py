"""The names of things in Die Verbotene Stadt, in the user's language: officials, cards, colours.

An official is named by its two letters and its colours in words ("RB: red hat, blue robe"), so
a player who cannot tell the pawns apart by colour still can by name; a card by its code and
what it is ("3H (blue hat)").
"""

from __future__ import annotations

from engine.verbotene_stadt.cards import COLOURS

from ...text.i18n import N_, tr

# The hat and the robe of an official, by the letters of the positions spec.
HATS = {
    "R": N_("red hat"),
    "Y": N_("yellow hat"),
    "B": N_("blue hat"),
    "G": N_("green hat"),
    "K": N_("black hat"),
}
ROBES = {
    "R": N_("red robe"),
    "Y": N_("yellow robe"),
    "B": N_("blue robe"),
    "G": N_("green robe"),
    "K": N_("black robe"),
}
# Pavilions and cards by the colour names of engine/verbotene_stadt/data/pavilions.json (a
# colour missing here, after someone corrects that file, shows the number and code alone).
PAVILIONS = {
    "red": N_("pavilion {n} (red)"),
    "yellow": N_("pavilion {n} (yellow)"),
    "blue": N_("pavilion {n} (blue)"),
    "orange": N_("pavilion {n} (orange)"),
    "purple": N_("pavilion {n} (purple)"),
    "white": N_("pavilion {n} (white)"),
    "green": N_("pavilion {n} (green)"),
    "black": N_("pavilion {n} (black)"),
}
CARDS = {
    "red": (N_("red hat"), N_("red coat"), N_("red trousers")),
    "yellow": (N_("yellow hat"), N_("yellow coat"), N_("yellow trousers")),
    "blue": (N_("blue hat"), N_("blue coat"), N_("blue trousers")),
    "orange": (N_("orange hat"), N_("orange coat"), N_("orange trousers")),
    "purple": (N_("purple hat"), N_("purple coat"), N_("purple trousers")),
    "white": (N_("white hat"), N_("white coat"), N_("white trousers")),
    "green": (N_("green hat"), N_("green coat"), N_("green trousers")),
    "black": (N_("black hat"), N_("black coat"), N_("black trousers")),
}
# A pawn's colours as the image draws them, hat then robe, for menus (beside the words).
DOTS = {"R": "🔴", "Y": "🟡", "B": "🔵", "G": "🟢", "K": "⚫"}
DIRECTIONS = {"N": N_("North"), "E": N_("East"), "S": N_("South"), "W": N_("West")}
ARROWS = {"N": "↑", "E": "→", "S": "↓", "W": "←"}


def official(lang: str, code: str) -> str:
    """`RB (red hat, blue robe)`."""
    return tr(
        lang,
        "{code} ({hat}, {robe})",
        code=code,
        hat=tr(lang, HATS[code[0]]),
        robe=tr(lang, ROBES[code[1]]),
    )


def pawn(lang: str, code: str) -> str:
    """`🔴🔵 RB (red hat, blue robe)`: a menu's label, the colours seen before the words."""
    return f"{DOTS[code[0]]}{DOTS[code[1]]} {official(lang, code)}"


def pavilion(lang: str, number: int) -> str:
    """`pavilion 3 (blue)`."""
    name = PAVILIONS.get(COLOURS[number])
    return tr(lang, name, n=number) if name else tr(lang, "pavilion {n}", n=number)


def card(lang: str, code: str) -> str:
    """`3H (blue hat)`."""
    names = CARDS.get(COLOURS[int(code[0])])
    if names is None:
        return code
    name = names["HCT".index(code[1])]
    return tr(lang, "{code} ({name})", code=code, name=tr(lang, name))


def cards(lang: str, codes: list[str] | tuple[str, ...]) -> str:
    return ", ".join(card(lang, c) for c in codes) if codes else tr(lang, "no cards")


def slides(codes: tuple[str, ...] | list[str]) -> str:
    """`N, E` written with arrows: `↑ →`."""
    return " ".join(ARROWS[s] for s in codes)
