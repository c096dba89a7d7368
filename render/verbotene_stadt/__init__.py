"""Images of Die Verbotene Stadt, drawn from a seat's view (or the public one), never a game.

>>> png = table_png(game.view(None), {"north": "Ann"})  # the channel's image
>>> png = table_png(game.view("north"), names)  # north's private image: its bribe ringed
>>> png = preview_png(game.view("north"), names, "RB", ["N", "E"])  # a move not played yet
>>> draw = replay_drawer(views, names)  # a replay's frames, all one size
"""

from .preview import preview_image, preview_png, preview_view
from .replay import replay_drawer
from .table import draw_pawn, square_box, table_height, table_image, table_png

__all__ = [
    "draw_pawn",
    "preview_image",
    "preview_png",
    "preview_view",
    "replay_drawer",
    "square_box",
    "table_height",
    "table_image",
    "table_png",
]
