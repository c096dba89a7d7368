"""A move not played yet, drawn on a seat's own picture: the path so far and where it stops.

Drawn from the seat's view and the slides alone (the path by `movement.follow`), never by playing
the move on a copy of the game, which would roll the dice and show what comes next.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from engine.core.errors import IllegalMove
from engine.verbotene_stadt.board import Board, Square
from engine.verbotene_stadt.movement import follow
from engine.verbotene_stadt.view import LastMove, SeatView

from .. import paint
from ..fonts import stamp
from ..texts import PREVIEW, Translate, translator
from . import palette as pal
from .panel import MARGIN, TITLE_H
from .table import Names, encode, table_image


def preview_view(
    view: SeatView, official: str, slides: Sequence[str], board: Board | None = None
) -> SeatView:
    """`view` with `official` moved by `slides`, as its last move: the page's board draws it
    as the picture does. A path back on its first square is kept (the buttons let it slide
    on); `ValueError` for slides the rules forbid."""
    board = board or Board.default()
    start = view.officials.get(official)
    if start is None:
        raise ValueError(f"{official} is not on the board")
    at = {code: (sq[0], sq[1]) for code, sq in view.officials.items()}
    trail: list[Square] = []
    try:
        end = follow(board, at, official, list(slides), view.open_pavilion, trail)
    except IllegalMove as err:
        if len(trail) != len(slides) or trail[-1] != start:
            raise ValueError(err.reason) from None
        end = trail[-1]
    officials = {code: sq for code, sq in view.officials.items() if code != official}
    if end is not None:
        officials[official] = end
    moved = LastMove(
        official=official,
        seat=view.seat or "",
        path=[start, *trail],
        entered=view.open_pavilion if end is None else None,
    )
    return view.model_copy(update={"officials": officials, "last_move": moved, "last_rolls": []})


def preview_image(
    view: SeatView,
    names: Names,
    official: str,
    slides: Sequence[str],
    *,
    tr: Translate | None = None,
    board: Board | None = None,
) -> Image.Image:
    """`view` with `official` moved by `slides` (`preview_view`): its path drawn, the pawn
    where it stops (gone if it entered the open pavilion), under a gold "preview" label.
    On the fixed palette, as `preview_png` encodes it."""
    board = board or Board.default()
    shown = preview_view(view, official, slides, board)
    image = table_image(shown, names, tr=tr, board=board)
    label = translator(tr)(PREVIEW)
    draw = paint.Draw(image)
    left = image.width // 2
    draw.rectangle((left, 6, image.width - MARGIN, TITLE_H - 6), fill=pal.OPEN)
    stamp(
        image,
        (image.width - MARGIN - 10, TITLE_H // 2),
        label,
        16,
        (20, 20, 20),
        bold=True,
        anchor="rm",
    )
    return image


def preview_png(
    view: SeatView,
    names: Names,
    official: str,
    slides: Sequence[str],
    *,
    tr: Translate | None = None,
) -> bytes:
    return encode(preview_image(view, names, official, slides, tr=tr))
