"""Images of Die Verbotene Stadt, drawn from a seat's view (or the public one), never a game.

>>> png = table_png(game.view(None), {"north": "Ann"})  # the channel's image
>>> png = table_png(game.view("north"), names)  # north's private image: its bribe ringed
"""

from .table import draw_pawn, square_box, table_image, table_png

__all__ = ["draw_pawn", "square_box", "table_image", "table_png"]
