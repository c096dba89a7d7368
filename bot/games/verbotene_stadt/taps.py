"""Die Verbotene Stadt's board to touch on the web page: the officials of a menu on their
squares, and each slide that may follow on the square where it would stop.

The chats offer the same choices as menus and buttons (`menus`); these targets only place
them on the seat's image (`render.verbotene_stadt.square_box`: one layout for the table and
its previews), so a tap presses exactly what the button presses.
"""

from __future__ import annotations

from collections.abc import Sequence

import render.verbotene_stadt as vs_render
from engine.verbotene_stadt import Game

from ...exchange.replies import Message, Target
from .. import At
from .buttons import official_of
from .menus import slide_button
from .paths import trace

# The arrow keys slide too, each its way on the board (north is up).
ARROW_KEYS = {"N": "ArrowUp", "E": "ArrowRight", "S": "ArrowDown", "W": "ArrowLeft"}


def _on_board(box: tuple[int, int, int, int]) -> tuple[float, float, float, float]:
    """A square's box on the page's board: the SVG is drawn in the table image's pixels."""
    left, top, right, bottom = box
    return (float(left), float(top), float(right), float(bottom))


def on_officials(message: Message, game: Game) -> None:
    """Each menu choice that names an official (to bribe, to move) becomes a place to tap on
    that official's square."""
    for choice in message.choices:
        code = official_of(choice.data)
        if code is not None and code in game.at:
            box = vs_render.square_box(game.at[code])
            message.targets.append(Target(box, choice.label, choice.data, _on_board(box)))


def on_slides(
    message: Message, at: At, game: Game, official: str, done: tuple[str, ...], ways: Sequence[str]
) -> None:
    """Each slide that may follow (`ways`) becomes a place to tap where it would stop, and
    its arrow key."""
    for way in ways:
        path = trace(game, official, (*done, way))
        if path is None:
            continue
        button = slide_button(at, official, done, way)
        box = vs_render.square_box(path.trail[-1])
        message.targets.append(Target(box, button.label, button.data, _on_board(box)))
        message.keys[ARROW_KEYS[way]] = button.data
