"""The names of things in Die Verbotene Stadt, in the user's language: officials, cards, colours.

An official is named by its two letters and its colours in words ("RB: red hat, blue robe"), so
a player who cannot tell the pawns apart by colour still can by name; a card by its code and
what it is ("3H (hat, blue)").
"""

from __future__ import annotations

from engine.verbotene_stadt.cards import COLOURS

from ...i18n import N_, tr

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
# Pavilion and card colours (engine/verbotene_stadt/data/pavilions.json); the tile game's
# colour words share these ids.
COLOUR_WORDS = (
    N_("red"),
    N_("yellow"),
    N_("blue"),
    N_("orange"),
    N_("purple"),
    N_("white"),
    N_("green"),
    N_("black"),
)
PIECES = {"H": N_("hat"), "C": N_("coat"), "T": N_("trousers")}
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


def colour(lang: str, pavilion: int) -> str:
    return tr(lang, COLOURS[pavilion])


def pavilion(lang: str, number: int) -> str:
    """`pavilion 3 (blue)`."""
    return tr(lang, "pavilion {n} ({colour})", n=number, colour=colour(lang, number))


def card(lang: str, code: str) -> str:
    """`3H (hat, blue)`."""
    return tr(
        lang,
        "{code} ({piece}, {colour})",
        code=code,
        piece=tr(lang, PIECES[code[1]]),
        colour=colour(lang, int(code[0])),
    )


def cards(lang: str, codes: list[str] | tuple[str, ...]) -> str:
    return ", ".join(card(lang, c) for c in codes) if codes else tr(lang, "no cards")


def slides(codes: tuple[str, ...] | list[str]) -> str:
    """`N, E` written with arrows: `↑ →`."""
    return " ".join(ARROWS[s] for s in codes)
