"""Where everything goes in a Forbidden City picture, before anything is drawn: its width,
the header and its caption, the panel (the hand strip, the preview's band, the ranking), and
the board's layout (`table.board_layout`). Planning alone answers `cell_box`, so tests probe
the exact pixels a player sees."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from engine.forbidden_city.view import SeatView

from . import texts as t
from .header import PAD, caption_lines, header_height, last_move_text
from .layout import CELL_SIZES, Bounds, Layout, around, board_layout, cell_size, readable_cell
from .spots import Spot, spots
from .texts import Translate

MIN_WIDTH = 640
MARGIN = 12
MAX_RATIO = 20  # Telegram refuses photos longer than 20:1
MAX_SUM = 10000  # Telegram: width + height at most 10000

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


def _caption_text(seen: SeatView, names: Names, view: View, tr: Translate) -> str:
    text = last_move_text(seen, names, tr, preview=view == "preview")
    if view == "end":
        text += " " + tr(t.END_HINT)
    elif view == "private":
        text += " " + tr(t.PICK_HINT)
    return text


def plan(
    seen: SeatView,
    names: Names = None,
    view: View = "table",
    tr: Translate | None = None,
    *,
    shown: Bounds | None = None,
    lines: int = 0,
    legal: Sequence[Spot] | None = None,
) -> Plan:
    """Sizes and places: the board shows the cells `shown` (by default the view's tiles and a
    one-cell margin), the caption takes at least `lines` lines (a replay's frames share both).
    A private picture whose spots (`legal`, by default `spots(seen)`) would be too small to
    read on the whole board shows only the part around them (`_private_plan`)."""
    tr = t.translator(tr)
    if view == "private" and shown is None:
        return _private_plan(seen, names, tr, spots(seen) if legal is None else legal)
    return _plan(seen, names, view, tr, shown, lines)


def _plan(
    seen: SeatView,
    names: Names,
    view: View,
    tr: Translate,
    shown: Bounds | None,
    lines: int,
    cell: int | None = None,
) -> Plan:
    """`plan`, the board's cells `cell` pixels each (by default as large as its budget)."""
    probe = board_layout(seen, 0, 0, shown, cell)
    width = max(MIN_WIDTH, probe.width + 2 * MARGIN)
    caption = caption_lines(width, _caption_text(seen, names, view, tr))
    caption += [""] * (lines - len(caption))
    header_h = header_height(seen, width, caption)
    panel_h = 0
    if view == "private":
        panel_h = HAND_H
    elif view == "preview":
        panel_h = PREVIEW_BAND
    elif view == "end":
        panel_h = 44 + END_ROW * len(seen.players) + MARGIN
    above = panel_h if view in ("private", "preview") else 0
    left = (width - probe.width) // 2
    layout = board_layout(seen, left, header_h + above + MARGIN, shown, probe.cell)
    return Plan(width, header_h, caption, panel_h, layout, view == "end")


def _private_plan(seen: SeatView, names: Names, tr: Translate, legal: Sequence[Spot]) -> Plan:
    """The whole board while its spots read well; else the part of it around them (the
    table's coordinates kept) in cells no smaller than the spot numbers need, the picture
    growing as tall as that takes: a column of 90 tiles made the whole board's cells 16
    pixels, its numbers 4. Only a board beyond what the rules deal is drawn smaller, so
    that `encode` never scales it and the cells stay where `cell_box` says."""
    whole = _plan(seen, names, "private", tr, None, 0)
    need = readable_cell(max((spot.number for spot in legal), default=0))
    if not legal or whole.layout.cell >= need:
        return whole
    part = around(whole.layout.bounds, [(spot.x, spot.y) for spot in legal])
    largest = max(need, cell_size(part))
    for size in (size for size in CELL_SIZES if size <= largest):
        p = _plan(seen, names, "private", tr, part, 0, size)
        if within_limits(p.width, p.height):
            break
    return p


def cell_box(
    seen: SeatView,
    /,
    x: int,
    y: int,
    names: Names = None,
    view: View = "table",
    *,
    tr: Translate | None = None,
) -> Box:
    """Pixel box (left, top, right, bottom; right/bottom exclusive) of cell (x, y) in the image
    that `table_png` / `private_png` / `end_png` makes from this seat's view, these names and
    this language (a caption that wraps to one more line moves the board down). For the
    preview, pass the view after the move (`engine.forbidden_city.view.after`)."""
    return plan(seen, names, view, tr).layout.cell_box(x, y)


def cell_boxes(
    seen: SeatView,
    /,
    cells: Sequence[tuple[int, int]],
    names: Names = None,
    view: View = "table",
    *,
    tr: Translate | None = None,
    legal: Sequence[Spot] | None = None,
) -> list[Box]:
    """`cell_box` of each of `cells`, the image's layout worked out once for all of them (a
    turn image's every spot, to be tapped on a page); `legal`: `spots(seen)`, when the caller
    has them already (as for `private_image`)."""
    layout = plan(seen, names, view, tr, legal=legal).layout
    return [layout.cell_box(x, y) for x, y in cells]


def within_limits(width: int, height: int) -> bool:
    """Whether the chat platforms take a picture of this size as it is (`encode` leaves it)."""
    return width + height <= MAX_SUM and width <= MAX_RATIO * height and height <= MAX_RATIO * width
