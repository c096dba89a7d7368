"""The web pages' HTML, from the templates in `templates/`: the table as it stands when asked
(which the page's script then keeps up to date), the replay, the standings, and the pages of
no table or of a launch. The templates escape every value they are given (names, places, the
game's words), so nothing from a chat reaches a page as markup but the game's drawings
(`_drawing`); and no page runs an inline script, so the strict policy of `server.SECURITY`
holds. The words are translated here, where `make messages` finds them."""

from __future__ import annotations

from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup

from ..games.sidebar import Piece, Sidebar
from ..service import Replayed, Standings, Watched
from ..text.i18n import tr


def _drawing(piece: object) -> Markup:
    """The one place a page takes markup as it is: a piece's drawing is an SVG document made
    by the game's art in render/, which escapes every text it puts in (its label, a card's
    letter; see bot/games/sidebar.py). Anything but a Piece is refused, so no other value
    can pass for a drawing."""
    if not isinstance(piece, Piece):
        raise TypeError(f"only a Piece has a drawing, not {type(piece).__name__}")
    return Markup(piece.drawing)


def _environment() -> Environment:
    """Templates that escape whatever they show and fail on a name they are not given (a
    typo raises, rather than leaving a blank), read once a process; without the `safe`
    filter, so a template cannot let a value through unescaped."""
    made = Environment(
        loader=FileSystemLoader(Path(__file__).parent / "templates"),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,
    )
    del made.filters["safe"]
    made.filters["drawing"] = _drawing
    return made


PAGES = _environment()


def _render(template: str, **values: object) -> str:
    return PAGES.get_template(template).render(**values)


def table_page(watched: Watched, paths: dict[str, str]) -> str:
    """The page of a table; `paths` has its own (`base`), its `events` and `board`
    addresses."""
    lang = watched.lang
    words = {
        "reconnecting": tr(lang, "Reconnecting…"),
        "alt": tr(lang, "The table"),
        "players": tr(lang, "Players"),
        "now": tr(lang, "Now"),
        "yours": tr(lang, "Your seat"),
        "moves": tr(lang, "Moves"),
        "view": tr(lang, "What you see"),
    }
    return _render(
        "table.html", lang=lang, title=watched.title, watched=watched, paths=paths, words=words
    )


def missing_page(lang: str) -> str:
    """What a link to no table shows (a wrong link, or a game whose archive is gone)."""
    text = tr(
        lang,
        "This link leads to no table: it is mistyped, or its game ended long ago. "
        "Ask for the table's link with /fc board in its chat.",
    )
    return _render("missing.html", lang=lang, title=tr(lang, "No such table"), text=text)


def opening_page(lang: str) -> str:
    """The Mini App's own page: its script finds the table the direct link named, then goes
    there."""
    return _render("opening.html", lang=lang, title=tr(lang, "Opening the table…"))


def activity_page(lang: str, client_id: str) -> str:
    """The Discord Activity's own page: its script signs the player in through Discord, then
    goes to the table of the channel the Activity was opened in."""
    title = tr(lang, "Opening the table…")
    return _render("activity.html", lang=lang, title=title, client_id=client_id)


def replay_page(replayed: Replayed, base: str) -> str:
    """A kept game to step through: its positions one at a time (buttons, a slider, the
    arrow keys), its seats and scores beside each, its actions, each a button that goes to
    the position after it. It opens on the deal, at its top, as a game is watched from its
    start."""
    lang = replayed.lang
    words = {
        "first": tr(lang, "Start"),
        "back": tr(lang, "Back"),
        "next": tr(lang, "Next"),
        "last": tr(lang, "End"),
        "slider": tr(lang, "Position"),
        "players": tr(lang, "Players"),
        "moves": tr(lang, "Moves"),
        "alt": tr(lang, "The table"),
        "start": tr(lang, "The deal"),
    }
    return _render(
        "replay.html",
        lang=lang,
        title=replayed.title,
        base=base,
        last=replayed.positions - 1,
        moves=replayed.moves,
        words=words,
        shown=_beside(replayed.sidebar),
    )


def _beside(sidebar: Sidebar) -> dict[str, object]:
    """A position's seats and facts, in the shape the sidebar's macros read a table in; no
    names stand in for its seats (`seats`), as a position's sidebar always has them."""
    return {"sidebar": sidebar, "seats": ()}


def replay_beside(sidebar: Sidebar) -> str:
    """What replay.js puts beside a position's board as it steps to it: its seats and facts,
    laid out as on the replay page itself."""
    return _render("beside.html", shown=_beside(sidebar))


def standing_page(lang: str, standings: Standings | None) -> str:
    """A leaderboard or a player's standing, as `/fc top` and `/fc stats` say it, as a
    table a phone shows whole (the chat's picture has more than a phone's width): a row a
    player (or a game), its trend a small line drawn in the page; then what the chat says
    that the table does not. None: a player with no rated game."""
    if standings is None:
        title = tr(lang, "No rated games yet for {name}.", name=tr(lang, "this player"))
        return _render("standing.html", lang=lang, title=title, standings=None, rows=())
    rows = [
        {"row": row, "spark": spark, "label": _trend_label(lang, row.trend)}
        for row, spark in zip(standings.rows, standings.sparks, strict=True)
    ]
    return _render(
        "standing.html", lang=lang, title=standings.title, standings=standings, rows=rows
    )


def _trend_label(lang: str, trend: tuple[int, ...]) -> str:
    """The trend line's words for a screen reader: its first rating and its last."""
    if not trend:
        return ""
    ratings = str(trend[0]) if len(trend) == 1 else f"{trend[0]} → {trend[-1]}"
    return tr(lang, "Trend: {ratings}", ratings=ratings)
