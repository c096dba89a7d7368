"""The tile game beside the page's board, as its picture's header shows it: each seat's
marker, name, coins and tiles left, who is to play or has won (`render.forbidden_city.header`
draws the same in the image)."""

from __future__ import annotations

from engine.forbidden_city.view import SeatView
from render.forbidden_city import texts as t
from render.forbidden_city.svg import marker_svg

from .. import At
from ..sidebar import Piece, SeatRow, Sidebar


def sidebar(at: At, view: SeatView) -> Sidebar:
    rows = []
    for colour in view.players:
        to_play = not view.over and view.to_play == colour
        winner = view.over and colour in view.winners
        said = t.count(view.coins[colour], t.ONE_COIN, t.COINS, at.words)
        if not view.over:
            left = view.tiles_left[colour]
            said += " · " + t.count(left, t.ONE_TILE_LEFT, t.TILES_LEFT, at.words)
        colour_name = t.seat_name(colour, at.words)
        rows.append(
            SeatRow(
                name=at.name(colour),
                said=said,
                mark=Piece(marker_svg(colour, colour_name), colour_name),
                tag=at.words(t.TO_PLAY) if to_play else at.words(t.WINNER) if winner else "",
                turn=to_play,
            )
        )
    return Sidebar(seats=tuple(rows))
