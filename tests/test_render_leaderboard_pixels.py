"""The leaderboard drawn pixel for pixel where its layout says.

Each board here is compared, whole, with one painted from the layout alone: the picture's height
for its rows, the title band, the column edges of `COLUMNS`, each text's size, weight, colour and
alignment, the rule under the headings, the stripe of every other row, the podium's discs. The
painting uses only the shared text drawing of `render.fonts` (`stamp`, `fit`), so a text moved by
a pixel, drawn in another size or weight, cut at another width, or a stripe, disc or rule out of
place makes the two pictures differ. Trend lines have tests of their own (empty here).
"""

from __future__ import annotations

from PIL import Image, ImageChops, ImageDraw

from render import leaderboard as lb
from render.fonts import fit, stamp
from render.leaderboard import Column, Row, leaderboard_image, leaderboard_png
from render.texts import Translate
from tests.pixels import decode

# A name whose cut with an ellipsis lands on the last pixel of the name column (300 pixels).
LAST_PIXEL_NAME = "Maria Kai Lili Kai Kai Isolde Jo Isolde"
BOARD = [
    Row(1, "Ann", 1712, 41, 30, 19, ()),
    Row(2, LAST_PIXEL_NAME, 1650, 38, 27, 15, ()),
    Row(2, "Bea", 1650, 52, 12, 6, ()),  # tied with the row above: the same place, the same disc
    Row(3, "Wolfgang Amadeus Mozart von Salzburg und Wien " * 3, 1603, 7, 140, 88, ()),
    Row(5, "Cy", 1580, 60, 9, 1, ()),
    Row(0, "Dee", 1499, 110, 2, 0, ()),  # unranked: a dash
    Row(-1, "Eve", 1450, 120, 1, 1, ()),
]
LONG_FRENCH = {
    "Rank": "Classement",
    "Player": "Joueuse ou joueur de la Cité interdite",
    "Rating": "Classement Elo",
    "Games": "Parties jouées",
    "Wins": "Victoires remportées",
    "Trend": "Tendance des dernières parties",
    "No rated games yet": "Aucune partie classée pour l'instant " * 4,
}
NAME_WIDTH = lb.COLUMNS["player"][1] - lb.COLUMNS["player"][0] - 8  # a little gap before ratings


def french(message: str) -> str:
    return LONG_FRENCH.get(message, message)


def english(message: str) -> str:
    return message


def painted_title(height: int, title: str, subtitle: str) -> Image.Image:
    """The picture's background with its title band: the title bold 28 on the band's middle
    line, or 12 pixels above it over a subtitle 18 pixels below it, both cut to the margins."""
    image = Image.new("RGB", (lb.WIDTH, height), lb.BACKGROUND)
    ImageDraw.Draw(image).rectangle((0, 0, lb.WIDTH - 1, lb.TITLE_H - 1), fill=lb.BAND)
    width = lb.WIDTH - 2 * lb.MARGIN
    middle = lb.TITLE_H // 2
    title_y = middle - 12 if subtitle else middle
    title = fit(title, 28, width, True)
    stamp(image, (lb.MARGIN, title_y), title, 28, lb.TEXT, bold=True, anchor="lm")
    if subtitle:
        subtitle = fit(subtitle, 15, width)
        stamp(image, (lb.MARGIN, middle + 18), subtitle, 15, lb.MUTED, anchor="lm")
    return image


