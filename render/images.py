"""The pictures the bot posts: the table, the private view of the seat to move, the end, and
any seat's tile in hand.

Each is planned first (sizes and where the board goes), then drawn in RGB, then mapped to the
fixed palette and PNG-encoded. Planning alone answers `cell_box`, so tests probe the exact
pixels a player sees. Every text goes through `tr` (see `texts`), so one game can be drawn in
each table's language.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from PIL import Image, ImageDraw

from engine.forbidden_city import Game, Tile

from . import palette as pal
from . import texts as t
from .fonts import fit, stamp
from .header import PAD, caption_lines, header_height, header_image, last_move_text, name_of
from .spots import Spot, spots
from .table import Layout, board_layout, draw_board
from .texts import Translate
from .tiles import cell_art, marker_icon

MIN_WIDTH = 640
MARGIN = 12
MAX_RATIO = 20  # Telegram refuses photos longer than 20:1
MAX_SUM = 10000  # Telegram: width + height at most 10000
PNG_LEVEL = 3  # zlib level: 3 is as fast as 1 on these flat images and a third smaller

HAND_TILE = 96
HAND_PLATE = 5  # light margin around each turn of the tile in hand
HAND_STEP = HAND_TILE + 28
HAND_H = 36 + HAND_TILE + 34
HAND_BAND = 46  # the hand image's top band: marker and title
HAND_W = 2 * MARGIN + 4 * HAND_STEP - 28 + 2 * PAD
END_ROW = 66
END_TILE = 48

PREVIEW_BAND = 36  # the preview's label band, between the header and the board

View = Literal["table", "private", "end", "preview"]
Names = Mapping[str, str] | None
Box = tuple[int, int, int, int]


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


def _status(game: Game, names: Names, tr: Translate) -> str:
    if game.is_over:
        winners = ", ".join(name_of(names, c, tr) for c in game.winners)
        return tr(t.STATUS_OVER).format(winners=winners)
    who = name_of(names, game.current, tr)
    return tr(t.STATUS_MOVE).format(n=len(game.results) + 1, who=who)


def _caption_text(game: Game, names: Names, view: View, tr: Translate) -> str:
    text = last_move_text(game, names, tr)
    if view == "end":
        text += " " + tr(t.END_HINT)
    elif view == "private":
        text += " " + tr(t.PICK_HINT)
    return text


def plan(
    game: Game, names: Names = None, view: View = "table", tr: Translate | None = None
) -> Plan:
    tr = t.translator(tr)
    probe = board_layout(game, 0, 0)
    width = max(MIN_WIDTH, probe.width + 2 * MARGIN)
    caption = caption_lines(game, names, width, _caption_text(game, names, view, tr))
    header_h = header_height(game, width, caption)
    panel_h = 0
    if view == "private":
        panel_h = HAND_H
    elif view == "preview":
        panel_h = PREVIEW_BAND
    elif view == "end":
        panel_h = 44 + END_ROW * len(game.players) + MARGIN
    above = panel_h if view in ("private", "preview") else 0
    layout = board_layout(game, (width - probe.width) // 2, header_h + above + MARGIN)
    return Plan(width, header_h, caption, panel_h, layout, view == "end")


def cell_box(
    game: Game,
    x: int,
    y: int,
    names: Names = None,
    view: View = "table",
    *,
    tr: Translate | None = None,
) -> Box:
    """Pixel box (left, top, right, bottom; right/bottom exclusive) of cell (x, y) in the image
    that `table_png` / `private_png` / `end_png` makes for this game state, these names and
    this language (a caption that wraps to one more line moves the board down)."""
    return plan(game, names, view, tr).layout.cell_box(x, y)


def _compose(
    game: Game,
    names: Names,
    view: View,
    *,
    highlight_last: bool = True,
    legal: Sequence[Spot] = (),
    panel: Callable[[Image.Image, Plan, int], None] | None = None,
    tr: Translate,
) -> Image.Image:
    p = plan(game, names, view, tr)
    status = _status(game, names, tr)
    canvas = Image.new("RGB", (p.width, p.height), pal.TABLE)
    canvas.paste(header_image(game, names, p.width, status, p.caption, tr), (0, 0))
    draw_board(
        canvas,
        game,
        p.layout,
        highlight_last=highlight_last,
        spots=legal,
        preview=view == "preview",
        tr=tr,
    )
    if panel is not None:
        top = p.height - p.panel_h if p.panel_below else p.header_h
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


def table_image(
    game: Game, names: Names = None, *, highlight_last: bool = True, tr: Translate | None = None
) -> Image.Image:
    """The public table (RGB), before encoding."""
    return _compose(game, names, "table", highlight_last=highlight_last, tr=t.translator(tr))


def table_png(
    game: Game, names: Names = None, *, highlight_last: bool = True, tr: Translate | None = None
) -> bytes:
    """The table everyone sees after a move: header, tiles, last tile outlined, rooms closed."""
    return encode(table_image(game, names, highlight_last=highlight_last, tr=tr))


def preview_image(game: Game, names: Names = None, *, tr: Translate | None = None) -> Image.Image:
    """The table after a move not played yet (RGB): a gold band says so across the image and
    the tile's ring is dashed, so it never passes for the table after a real move."""
    tr = t.translator(tr)

    def band(canvas: Image.Image, p: Plan, top: int) -> None:
        draw = ImageDraw.Draw(canvas)
        draw.rectangle((0, top, p.width, top + PREVIEW_BAND - 1), fill=pal.GOLD)
        stripe = PREVIEW_BAND // 2
        for left in (0, p.width - 4 * stripe):  # black and gold stripes at both ends
            for k in range(4):
                x = left + k * stripe
                draw.polygon(
                    [(x, top + PREVIEW_BAND), (x + stripe // 2, top + PREVIEW_BAND),
                     (x + stripe, top), (x + stripe // 2, top)],
                    fill=pal.INK,
                )  # fmt: skip
        label = fit(tr(t.PREVIEW).upper(), 20, p.width - 10 * stripe, bold=True)
        stamp(canvas, (p.width / 2, top + PREVIEW_BAND / 2), label, 20, pal.INK, bold=True,
              anchor="mm")  # fmt: skip

    return _compose(game, names, "preview", panel=band, tr=tr)


def preview_png(game: Game, names: Names = None, *, tr: Translate | None = None) -> bytes:
    """What a player sees before confirming a move: `game` with the move played, marked as a
    preview (`cell_box(..., view="preview")` maps its cells)."""
    return encode(preview_image(game, names, tr=tr))


def _seat_index(game: Game, seat: int | str) -> int:
    return game.seat_of(seat) if isinstance(seat, str) else seat


def _turns(
    canvas: Image.Image, hand: str, colour: str, left0: int, top: int, used: set[int]
) -> None:
    """The tile in hand in its four turns, `@0`..`@3` under each; turns not in `used` greyed."""
    draw = ImageDraw.Draw(canvas)
    for turn in range(4):
        oriented = Tile.parse(hand).rotated(turn)
        seat = colour if oriented.advisors else None
        left = left0 + turn * HAND_STEP
        # A light plate behind the tile: its dark walls would vanish on the dark panel.
        plate = (left - HAND_PLATE, top - HAND_PLATE, left + HAND_TILE + HAND_PLATE - 1,
                 top + HAND_TILE + HAND_PLATE - 1)  # fmt: skip
        draw.rectangle(plate, fill=pal.LABEL)
        canvas.paste(cell_art("tile", oriented.code, seat, HAND_TILE), (left, top))
        label_xy = (left + HAND_TILE // 2, top + HAND_TILE + 16)
        label_colour = pal.TEXT if turn in used else pal.MUTED
        stamp(canvas, label_xy, f"@{turn}", 20, label_colour, bold=True, anchor="mm")


def private_image(
    game: Game, seat: int | str, names: Names = None, *, tr: Translate | None = None
) -> Image.Image:
    index = _seat_index(game, seat)
    if game.is_over or index != game.turn:
        raise ValueError("the private view is for the seat to move")
    tr = t.translator(tr)
    legal = spots(game)
    hand = game.hand(index)
    assert hand is not None
    colour = game.players[index]
    used = {r for spot in legal for r in spot.rotations}

    def strip(canvas: Image.Image, p: Plan, top: int) -> None:
        draw = ImageDraw.Draw(canvas)
        draw.rectangle((0, top, p.width, top + HAND_H - 1), fill=pal.HEADER)
        title = tr(t.YOUR_TILE).format(who=name_of(names, colour, tr))
        if not legal:
            title = tr(t.YOUR_TILE_FITS_NOWHERE)
        title = fit(title, 18, p.width - 2 * MARGIN - 4, bold=True)
        stamp(canvas, (MARGIN + 2, top + 18), title, 18, pal.TEXT, bold=True, anchor="lm")
        left0 = (p.width - 4 * HAND_STEP + 28) // 2
        _turns(canvas, hand, colour, left0, top + 36, used)

    return _compose(game, names, "private", legal=legal, panel=strip, tr=tr)


def private_png(
    game: Game, seat: int | str, names: Names = None, *, tr: Translate | None = None
) -> bytes:
    """What the seat to move sees alone: its tile in four turns, the legal spots numbered as
    `spots(game)` numbers them."""
    return encode(private_image(game, seat, names, tr=tr))


def hand_tile_box(turn: int) -> Box:
    """Pixel box of the tile turned `turn` (0-3) in the image `hand_png` makes."""
    left = (HAND_W - 4 * HAND_STEP + 28) // 2 + turn * HAND_STEP
    top = HAND_BAND + MARGIN
    return (left, top, left + HAND_TILE, top + HAND_TILE)


def hand_image(
    game: Game, seat: int | str, names: Names = None, *, tr: Translate | None = None
) -> Image.Image:
    """Any seat's tile in hand, its four turns side by side, and whose turn it is (RGB)."""
    index = _seat_index(game, seat)
    hand = game.hand(index)
    if hand is None:
        raise ValueError("the game is over: no tile in hand")
    tr = t.translator(tr)
    colour = game.players[index]
    to_play = index == game.turn
    caption_top = HAND_BAND + MARGIN + HAND_TILE + 34
    image = Image.new("RGB", (HAND_W, caption_top + 34), pal.HEADER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, HAND_W, HAND_BAND - 1), fill=pal.TITLE_BAND)
    icon = marker_icon(colour, 30)
    image.paste(icon, (PAD, (HAND_BAND - 30) // 2), icon)
    title = tr(t.YOUR_TILE).format(who=name_of(names, colour, tr))
    title = fit(title, 18, HAND_W - 2 * PAD - 40, bold=True)
    stamp(image, (PAD + 40, HAND_BAND / 2), title, 18, pal.TEXT, bold=True, anchor="lm")
    hand_left = hand_tile_box(0)[0]
    _turns(image, hand, colour, hand_left, HAND_BAND + MARGIN, {0, 1, 2, 3})
    who = name_of(names, game.current, tr)
    status = tr(t.STATUS_MOVE).format(n=len(game.results) + 1, who=who)
    status = fit(status, 17, HAND_W - 2 * PAD, bold=True)
    ink = pal.LAST if to_play else pal.MUTED  # bright when it is this seat's turn
    stamp(image, (HAND_W / 2, caption_top + 15), status, 17, ink, bold=True, anchor="mm")
    return image


def hand_png(
    game: Game, seat: int | str, names: Names = None, *, tr: Translate | None = None
) -> bytes:
    """A seat's tile in hand in its four turns, for any seat at any time before the end: lets
    players plan while others move."""
    return encode(hand_image(game, seat, names, tr=tr))


def ranking(game: Game) -> list[tuple[int, int]]:
    """(rank, seat) by coins, best first; equal coins share a rank."""
    order = sorted(range(len(game.players)), key=lambda s: (-game.coins[s], s))
    ranks: list[tuple[int, int]] = []
    for position, seat in enumerate(order):
        tie = ranks and game.coins[ranks[-1][1]] == game.coins[seat]
        ranks.append((ranks[-1][0] if tie else position + 1, seat))
    return ranks


def end_image(game: Game, names: Names = None, *, tr: Translate | None = None) -> Image.Image:
    if game.ended is None:
        raise ValueError("the game is not over")
    ended = game.ended
    tr = t.translator(tr)

    def results(canvas: Image.Image, p: Plan, top: int) -> None:
        draw = ImageDraw.Draw(canvas)
        draw.rectangle((0, top, p.width, p.height), fill=pal.HEADER)
        stamp(canvas, (MARGIN + 2, top + 22), tr(t.FINAL_RANKING), 20, pal.TEXT, bold=True,
              anchor="lm")  # fmt: skip
        for row, (rank, seat) in enumerate(ranking(game)):
            colour = game.players[seat]
            y = top + 44 + row * END_ROW
            mid = y + END_ROW // 2
            winner = colour in ended.winners
            ink = pal.GOLD if winner else pal.TEXT
            if winner:
                draw.rounded_rectangle(
                    (MARGIN, y + 3, p.width - MARGIN, y + END_ROW - 3), radius=8, fill=pal.ROW_TURN
                )
            stamp(canvas, (MARGIN + 12, mid), f"{rank}.", 24, ink, bold=True, anchor="lm")
            icon = marker_icon(colour, 30)
            canvas.paste(icon, (MARGIN + 48, mid - 15), icon)
            codes = ended.revealed.get(colour, [])
            tiles_left = p.width - MARGIN - 12 - len(codes) * (END_TILE + 8)
            name = name_of(names, colour, tr) + (f"  · {tr(t.WINNER)}" if winner else "")
            name = fit(name, 20, tiles_left - MARGIN - 96, bold=True)
            stamp(canvas, (MARGIN + 88, mid - 11), name, 20, ink, bold=True, anchor="lm")
            coins = t.count(game.coins[seat], t.ONE_COIN, t.COINS, tr)
            line = tr(t.FINAL_COINS).format(coins=coins, bonus=ended.bonus.get(colour, 0))
            stamp(canvas, (MARGIN + 88, mid + 13), line, 16, pal.MUTED, anchor="lm")
            x = tiles_left
            for code in codes:
                tile = Tile.parse(code)
                art = cell_art("tile", tile.code, colour if tile.advisors else None, END_TILE)
                canvas.paste(art, (x, mid - END_TILE // 2))
                x += END_TILE + 8

    return _compose(game, names, "end", panel=results, tr=tr)


def end_png(game: Game, names: Names = None, *, tr: Translate | None = None) -> bytes:
    """The final table, the bonus tiles revealed, the ranking and the winners."""
    return encode(end_image(game, names, tr=tr))
