"""The three pictures the bot posts: the table, the private view of the seat to move, the end.

Each is planned first (sizes and where the board goes), then drawn in RGB, then mapped to the
fixed palette and PNG-encoded. Planning alone answers `cell_box`, so tests probe the exact
pixels a player sees.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from PIL import Image, ImageDraw

from engine.forbidden_city import Game, Tile

from . import palette as pal
from .fonts import font, stamp
from .header import caption_lines, header_height, header_image, last_move_text, name_of
from .spots import Spot, spots
from .table import Layout, board_layout, draw_board
from .tiles import cell_art, marker_icon

MIN_WIDTH = 640
MARGIN = 12
MAX_RATIO = 20  # Telegram refuses photos longer than 20:1
MAX_SUM = 10000  # Telegram: width + height at most 10000
PNG_LEVEL = 3  # zlib level: 3 is as fast as 1 on these flat images and a third smaller

HAND_TILE = 96
HAND_H = 36 + HAND_TILE + 34
END_ROW = 66
END_TILE = 48

View = Literal["table", "private", "end"]
Names = Mapping[str, str] | None


@dataclass(frozen=True, slots=True)
class Plan:
    width: int
    header_h: int
    caption: list[str]
    panel_h: int  # hand strip (private) above the board, or ranking (end) below it
    layout: Layout
    panel_below: bool

    @property
    def height(self) -> int:
        below = self.panel_h if self.panel_below else 0
        return self.layout.top + self.layout.height - self.layout.band + MARGIN + below


def _status(game: Game, names: Names) -> str:
    if game.is_over:
        winners = ", ".join(name_of(names, c) for c in game.winners)
        return f"Game over · won by {winners}"
    return f"Move {len(game.results) + 1} · {name_of(names, game.current)} to play"


def _caption_text(game: Game, names: Names, view: View) -> str:
    text = last_move_text(game, names)
    if view == "end":
        text += " The last two tiles of each stack are revealed: 2 coins an advisor, 3 a dragon."
    elif view == "private":
        text += " Pick a numbered spot, then a turn @0-@3."
    return text


def plan(game: Game, names: Names = None, view: View = "table") -> Plan:
    probe = board_layout(game, 0, 0)
    width = max(MIN_WIDTH, probe.width + 2 * MARGIN)
    caption = caption_lines(game, names, width, _caption_text(game, names, view))
    header_h = header_height(game, width, caption)
    panel_h = 0
    if view == "private":
        panel_h = HAND_H
    elif view == "end":
        panel_h = 44 + END_ROW * len(game.players) + MARGIN
    above = panel_h if view == "private" else 0
    layout = board_layout(game, (width - probe.width) // 2, header_h + above + MARGIN)
    return Plan(width, header_h, caption, panel_h, layout, view == "end")


def cell_box(
    game: Game, x: int, y: int, names: Names = None, view: View = "table"
) -> tuple[int, int, int, int]:
    """Pixel box (left, top, right, bottom; right/bottom exclusive) of cell (x, y) in the image
    that `table_png` / `private_png` / `end_png` makes for this game state and these names."""
    return plan(game, names, view).layout.cell_box(x, y)


def _compose(
    game: Game,
    names: Names,
    view: View,
    *,
    highlight_last: bool = True,
    legal: Sequence[Spot] = (),
    panel: Callable[[Image.Image, Plan, int], None] | None = None,
) -> Image.Image:
    p = plan(game, names, view)
    canvas = Image.new("RGB", (p.width, p.height), pal.TABLE)
    canvas.paste(header_image(game, names, p.width, _status(game, names), p.caption), (0, 0))
    draw_board(canvas, game, p.layout, highlight_last=highlight_last, spots=legal)
    if panel is not None:
        top = p.header_h if view == "private" else p.height - p.panel_h
        panel(canvas, p, top)
    return canvas


def encode(image: Image.Image) -> bytes:
    """PNG bytes within the chat platforms' limits: scaled down if huge, padded if too thin."""
    w, h = image.size
    if w + h > MAX_SUM:
        scale = (MAX_SUM - 1) / (w + h)
        image = image.resize((max(1, int(w * scale)), max(1, int(h * scale))), Image.Resampling.BOX)
        w, h = image.size
    if w > MAX_RATIO * h or h > MAX_RATIO * w:
        pw, ph = max(w, -(-h // MAX_RATIO)), max(h, -(-w // MAX_RATIO))
        padded = Image.new("RGB", (pw, ph), pal.TABLE)
        padded.paste(image, ((pw - w) // 2, (ph - h) // 2))
        image = padded
    indexed = image.quantize(palette=pal.palette_image(), dither=Image.Dither.NONE)
    out = io.BytesIO()
    indexed.save(out, "PNG", compress_level=PNG_LEVEL)
    return out.getvalue()


def table_image(game: Game, names: Names = None, *, highlight_last: bool = True) -> Image.Image:
    """The public table (RGB), before encoding."""
    return _compose(game, names, "table", highlight_last=highlight_last)


def table_png(game: Game, names: Names = None, *, highlight_last: bool = True) -> bytes:
    """The table everyone sees after a move: header, tiles, last tile outlined, rooms closed."""
    return encode(table_image(game, names, highlight_last=highlight_last))


def private_image(game: Game, seat: int | str, names: Names = None) -> Image.Image:
    index = game.seat_of(seat) if isinstance(seat, str) else seat
    if game.is_over or index != game.turn:
        raise ValueError("the private view is for the seat to move")
    legal = spots(game)
    hand = game.hand(index)
    assert hand is not None
    colour = game.players[index]
    used = {r for spot in legal for r in spot.rotations}

    def strip(canvas: Image.Image, p: Plan, top: int) -> None:
        draw = ImageDraw.Draw(canvas)
        draw.rectangle((0, top, p.width, top + HAND_H - 1), fill=pal.HEADER)
        title = f"Your tile, {name_of(names, colour)}: turns clockwise"
        if not legal:
            title = "Your tile fits nowhere: it will be set aside (discard)"
        stamp(canvas, (MARGIN + 2, top + 18), title, 18, pal.TEXT, bold=True, anchor="lm")
        step = HAND_TILE + 28
        left0 = (p.width - 4 * step + 28) // 2
        for turn in range(4):
            oriented = Tile.parse(hand).rotated(turn)
            seat = colour if oriented.advisors else None
            left = left0 + turn * step
            canvas.paste(cell_art("tile", oriented.code, seat, HAND_TILE), (left, top + 36))
            ok = turn in used
            label_xy = (left + HAND_TILE // 2, top + 36 + HAND_TILE + 16)
            label_colour = pal.TEXT if ok else pal.MUTED
            stamp(canvas, label_xy, f"@{turn}", 20, label_colour, bold=True, anchor="mm")

    return _compose(game, names, "private", highlight_last=True, legal=legal, panel=strip)


def private_png(game: Game, seat: int | str, names: Names = None) -> bytes:
    """What the seat to move sees alone: its tile in four turns, the legal spots numbered as
    `spots(game)` numbers them."""
    return encode(private_image(game, seat, names))


def ranking(game: Game) -> list[tuple[int, int]]:
    """(rank, seat) by coins, best first; equal coins share a rank."""
    order = sorted(range(len(game.players)), key=lambda s: (-game.coins[s], s))
    ranks: list[tuple[int, int]] = []
    for position, seat in enumerate(order):
        tie = ranks and game.coins[ranks[-1][1]] == game.coins[seat]
        ranks.append((ranks[-1][0] if tie else position + 1, seat))
    return ranks


def end_image(game: Game, names: Names = None) -> Image.Image:
    if game.ended is None:
        raise ValueError("the game is not over")
    ended = game.ended

    def results(canvas: Image.Image, p: Plan, top: int) -> None:
        draw = ImageDraw.Draw(canvas)
        draw.rectangle((0, top, p.width, p.height), fill=pal.HEADER)
        draw.text(
            (MARGIN + 2, top + 22),
            "Final ranking",
            font=font(20, bold=True),
            fill=pal.TEXT,
            anchor="lm",
        )
        for row, (rank, seat) in enumerate(ranking(game)):
            colour = game.players[seat]
            y = top + 44 + row * END_ROW
            mid = y + END_ROW // 2
            winner = colour in ended.winners
            if winner:
                draw.rounded_rectangle(
                    (MARGIN, y + 3, p.width - MARGIN, y + END_ROW - 3), radius=8, fill=pal.ROW_TURN
                )
            draw.text(
                (MARGIN + 12, mid),
                f"{rank}.",
                font=font(24, bold=True),
                fill=pal.GOLD if winner else pal.TEXT,
                anchor="lm",
            )
            icon = marker_icon(colour, 30)
            canvas.paste(icon, (MARGIN + 48, mid - 15), icon)
            name = name_of(names, colour) + ("  · winner" if winner else "")
            draw.text(
                (MARGIN + 88, mid - 11),
                name,
                font=font(20, bold=True),
                fill=pal.GOLD if winner else pal.TEXT,
                anchor="lm",
            )
            bonus = ended.bonus.get(colour, 0)
            draw.text(
                (MARGIN + 88, mid + 13),
                f"{game.coins[seat]} coins  (+{bonus} bonus)",
                font=font(16),
                fill=pal.MUTED,
                anchor="lm",
            )
            codes = ended.revealed.get(colour, [])
            x = p.width - MARGIN - 12 - len(codes) * (END_TILE + 8)
            for code in codes:
                tile = Tile.parse(code)
                art = cell_art("tile", tile.code, colour if tile.advisors else None, END_TILE)
                canvas.paste(art, (x, mid - END_TILE // 2))
                x += END_TILE + 8

    return _compose(game, names, "end", highlight_last=True, panel=results)


def end_png(game: Game, names: Names = None) -> bytes:
    """The final table, the bonus tiles revealed, the ranking and the winners."""
    return encode(end_image(game, names))
