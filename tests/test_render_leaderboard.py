"""The leaderboard image as a chat shows it: rows, ratings, trend lines, headings, names."""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

from babel.messages.extract import extract_from_file
from PIL import Image, ImageChops

from render import leaderboard as lb
from render.leaderboard import MAX_ROWS, Row, cell_box, leaderboard_png
from render.texts import Translate
from tests.pixels import RGB, decode, near, pixel

TITLE = "Forbidden City: best players here"


def rows(n: int) -> list[Row]:
    return [
        Row(k + 1, f"Player {k + 1}", 1600 - 10 * k, 40 + k, 30 - k, 12 - k // 2, (1500, 1550))
        for k in range(n)
    ]


def board(found: list[Row], tr: Translate | None = None, subtitle: str = "") -> Image.Image:
    return decode(leaderboard_png(TITLE, found, tr=tr, subtitle=subtitle))


def colours(image: Image.Image, box: tuple[int, int, int, int]) -> list[RGB]:
    found = image.crop(box).getcolors(1 << 16) or []
    return [(c[0], c[1], c[2]) for _, c in found if isinstance(c, tuple)]


def changed(a: Image.Image, b: Image.Image) -> tuple[int, int, int, int] | None:
    assert a.size == b.size
    return ImageChops.difference(a, b).getbbox()


def inside(box: tuple[int, int, int, int], outer: tuple[int, int, int, int]) -> bool:
    return outer[0] <= box[0] and outer[1] <= box[1] and box[2] <= outer[2] and box[3] <= outer[3]


def test_a_small_palette_png_about_900_pixels_wide() -> None:
    png = leaderboard_png(TITLE, rows(MAX_ROWS))
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.mode == "P"
    assert 850 <= image.width <= 950
    assert len(png) < 80_000


def test_the_image_grows_with_rows_up_to_the_most_shown() -> None:
    heights = [board(rows(n)).height for n in (1, 2, 10, MAX_ROWS, MAX_ROWS + 5)]
    assert heights[0] < heights[1] < heights[2] < heights[3] == heights[4]


def test_a_rating_changes_its_row_only() -> None:
    found = rows(5)
    other = [*found[:2], replace(found[2], rating=1234), *found[3:]]
    diff = changed(board(found), board(other))
    assert diff is not None
    left, top, _, bottom = cell_box(2, "rating")
    assert inside(diff, (left, top, cell_box(2, "trend")[0], bottom))


def test_an_uncertainty_changes_the_rating_cell() -> None:
    found = rows(3)
    diff = changed(board(found), board([found[0], replace(found[1], uncertainty=99), found[2]]))
    assert diff is not None and inside(diff, cell_box(1, "rating"))


def trend_colours(trend: tuple[int, ...]) -> list[RGB]:
    image = board([Row(4, "Ann", 1500, 50, 10, 4, trend)])
    return colours(image, cell_box(0, "trend"))


def test_a_rising_trend_is_drawn_green() -> None:
    found = trend_colours((1400, 1380, 1450, 1500))
    assert sum(near(c, lb.UP, 10) for c in found) >= 1
    assert not any(near(c, lb.DOWN, 40) for c in found)


def test_a_falling_trend_is_drawn_red() -> None:
    found = trend_colours((1500, 1520, 1450, 1490))
    assert any(near(c, lb.DOWN, 10) for c in found)
    assert not any(near(c, lb.UP, 40) for c in found)


def test_a_trend_back_where_it_started_is_neither() -> None:
    found = trend_colours((1500, 1520, 1480, 1500))
    assert any(near(c, lb.MUTED, 10) for c in found)
    assert not any(near(c, lb.UP, 40) or near(c, lb.DOWN, 40) for c in found)


def test_a_trend_of_one_rating_is_a_dot_and_of_none_nothing() -> None:
    dot = trend_colours((1500,))
    empty = trend_colours(())
    assert len(empty) == 1  # the row's background only
    assert any(near(c, lb.MUTED, 10) for c in dot)


def test_the_trend_line_rises_left_to_right() -> None:
    image = board([Row(1, "Ann", 1500, 50, 10, 4, (1000, 2000))])
    left, top, right, bottom = cell_box(0, "trend")
    greens = [
        (x, y)
        for y in range(top, bottom)
        for x in range(left, right)
        if near(pixel(image, x, y), lb.UP, 10)
    ]
    first = min(greens)
    last = max(greens)
    assert last[1] < first[1]  # the right end is higher up


def test_the_podium_is_highlighted() -> None:
    image = board(rows(4))
    medals = []
    for k in range(4):
        left, top, right, bottom = cell_box(k, "rank")
        medals.append(pixel(image, (left + right) / 2 - 10, (top + bottom) / 2))
    assert [near(medals[k], lb.MEDALS[k + 1]) for k in range(3)] == [True] * 3
    assert not any(near(medals[3], colour) for colour in lb.MEDALS.values())


FAKE_FRENCH = {
    "Rank": "Rang",
    "Player": "Joueur",
    "Rating": "Classement",
    "Games": "Parties",
    "Wins": "Victoires",
    "Trend": "Tendance",
    "No rated games yet": "Aucune partie classée",
}


def test_headings_are_translated() -> None:
    english = board(rows(3))
    french = board(rows(3), tr=lambda m: FAKE_FRENCH.get(m, m))
    diff = changed(english, french)
    assert diff is not None
    assert diff[1] >= lb.TITLE_H and diff[3] <= cell_box(0, "rank")[1]  # the headings only


def test_a_players_own_board_heads_its_names_game() -> None:
    players = board(rows(2))
    games = decode(leaderboard_png(TITLE, rows(2), per_game=True))
    diff = changed(players, games)
    left, right = lb.COLUMNS["player"]
    assert diff is not None and inside(diff, (left, lb.TITLE_H, right, lb.TITLE_H + lb.HEAD_H))


def test_an_empty_board_says_so() -> None:
    empty = board([])
    one = board(rows(1))
    band = (0, lb.TITLE_H, empty.width, lb.TITLE_H + lb.EMPTY_H)
    assert any(near(c, lb.MUTED, 10) for c in colours(empty, band))  # the message's text
    assert colours(empty.crop(band), (0, 0, 300, lb.EMPTY_H)) == [lb.BACKGROUND]  # centred
    assert empty.crop((0, 0, 900, lb.TITLE_H)) == one.crop((0, 0, 900, lb.TITLE_H))
    assert empty.crop(band) != one.crop(band)
    french = board([], tr=lambda m: FAKE_FRENCH.get(m, m))
    diff = changed(empty, french)
    assert diff is not None and inside(diff, band)


def test_a_subtitle_is_drawn_under_the_title() -> None:
    plain, with_subtitle = board(rows(2)), board(rows(2), subtitle="Everyone who played here")
    diff = changed(plain, with_subtitle)
    assert diff is not None and diff[3] <= lb.TITLE_H


def test_names_in_any_script_are_drawn() -> None:
    names = ["محمد", "美玲", "Дарья", "שירה", "प्रिया", "Aiko 🌸", "ทักษิณ", "Computer (hard)"]
    found = [Row(k + 1, name, 1500, 50, 10, 4, ()) for k, name in enumerate(names)]
    image = board(found)
    nameless = board([replace(row, name="") for row in found])
    for k in range(len(names)):
        diff = changed(image.crop(cell_box(k, "player")), nameless.crop(cell_box(k, "player")))
        assert diff is not None, names[k]


def test_a_long_name_stays_in_its_column() -> None:
    found = rows(2)
    long = [replace(found[0], name="Ann " * 60), found[1]]
    diff = changed(board(found), board(long))
    assert diff is not None and inside(diff, cell_box(0, "player"))


def test_an_unranked_row_shows_a_dash() -> None:
    image = board([Row(0, "Ann", 1500, 50, 10, 4, ())])
    ranked = board([Row(7, "Ann", 1500, 50, 10, 4, ())])
    diff = changed(image, ranked)
    assert diff is not None and inside(diff, cell_box(0, "rank"))


def test_messages_are_what_pybabel_extracts() -> None:
    path = Path(lb.__file__)
    found = {message for _, message, _, _ in extract_from_file("python", path)}
    assert found == set(lb.MESSAGES)
