"""Die Verbotene Stadt's board and its pieces, each described once as shapes (`render.shapes`)
in the table image's pixels: the table image (`table`) paints them and the web page's board
(`svg`) writes them, so both show one board.

Here too is the board's geometry both take: where each square, edge and pavilion label is.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from engine.verbotene_stadt.board import DIRECTIONS, Board, Square
from engine.verbotene_stadt.cards import COLOURS

from ..shapes import Chord, Ellipse, Line, Point, Polygon, Rect, RoundedRect, Shape, Text
from . import palette as pal
from .panel import AXIS, CARD_H, CARD_W, CELL, MARGIN, TITLE_H

BLACK = (0, 0, 0)  # the officials' outlines
DIE = 30  # a die's side
_DELTA = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
_INSET = {"N": (0, 1, 0, 1), "E": (-1, 0, -1, 0), "S": (0, -1, 0, -1), "W": (1, 0, 1, 0)}


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


def edge(sq: Square, direction: str) -> tuple[int, int, int, int]:
    x0, y0, x1, y1 = square_box(sq)
    return {
        "N": (x0, y0, x1, y0),
        "E": (x1, y0, x1, y1),
        "S": (x0, y1, x1, y1),
        "W": (x0, y0, x0, y1),
    }[direction]


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


def _line(box: tuple[int, int, int, int], colour: pal.RGB, width: int) -> Line:
    x0, y0, x1, y1 = box
    return Line(((x0, y0), (x1, y1)), colour, width)


def squares(board: Board) -> Iterator[Shape]:
    """The squares as printed: roofs striped, pavilion floors in their colour, the yellow start
    squares and the grey ones beside them crossed by a yellow stroke."""
    for y in range(board.height):
        for x in range(board.width):
            x0, y0, x1, y1 = square_box((x, y))
            kind = board.kind((x, y))
            if kind == "#":
                yield Rect((x0, y0, x1, y1), pal.ROOF)
                for k in range(y0 + 8, y1, 10):
                    yield _line((x0, k, x1, k), pal.ROOF_LINE, 2)
            elif kind.isdigit():
                yield Rect((x0, y0, x1, y1), pal.light(pal.cloth(COLOURS[int(kind)])))
            else:
                fill = {"s": pal.START, "g": pal.GREY}.get(kind, pal.FLOOR)
                yield Rect((x0, y0, x1, y1), fill, pal.FLOOR_LINE)
                if kind == "g":
                    yield _line((x0 + 4, y1 - 4, x1 - 4, y0 + 4), pal.START, 4)


def outline(board: Board, number: int, colour: pal.RGB, width: int, inset: int) -> Iterator[Line]:
    """A line along the pavilion's outer edges, `inset` pixels inside it (outside if < 0)."""
    own = set(board.pavilions[number])
    for x, y in own:
        for d in DIRECTIONS:
            dx, dy = _DELTA[d]
            if (x + dx, y + dy) in own:
                continue
            x0, y0, x1, y1 = edge((x, y), d)
            ix0, iy0, ix1, iy1 = (k * inset for k in _INSET[d])
            yield _line((x0 + ix0, y0 + iy0, x1 + ix1, y1 + iy1), colour, width)


def walls(board: Board) -> Iterator[Shape]:
    """The walls, each pavilion's edge in its colour and its doors."""
    for y in range(board.height):
        for x in range(board.width):
            for d in DIRECTIONS:
                if board.wall((x, y), d):
                    yield _line(edge((x, y), d), pal.WALL, 5)
    for number in board.pavilions:
        yield from outline(board, number, pal.cloth(COLOURS[number]), 4, 4)
        for sq, d in board.doors(number):
            yield _line(edge(sq, d), pal.DOOR, 7)


def frame(board: Board) -> Rect:
    """The dark frame round the board."""
    ox, oy = board_origin()
    box = (ox - 3, oy - 3, ox + board.width * CELL + 3, oy + board.height * CELL + 3)
    return Rect(box, outline=pal.WALL, width=6)


def open_ring(board: Board, number: int) -> Iterator[Line]:
    """The gold ring round the open pavilion."""
    return outline(board, number, pal.OPEN, 7, -1)


def pavilion(board: Board, number: int, left: int) -> Iterator[Shape]:
    """A pavilion's number and its three places for cards, `left` of them filled."""
    colour = pal.cloth(COLOURS[number])
    cx, cy = label_point(board, number)
    yield Text((cx, cy - 7), str(number), 20, pal.ink_on(pal.light(colour)), "mm", bold=True)
    card = (("data-card", str(number)),)
    for k in range(3):
        dx = cx - 9 + k * 9
        box = (dx - 3, cy + 6, dx + 3, cy + 12)
        if k < left:
            yield Rect(box, colour, pal.WALL, attrs=card)
        else:
            yield Rect(box, None, pal.MUTED, attrs=card)


