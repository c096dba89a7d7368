"""A whole game's replay frames, all one size: as tall as the tallest table of the game.

A table image grows when rows of cards need more room than the board leaves (`panel`); drawn
alone, the frames of a game whose hands grew would differ in height. Every frame of a replay
is drawn at the height of its tallest, its panel reaching down to the bottom.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PIL import Image

from engine.verbotene_stadt.view import SeatView

from ..texts import Translate
from .table import Names, frame_image, table_height


def replay_drawer(
    views: Sequence[SeatView], names: Names = None, *, tr: Translate | None = None
) -> Callable[[SeatView], Image.Image]:
    """Draws any of `views` as a frame of their replay (RGB: `frame_image`)."""
    height = max(table_height(view) for view in views)

    def draw(view: SeatView) -> Image.Image:
        return frame_image(view, names, tr=tr, height=height)

    return draw
