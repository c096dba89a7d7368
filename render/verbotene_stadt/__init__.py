"""Images of Die Verbotene Stadt, drawn from a seat's view (or the public one), never a game.

>>> from engine.verbotene_stadt import Game
>>> from render.verbotene_stadt import preview_png, replay_drawer, table_png
>>> game = Game(4, seed=7)
>>> for seat in game.players:
...     result = game.play(seat, "bribe RB")
>>> names = {"north": "Ann"}
>>> png = table_png(game.view(None), names)  # the channel's image
>>> png[:4]
b'\x89PNG'
>>> png = table_png(game.view("north"), names)  # north's private image: its bribe ringed
>>> game.to_act[0].seat, game.legal_actions("south")[1]
('south', MoveOfficial(official='RB', slides=('E',)))
>>> png = preview_png(game.view("south"), names, "RB", ["E"])  # a move not played yet
>>> views = [game.view(None)]
>>> draw = replay_drawer(views, names)  # a replay's frames, all one size
>>> draw(views[0]).mode
'RGB'
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