def painted_board(title: str, subtitle: str, rows: list[Row], tr: Translate) -> Image.Image:
    """A board as its layout describes it, rows without trends."""
    height = lb.TITLE_H + lb.HEAD_H + len(rows) * lb.ROW_H + lb.MARGIN // 2
    image = painted_title(height, title, subtitle)
    draw = ImageDraw.Draw(image)
    heading_y = lb.TITLE_H + lb.HEAD_H // 2
    headings: tuple[tuple[Column, str, str], ...] = (
        ("rank", "Rank", "m"),
        ("player", "Player", "l"),
        ("rating", "Rating", "r"),
        ("games", "Games", "r"),
        ("wins", "Wins", "r"),
        ("trend", "Trend", "l"),
    )
    for column, label, align in headings:
        left, right = lb.COLUMNS[column]
        text = fit(tr(label), 13, right - left, True)
        x = {"l": left, "m": (left + right) // 2, "r": right}[align]
        stamp(image, (x, heading_y), text, 13, lb.MUTED, bold=True, anchor=align + "m")
    rule = lb.TITLE_H + lb.HEAD_H - 1  # the last line of the headings' band
    draw.line((lb.MARGIN, rule, lb.WIDTH - lb.MARGIN, rule), fill=lb.RULE)
    for index, row in enumerate(rows):
        top = lb.TITLE_H + lb.HEAD_H + index * lb.ROW_H
        middle = top + lb.ROW_H // 2
        if index in (1, 3, 5, 7):
            draw.rectangle((0, top, lb.WIDTH - 1, top + lb.ROW_H - 1), fill=lb.STRIPE)
        centre = sum(lb.COLUMNS["rank"]) // 2
        place = str(row.rank) if row.rank >= 1 else "–"
        if row.rank in (1, 2, 3):
            disc = (centre - 15, middle - 15, centre + 15, middle + 15)
            draw.ellipse(disc, fill=lb.MEDALS[row.rank])
            stamp(image, (centre, middle), place, 16, lb.INK, bold=True, anchor="mm")
        else:
            stamp(image, (centre, middle), place, 16, lb.MUTED, bold=True, anchor="mm")
        name = fit(row.name, 18, NAME_WIDTH, True)
        stamp(image, (lb.COLUMNS["player"][0], middle), name, 18, lb.TEXT, bold=True, anchor="lm")
        edge = lb.COLUMNS["rating"][1]
        stamp(image, (edge, middle), str(row.rating), 18, lb.TEXT, bold=True, anchor="rm")
        uncertainty = f"± {row.uncertainty}"
        stamp(image, (edge + 6, middle + 1), uncertainty, 14, lb.MUTED, anchor="lm")
        stamp(image, (lb.COLUMNS["games"][1], middle), str(row.games), 16, lb.TEXT, anchor="rm")
        stamp(image, (lb.COLUMNS["wins"][1], middle), str(row.wins), 16, lb.TEXT, anchor="rm")
    return image


def assert_same(drawn: Image.Image, painted: Image.Image) -> None:
    assert drawn.size == painted.size
    assert ImageChops.difference(drawn, painted).getbbox() is None


def test_a_board_is_drawn_where_its_layout_says() -> None:
    title = "Forbidden City: best players here"
    drawn = leaderboard_image(title, BOARD)
    assert_same(drawn, painted_board(title, "", BOARD, english))


def test_long_translated_headings_and_subtitle_are_cut_to_their_columns() -> None:
    title, subtitle = "Cité interdite", "Toutes les personnes qui ont joué ici " * 5
    drawn = leaderboard_image(title, BOARD[:4], tr=french, subtitle=subtitle)
    assert_same(drawn, painted_board(title, subtitle, BOARD[:4], french))


def test_a_name_is_cut_on_the_last_pixel_of_its_column() -> None:
    cut = fit(LAST_PIXEL_NAME, 18, NAME_WIDTH, True)
    assert cut != fit(LAST_PIXEL_NAME, 18, NAME_WIDTH - 1, True)  # a pixel less cuts more
    drawn = leaderboard_image("Board", BOARD[1:2])
    assert_same(drawn, painted_board("Board", "", BOARD[1:2], english))


def test_an_empty_board_says_so_in_the_middle_of_its_space() -> None:
    for tr in (english, french):
        drawn = leaderboard_image("Board", [], tr=tr, subtitle="Here")
        painted = painted_title(lb.TITLE_H + lb.EMPTY_H + lb.MARGIN // 2, "Board", "Here")
        text = fit(tr("No rated games yet"), 20, lb.WIDTH - 2 * lb.MARGIN)
        middle = (lb.WIDTH // 2, lb.TITLE_H + lb.EMPTY_H // 2)
        stamp(painted, middle, text, 20, lb.MUTED, anchor="mm")
        assert_same(drawn, painted)


def test_each_drawn_colour_is_one_colour_in_the_png() -> None:
    """Mapped to the palette without dithering: the edge of a letter or a disc is the same colour
    wherever it is, so a row does not speckle differently from its neighbours."""
    found = [Row(k + 1, f"Player {k + 1}", 1600 - 9 * k, 40 + k, 30 - k, 9, ()) for k in range(8)]
    drawn = leaderboard_image("Forbidden City", found, subtitle="Everyone").tobytes()
    png = decode(leaderboard_png("Forbidden City", found, subtitle="Everyone")).tobytes()
    assert len(drawn) == len(png)
    becomes: dict[bytes, set[bytes]] = {}
    for at in range(0, len(drawn), 3):
        becomes.setdefault(drawn[at : at + 3], set()).add(png[at : at + 3])
    assert all(len(colours) == 1 for colours in becomes.values())
