"""Every web page shows what it is given as text: a name, a place or a game's word made of
markup, of an attribute's quotes or of template syntax reaches the browser as the characters
typed, never as an element, an attribute or an evaluated expression, in every input of every
page. The game's drawings alone come as drawings. And a template that names a value it was not
given fails at once rather than showing a blank."""

from __future__ import annotations

from collections.abc import Callable
from html.parser import HTMLParser

import jinja2
import pytest

from bot.games.sidebar import Fact, Piece, SeatRow, Sidebar
from bot.service import Replayed, Standings, Watched
from bot.web import page
from render.forbidden_city.svg import marker_svg
from render.leaderboard import Row

HOSTILE = (
    "<img src=x onerror=alert(1)>",
    '"><script>alert(1)</script>',
    "' autofocus onfocus='alert(1)",
    "{{7*7}}",
    "{% print 7*7 %}",
    "</title></head><body>&amp;",
)


class Seen(HTMLParser):
    """A page as a browser builds it: its elements with their attributes' names, and every
    text and attribute value a user or a screen reader is given."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, tuple[str, ...]]] = []
        self.said: list[str] = []
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, tuple(sorted(name for name, _ in attrs))))
        self.said.extend(value for _, value in attrs if value)

    def handle_data(self, data: str) -> None:
        self.said.append(data)


def _pieces(value: str) -> tuple[Piece, ...]:
    return (Piece(marker_svg("red", value), value),)


def _table(value: str) -> str:
    """A dealt table whose every word is `value`: title, place, status, log, each seat's
    name, score and tag, a fact's label and text, the drawings' names, the page's paths."""
    row = SeatRow(value, value, _pieces(value)[0], value, True, _pieces(value))
    sidebar = Sidebar((row, SeatRow(value, value)), (Fact(value, value, _pieces(value)),))
    watched = Watched(
        title=value, lang=value, version=3, started=True, over=False, text=value,
        seats=(value,), place=value, drawing="svg", log=(value,), sidebar=sidebar,
    )  # fmt: skip
    return page.table_page(watched, {"base": value, "events": value, "board": value})


def _waiting(value: str) -> str:
    """A table before its deal: the seats are names alone."""
    watched = Watched(value, "en", 0, False, False, value, (value, value), value, "svg")
    return page.table_page(watched, {"base": value, "events": value, "board": ""})


def _board(value: str, per_game: bool = False, rows: tuple[Row, ...] | None = None) -> Standings:
    """A board whose every word is `value`: its language, title, subtitle, each row's name
    (ranked with a medal, without one, unranked; with a trend line, a lone rating, none),
    the chat's lines, the note and the details under the table."""
    if rows is None:
        rows = (
            Row(1, value, 1500, 80, 3, 2, (1400, 1500)),
            Row(4, value, 1400, 90, 2, 1, (1400,)),
            Row(0, value, 1300, 99, 1, 0, ()),
        )
    return Standings(
        value, value, value, per_game, rows, (value, value), value, (value,) if per_game else ()
    )


PAGES: dict[str, Callable[[str], str]] = {
    "table": _table,
    "table before the deal": _waiting,
    "no such table": page.missing_page,
    "Mini App": page.opening_page,
    "Activity": lambda value: page.activity_page(value, value),
    "replay": lambda value: page.replay_page(Replayed(value, value, (value, value), 3), value),
    "leaderboard": lambda value: page.standing_page(value, _board(value)),
    "player's standing": lambda value: page.standing_page(value, _board(value, per_game=True)),
    "empty leaderboard": lambda value: page.standing_page(value, _board(value, rows=())),
    "player without a standing": lambda value: page.standing_page(value, None),
}


@pytest.mark.parametrize("hostile", HOSTILE)
@pytest.mark.parametrize("name", PAGES)
def test_a_hostile_value_is_shown_as_the_text_it_is_on_every_page(name: str, hostile: str) -> None:
    plain = Seen(PAGES[name]("Ann"))
    seen = Seen(PAGES[name](hostile))
    # The same elements with the same attributes as for a plain name: none made by the value.
    assert seen.elements == plain.elements
    # The value is there as typed, as often as the plain name is, and nothing evaluated it.
    assert seen.said.count(hostile) == plain.said.count("Ann") > 0
    assert "49" not in "".join(seen.said)


def test_the_drawings_come_as_drawings_with_their_names_escaped_by_the_art() -> None:
    hostile = HOSTILE[0]
    seen = Seen(_table(hostile))
    svgs = [attrs for tag, attrs in seen.elements if tag == "svg"]
    # The seat's marker, its piece, the second seat has none, the fact's piece.
    assert len(svgs) == 3 and seen.said.count(hostile) >= 3 * 2  # each drawing's label, title
    assert ("img", ("onerror", "src")) not in seen.elements


def test_only_a_piece_passes_as_a_drawing_and_no_template_can_unescape() -> None:
    drawing = page.PAGES.from_string("{{ piece|drawing }}")
    with pytest.raises(TypeError, match="only a Piece"):
        drawing.render(piece=HOSTILE[0])
    with pytest.raises(jinja2.TemplateAssertionError, match="safe"):
        page.PAGES.from_string("{{ name|safe }}")
    shown = page.PAGES.from_string("<p>{{ name }}</p>").render(name=HOSTILE[1])
    assert Seen(shown).elements == [("p", ())]


def test_a_name_mistyped_in_a_template_fails_instead_of_showing_a_blank() -> None:
    watched = Watched("Forbidden City", "en", 0, False, False, "", (), "", "svg")
    with pytest.raises(jinja2.UndefinedError, match="titel"):
        page.PAGES.from_string("<h1>{{ watched.titel }}</h1>").render(watched=watched)
    with pytest.raises(jinja2.UndefinedError, match="words"):
        page.PAGES.get_template("table.html").render(
            lang="en", title="", watched=watched, paths={"base": "", "events": "", "board": ""}
        )
    with pytest.raises(jinja2.UndefinedError, match="slider"):
        page.PAGES.get_template("replay.html").render(
            lang="en", title="", base="", last=0, moves=(), words={}
        )
