"""The small line of a player's recent ratings, measured in the drawn picture.

The trend cell is 140 by 44 pixels. Its line runs from 3 pixels inside the left edge (the end
dot's radius) to the end dot touching the right edge; the highest rating sits 9 pixels under
the cell's top, the lowest 9 pixels above its bottom, a level trend on the middle line; the
line is two and a half pixels thick, and nothing else in the cell is touched. Each pixel's ink
is read back as the fraction of the way from the row's background to the line's colour.
"""

from __future__ import annotations

from render import leaderboard as lb
from render.leaderboard import Row, cell_box, leaderboard_image

RGB = tuple[int, int, int]
LEFT, TOP, RIGHT, BOTTOM = cell_box(0, "trend")
WIDTH, HEIGHT = RIGHT - LEFT, BOTTOM - TOP
DOT = 3  # the end dot's radius
PAD = 9  # the room above the highest and under the lowest rating


def ink(trend: tuple[int, ...], colour: RGB) -> list[list[float]]:
    """The trend cell of a one-row board, as ink fractions [row][column] of `colour`."""
    image = leaderboard_image("Board", [Row(4, "Ann", 1500, 50, 10, 4, trend)])
    channel = max(range(3), key=lambda c: abs(colour[c] - lb.BACKGROUND[c]))
    ground, full = lb.BACKGROUND[channel], colour[channel]
    cells: list[list[float]] = []
    for y in range(TOP, BOTTOM):
        line: list[float] = []
        for x in range(LEFT, RIGHT):
            value = image.getpixel((x, y))
            assert isinstance(value, tuple)
            line.append((value[channel] - ground) / (full - ground))
        cells.append(line)
    return cells


def inked_columns(cells: list[list[float]]) -> list[int]:
    return [x for x in range(WIDTH) if any(row[x] for row in cells)]


def inked_rows(cells: list[list[float]]) -> list[int]:
    return [y for y in range(HEIGHT) if any(cells[y])]


def column_centre(cells: list[list[float]], columns: range) -> float:
    """The height (pixel centres at .5) of the ink's centre in those columns."""
    weights = [(y + 0.5, cells[y][x]) for x in columns for y in range(HEIGHT)]
    total = sum(w for _, w in weights)
    assert total > 0
    return sum(y * w for y, w in weights) / total


def test_a_level_trend_is_a_thin_line_across_the_middle_of_its_cell() -> None:
    cells = ink((1500, 1500, 1500), lb.MUTED)
    assert inked_columns(cells) == list(range(DOT, WIDTH))  # to the end dot on the right edge
    middle = WIDTH // 2
    thickness = sum(cells[y][middle] for y in range(HEIGHT))
    assert abs(thickness - 2.5) <= 0.2
    assert abs(column_centre(cells, range(middle, middle + 1)) - HEIGHT / 2) <= 0.5
    # nothing drawn off the line and its dot: the row's background, to the last bit
    assert inked_rows(cells) == list(range(HEIGHT // 2 - DOT, HEIGHT // 2 + DOT + 1))


def test_a_single_rating_is_a_dot_alone_at_the_right_end() -> None:
    cells = ink((1500,), lb.MUTED)
    assert inked_columns(cells) == list(range(WIDTH - 2 * DOT, WIDTH))
    assert inked_rows(cells) == list(range(HEIGHT // 2 - DOT, HEIGHT // 2 + DOT + 1))


def test_a_rise_ends_under_the_top_and_a_fall_above_the_bottom() -> None:
    last = range(WIDTH - 2, WIDTH)  # only the end dot reaches these columns
    middle = range(WIDTH // 2, WIDTH // 2 + 1)
    rise = ink((1000, 2000), lb.UP)
    assert inked_columns(rise) == list(range(DOT - 1, WIDTH))
    assert abs(column_centre(rise, last) - PAD) <= 0.5
    assert abs(column_centre(rise, middle) - HEIGHT / 2) <= 0.5  # halfway up, halfway across
    fall = ink((2000, 1000), lb.DOWN)
    assert abs(column_centre(fall, last) - (HEIGHT - PAD)) <= 0.5
    assert abs(column_centre(fall, middle) - HEIGHT / 2) <= 0.5


def test_a_peak_is_rounded_not_notched() -> None:
    """Where the line turns, its two strokes are joined by a round cap: the ink over the peak
    rises and falls once across it, without a dent where the strokes meet."""
    cells = ink((1000, 2000, 1000), lb.MUTED)
    top = inked_rows(cells)[0]
    over = [value for value in cells[top] if value]
    highest = over.index(max(over))
    assert over[: highest + 1] == sorted(over[: highest + 1])
    assert over[highest:] == sorted(over[highest:], reverse=True)
