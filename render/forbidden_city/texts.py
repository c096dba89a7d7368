"""Every text the tile game's images show, as gettext message ids (see `render/texts.py`)."""

from __future__ import annotations

from typing import Final

from ..texts import N_
from ..texts import PREVIEW as PREVIEW
from ..texts import Translate as Translate
from ..texts import count as count
from ..texts import english as english
from ..texts import translator as translator

# NOTE: the game's name in the title band: "Forbidden City" in every edition ("Die Verbotene
# Stadt" and "Cité interdite" name Randolph & Rüttinger's game, which the bot also plays).
TITLE: Final = N_("Forbidden City")
# NOTE: right of the title; {n} is the move number, {who} a player's name.
STATUS_MOVE: Final = N_("Move {n} · {who} to play")
# NOTE: right of the title; {winners} is a comma-separated list of player names.
STATUS_OVER: Final = N_("Game over · won by {winners}")

# NOTE: seat colours: the default names of players who gave none (shown capitalised).
SEAT_NAMES: Final = {
    "purple": N_("purple"),
    "yellow": N_("yellow"),
    "red": N_("red"),
    "blue": N_("blue"),
}

# NOTE: short tag beside the name of the player whose turn it is.
TO_PLAY: Final = N_("to play")
# NOTE: short tag beside a winner's name.
WINNER: Final = N_("winner")
# NOTE: a player's coins, under the name; the singular is only used for exactly one.
ONE_COIN: Final = N_("1 coin")
COINS: Final = N_("{n} coins")
# NOTE: tiles a player still has to play (the one in hand and the stack).
ONE_TILE_LEFT: Final = N_("1 tile left")
TILES_LEFT: Final = N_("{n} tiles left")

# NOTE: caption before the first move; {who} is the first player's name.
START_BEGINNER: Final = N_("Beginner start. {who} plays first.")
START_ADVANCED: Final = N_("Advanced start. {who} plays first.")
START_NONE: Final = N_("{who} plays first.")
# NOTE: caption: the last move. {x},{y} are board coordinates, keep them as they are.
PLACED: Final = N_("{who} placed a tile at {x},{y}.")
# NOTE: caption: {tile} is a tile code such as "a#..G+1A".
DISCARDED: Final = N_("{who} could not place {tile} and set it aside.")
# NOTE: caption: {paid} lists who was paid ("Ann +6, Bob +3") or says nobody was.
CLOSED: Final = {
    "green": N_("Closed a green room worth {value}: {paid}."),
    "pink": N_("Closed a pink room worth {value}: {paid}."),
    "white": N_("Closed a white room worth {value}: {paid}."),
    "temple": N_("Closed the temple worth {value}: {paid}."),
}
# NOTE: caption of a preview, before the player confirms; {x},{y} are board coordinates.
PLACING: Final = N_("Not played yet: {who} would place a tile at {x},{y}.")
# NOTE: caption of a preview: a room the tile would close; {paid} as in "Closed a ... room".
WOULD_CLOSE: Final = {
    "green": N_("It would close a green room worth {value}: {paid}."),
    "pink": N_("It would close a pink room worth {value}: {paid}."),
    "white": N_("It would close a white room worth {value}: {paid}."),
    "temple": N_("It would close the temple worth {value}: {paid}."),
}
# NOTE: the {paid} part of a closed room when no seat had an advisor in it.
NOBODY_PAID: Final = N_("no advisors, unpaid")
# NOTE: on a small badge over a closed room that paid nobody; keep it short.
UNPAID: Final = N_("unpaid")
# NOTE: caption of the private view; @0-@3 are the turn commands, keep them as they are.
PICK_HINT: Final = N_("Pick a numbered spot, then a turn @0-@3.")
# NOTE: caption of the final table.
END_HINT: Final = N_(
    "The last two tiles of each stack are revealed: 2 coins an advisor, 3 a dragon."
)

# NOTE: above the four turns of a player's tile in hand; {who} is that player's name.
YOUR_TILE: Final = N_("Your tile, {who}: turns clockwise")
YOUR_TILE_FITS_NOWHERE: Final = N_("Your tile fits nowhere: it will be set aside (discard)")
# NOTE: heading of the ranking under the final table.
FINAL_RANKING: Final = N_("Final ranking")
# NOTE: ranking line; {coins} is the "{n} coins" text, {bonus} the coins the end bonus added.
FINAL_COINS: Final = N_("{coins} (+{bonus} bonus)")

MESSAGES: Final[tuple[str, ...]] = (
    TITLE,
    STATUS_MOVE,
    STATUS_OVER,
    *SEAT_NAMES.values(),
    TO_PLAY,
    WINNER,
    ONE_COIN,
    COINS,
    ONE_TILE_LEFT,
    TILES_LEFT,
    START_BEGINNER,
    START_ADVANCED,
    START_NONE,
    PLACED,
    DISCARDED,
    *CLOSED.values(),
    PLACING,
    *WOULD_CLOSE.values(),
    NOBODY_PAID,
    UNPAID,
    PICK_HINT,
    END_HINT,
    YOUR_TILE,
    YOUR_TILE_FITS_NOWHERE,
    PREVIEW,
    FINAL_RANKING,
    FINAL_COINS,
)


def seat_name(colour: str, tr: Translate) -> str:
    """Default display name of a seat: its colour, translated and capitalised."""
    text = tr(SEAT_NAMES[colour]) if colour in SEAT_NAMES else colour
    return text[:1].upper() + text[1:]
