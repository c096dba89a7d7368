"""Every text the Verbotene Stadt images show, as gettext message ids (see render/texts.py)."""

from __future__ import annotations

from typing import Final

from ..texts import N_

# NOTE: the game's name in the title band of Die Verbotene Stadt's images.
TITLE: Final = N_("Die Verbotene Stadt")
# NOTE: right of the title; {winners} is a comma-separated list of player names.
STATUS_OVER: Final = N_("Game over · won by {winners}")
# NOTE: right of the title, while players secretly choose the official they bribe.
STATUS_BRIBES: Final = N_("Secret bribes being chosen")
# NOTE: right of the title; {who} is a player's name.
STATUS_WAIT: Final = {
    "move": N_("{who} to move"),
    "answer": N_("{who}: bluff or not?"),
    "take": N_("{who} takes a card"),
}
# NOTE: heading over the dice just rolled.
DICE: Final = N_("Dice")
# NOTE: under a fate die: which of the three dice it is.
DIE_NAME: Final = {"small": N_("small"), "medium": N_("medium"), "large": N_("large")}
# NOTE: heading of the exile terrace; {n} is how many officials are on it, of 15.
EXILE: Final = N_("Exile terrace {n}/15")
# NOTE: a player's points, right-aligned: one point, then any other number.
POINT: Final = N_("1 pt")
POINTS: Final = N_("{n} pts")
# NOTE: shown where a player's cards would be.
NO_CARDS: Final = N_("no cards yet")
# NOTE: the private image: the official this player secretly bribes.
YOUR_BRIBE: Final = N_("Your bribe:")
# NOTE: a player's name in the team game; {team} is 1 or 2 (partners share a number).
TEAM_MEMBER: Final = N_("{name} · team {team}")
# NOTE: the team game's score line; {a} and {b} are the partners' names, {points} their
# points together ("1 pt", "{n} pts").
TEAM_TOTAL: Final = N_("Team {team} ({a} & {b}): {points}")
# NOTE: legend beside a roof square: officials never stand or pass there.
LEGEND_ROOF: Final = N_("Roof: no official goes here")
# NOTE: legend beside a yellow and a grey square.
LEGEND_START: Final = N_("From these squares a slide goes one square")
# NOTE: one letter on a clothing card for each piece: hat, coat, trousers.
PIECE_LETTER: Final = {"H": N_("H"), "C": N_("C"), "T": N_("T")}

MESSAGES: Final[tuple[str, ...]] = (
    TITLE,
    STATUS_OVER,
    STATUS_BRIBES,
    *STATUS_WAIT.values(),
    DICE,
    *DIE_NAME.values(),
    EXILE,
    POINT,
    POINTS,
    NO_CARDS,
    YOUR_BRIBE,
    TEAM_MEMBER,
    TEAM_TOTAL,
    LEGEND_ROOF,
    LEGEND_START,
    *PIECE_LETTER.values(),
)
