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
which keeps an image within a few milliseconds. `table_image` draws the same in RGB.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache

from PIL import Image, ImageDraw

from engine.verbotene_stadt.board import DIRECTIONS, Board, Square
from engine.verbotene_stadt.cards import COLOURS
from engine.verbotene_stadt.view import SeatView

from .. import paint, png
from ..fonts import stamp, stamp_box
from ..memo import ImageCache, image_bytes
from ..texts import Translate, count, translator
from . import palette as pal
from . import texts as t
from .panel import (
    AXIS,
    CARD_H,
    CARD_W,
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
DIE = 30

Names = Mapping[str, str] | None


def board_origin() -> tuple[int, int]:
    return MARGIN + AXIS, TITLE_H + MARGIN + AXIS


def square_box(sq: Square) -> tuple[int, int, int, int]:
    """The pixels of square `sq` in a table image."""
    ox, oy = board_origin()
    x, y = sq
    return ox + x * CELL, oy + y * CELL, ox + (x + 1) * CELL, oy + (y + 1) * CELL


def centre(sq: Square) -> tuple[int, int]:
    x0, y0, x1, y1 = square_box(sq)
    return (x0 + x1) // 2, (y0 + y1) // 2


@cache
def _static_indexed(board: Board) -> Image.Image:
    """The printed board mapped to the fixed palette once, the ground of every table."""
    return paint.indexed(_static(board), pal.palette_image())


@cache
def _static(board: Board) -> Image.Image:
    """The board as printed: squares, roofs, pavilion floors and walls."""
    image = Image.new("RGB", size(board), pal.BACKGROUND)
    draw = ImageDraw.Draw(image)
    for y in range(board.height):
        for x in range(board.width):
            sq = (x, y)
            x0, y0, x1, y1 = square_box(sq)
            kind = board.kind(sq)
            if kind == "#":
                draw.rectangle((x0, y0, x1, y1), fill=pal.ROOF)
                for k in range(y0 + 8, y1, 10):
                    draw.line((x0, k, x1, k), fill=pal.ROOF_LINE, width=2)
            elif kind.isdigit():
                colour = pal.cloth(COLOURS[int(kind)])
                draw.rectangle((x0, y0, x1, y1), fill=pal.light(colour))
            else:
                fill = {"s": pal.START, "g": pal.GREY}.get(kind, pal.FLOOR)
                draw.rectangle((x0, y0, x1, y1), fill=fill, outline=pal.FLOOR_LINE)
                if kind == "g":
                    draw.line((x0 + 4, y1 - 4, x1 - 4, y0 + 4), fill=pal.START, width=4)
    for y in range(board.height):
        for x in range(board.width):
            sq = (x, y)
            x0, y0, x1, y1 = square_box(sq)
            edges = {"N": (x0, y0, x1, y0), "E": (x1, y0, x1, y1)}
            edges |= {"S": (x0, y1, x1, y1), "W": (x0, y0, x0, y1)}
            for d in DIRECTIONS:
                if board.wall(sq, d):
                    draw.line(edges[d], fill=pal.WALL, width=5)
    for number in board.pavilions:
        _outline(draw, board, number, pal.cloth(COLOURS[number]), 4, inset=4)
        for sq, d in board.doors(number):
            x0, y0, x1, y1 = edge(sq, d)
            draw.line((x0, y0, x1, y1), fill=pal.DOOR, width=7)
    ox, oy = board_origin()
    draw.rectangle(
        (ox - 3, oy - 3, ox + board.width * CELL + 3, oy + board.height * CELL + 3),
        outline=pal.WALL,
        width=6,
    )
    for x in range(board.width):
        stamp(image, (ox + x * CELL + CELL // 2, oy - 9), str(x), 12, pal.MUTED, anchor="mb")
    for y in range(board.height):
        stamp(image, (ox - 9, oy + y * CELL + CELL // 2), str(y), 12, pal.MUTED, anchor="rm")
    return image


def edge(sq: Square, direction: str) -> tuple[int, int, int, int]:
    x0, y0, x1, y1 = square_box(sq)
    return {
        "N": (x0, y0, x1, y0),
        "E": (x1, y0, x1, y1),
        "S": (x0, y1, x1, y1),
        "W": (x0, y0, x0, y1),
    }[direction]


_DELTA = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
_INSET = {"N": (0, 1, 0, 1), "E": (-1, 0, -1, 0), "S": (0, -1, 0, -1), "W": (1, 0, 1, 0)}


def _outline(
    draw: ImageDraw.ImageDraw, board: Board, number: int, colour: pal.RGB, width: int, inset: int
) -> None:
    """A line along the pavilion's outer edges, `inset` pixels inside it."""
    own = set(board.pavilions[number])
    for x, y in own:
        for d in DIRECTIONS:
            dx, dy = _DELTA[d]
            if (x + dx, y + dy) in own:
                continue
            x0, y0, x1, y1 = edge((x, y), d)
            ix0, iy0, ix1, iy1 = (k * inset for k in _INSET[d])
            draw.line((x0 + ix0, y0 + iy0, x1 + ix1, y1 + iy1), fill=colour, width=width)


def door_of(board: Board, sq: Square, pavilion: int) -> tuple[Square, str] | None:
    """The door of `pavilion` beside `sq`, as (sq, direction), if there is one."""
    own = board.pavilions.get(pavilion, ())
    for d in DIRECTIONS:
        dx, dy = _DELTA[d]
        if (sq[0] + dx, sq[1] + dy) in own and not board.wall(sq, d):
            return sq, d
    return None


def label_point(board: Board, number: int) -> tuple[int, int]:
    """Where the pavilion's number and cards are written: the middle of its longest straight
    row or column of squares (all of them for a square pavilion), clear of its walls."""
    own = board.pavilions[number]
    lines = [[sq for sq in own if sq[axis] == k] for axis in (0, 1) for k in {s[axis] for s in own}]
    longest = max(len(line) for line in lines)
    chosen = own if sum(len(line) == longest for line in lines) > 1 else max(lines, key=len)
    centres = [centre(sq) for sq in chosen]
    return (
        sum(x for x, _ in centres) // len(centres),
        sum(y for _, y in centres) // len(centres),
    )


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
        _pawn_shapes(paint.Draw(ground), middle, code, radius)
    first, second = (ground.tobytes() for ground in grounds)  # two entries of the palette
    alike = bytes(255 if a == b else 0 for a, b in zip(first, second, strict=True))
    mask = Image.frombytes("L", (side, side), alike).point(lambda v: v, "1")
    xy, text, size, _ = _pawn_text(middle, code, radius)
    box = stamp_box(xy, text, size, bold=True, anchor="mm")
    if box is not None and mask.crop(box).getextrema() != (255, 255):
        return None
    sprite = grounds[0]
    _draw_letters(sprite, middle, code, radius)
    return sprite, mask


def _draw_pawn(image: Image.Image, centre: tuple[int, int], code: str, radius: int) -> None:
    _pawn_shapes(paint.Draw(image), centre, code, radius)
    _draw_letters(image, centre, code, radius)


def _pawn_shapes(
    draw: ImageDraw.ImageDraw, centre: tuple[int, int], code: str, radius: int
) -> None:
    cx, cy = centre
    hat, robe = pal.OFFICIAL[code[0]], pal.OFFICIAL[code[1]]
    draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=robe, outline=(0, 0, 0))
    cap = radius * 0.62
    top = cy - radius - 2
    draw.chord((cx - cap, top, cx + cap, top + cap * 1.6), 180, 360, fill=hat, outline=(0, 0, 0))


def _pawn_text(
    centre: tuple[int, int], code: str, radius: int
) -> tuple[tuple[float, float], str, int, tuple[int, int, int]]:
    cx, cy = centre
    ink = pal.ink_on(pal.OFFICIAL[code[1]])
    return (cx, cy + radius * 0.3), code, max(9, radius * 3 // 4), ink


def _draw_letters(image: Image.Image, centre: tuple[int, int], code: str, radius: int) -> None:
    xy, text, size, ink = _pawn_text(centre, code, radius)
    stamp(image, xy, text, size, ink, bold=True, anchor="mm")


def _draw_path(
    draw: ImageDraw.ImageDraw, path: Sequence[Square], door: tuple[Square, str] | None
) -> None:
    """The last move: its first and last squares framed (a one-square move stays visible), a
    line through the squares where it turned, a dot where it stopped; an entry ends on the door
    it went through."""
    points = [centre(sq) for sq in path]
    for sq in (path[0], path[-1]) if len(path) >= 2 else ():
        x0, y0, x1, y1 = square_box(sq)
        draw.rectangle((x0 + 2, y0 + 2, x1 - 2, y1 - 2), outline=pal.PATH, width=3)
    if door is not None:
        x0, y0, x1, y1 = edge(*door)
        points.append(((x0 + x1) // 2, (y0 + y1) // 2))
    if len(points) >= 2:
        draw.line(points, fill=pal.PATH, width=6, joint="curve")
        ex, ey = points[-1]
        draw.ellipse((ex - 7, ey - 7, ex + 7, ey + 7), fill=pal.PATH)
        sx, sy = points[0]
        draw.ellipse((sx - 6, sy - 6, sx + 6, sy + 6), outline=pal.PATH, width=3)


def _draw_card(image: Image.Image, xy: tuple[int, int], card: str, tr: Translate) -> None:
    draw = paint.Draw(image)
    colour = pal.cloth(COLOURS[int(card[0])])
    x, y = xy
    draw.rounded_rectangle((x, y, x + CARD_W, y + CARD_H), 4, fill=colour, outline=pal.TEXT)
    piece = tr(t.PIECE_LETTER[card[1]])
    stamp(image, (x + CARD_W / 2, y + 11), piece, 13, pal.ink_on(colour), bold=True, anchor="mm")
    stamp(image, (x + CARD_W / 2, y + 25), card[0], 10, pal.ink_on(colour), anchor="mm")


def _die(image: Image.Image, xy: tuple[int, int], face: str, number: int | None = None) -> None:
    """A die as rolled: the blue die shows its number, a fate die its face's colour and symbol."""
    draw = paint.Draw(image)
    x, y = xy
    colour = pal.BLUE_DIE if number is not None else pal.FACE.get(face, pal.MUTED)
    draw.rounded_rectangle((x, y, x + DIE, y + DIE), 6, fill=colour, outline=pal.TEXT, width=2)
    cx, cy = x + DIE / 2, y + DIE / 2
    ink = pal.ink_on(colour)
    if number is not None:
        stamp(image, (cx, cy), str(number), 17, ink, bold=True, anchor="mm")
    elif face == "black":
        draw.ellipse((cx - 5, cy - 5, cx + 5, cy + 5), fill=ink)
    elif face == "dragon":
        stamp(image, (cx, cy), "龍", 18, ink, anchor="mm", seal=True)
    elif face == "pavilion":
        draw.polygon([(cx - 9, cy - 1), (cx, cy - 10), (cx + 9, cy - 1)], fill=ink)
        draw.rectangle((cx - 6, cy - 1, cx + 6, cy + 9), fill=ink)


def _name(names: Names, seat: str) -> str:
    return (names or {}).get(seat) or seat.capitalize()


def table_image(
    view: SeatView,
    names: Names = None,
    *,
    tr: Translate | None = None,
    board: Board | None = None,
    height: int = 0,
    indexed: bool = False,
) -> Image.Image:
    """The table as `view` shows it; a seat's view adds its bribe. At least `height` pixels
    tall (a replay's frames share one size), taller when the seats' cards need it. RGB, or on
    a canvas of the fixed palette (`indexed`), as `table_png` draws it."""
    tr_ = translator(tr)
    board = board or Board.default()
    plan = panel_layout(view, height, board)
    static = _static_indexed(board) if indexed else _static(board)
    if plan.height == static.height:
        image = static.copy()
    elif indexed:
        image = paint.canvas((static.width, plan.height), pal.BACKGROUND, pal.palette_image())
        image.paste(static, (0, 0))
    else:
        image = Image.new("RGB", (static.width, plan.height), pal.BACKGROUND)
        image.paste(static, (0, 0))
    draw = paint.Draw(image)
    # Title and status
    stamp(image, (MARGIN, TITLE_H // 2), tr_(t.TITLE), 24, pal.TEXT, bold=True, anchor="lm")
    stamp(
        image,
        (image.width - MARGIN, TITLE_H // 2),
        _status(view, names, tr_),
        16,
        pal.MUTED,
        anchor="rm",
    )
    # Pavilions: number, cards left, the open one
    for number in board.pavilions:
        colour = pal.cloth(COLOURS[number])
        if number == view.open_pavilion:
            _outline(draw, board, number, pal.OPEN, 7, inset=-1)
        cx, cy = label_point(board, number)
        stamp(
            image,
            (cx, cy - 7),
            str(number),
            20,
            pal.ink_on(pal.light(colour)),
            bold=True,
            anchor="mm",
        )
        left = view.pile_sizes.get(number, 0)
        for k in range(3):
            dx = cx - 9 + k * 9
            box = (dx - 3, cy + 6, dx + 3, cy + 12)
            if k < left:
                draw.rectangle(box, fill=colour, outline=pal.WALL)
            else:
                draw.rectangle(box, outline=pal.MUTED)
    # The last move's path, under the pawns
    last = view.last_move
    if last is not None:
        path: list[Square] = [(x, y) for x, y in last.path]
        door = door_of(board, path[-1], last.entered) if last.entered is not None else None
        _draw_path(draw, path, door)
    bribe = view.bribe
    for code, sq in view.officials.items():
        middle = centre((sq[0], sq[1]))
        if code == bribe:
            cx, cy = middle
            draw.ellipse((cx - 19, cy - 19, cx + 19, cy + 19), outline=pal.BRIBE, width=4)
        draw_pawn(image, middle, code)
    _panel(image, view, names, tr_, plan)
    return image


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
    # Dice
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
    y += DIE + 22
    # Exile terrace: 15 places
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
    _players(image, view, names, tr, plan)
    if view.teams:
        _team_totals(image, view, names, tr, (x, plan.totals))
    _legend(image, tr, plan.legend[:2])
    if view.bribe is not None:
        stamp(image, (x, image.height - MARGIN - 44), tr(t.YOUR_BRIBE), 14, pal.BRIBE, bold=True)
        draw_pawn(image, (x + 150, image.height - MARGIN - 36), view.bribe)


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
    return encode(table_image(view, names, tr=tr, indexed=True))
