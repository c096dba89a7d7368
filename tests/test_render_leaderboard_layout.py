"""The leaderboard's layout as a chat shows it: each row's cells side by side without
overlapping, inside the picture; the title on a band of its own above the rows; a board asked
for with nothing more being everyone's board (names headed Player, nothing under the title)."""

from __future__ import annotations

from itertools import combinations

from PIL import ImageChops

from render import leaderboard as lb
from render.leaderboard import Column, Row, cell_box, leaderboard_image, leaderboard_png
from tests.pixels import decode, near, pixel
from tests.test_render_leaderboard import TITLE, rows

COLUMNS: tuple[Column, ...] = ("rank", "player", "rating", "games", "wins", "trend")


def test_a_rows_cells_lie_side_by_side_inside_the_picture() -> None:
    image = leaderboard_image(TITLE, rows(3))
    for index in range(3):
        boxes = [cell_box(index, column) for column in COLUMNS]
        for (left, _, right, _), (other_left, _, other_right, _) in combinations(boxes, 2):
            assert right <= other_left or other_right <= left  # no two cells overlap
        assert all(0 <= box[0] < box[2] <= image.width for box in boxes)
        assert all(box[3] <= image.height for box in boxes)


def test_the_title_sits_on_a_band_of_its_own() -> None:
    image = decode(leaderboard_png(TITLE, rows(1)))
    band = pixel(image, image.width - 4, 4)
    below = pixel(image, image.width - 4, image.height - 4)
    assert near(band, lb.BAND, 4) and near(below, lb.BACKGROUND, 4)
    assert not near(band, below, 4)
    for x in (0, image.width - 1):  # the band spans the whole width, to the last pixel
        assert near(pixel(image, x, 0), lb.BAND, 4)
        assert near(pixel(image, x, lb.TITLE_H - 1), lb.BAND, 4)
        assert near(pixel(image, x, lb.TITLE_H), lb.BACKGROUND, 4)  # and ends there


def test_a_board_asked_for_plainly_is_everyones_without_a_subtitle() -> None:
    found: list[Row] = rows(2)
    plain = leaderboard_png(TITLE, found)
    assert plain == leaderboard_png(TITLE, found, subtitle="", per_game=False)
    assert plain != leaderboard_png(TITLE, found, per_game=True)
    plain_image = leaderboard_image(TITLE, found)
    assert plain_image.tobytes() == leaderboard_image(TITLE, found, subtitle="").tobytes()
    assert plain_image.tobytes() != leaderboard_image(TITLE, found, per_game=True).tobytes()


def ink(title: str, subtitle: str, under: str = "") -> tuple[int, int, int, int] | None:
    """Where the title band differs from one with no title and the subtitle `under`."""
    band = (0, 0, lb.WIDTH, lb.TITLE_H)
    drawn = leaderboard_image(title, rows(1), subtitle=subtitle).crop(band)
    bare = leaderboard_image("", rows(1), subtitle=under).crop(band)
    return ImageChops.difference(drawn, bare).getbbox()


def test_a_long_title_is_cut_short_inside_the_margins() -> None:
    found = ink("Forbidden City " * 20, "")
    assert found is not None
    left, _, right, _ = found
    assert left >= lb.MARGIN and right <= lb.WIDTH - lb.MARGIN


def test_the_title_stands_above_its_subtitle() -> None:
    words = "Everyone who played here"
    title = ink("Forbidden City", words, under=words)
    subtitle = ink("", words)
    assert title is not None and subtitle is not None
    assert title[3] <= subtitle[1]  # the title's lowest ink above the subtitle's highest


def test_a_title_alone_stands_in_the_middle_of_its_band() -> None:
    found = ink("Forbidden City", "")
    assert found is not None
    _, top, _, bottom = found
    assert abs(top - (lb.TITLE_H - bottom)) <= 10


def test_a_long_title_is_cut_within_a_letter_of_the_margin() -> None:
    found = ink("Forbidden City " * 20, "")
    assert found is not None
    assert found[2] >= lb.WIDTH - lb.MARGIN - 20  # the band's width is used, not less
