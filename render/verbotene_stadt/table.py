"""The Verbotene Stadt table image, drawn from a seat's view (or the public one), never a game.

Layout: a title band; the 15 x 15 board on the left with its x and y numbers (the squares menus
name), walls, roofs, the eight pavilions with their number, colour and cards left, the open one
ringed in gold, every official as a pawn in its robe colour with its hat on top and its two letters
on it, the last move's path from its first square to its last; on the right the dice just rolled,
the exile terrace, each player's cards grouped as they score (partners and their totals in the team
game, the winners framed in gold at the end; a long hand wraps between groups, `panel` plans it)
and a legend of the squares. A private image adds the seat's bribe, ringed on the board and named
in the panel.

The static board (squares, walls, roofs) is drawn once per board, mapped to the fixed palette
once, and pasted; what changes is drawn on top, straight on the palette canvas (`render.paint`),
which keeps an image within a few milliseconds. The drawing reads the canvas's mode from the
canvas, and one canvas is RGB: a replay's frame (`frame_image`), whose GIF stays as it was.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from PIL import Image

from engine.verbotene_stadt.board import Board, Square
from engine.verbotene_stadt.view import SeatView

from .. import paint, png, shapes
from ..fonts import stamp, stamp_box
from ..memo import ImageCache, image_bytes
from ..texts import Translate, count, translator
from . import art
from . import palette as pal
from . import texts as t
from .art import DIE, board_origin, centre, door_of
from .art import square_box as square_box  # the package's too
from .panel import (
    CARD_H,
    CELL,
    MARGIN,
    NAME_H,
    ROW_GAP,
    TEAM_H,
    TITLE_H,
    PanelPlan,
    panel_layout,
    size,
)

PAWN_R = 15

Names = Mapping[str, str] | None


@cache
def _static_for(board: Board, mode: str) -> Image.Image:
    """The printed board for a canvas of `mode`, the ground of every table: for "P" mapped to
    the fixed palette once."""
    return paint.for_mode(_static(board), mode, pal.palette_image())


@cache
def _static(board: Board) -> Image.Image:
    """The board as printed: squares, roofs, pavilion floors and walls."""
    image = Image.new("RGB", size(board), pal.BACKGROUND)
    shapes.draw(image, [*art.squares(board), *art.walls(board), art.frame(board)])
    ox, oy = board_origin()
    for x in range(board.width):
        stamp(image, (ox + x * CELL + CELL // 2, oy - 9), str(x), 12, pal.MUTED, anchor="mb")
    for y in range(board.height):
        stamp(image, (ox - 9, oy + y * CELL + CELL // 2), str(y), 12, pal.MUTED, anchor="rm")
    return image


def draw_pawn(image: Image.Image, centre: tuple[int, int], code: str, radius: int = PAWN_R) -> None:
    """An official: the robe a disc, the hat a cap on top, the two letters on the robe. On a
    palette canvas it is pasted from a cache of officials drawn alone (`_lone_pawn`)."""
    if image.mode == "P":
        key = (paint.palette_bytes(image), code, radius)
        lone = _pawns.get(key, lambda: _lone_pawn(image, code, radius))
        if lone is not None:
            sprite, mask = lone
            offset = PAWN_SPRITE * radius
            paint.put(image, sprite, (centre[0] - offset, centre[1] - offset), mask)
            return
    _draw_pawn(image, centre, code, radius)


# Officials drawn alone: the sprite and where it is drawn, by palette, pawn and size.
PAWN_SPRITE = 2  # a sprite reaches this many radii from the pawn's centre
_pawns: ImageCache[tuple[Image.Image, Image.Image] | None] = ImageCache(
    1 << 20, lambda lone: 0 if lone is None else 2 * image_bytes(lone[0]), "officials"
)


def _lone_pawn(
    canvas: Image.Image, code: str, radius: int
) -> tuple[Image.Image, Image.Image] | None:
    """An official drawn on `canvas`'s palette, and the mask of the pixels it paints. Its
    shapes are flat: drawn on two grounds, they are the pixels alike on both. Its letters blend
    into what lies under them, so it is None if they would reach past the shapes (pawns too
    small for their letters), and the official is drawn in place."""
    side = 2 * PAWN_SPRITE * radius + 1
    middle = (PAWN_SPRITE * radius, PAWN_SPRITE * radius)
    grounds = [paint.canvas((side, side), colour, canvas) for colour in (pal.TEXT, pal.OPEN)]
    for ground in grounds:
        shapes.draw(ground, art.pawn(middle, code, radius))
    first, second = (ground.tobytes() for ground in grounds)  # two entries of the palette
    alike = bytes(255 if a == b else 0 for a, b in zip(first, second, strict=True))
    mask = Image.frombytes("L", (side, side), alike).point(lambda v: v, "1")
    letters = art.letters(middle, code, radius)
    box = stamp_box(letters.xy, code, round(letters.size), bold=True, anchor=letters.anchor)
    if box is not None and mask.crop(box).getextrema() != (255, 255):
        return None
    sprite = grounds[0]
    shapes.draw(sprite, [letters], stamped=True)
    return sprite, mask


def _draw_pawn(image: Image.Image, centre: tuple[int, int], code: str, radius: int) -> None:
    shapes.draw(image, [*art.pawn(centre, code, radius), art.letters(centre, code, radius)],
                stamped=True)  # fmt: skip


def _draw_card(image: Image.Image, xy: tuple[int, int], card: str, tr: Translate) -> None:
    shapes.draw(image, art.card(xy, card, tr(t.PIECE_LETTER[card[1]])), stamped=True)


def _die(image: Image.Image, xy: tuple[int, int], face: str, number: int | None = None) -> None:
    """A die as rolled (`art.die`)."""
    shapes.draw(image, art.die(xy, face, number), stamped=True)


def _name(names: Names, seat: str) -> str:
    return (names or {}).get(seat) or seat.capitalize()


def table_image(
    view: SeatView,
    names: Names = None,
    *,
    tr: Translate | None = None,
    board: Board | None = None,
    height: int = 0,
) -> Image.Image:
    """The table as `view` shows it; a seat's view adds its bribe. At least `height` pixels
    tall, taller when the seats' cards need it. On a canvas of the fixed palette, as
    `table_png` encodes it."""
    return _drawn(view, names, translator(tr), board or Board.default(), height, "P")


def frame_image(
    view: SeatView, names: Names = None, *, tr: Translate | None = None, height: int = 0
) -> Image.Image:
    """`table_image` in RGB, a replay's frame (`replay_drawer`), mapped to the palette with the
    frame whole. Drawn on the palette, a text's or a pawn's edge blends with the palette's
    colour of its ground, not the ground's own: 32 pixels of a frame came out up to 40 levels
    off, so the frames stay RGB and the GIFs as they were."""
    return _drawn(view, names, translator(tr), Board.default(), height, "RGB")


def _drawn(
    view: SeatView, names: Names, tr_: Translate, board: Board, height: int, mode: str
) -> Image.Image:
    """The table on a canvas of `mode`: "P" on the fixed palette, or "RGB"."""
    plan = panel_layout(view, height, board)
    image = _canvas(board, plan.height, mode)
    _title(image, view, names, tr_)
    _marks(image, view, board)
    _officials(image, view)
    _panel(image, view, names, tr_, plan)
    return image


def _canvas(board: Board, height: int, mode: str) -> Image.Image:
    """The static board, `height` pixels tall, on a canvas of `mode`."""
    static = _static_for(board, mode)
    if height == static.height:
        return static.copy()
    image = paint.blank((static.width, height), pal.BACKGROUND, pal.palette_image(), mode)
    image.paste(static, (0, 0))
    return image


def _title(image: Image.Image, view: SeatView, names: Names, tr: Translate) -> None:
    """The title band: the game's name, and the status on the right."""
    stamp(image, (MARGIN, TITLE_H // 2), tr(t.TITLE), 24, pal.TEXT, bold=True, anchor="lm")
    stamp(
        image,
        (image.width - MARGIN, TITLE_H // 2),
        _status(view, names, tr),
        16,
        pal.MUTED,
        anchor="rm",
    )


def _marks(image: Image.Image, view: SeatView, board: Board) -> None:
    """Pavilions: number, cards left, the open one; the last move's path, under the pawns."""
    drawn: list[shapes.Shape] = []
    for number in board.pavilions:
        if number == view.open_pavilion:
            drawn.extend(art.open_ring(board, number))
        drawn.extend(art.pavilion(board, number, view.pile_sizes.get(number, 0)))
    last = view.last_move
    if last is not None:
        path: list[Square] = [(x, y) for x, y in last.path]
        door = door_of(board, path[-1], last.entered) if last.entered is not None else None
        drawn.extend(art.path(path, door, last.official))
    shapes.draw(image, drawn, stamped=True)


def _officials(image: Image.Image, view: SeatView) -> None:
    """Every official on the board, the seat's bribe ringed."""
    bribe = view.bribe
    for code, sq in view.officials.items():
        middle = centre((sq[0], sq[1]))
        if code == bribe:
            shapes.draw(image, [art.bribe_ring(middle)])
        draw_pawn(image, middle, code)


def _status(view: SeatView, names: Names, tr: Translate) -> str:
    if view.over:
        winners = ", ".join(_name(names, s) for s in view.winners)
        return tr(t.STATUS_OVER).format(winners=winners)
    if view.to_act:
        seat, kind = view.to_act[0]
        who = _name(names, seat)
        if kind in ("bribe", "rebribe"):
            return tr(t.STATUS_BRIBES)
        return tr(t.STATUS_WAIT.get(kind, t.STATUS_WAIT["move"])).format(who=who)
    return ""


def table_height(view: SeatView, board: Board | None = None) -> int:
    """The height of `view`'s table image: the board's, or more for many rows of cards."""
    return panel_layout(view, 0, board).height


def _panel(
    image: Image.Image, view: SeatView, names: Names, tr: Translate, plan: PanelPlan
) -> None:
    draw = paint.Draw(image)
    draw.rounded_rectangle(plan.box, 10, fill=pal.PANEL)
    x, y = plan.inner[:2]
    y = _dice(image, view, tr, (x, y))
    _exile(image, view, tr, (x, y))
    _players(image, view, names, tr, plan)
    if view.teams:
        _team_totals(image, view, names, tr, (x, plan.totals))
    _legend(image, tr, plan.legend[:2])
    if view.bribe is not None:
        stamp(image, (x, image.height - MARGIN - 44), tr(t.YOUR_BRIBE), 14, pal.BRIBE, bold=True)
        draw_pawn(image, (x + 150, image.height - MARGIN - 36), view.bribe)


def _dice(image: Image.Image, view: SeatView, tr: Translate, at: tuple[int, int]) -> int:
    """The dice: the open pavilion's, then those just rolled; the y below them."""
    x, y = at
    stamp(image, (x, y), tr(t.DICE), 14, pal.MUTED, bold=True)
    y += 22
    dx = x
    if view.open_pavilion is not None:
        _die(image, (dx, y), "blue", view.open_pavilion)
        paint.Draw(image).rounded_rectangle(
            (dx, y, dx + DIE, y + DIE), 6, outline=pal.OPEN, width=3
        )
        dx += DIE + 8
    for die, face in view.last_rolls:
        _die(image, (dx, y), face)
        stamp(image, (dx + DIE / 2, y + DIE + 8), tr(t.DIE_NAME[die]), 10, pal.MUTED, anchor="mm")
        dx += DIE + 8
    return y + DIE + 22


def _exile(image: Image.Image, view: SeatView, tr: Translate, at: tuple[int, int]) -> None:
    """The exile terrace: 15 places, the exiled officials in order."""
    x, y = at
    stamp(image, (x, y), tr(t.EXILE).format(n=len(view.exiled)), 14, pal.MUTED, bold=True)
    y += 20
    for k in range(15):
        cx = x + 14 + (k % 8) * 36
        cy = y + 14 + (k // 8) * 34
        if k < len(view.exiled):
            draw_pawn(image, (cx, cy + 2), view.exiled[k], radius=12)
        else:
            paint.Draw(image).ellipse(
                (cx - 11, cy - 9, cx + 11, cy + 13), outline=pal.MUTED, width=1
            )


def _team_of(view: SeatView, seat: str) -> int:
    """The seat's team number, from 1, as the engine pairs the partners."""
    return next(n for n, pair in enumerate(view.partnerships, 1) if seat in pair)


def _players(
    image: Image.Image, view: SeatView, names: Names, tr: Translate, plan: PanelPlan
) -> None:
    """Each player's name, points and cards grouped as they score (rows as `plan` lays them);
    the winners framed in gold."""
    draw = paint.Draw(image)
    x, right = plan.inner[0], plan.inner[2]
    for seat in view.players:
        y = plan.seats[seat]
        name = _name(names, seat)
        points = view.points.get(seat, 0)
        won = view.over and seat in view.winners
        if won:
            bottom = y + NAME_H + plan.rows[seat] * (CARD_H + ROW_GAP)
            draw.rounded_rectangle((x - 6, y - 5, right + 6, bottom), 6, outline=pal.OPEN, width=3)
        if view.mover == seat and not view.over:
            draw.polygon([(x - 9, y + 3), (x - 2, y + 9), (x - 9, y + 15)], fill=pal.OPEN)
        if view.teams:
            name = tr(t.TEAM_MEMBER).format(name=name, team=_team_of(view, seat))
        stamp(image, (x, y), name, 15, pal.OPEN if won else pal.TEXT, bold=True)
        shown = count(points, t.POINT, t.POINTS, tr)
        stamp(image, (right, y), shown, 14, pal.TEXT, anchor="ra")
        for card, (cx, cy, _, _) in plan.cards[seat]:
            _draw_card(image, (cx, cy), card, tr)
        if not plan.cards[seat]:
            stamp(image, (x, y + NAME_H + 8), tr(t.NO_CARDS), 12, pal.MUTED)


def _team_totals(
    image: Image.Image, view: SeatView, names: Names, tr: Translate, at: tuple[int, int]
) -> None:
    """One line a team: its partners and the points they add up to (what decides the game)."""
    x, y = at
    for team, (first, partner) in enumerate(view.partnerships, 1):
        line = tr(t.TEAM_TOTAL).format(
            team=team,
            a=_name(names, first),
            b=_name(names, partner),
            points=count(view.scores.get(first, 0), t.POINT, t.POINTS, tr),
        )
        won = view.over and first in view.winners
        stamp(image, (x, y), line, 14, pal.OPEN if won else pal.TEXT, bold=True)
        y += TEAM_H


def _legend(image: Image.Image, tr: Translate, at: tuple[int, int]) -> None:
    """What the roofs and the yellow and grey squares mean, beside a sample of each."""
    draw = paint.Draw(image)
    x, y = at
    draw.rectangle((x, y, x + 16, y + 16), fill=pal.ROOF)
    for k in (y + 5, y + 12):
        draw.line((x, k, x + 16, k), fill=pal.ROOF_LINE, width=2)
    stamp(image, (x + 24, y + 8), tr(t.LEGEND_ROOF), 12, pal.MUTED, anchor="lm")
    y += 24
    draw.rectangle((x, y, x + 16, y + 16), fill=pal.START)
    draw.rectangle((x + 20, y, x + 36, y + 16), fill=pal.GREY)
    draw.line((x + 22, y + 14, x + 34, y + 2), fill=pal.START, width=3)
    stamp(image, (x + 44, y + 8), tr(t.LEGEND_START), 12, pal.MUTED, anchor="lm")


def encode(image: Image.Image) -> bytes:
    """PNG bytes of a picture in RGB, or drawn on the fixed palette (`drawn`)."""
    return png.encode(image, pal.palette_image())


def table_png(view: SeatView, names: Names = None, *, tr: Translate | None = None) -> bytes:
    return encode(table_image(view, names, tr=tr))
