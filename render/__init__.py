"""Table images for Forbidden City (Pillow): what the bot posts after every move.

    >>> from render import table_png, private_png, preview_png, hand_png, end_png, spots
    >>> png = table_png(game, {"purple": "Ann"}, tr=catalogue.gettext)

`spots(game)` numbers the legal cells the way `private_png` draws them; `cell_box` maps a cell
to its pixels in those images. `tr` translates every text drawn (None: English); the message
ids are `MESSAGES`, for the bot's catalogue.
"""

from .images import (
    cell_box,
    end_image,
    end_png,
    hand_image,
    hand_png,
    hand_tile_box,
    preview_image,
    preview_png,
    private_image,
    private_png,
    table_image,
    table_png,
)
from .palette import SEAT, SHAPE
from .spots import Spot, spots
from .texts import MESSAGES, Translate

__all__ = [
    "MESSAGES",
    "SEAT",
    "SHAPE",
    "Spot",
    "Translate",
    "cell_box",
    "end_image",
    "end_png",
    "hand_image",
    "hand_png",
    "hand_tile_box",
    "preview_image",
    "preview_png",
    "private_image",
    "private_png",
    "spots",
    "table_image",
    "table_png",
]
