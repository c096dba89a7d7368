"""A plain-text picture of the table, for terminals, logs and bug reports.

Each cell is 7 characters by 3 lines: walls '-' and '|', archways 'a', open edges blank; the middle
shows the floor letter(s), the diagonal, and the content (D dragon, or advisor count and seat
initial). The temple is 'TT', a garden '**'.
"""

from __future__ import annotations

from .board import Board, Placed

_H = {".": "     ", "#": "-----", "a": "--a--"}
_V = {".": " ", "#": "|", "a": "a"}


def _middle(placed: Placed, initials: list[str]) -> str:
    if placed.kind == "temple":
        return "  TT "
    if placed.kind == "garden":
        return " *** "
    tile = placed.tile
    assert tile is not None
    floor = tile.colours[0]
    if tile.diagonal:
        floor += tile.diagonal + ("a" if tile.diagonal_arch else "") + tile.colours[1]
    content = ""
    if tile.dragon:
        content = "D"
    elif tile.advisors and placed.owner is not None:
        content = f"{tile.advisors}{initials[placed.owner]}"
    return f"{floor:<3}{content:>2}"[:5]


def draw(board: Board, players: list[str] | tuple[str, ...]) -> str:
    if not len(board):
        return "(empty table)"
    cells = board.cells
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    initials = [p[0] for p in players]
    lines = ["      " + "".join(f"{x:^7}" for x in range(min(xs), max(xs) + 1))]
    for y in range(min(ys), max(ys) + 1):
        rows = [f"{'':>5} ", f"{y:>5} ", f"{'':>5} "]
        for x in range(min(xs), max(xs) + 1):
            placed = cells.get((x, y))
            if placed is None:
                for i in range(3):
                    rows[i] += "   .   " if i == 1 else "       "
                continue
            e = placed.edges
            rows[0] += "+" + _H[e[0]] + "+"
            rows[1] += _V[e[3]] + _middle(placed, initials) + _V[e[1]]
            rows[2] += "+" + _H[e[2]] + "+"
        lines.extend(r.rstrip() for r in rows)
    return "\n".join(lines)
