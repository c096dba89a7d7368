"""The pictures the bot posts: the table, the private view of the seat to move, the end, and
any seat's tile in hand.

Each is drawn from a seat's view (`Game.view`), never from the game: the channel's pictures
from the spectator's view, a private one from that seat's, so no picture can show a secret it
does not belong to. Each is planned first (sizes and where the board goes), then drawn
straight on a canvas of the fixed palette (`render.paint`, made by `_canvas` alone) and
PNG-encoded; the `*_image` functions give that canvas before encoding, and a replay's frames
are drawn the same way. The drawing reads the canvas's mode from the canvas (tile art is
mapped to the palette once, when first asked for), so it draws as well on an RGB canvas, which
tests compare with. Planning (`plan`) alone answers `cell_box`, so tests probe the exact
pixels a player sees. Every text goes through `tr` (see `texts`), so one game can be drawn
in each table's language.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PIL import Image

from engine.forbidden_city import Move, Tile
from engine.forbidden_city.preview import after
from engine.forbidden_city.view import SeatView

from .. import paint, png
from ..fonts import fit, stamp
from . import palette as pal
from . import texts as t
from .header import (
    PAD,
    draw_header,
    last_mover,
    name_of,
)
from .layout import Bounds
from .plan import (
    END_ROW,
    END_TILE,
    HAND_BAND,
    HAND_H,
    HAND_PLATE,
    HAND_STEP,
    HAND_TILE,
    HAND_W,
    MARGIN,
    Box,
    Plan,
    within_limits,
)
from .plan import (
    MAX_RATIO as MAX_RATIO,
)
from .plan import (
    MAX_SUM as MAX_SUM,
)
from .plan import (
    PREVIEW_BAND as PREVIEW_BAND,
)
from .plan import (
    Names as Names,
)
from .plan import (
    View as View,
)
from .plan import (
    plan as plan,
)
from .spots import Spot, spots
from .table import draw_board
from .texts import Translate
from .tiles import cell_art, marker_icon


def _heading(seen: SeatView, view: View) -> SeatView:
    """The view the header tells: a preview's is its mover's, whose move is not played yet
    (the view after it names the next player to play)."""
    if view != "preview" or not seen.moves:
        return seen
    return seen.model_copy(update={"to_play": last_mover(seen)})


def _status(seen: SeatView, names: Names, tr: Translate, view: View) -> str:
    if seen.over:
        winners = ", ".join(name_of(names, c, tr) for c in seen.winners)
        return tr(t.STATUS_OVER).format(winners=winners)
    if seen.to_play is None or view == "preview":  # the previewed move is still to play
        return tr(t.STATUS_MOVE).format(n=len(seen.moves), who=name_of(names, last_mover(seen), tr))
    who = name_of(names, seen.to_play, tr)
    return tr(t.STATUS_MOVE).format(n=len(seen.moves) + 1, who=who)


def _compose(
    seen: SeatView,
    names: Names,
    view: View,
    *,
    highlight_last: bool = True,
    legal: Sequence[Spot] = (),
    panel: Callable[[Image.Image, Plan, int], None] | None = None,
    tr: Translate,
    shown: Bounds | None = None,
    lines: int = 0,
) -> Image.Image:
    """The picture, on a canvas of the fixed palette (P) as it is encoded."""
    p = plan(seen, names, view, tr, shown=shown, lines=lines, legal=legal)
    status = _status(seen, names, tr, view)
    canvas = _canvas((p.width, p.height), pal.TABLE)
    draw_header(canvas, _heading(seen, view), names, status, p.caption, tr)
    draw_board(
        canvas,
        seen,
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


def _canvas(size: tuple[int, int], colour: pal.RGB) -> Image.Image:
    """Every picture's canvas: `size`, filled with `colour`, on the fixed palette."""
    return paint.canvas(size, colour, pal.palette_image())


