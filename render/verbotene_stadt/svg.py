"""The board as SVG, for the web page: the same board as the Pillow table image (`table`),
drawn from a view in vector shapes, crisp at any size.

    >>> from render.verbotene_stadt.svg import board_svg
    >>> text = board_svg(game.view(None))  # the channel's board, as watchers see it

It uses the table image's own geometry (`table.square_box` and the rest), cut to the board:
the panel of dice and cards stays in the chat's picture and the page's words. Drawn from a
view, never a game; the public view holds no bribe, so none is ringed. Colours are
attributes, not styles, for the page's strict policy.
"""

from __future__ import annotations

from html import escape

from engine.verbotene_stadt.board import DIRECTIONS, Board, Square
from engine.verbotene_stadt.cards import COLOURS
from engine.verbotene_stadt.view import SeatView

from . import palette as pal
from .panel import CELL
from .table import board_origin, centre, door_of, edge, label_point, square_box

PAD = 30  # room around the board for its coordinates


def _rgb(colour: pal.RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


def _line(x0: float, y0: float, x1: float, y1: float, colour: pal.RGB, width: float) -> str:
    return (
        f'<line x1="{x0:g}" y1="{y0:g}" x2="{x1:g}" y2="{y1:g}" stroke="{_rgb(colour)}" '
        f'stroke-width="{width:g}" stroke-linecap="square"/>'
    )


def _squares(board: Board) -> list[str]:
    out = []
    for y in range(board.height):
        for x in range(board.width):
            x0, y0, x1, y1 = square_box((x, y))
            kind = board.kind((x, y))
            box = f'x="{x0}" y="{y0}" width="{x1 - x0}" height="{y1 - y0}"'
            if kind == "#":
                out.append(f'<rect {box} fill="{_rgb(pal.ROOF)}"/>')
                out.extend(_line(x0, k, x1, k, pal.ROOF_LINE, 2) for k in range(y0 + 8, y1, 10))
            elif kind.isdigit():
                floor = pal.light(pal.cloth(COLOURS[int(kind)]))
                out.append(f'<rect {box} fill="{_rgb(floor)}"/>')
            else:
                fill = {"s": pal.START, "g": pal.GREY}.get(kind, pal.FLOOR)
                out.append(f'<rect {box} fill="{_rgb(fill)}" stroke="{_rgb(pal.FLOOR_LINE)}"/>')
                if kind == "g":
                    out.append(_line(x0 + 4, y1 - 4, x1 - 4, y0 + 4, pal.START, 4))
    return out


def _outline(board: Board, number: int, colour: pal.RGB, width: int, inset: int) -> list[str]:
    """A line along the pavilion's outer edges, `inset` units inside it (outside if < 0)."""
    own = set(board.pavilions[number])
    out = []
    for sq in own:
        for d, (dx, dy) in zip(DIRECTIONS, ((0, -1), (1, 0), (0, 1), (-1, 0)), strict=True):
            if (sq[0] + dx, sq[1] + dy) not in own:
                x0, y0, x1, y1 = edge(sq, d)
                ix, iy = -dx * inset, -dy * inset
                out.append(_line(x0 + ix, y0 + iy, x1 + ix, y1 + iy, colour, width))
    return out


def _walls(board: Board) -> list[str]:
    out = []
    for y in range(board.height):
        for x in range(board.width):
            for d in DIRECTIONS:
                if board.wall((x, y), d):
                    out.append(_line(*edge((x, y), d), pal.WALL, 5))
    for number in board.pavilions:
        out.extend(_outline(board, number, pal.cloth(COLOURS[number]), 4, 4))
        for sq, d in board.doors(number):
            out.append(_line(*edge(sq, d), pal.DOOR, 7))
    return out


def _pavilions(board: Board, view: SeatView) -> list[str]:
    """Each pavilion's number and its cards left (three places); the open one ringed."""
    out = []
    for number in board.pavilions:
        colour = pal.cloth(COLOURS[number])
        if number == view.open_pavilion:
            out.append(f'<g data-open="{number}">')
            out.extend(_outline(board, number, pal.OPEN, 7, -1))
            out.append("</g>")
        cx, cy = label_point(board, number)
        ink = _rgb(pal.ink_on(pal.light(colour)))
        out.append(
            f'<text x="{cx}" y="{cy - 7}" font-size="20" font-weight="bold" '
            f'font-family="sans-serif" text-anchor="middle" dominant-baseline="central" '
            f'fill="{ink}">{number}</text>'
        )
        left = view.pile_sizes.get(number, 0)
        for k in range(3):
            dx = cx - 9 + k * 9
            fill = _rgb(colour) if k < left else "none"
            line = _rgb(pal.WALL if k < left else pal.MUTED)
            out.append(
                f'<rect x="{dx - 3}" y="{cy + 6}" width="6" height="6" fill="{fill}" '
                f'stroke="{line}" data-card="{number}"/>'
            )
    return out


def _path(board: Board, view: SeatView) -> list[str]:
    """The last move: its first and last squares framed, a line through where it turned, a
    dot where it stopped; an entry ends on the door it went through."""
    last = view.last_move
    if last is None:
        return []
    path: list[Square] = [(x, y) for x, y in last.path]
    out = []
    for sq in (path[0], path[-1]) if len(path) >= 2 else ():
        x0, y0, x1, y1 = square_box(sq)
        out.append(
            f'<rect x="{x0 + 2}" y="{y0 + 2}" width="{x1 - x0 - 4}" height="{y1 - y0 - 4}" '
            f'fill="none" stroke="{_rgb(pal.PATH)}" stroke-width="3"/>'
        )
    points = [centre(sq) for sq in path]
    door = door_of(board, path[-1], last.entered) if last.entered is not None else None
    if door is not None:
        x0, y0, x1, y1 = edge(*door)
        points.append(((x0 + x1) // 2, (y0 + y1) // 2))
    if len(points) >= 2:
        shown = " ".join(f"{x},{y}" for x, y in points)
        (sx, sy), (ex, ey) = points[0], points[-1]
        out.append(
            f'<polyline points="{shown}" fill="none" stroke="{_rgb(pal.PATH)}" '
            f'stroke-width="6" stroke-linejoin="round" data-path="{last.official}"/>'
            f'<circle cx="{ex}" cy="{ey}" r="7" fill="{_rgb(pal.PATH)}"/>'
            f'<circle cx="{sx}" cy="{sy}" r="6" fill="none" stroke="{_rgb(pal.PATH)}" '
            'stroke-width="3"/>'
        )
    return out


def pawn(code: str, cx: float, cy: float, radius: float = 15) -> str:
    """An official: the robe a disc, the hat a cap on top, the two letters on the robe."""
    hat, robe = pal.OFFICIAL[code[0]], pal.OFFICIAL[code[1]]
    cap = radius * 0.62
    top = cy - radius - 2
    return (
        f'<g data-official="{escape(code)}">'
        f'<circle cx="{cx:g}" cy="{cy:g}" r="{radius:g}" fill="{_rgb(robe)}" stroke="#000000"/>'
        f'<path d="M {cx - cap:g} {top + cap * 0.8:g} A {cap:g} {cap * 0.8:g} 0 0 1 '
        f'{cx + cap:g} {top + cap * 0.8:g} Z" fill="{_rgb(hat)}" stroke="#000000"/>'
        f'<text x="{cx:g}" y="{cy + radius * 0.3:g}" font-size="{max(9, radius * 3 // 4):g}" '
        f'font-weight="bold" font-family="sans-serif" text-anchor="middle" '
        f'dominant-baseline="central" fill="{_rgb(pal.ink_on(robe))}">{escape(code)}</text>'
        "</g>"
    )


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
