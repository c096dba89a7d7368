"""The header strip: title, one entry per seat (marker, name, coins, tiles left, whose turn),
and a line telling what the last move did."""

from __future__ import annotations

from collections.abc import Mapping

from PIL import Image

from engine.forbidden_city import Place, parse_move
from engine.forbidden_city.view import ClosedRoom, SeatView

from .. import paint
from ..fonts import fit, one_line, stamp, text_width
from . import palette as pal
from . import texts as t
from .texts import Translate
from .tiles import marker_icon

TITLE_H = 48
ENTRY_H = 56
ENTRY_MIN_W = 290
PAD = 14
CAPTION_SIZE = 17
CAPTION_LINE = 23


def name_of(names: Mapping[str, str] | None, colour: str, tr: Translate = t.english) -> str:
    """Display name of a seat: the caller's (on one line), else the colour's name in the
    table's language."""
    name = " ".join(one_line(names.get(colour, "")).split()) if names else ""
    return name or t.seat_name(colour, tr)


def wrap(text: str, size: int, width: float, lines: int = 3) -> list[str]:
    out: list[str] = []
    for word in text.split():
        if out and text_width(out[-1] + " " + word, size) <= width:
            out[-1] += " " + word
        else:
            out.append(word)
    if len(out) > lines:
        out = [*out[: lines - 1], fit(" ".join(out[lines - 1 :]), size, width)]
    return out


def last_mover(view: SeatView) -> str:
    """The seat that made the last move (seats play in turn, the first seat first)."""
    return view.players[(len(view.moves) - 1) % len(view.players)]


def last_move_text(
    view: SeatView,
    names: Mapping[str, str] | None,
    tr: Translate = t.english,
    *,
    preview: bool = False,
) -> str:
    """The last move in words, e.g. `Red placed a tile at 2,-1. Closed a pink room...`; for a
    preview, a move not confirmed yet, in the conditional: `... would place a tile at 2,-1.`"""
    if not view.moves:
        first = name_of(names, view.players[0], tr)
        opening = {"beginner": t.START_BEGINNER, "advanced": t.START_ADVANCED}
        return tr(opening.get(view.start, t.START_NONE)).format(who=first)
    who = name_of(names, last_mover(view), tr)
    move = parse_move(view.moves[-1])
    if isinstance(move, Place):
        placed = t.PLACING if preview else t.PLACED
        parts = [tr(placed).format(who=who, x=move.x, y=move.y)]
    else:
        parts = [tr(t.DISCARDED).format(who=who, tile=view.played[-1])]
    return " ".join([*parts, *closed_texts(view, names, tr, preview=preview)])


def closed_texts(
    view: SeatView,
    names: Mapping[str, str] | None,
    tr: Translate = t.english,
    *,
    preview: bool = False,
) -> list[str]:
    """What the last move closed and paid, a sentence a room (in the conditional for a
    preview: what the tile shown would close)."""
    last = len(view.moves) - 1
    rooms = [room for room in view.rooms if room.move == last]
    return [_closed_text(room, names, tr, preview) for room in rooms]


def _closed_text(
    room: ClosedRoom, names: Mapping[str, str] | None, tr: Translate, preview: bool
) -> str:
    paid = [f"{name_of(names, seat, tr)} +{amount}" for seat, amount in room.paid.items() if amount]
    texts = t.WOULD_CLOSE if preview else t.CLOSED
    message = texts.get(room.colour, texts["white"])
    return tr(message).format(value=room.value, paid=", ".join(paid) or tr(t.NOBODY_PAID))


