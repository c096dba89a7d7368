"""Table images for Forbidden City (Pillow): what the bot posts after every move.

Every image is drawn from a seat's view (`game.view(seat)`), never from the game, so a secret
(another seat's tile, the stacks) cannot reach a picture it does not belong in:

    >>> from engine.forbidden_city import Game
    >>> from render.forbidden_city import end_png, hand_png, preview_png, private_png, table_png
    >>> game = Game(["purple", "yellow"], seed=7)
    >>> names = {"purple": "Ann"}
    >>> png = table_png(game.view(None), names)  # the channel's
    >>> png[:4]
    b'\x89PNG'
    >>> mine = game.view(game.current)  # the seat to play's own view
    >>> png = private_png(mine, names)  # its tile, numbered spots
    >>> png = preview_png(mine, "2,-1@3", names)  # nothing is played
    >>> png = hand_png(game.view("yellow"), names)  # a seat's tile while others move
    >>> while not game.is_over:
    ...     result = game.play(game.legal_moves()[0])
    >>> png = end_png(game.view(None), names)  # once the game is over

`spots(view)` numbers the legal cells the way `private_png` draws them; `cell_box` maps a cell
to its pixels in those images (`cell_boxes`, many cells at once); `replay_drawer(views,
names)` draws a whole game's views as the frames of its replay (one size, one scale, the
board in one place). `tr` translates every text drawn (None: English); the message ids are
`MESSAGES`, for the bot's catalogue.
"""

from .header import closed_texts
from .images import (
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
from .plan import Box, cell_box, cell_boxes
from .replay import replay_drawer
from .spots import Spot, spots
from .texts import MESSAGES, Translate

__all__ = [
    "MESSAGES",
    "SEAT",
    "SHAPE",
    "Box",
    "Spot",
    "Translate",
    "cell_box",
    "cell_boxes",
    "closed_texts",
    "end_image",
    "end_png",
    "hand_image",
    "hand_png",
    "hand_tile_box",
    "preview_image",
    "preview_png",
    "private_image",
    "private_png",
    "replay_drawer",
    "spots",
    "table_image",
    "table_png",
]
