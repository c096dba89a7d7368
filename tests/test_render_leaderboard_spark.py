"""The page's trend line (`spark`) is laid out by the picture's own `spark_points`, in the
page's box: the first rating at the left, the last at the right with its dot, the highest
at the top margin and the lowest at the bottom one, a level line in the middle; one rating
is its dot alone, none is nothing; and its direction is the picture's colour."""

from __future__ import annotations

from render.leaderboard import (
    SPARK_SVG,
    SPARK_SVG_DOT,
    SPARK_SVG_PAD,
    spark,
    spark_points,
    trend_direction,
)


def _points(text: str) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in (p.split(",") for p in text.split())]


def test_a_rising_line_spans_its_box_between_its_margins() -> None:
    width, height = SPARK_SVG
    shown = spark((1480, 1450, 1523))
    assert shown is not None and shown.direction == "up" and shown.box == SPARK_SVG
    points = _points(shown.points)
    assert [x for x, _ in points] == [SPARK_SVG_DOT, width / 2, width - SPARK_SVG_DOT]
    assert [y for _, y in points] == [
        round(height - SPARK_SVG_PAD - (height - 2 * SPARK_SVG_PAD) * 30 / 73, 1),
        height - SPARK_SVG_PAD,  # the lowest
        SPARK_SVG_PAD,  # the highest
    ]
    assert shown.end == points[-1] and shown.dot == SPARK_SVG_DOT


def test_the_picture_and_the_page_lay_the_line_out_alike() -> None:
    """The same ratings at the picture's size and the page's: the same shape, scaled."""
    trend = (1500, 1420, 1610, 1580)
    big = spark_points(trend, 140 * 4, 44 * 4, 9 * 4, 3 * 4)
    small = spark_points(trend, 140, 44, 9, 3)
    assert [(x * 4, y * 4) for x, y in small] == big


def test_one_rating_is_a_dot_and_none_is_nothing() -> None:
    width, height = SPARK_SVG
    alone = spark((1500,))
    assert alone is not None and alone.points == "" and alone.direction == "flat"
    assert alone.end == (width - SPARK_SVG_DOT, height / 2)
    level = spark((1500, 1500, 1500))
    assert level is not None and {y for _, y in _points(level.points)} == {height / 2}
    assert spark(()) is None


def test_the_direction_is_the_last_rating_against_the_first() -> None:
    assert trend_direction((1500, 1600, 1400)) == "down"
    assert trend_direction((1500, 1400, 1500)) == "flat"
    assert trend_direction((1400, 1300, 1401)) == "up"