def header_height(view: SeatView, width: int, caption: list[str]) -> int:
    columns = max(1, min(len(view.players), (width - PAD) // ENTRY_MIN_W))
    rows = -(-len(view.players) // columns)
    return TITLE_H + PAD // 2 + rows * ENTRY_H + PAD // 2 + len(caption) * CAPTION_LINE + PAD // 2


def caption_lines(width: int, text: str) -> list[str]:
    return wrap(text, CAPTION_SIZE, width - 2 * PAD)


def draw_header(
    image: Image.Image,
    view: SeatView,
    names: Mapping[str, str] | None,
    status: str,
    caption: list[str],
    tr: Translate = t.english,
) -> None:
    """The header across the top of `image` (RGB, or P with the fixed palette: drawn on it as
    it is, every ground one of the palette's own colours, so no text blends differently)."""
    width = image.width
    draw = paint.Draw(image)
    draw.rectangle((0, 0, width - 1, header_height(view, width, caption) - 1), fill=pal.HEADER)
    _title_band(image, draw, status, tr)
    n = len(view.players)
    columns = max(1, min(n, (width - PAD) // ENTRY_MIN_W))
    entry_w = (width - PAD * 2) // columns
    for seat, colour in enumerate(view.players):
        row, col = divmod(seat, columns)
        left = PAD + col * entry_w
        top = TITLE_H + PAD // 2 + row * ENTRY_H
        _seat_entry(image, draw, view, names, tr, colour, (left, top, entry_w))
    rows = -(-n // columns)
    y = TITLE_H + PAD // 2 + rows * ENTRY_H + PAD // 2
    for line in caption:
        stamp(image, (PAD, y + CAPTION_LINE / 2), line, CAPTION_SIZE, pal.TEXT, anchor="lm")
        y += CAPTION_LINE


def _title_band(image: Image.Image, draw: paint.Draw, status: str, tr: Translate) -> None:
    """The seal, the game's name, and the status on the right."""
    width = image.width
    draw.rectangle((0, 0, width, TITLE_H - 1), fill=pal.TITLE_BAND)
    seal = TITLE_H - 12
    draw.rounded_rectangle((PAD, 6, PAD + seal, 6 + seal), radius=5, fill=pal.GOLD)
    stamp(
        image,
        (PAD + seal / 2, 6 + seal / 2),
        "禁",
        round(seal * 0.78),
        pal.TITLE_BAND,
        anchor="mm",
        seal=True,
    )
    title = tr(t.TITLE)
    stamp(image, (PAD + seal + 10, TITLE_H / 2), title, 24, pal.TEXT, bold=True, anchor="lm")
    title_end = PAD + seal + 14 + text_width(title, 24, bold=True)
    status = fit(status, 17, width - PAD - title_end - 8, bold=True)
    stamp(image, (width - PAD, TITLE_H / 2), status, 17, pal.TEXT, bold=True, anchor="rm")


def _seat_entry(
    image: Image.Image,
    draw: paint.Draw,
    view: SeatView,
    names: Mapping[str, str] | None,
    tr: Translate,
    colour: str,
    where: tuple[int, int, int],
) -> None:
    """One seat's entry at (left, top), `entry_w` wide: its marker and name, lit while it is
    to play or once it has won, its coins and tiles left."""
    left, top, entry_w = where
    to_play = not view.over and view.to_play == colour
    winner = view.over and colour in view.winners
    if to_play or winner:
        draw.rounded_rectangle(
            (left, top + 3, left + entry_w - 8, top + ENTRY_H - 3), radius=8, fill=pal.ROW_TURN
        )
        draw.rectangle(
            (left, top + 8, left + 4, top + ENTRY_H - 8), fill=pal.LAST if to_play else pal.GOLD
        )
    paint.sprite(image, marker_icon(colour, 30), (left + 12, top + (ENTRY_H - 30) // 2))
    text_left = left + 52
    tag = tr(t.TO_PLAY) if to_play else (tr(t.WINNER) if winner else "")
    tag_w = text_width(tag, 16) + 10 if tag else 0
    name = fit(name_of(names, colour, tr), 20, entry_w - 60 - tag_w, bold=True)
    stamp(image, (text_left, top + 19), name, 20, pal.TEXT, bold=True, anchor="lm")
    if tag:
        tag_colour = pal.LAST if to_play else pal.GOLD
        stamp(image, (left + entry_w - 16, top + 19), tag, 16, tag_colour, anchor="rm")
    info = t.count(view.coins[colour], t.ONE_COIN, t.COINS, tr)
    if not view.over:
        info += " · " + t.count(view.tiles_left[colour], t.ONE_TILE_LEFT, t.TILES_LEFT, tr)
    info = fit(info, 16, entry_w - 60)  # translations run longer
    stamp(image, (text_left, top + 41), info, 16, pal.MUTED, anchor="lm")
