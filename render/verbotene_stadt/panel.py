"""Where things go in the Verbotene Stadt table image: its sizes, and the plan of the panel right
of the board (each seat's name and cards, the team totals, the legend, the bribe).

Planned apart from drawing, so the image can be made tall enough for what it holds before
anything is drawn, and tests can check every card's box without reading pixels. A seat's cards
are laid in their scoring groups, left to right, and wrap to a new row between two groups (a
group split over two rows would no longer read as one): the 24 cards of the game, all in one
hand, take three rows. The image is as tall as the board needs, and only grows (the panel with
it) when the rows of cards need more room than that leaves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.verbotene_stadt.board import Board
from engine.verbotene_stadt.cards import best_grouping
from engine.verbotene_stadt.view import SeatView

CELL = 40
MARGIN = 14
AXIS = 22  # room for the x numbers above the board and the y numbers left of it
TITLE_H = 52
PANEL_W = 330
PAD_X, PAD_Y = 12, 10  # the panel's contents keep this far from its edges
CARD_W, CARD_H = 24, 32
CARD_STEP = CARD_W + 2  # from one card of a group to the next
GROUP_GAP = 8  # more between two groups, so each reads as one
ROW_GAP = 6  # between two rows of one seat's cards
NAME_H = 22  # a seat's name line, above its cards
SEAT_GAP = 12  # below a seat's cards
TEAM_H = 22  # a team's total line
PLAYERS_AT = 182  # from the panel's top: the dice and the exile terrace come first
LEGEND_H = 40  # the legend's two lines
BOTTOM = 118  # from the image's bottom margin to the lowest the legend starts
BRIBE_AT = 53  # from the image's bottom margin to the top of the bribe's pawn

Box = tuple[int, int, int, int]  # left, top, right, bottom: the pixels drawn, edges included


def size(board: Board) -> tuple[int, int]:
    """The image's size for what the board needs (`panel_layout` may make it taller)."""
    w = MARGIN * 3 + AXIS + board.width * CELL + PANEL_W
    h = TITLE_H + MARGIN * 2 + AXIS + board.height * CELL
    return w, max(h, TITLE_H + 560)


@dataclass(frozen=True, slots=True)
class PanelPlan:
    """The panel of an image `height` pixels tall: `box` its rounded rectangle, `inner` where its
    contents go; per seat the top of its name line, its rows of cards and each card's box; the
    team totals' first line; the legend's box and the bribe's (None without one)."""

    height: int
    box: Box
    inner: Box
    seats: dict[str, int]
    rows: dict[str, int]
    cards: dict[str, list[tuple[str, Box]]]
    totals: int
    legend: Box
    bribe: Box | None


def hand_rows(groups: Sequence[Sequence[str]], width: int) -> list[list[Sequence[str]]]:
    """The groups on rows at most `width` pixels wide, in order, a group never split."""
    rows: list[list[Sequence[str]]] = [[]]
    start = 0  # where the next group would begin on the last row
    for group in groups:
        wide = (len(group) - 1) * CARD_STEP + CARD_W
        if rows[-1] and start + wide > width:
            rows.append([])
            start = 0
        rows[-1].append(group)
        start += len(group) * CARD_STEP + GROUP_GAP
    return rows


def card_boxes(groups: Sequence[Sequence[str]], left: int, top: int, width: int) -> list[Box]:
    """The box of each card of `groups`, in order, laid in rows from (left, top)."""
    boxes = []
    for k, row in enumerate(hand_rows(groups, width)):
        x, y = left, top + k * (CARD_H + ROW_GAP)
        for group in row:
            for _ in group:
                boxes.append((x, y, x + CARD_W, y + CARD_H))
                x += CARD_STEP
            x += GROUP_GAP
    return boxes


def panel_layout(view: SeatView, height: int = 0, board: Board | None = None) -> PanelPlan:
    """The panel for `view` in an image at least `height` pixels tall (0: as tall as needed)."""
    board = board or Board.default()
    width, base = size(board)
    left = MARGIN * 2 + AXIS + board.width * CELL
    top = TITLE_H + MARGIN
    x, right = left + PAD_X, width - MARGIN - PAD_X
    y = top + PLAYERS_AT
    seats, rows, cards = {}, {}, {}
    for seat in view.players:
        groups = best_grouping(view.hands.get(seat, [])).groups
        seats[seat] = y
        rows[seat] = len(hand_rows(groups, right - x))
        flat = [card for group in groups for card in group]
        boxes = card_boxes(groups, x, y + NAME_H, right - x)
        cards[seat] = list(zip(flat, boxes, strict=True))
        y += NAME_H + rows[seat] * (CARD_H + ROW_GAP) - ROW_GAP + SEAT_GAP
    totals = y
    if view.teams:
        y += TEAM_H * len(view.partnerships)
    height = max(height, base, y + 4 + MARGIN + BOTTOM)
    legend_top = max(y + 4, height - MARGIN - BOTTOM)
    bribe = None
    if view.bribe is not None:
        bribe = (x, height - MARGIN - BRIBE_AT, right, height - MARGIN - 20)
    return PanelPlan(
        height=height,
        box=(left, top, width - MARGIN, height - MARGIN),
        inner=(x, top + PAD_Y, right, height - MARGIN - PAD_Y),
        seats=seats,
        rows=rows,
        cards=cards,
        totals=totals,
        legend=(x, legend_top, right, legend_top + LEGEND_H),
        bribe=bribe,
    )