def encode(image: Image.Image) -> bytes:
    """PNG bytes within the chat platforms' limits: scaled down if huge, padded if too thin.
    `image` is RGB, or P with the fixed palette (as `_compose` draws it)."""
    w, h = image.size
    if not within_limits(w, h):
        image = image.convert("RGB")  # rare: scaled or padded in RGB, mapped again
    if w + h > MAX_SUM:
        scale = (MAX_SUM - 1) / (w + h)
        image = image.resize((max(1, int(w * scale)), max(1, int(h * scale))), Image.Resampling.BOX)
        w, h = image.size
    if w > MAX_RATIO * h or h > MAX_RATIO * w:
        pw, ph = max(w, -(-h // MAX_RATIO)), max(h, -(-w // MAX_RATIO))
        padded = Image.new("RGB", (pw, ph), pal.TABLE)
        padded.paste(image, ((pw - w) // 2, (ph - h) // 2))
        image = padded
    return png.encode(image, pal.palette_image())


def table_image(
    view: SeatView,
    names: Names = None,
    *,
    highlight_last: bool = True,
    tr: Translate | None = None,
    shown: Bounds | None = None,
    lines: int = 0,
) -> Image.Image:
    """The table, before encoding, on the fixed palette (as `table_png` encodes it, and as a
    replay's frame); `shown` and `lines` as `plan` takes them."""
    return _compose(
        view,
        names,
        "table",
        highlight_last=highlight_last,
        tr=t.translator(tr),
        shown=shown,
        lines=lines,
    )


def table_png(
    view: SeatView,
    names: Names = None,
    *,
    highlight_last: bool = True,
    tr: Translate | None = None,
) -> bytes:
    """The table everyone sees after a move (from the spectator's view, `game.view(None)`):
    header, tiles, last tile outlined, rooms closed."""
    return encode(table_image(view, names, highlight_last=highlight_last, tr=tr))


def preview_image(
    view: SeatView,
    move: Move | str,
    names: Names = None,
    *,
    tr: Translate | None = None,
) -> Image.Image:
    """The table after a move not played yet (on the palette, as `preview_png` encodes it): a gold
    band says so across the image and the tile's ring is dashed, so it never passes for the
    table after a real move."""
    tr = t.translator(tr)

    def band(canvas: Image.Image, p: Plan, top: int) -> None:
        draw = paint.Draw(canvas)
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

    return _compose(after(view, move), names, "preview", panel=band, tr=tr)


def preview_png(
    view: SeatView, move: Move | str, names: Names = None, *, tr: Translate | None = None
) -> bytes:
    """What the seat to play sees before confirming `move`, drawn from its view without
    playing anything: the table with its tile placed and the rooms it closes paid, marked as a
    preview (`cell_box(after(view, move), ..., view="preview")` maps its cells). Raises
    IllegalMove for a move the game would refuse, ValueError for another seat's view."""
    return encode(preview_image(view, move, names, tr=tr))


def _turns(
    canvas: Image.Image, hand: str, colour: str, left0: int, top: int, used: set[int]
) -> None:
    """The tile in hand in its four turns, `@0`..`@3` under each; turns not in `used` greyed."""
    draw = paint.Draw(canvas)
    for turn in range(4):
        oriented = Tile.parse(hand).rotated(turn)
        seat = colour if oriented.advisors else None
        left = left0 + turn * HAND_STEP
        # A light plate behind the tile: its dark walls would vanish on the dark panel.
        plate = (left - HAND_PLATE, top - HAND_PLATE, left + HAND_TILE + HAND_PLATE - 1,
                 top + HAND_TILE + HAND_PLATE - 1)  # fmt: skip
        draw.rectangle(plate, fill=pal.LABEL)
        art = cell_art("tile", oriented.code, seat, HAND_TILE, mode=canvas.mode)
        canvas.paste(art, (left, top))
        label_xy = (left + HAND_TILE // 2, top + HAND_TILE + 16)
        label_colour = pal.TEXT if turn in used else pal.MUTED
        stamp(canvas, label_xy, f"@{turn}", 20, label_colour, bold=True, anchor="mm")


def private_image(
    view: SeatView,
    names: Names = None,
    *,
    tr: Translate | None = None,
    legal: Sequence[Spot] | None = None,
) -> Image.Image:
    """What `private_png` draws, before encoding; `legal` is
    `spots(view)`, when the caller has it already."""
    colour, hand = view.seat, view.hand
    if view.over or colour is None or colour != view.to_play or hand is None:
        raise ValueError("the private view is for the seat to move")
    tr = t.translator(tr)
    legal = spots(view) if legal is None else legal
    used = {r for spot in legal for r in spot.rotations}

    def strip(canvas: Image.Image, p: Plan, top: int) -> None:
        draw = paint.Draw(canvas)
        draw.rectangle((0, top, p.width, top + HAND_H - 1), fill=pal.HEADER)
        title = tr(t.YOUR_TILE).format(who=name_of(names, colour, tr))
        if not legal:
            title = tr(t.YOUR_TILE_FITS_NOWHERE)
        title = fit(title, 18, p.width - 2 * MARGIN - 4, bold=True)
        stamp(canvas, (MARGIN + 2, top + 18), title, 18, pal.TEXT, bold=True, anchor="lm")
        left0 = (p.width - 4 * HAND_STEP + 28) // 2
        _turns(canvas, hand, colour, left0, top + 36, used)

    return _compose(view, names, "private", legal=legal, panel=strip, tr=tr)


def private_png(
    view: SeatView,
    names: Names = None,
    *,
    tr: Translate | None = None,
    legal: Sequence[Spot] | None = None,
) -> bytes:
    """What the seat to move sees alone, from its own view (`game.view(seat)`): its tile in
    four turns, the legal spots numbered as `spots(view)` numbers them (`legal`, when the
    caller has them already). A board too large for its spots to read whole is shown in
    part, around them, or grows taller (`plan`): `cell_box` maps its cells all the same."""
    return encode(private_image(view, names, tr=tr, legal=legal))


def hand_tile_box(turn: int) -> Box:
    """Pixel box of the tile turned `turn` (0-3) in the image `hand_png` makes."""
    left = (HAND_W - 4 * HAND_STEP + 28) // 2 + turn * HAND_STEP
    top = HAND_BAND + MARGIN
    return (left, top, left + HAND_TILE, top + HAND_TILE)


def hand_image(view: SeatView, names: Names = None, *, tr: Translate | None = None) -> Image.Image:
    """A seat's tile in hand, its four turns side by side, and whose turn it is (on the
    palette, as `hand_png` encodes it)."""
    colour, hand = view.seat, view.hand
    if colour is None or hand is None or view.to_play is None:
        raise ValueError("no tile in hand: the game is over, or this is a spectator's view")
    tr = t.translator(tr)
    to_play = colour == view.to_play
    caption_top = HAND_BAND + MARGIN + HAND_TILE + 34
    size = (HAND_W, caption_top + 34)
    image = _canvas(size, pal.HEADER)
    draw = paint.Draw(image)
    draw.rectangle((0, 0, HAND_W, HAND_BAND - 1), fill=pal.TITLE_BAND)
    paint.sprite(image, marker_icon(colour, 30), (PAD, (HAND_BAND - 30) // 2))
    title = tr(t.YOUR_TILE).format(who=name_of(names, colour, tr))
    title = fit(title, 18, HAND_W - 2 * PAD - 40, bold=True)
    stamp(image, (PAD + 40, HAND_BAND / 2), title, 18, pal.TEXT, bold=True, anchor="lm")
    hand_left = hand_tile_box(0)[0]
    _turns(image, hand, colour, hand_left, HAND_BAND + MARGIN, {0, 1, 2, 3})
    who = name_of(names, view.to_play, tr)
    status = tr(t.STATUS_MOVE).format(n=len(view.moves) + 1, who=who)
    status = fit(status, 17, HAND_W - 2 * PAD, bold=True)
    ink = pal.LAST if to_play else pal.MUTED  # bright when it is this seat's turn
    stamp(image, (HAND_W / 2, caption_top + 15), status, 17, ink, bold=True, anchor="mm")
    return image


def hand_png(view: SeatView, names: Names = None, *, tr: Translate | None = None) -> bytes:
    """A seat's tile in hand in its four turns, from its own view, at any time before the end:
    lets players plan while others move."""
    return encode(hand_image(view, names, tr=tr))


def ranking(seen: SeatView) -> list[tuple[int, str]]:
    """(rank, seat colour) by coins, best first, in seat order among equals; equal coins share
    a rank."""
    order = sorted(seen.players, key=lambda c: (-seen.coins[c], seen.players.index(c)))
    ranks: list[tuple[int, str]] = []
    for position, colour in enumerate(order):
        tie = ranks and seen.coins[ranks[-1][1]] == seen.coins[colour]
        ranks.append((ranks[-1][0] if tie else position + 1, colour))
    return ranks


def end_image(view: SeatView, names: Names = None, *, tr: Translate | None = None) -> Image.Image:
    """What `end_png` draws, before encoding."""
    if not view.over:
        raise ValueError("the game is not over")
    tr = t.translator(tr)

    def results(canvas: Image.Image, p: Plan, top: int) -> None:
        draw = paint.Draw(canvas)
        draw.rectangle((0, top, p.width, p.height), fill=pal.HEADER)
        stamp(canvas, (MARGIN + 2, top + 22), tr(t.FINAL_RANKING), 20, pal.TEXT, bold=True,
              anchor="lm")  # fmt: skip
        for row, (rank, colour) in enumerate(ranking(view)):
            y = top + 44 + row * END_ROW
            mid = y + END_ROW // 2
            winner = colour in view.winners
            ink = pal.GOLD if winner else pal.TEXT
            if winner:
                draw.rounded_rectangle(
                    (MARGIN, y + 3, p.width - MARGIN, y + END_ROW - 3), radius=8, fill=pal.ROW_TURN
                )
            stamp(canvas, (MARGIN + 12, mid), f"{rank}.", 24, ink, bold=True, anchor="lm")
            paint.sprite(canvas, marker_icon(colour, 30), (MARGIN + 48, mid - 15))
            codes = view.revealed.get(colour, [])
            tiles_left = p.width - MARGIN - 12 - len(codes) * (END_TILE + 8)
            name = name_of(names, colour, tr) + (f"  · {tr(t.WINNER)}" if winner else "")
            name = fit(name, 20, tiles_left - MARGIN - 96, bold=True)
            stamp(canvas, (MARGIN + 88, mid - 11), name, 20, ink, bold=True, anchor="lm")
            coins = t.count(view.coins[colour], t.ONE_COIN, t.COINS, tr)
            line = tr(t.FINAL_COINS).format(coins=coins, bonus=view.bonus.get(colour, 0))
            stamp(canvas, (MARGIN + 88, mid + 13), line, 16, pal.MUTED, anchor="lm")
            x = tiles_left
            for code in codes:
                tile = Tile.parse(code)
                seat = colour if tile.advisors else None
                art = cell_art("tile", tile.code, seat, END_TILE, mode=canvas.mode)
                canvas.paste(art, (x, mid - END_TILE // 2))
                x += END_TILE + 8

    return _compose(view, names, "end", panel=results, tr=tr)


def end_png(view: SeatView, names: Names = None, *, tr: Translate | None = None) -> bytes:
    """The final table (from any view of the ended game), the bonus tiles revealed, the
    ranking and the winners."""
    return encode(end_image(view, names, tr=tr))