def path(
    squares: Sequence[Square], door: tuple[Square, str] | None, official: str
) -> Iterator[Shape]:
    """The last move: its first and last squares framed (a one-square move stays visible), a
    line through the squares where it turned, a dot where it stopped, a ring where it
    started; an entry ends on the door it went through."""
    points = [centre(sq) for sq in squares]
    for sq in (squares[0], squares[-1]) if len(squares) >= 2 else ():
        x0, y0, x1, y1 = square_box(sq)
        yield Rect((x0 + 2, y0 + 2, x1 - 2, y1 - 2), None, pal.PATH, 3)
    if door is not None:
        x0, y0, x1, y1 = edge(*door)
        points.append(((x0 + x1) // 2, (y0 + y1) // 2))
    if len(points) >= 2:
        yield Line(tuple(points), pal.PATH, 6, curved=True, attrs=(("data-path", official),))
        ex, ey = points[-1]
        yield Ellipse((ex - 7, ey - 7, ex + 7, ey + 7), pal.PATH)
        sx, sy = points[0]
        yield Ellipse((sx - 6, sy - 6, sx + 6, sy + 6), None, pal.PATH, 3)


def pawn(middle: Point, code: str, radius: float) -> list[Shape]:
    """An official's shapes: the robe a disc, the hat a cap on top."""
    cx, cy = middle
    hat, robe = pal.OFFICIAL[code[0]], pal.OFFICIAL[code[1]]
    cap = radius * 0.62
    top = cy - radius - 2
    # The cap's box in the whole pixels Pillow cuts it to (towards zero), which the page draws.
    box = (int(cx - cap), int(top), int(cx + cap), int(top + cap * 1.6))
    return [
        Ellipse((cx - radius, cy - radius, cx + radius, cy + radius), robe, BLACK),
        Chord(box, 180, 360, hat, BLACK),
    ]


def letters(middle: Point, code: str, radius: float) -> Text:
    """An official's two letters on its robe, at the whole pixel `fonts.stamp` puts them."""
    cx, cy = middle
    ink = pal.ink_on(pal.OFFICIAL[code[1]])
    return Text((cx, round(cy + radius * 0.3)), code, max(9, radius * 3 // 4), ink, "mm", True)


def bribe_ring(middle: Point) -> Ellipse:
    """The ring round a seat's own bribe (its own picture only: the board's page is public)."""
    cx, cy = middle
    return Ellipse((cx - 19, cy - 19, cx + 19, cy + 19), None, pal.BRIBE, 4)


def card(xy: tuple[int, int], card: str, letter: str) -> list[Shape]:
    """Card `card` ("3H") at `xy`: its pavilion's cloth, the piece's `letter` (translated) over
    the pavilion's number."""
    colour = pal.cloth(COLOURS[int(card[0])])
    x, y = xy
    middle, ink = round(x + CARD_W / 2), pal.ink_on(colour)
    return [
        RoundedRect((x, y, x + CARD_W, y + CARD_H), 4, colour, pal.TEXT),
        Text((middle, y + 11), letter, 13, ink, "mm", bold=True),
        Text((middle, y + 25), card[0], 10, ink, "mm"),
    ]


def die(xy: tuple[int, int], face: str, number: int | None = None) -> list[Shape]:
    """A die as rolled: the blue die shows its number, a fate die its face's colour and symbol."""
    x, y = xy
    colour = pal.BLUE_DIE if number is not None else pal.FACE.get(face, pal.MUTED)
    out: list[Shape] = [RoundedRect((x, y, x + DIE, y + DIE), 6, colour, pal.TEXT, 2)]
    cx, cy = x + DIE // 2, y + DIE // 2
    ink = pal.ink_on(colour)
    if number is not None:
        out.append(Text((cx, cy), str(number), 17, ink, "mm", bold=True))
    elif face == "black":
        out.append(Ellipse((cx - 5, cy - 5, cx + 5, cy + 5), ink))
    elif face == "dragon":
        out.append(Text((cx, cy), "龍", 18, ink, "mm", seal=True))
    elif face == "pavilion":
        out.append(Polygon(((cx - 9, cy - 1), (cx, cy - 10), (cx + 9, cy - 1)), ink))
        out.append(Rect((cx - 6, cy - 1, cx + 6, cy + 9), ink))
    return out
