"""Table images for Forbidden City (Pillow): what the bot posts after every move.

    >>> from render import table_png, private_png, end_png, spots
    >>> png = table_png(game, {"purple": "Ann"})

`spots(game)` numbers the legal cells the way `private_png` draws them; `cell_box` maps a cell
to its pixels in those images.
"""

from .images import cell_box, end_image, end_png, private_image, private_png, table_image, table_png
from .palette import SEAT, SHAPE
from .spots import Spot, spots

__all__ = [
    "SEAT",
    "SHAPE",
    "Spot",
    "cell_box",
    "end_image",
    "end_png",
    "private_image",
    "private_png",
    "spots",
    "table_image",
    "table_png",
]
