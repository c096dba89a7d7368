"""The menu of numbered spots in a private turn message, a page at a time.

A late table offers forty spots and more, while a Discord select menu holds 25 options and a
Telegram keyboard of forty buttons is hard to read. So the spots come in pages of `PAGE`, with
buttons to the previous and next pages; a page button carries the move count like every move
button, so a stale one is refused.
"""

from __future__ import annotations

from typing import Final

import render.forbidden_city as render
from engine.forbidden_city import Game

from ...exchange.replies import Button, Message
from ...text.i18n import tr
from .buttons import PAGE as PAGE_BUTTON
from .buttons import SPOT

PAGE: Final = 20  # spots per page: within Discord's 25 options, 5 rows of 4 on Telegram


def page_count(game: Game) -> int:
    return max(1, -(-len(render.spots(game.view(game.current))) // PAGE))


def _page_button(
    lang: str, channel_id: str, count: int, page: int, here: int, total: int
) -> Button:
    first, last = page * PAGE + 1, min(total, (page + 1) * PAGE)
    label = tr(lang, "Spots {first}–{last}", first=first, last=last)
    return Button(
        f"◀ {label}" if page < here else f"{label} ▶", PAGE_BUTTON.encode(channel_id, count, page)
    )


def spot_menu(
    channel_id: str, game: Game, lang: str, page: int, spots: list[render.Spot] | None = None
) -> Message:
    """Page `page` (from 0) of the spots as menu choices, with buttons to the pages beside it;
    `spots` are those of the seat to move, when the caller has them already."""
    if spots is None:
        spots = render.spots(game.view(game.current))
    count = len(game.moves)
    shown = spots[page * PAGE : (page + 1) * PAGE]
    choices = [
        Button(
            tr(lang, "Spot {n}: {x},{y}", n=spot.number, x=spot.x, y=spot.y),
            SPOT.encode(channel_id, count, spot.number),
        )
        for spot in shown
    ]
    pages = [p for p in (page - 1, page + 1) if p >= 0 and p * PAGE < len(spots)]
    buttons = [[_page_button(lang, channel_id, count, p, page, len(spots)) for p in pages]]
    text = ""
    if pages or page:
        text = tr(
            lang,
            "Spots {first} to {last} of {total}: choose one.",
            first=shown[0].number if shown else 0,
            last=shown[-1].number if shown else 0,
            total=len(spots),
        )
    return Message(
        text,
        choices=choices,
        choices_placeholder=tr(lang, "Choose a spot"),
        buttons=buttons if pages else [],
    )
