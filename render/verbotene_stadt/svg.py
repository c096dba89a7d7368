"""The board as SVG, for the web page: the same board as the Pillow table image (`table`),
drawn from a view in vector shapes, crisp at any size.

    >>> from engine.verbotene_stadt import Game
    >>> from render.verbotene_stadt.svg import board_svg
    >>> game = Game(4, seed=7)
    >>> text = board_svg(game.view(None))  # the channel's board, as watchers see it
    >>> text.startswith("<svg")
    True

It writes the table image's own pieces, described once (`art`), cut to the board:
the panel of dice and cards stays in the chat's picture and the page's words. Drawn from a
view, never a game; the public view holds no bribe, so none is ringed. Colours are
attributes, not styles, for the page's strict policy.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from html import escape

from engine.verbotene_stadt.board import Board, Square
from engine.verbotene_stadt.view import SeatView

from .. import shapes, shapes_svg
from . import art
from . import palette as pal
from .art import board_origin, centre, door_of
from .panel import CELL

PAD = 30  # room around the board for its coordinates
PIXEL = 1  # the pieces (`art`) are in the table image's pixels


def _rgb(colour: pal.RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


def _drawn(pieces: Iterable[shapes.Shape], attrs: str = "") -> str:
    """Pieces as the table image draws them (`art`), in a group of `attrs`."""
    return shapes_svg.shifted(PIXEL, attrs) + shapes_svg.svg(pieces, PIXEL) + "</g>"


@cache
def _squares(board: Board) -> tuple[str]:
    """The squares as printed, written once per board (as the table image draws them)."""
    return (_drawn(art.squares(board)),)


@cache
def _walls(board: Board) -> tuple[str]:
    return (_drawn(art.walls(board)),)


def _pavilions(board: Board, view: SeatView) -> list[str]:
    """Each pavilion's number and its cards left (three places); the open one ringed."""
    out = []
    for number in board.pavilions:
        if number == view.open_pavilion:
            out.append(_drawn(art.open_ring(board, number), f' data-open="{number}"'))
        out.append(_drawn(art.pavilion(board, number, view.pile_sizes.get(number, 0))))
    return out


def _path(board: Board, view: SeatView) -> list[str]:
    """The last move as the table image draws it (`art.path`)."""
    last = view.last_move
    if last is None:
        return []
    path: list[Square] = [(x, y) for x, y in last.path]
    door = door_of(board, path[-1], last.entered) if last.entered is not None else None
    return [_drawn(art.path(path, door, last.official))]


def pawn(code: str, cx: float, cy: float, radius: float = 15) -> str:
    """An official: the robe a disc, the hat a cap on top, the two letters on the robe."""
    middle = (cx, cy)
    drawn = [*art.pawn(middle, code, radius), art.letters(middle, code, radius)]
    return _drawn(drawn, f' data-official="{escape(code)}"')


def board_svg(view: SeatView, title: str = "", board: Board | None = None) -> str:
    """The board of `view` as an SVG document: squares, walls, pavilions with their cards
    left and the open one ringed, the last move's path, the officials. `title` names it for
    screen readers (escaped here)."""
    board = board or Board.default()
    ox, oy = board_origin()
    left, top = ox - PAD, oy - PAD
    width, height = board.width * CELL + 2 * PAD, board.height * CELL + 2 * PAD
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{left} {top} {width} {height}" '
        f'role="img" aria-label="{escape(title)}">',
        f"<title>{escape(title)}</title>" if title else "",
        f'<rect x="{left}" y="{top}" width="{width}" height="{height}" '
        f'fill="{_rgb(pal.BACKGROUND)}"/>',
        *_squares(board),
        *_walls(board),
        f'<rect x="{ox - 3}" y="{oy - 3}" width="{board.width * CELL + 6}" '
        f'height="{board.height * CELL + 6}" fill="none" stroke="{_rgb(pal.WALL)}" '
        'stroke-width="6"/>',
    ]
    label = (
        f'font-size="12" font-family="sans-serif" fill="{_rgb(pal.MUTED)}" '
        'dominant-baseline="central"'
    )
    for x in range(board.width):
        cx = ox + x * CELL + CELL // 2
        out.append(f'<text x="{cx}" y="{oy - 16}" text-anchor="middle" {label}>{x}</text>')
    for y in range(board.height):
        cy = oy + y * CELL + CELL // 2
        out.append(f'<text x="{ox - 10}" y="{cy}" text-anchor="end" {label}>{y}</text>')
    out.extend(_pavilions(board, view))
    out.extend(_path(board, view))
    for code, sq in view.officials.items():
        out.append(pawn(code, *centre((sq[0], sq[1]))))
    out.append("</svg>")
    return "".join(out)
