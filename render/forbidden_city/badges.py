"""A closed room's badge on the board: its points, who owns it and what they scored, on a
label placed where it covers the fewest tiles (`room_anchor`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import product

from PIL import Image, ImageDraw

from engine.forbidden_city.view import ClosedRoom, TableCell

from .. import paint
from ..fonts import stamp, text_width
from . import palette as pal
from . import texts as t
from .layout import Box, Layout
from .tiles import marker_icon


def overlap(a: Box, b: Box) -> int:
    return max(0, min(a[2], b[2]) - max(a[0], b[0])) * max(0, min(a[3], b[3]) - max(a[1], b[1]))


def room_anchor(
    layout: Layout,
    cells: Iterable[tuple[int, int, int]],
    size: tuple[int, int],
    others: Mapping[tuple[int, int], str],
) -> tuple[int, int]:
    """Centre of a room's badge (`size` wide and high). Tried on each room cell, nearest the
    room's middle first: on its lower edge, on its upper edge (the cell's content stays in
    sight), then inside it at the foot or the head, each centred on the cell or flush with one
    of its sides; the first that covers least of the tiles outside the room wins, the temple
    counting ten times a tile: it must never be hidden."""
    points = [(x, y) for x, y, _ in cells]
    mx = sum(x for x, _ in points) / len(points)
    my = sum(y for _, y in points) / len(points)
    points.sort(key=lambda p: ((p[0] - mx) ** 2 + (p[1] - my) ** 2, p[1], p[0]))
    width, height = size
    margin = max(2, layout.cell // 16)
    best: tuple[int, tuple[int, int]] | None = None
    for rank, (x, y), align in product(range(4), points, range(3)):
        left, top, right, bottom = layout.cell_box(x, y)
        cy = (bottom, top, bottom - height // 2 - margin, top + height // 2 + margin)[rank]
        cx = ((left + right) // 2, left + margin + width // 2, right - margin - width // 2)[align]
        box = (cx - width // 2, cy - height // 2, cx + width // 2, cy + height // 2)
        cost = 0
        for (ox, oy), kind in others.items():
            cost += overlap(box, layout.cell_box(ox, oy)) * (10 if kind == "temple" else 1)
        if best is None or cost < best[0]:
            best = (cost, (cx, cy))
        if cost == 0:
            break
    assert best is not None
    return best[1]


def draw_badge(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    layout: Layout,
    room: ClosedRoom,
    table: Sequence[TableCell],
    tr: t.Translate,
) -> None:
    """Value of a room just closed and what each seat was paid: `11  ●+11 ■+5`, placed clear
    of the temple and, where it can be, of the tiles around the room."""
    size = max(12, round(layout.cell * 0.3))
    small_size = round(size * 0.85)
    icon = round(size * 0.9)
    pieces: list[tuple[str, str | None]] = [(str(room.value), None)]
    paid = [(colour, amount) for colour, amount in room.paid.items() if amount]
    for colour, amount in paid:
        pieces.append((f"+{amount}", colour))
    if not paid:
        pieces.append((tr(t.UNPAID), None))
    gap = round(size * 0.35)
    widths = []
    for index, (text, seat) in enumerate(pieces):
        text_size = size if index == 0 else small_size
        widths.append(round(text_width(text, text_size, bold=True)) + (icon + 2 if seat else 0))
    width = sum(widths) + gap * (len(pieces) - 1) + size
    height = round(size * 1.5)
    own = {(x, y) for x, y, _ in room.cells}
    others = {(c.x, c.y): c.kind for c in table if (c.x, c.y) not in own or c.kind == "temple"}
    cx, cy = room_anchor(layout, room.cells, (width, height), others)
    left, top = cx - width // 2, cy - height // 2
    draw.rounded_rectangle(
        (left, top, left + width, top + height), radius=height // 3, fill=pal.BADGE,
        outline=pal.CLOSED, width=max(2, size // 8),
    )  # fmt: skip
    x = left + size // 2
    for index, ((text, seat), w) in enumerate(zip(pieces, widths, strict=True)):
        if seat is not None:
            marker = marker_icon(seat, icon)
            paint.sprite(canvas, marker, (x, cy - icon // 2))
            x += icon + 2
        ink = pal.CLOSED if index == 0 else pal.TEXT
        stamp(
            canvas,
            (x, cy),
            text,
            size if index == 0 else small_size,
            ink,
            bold=True,
            anchor="lm",
        )
        x += w - (icon + 2 if seat else 0) + gap
