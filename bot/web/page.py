"""The table page's HTML: the table as it stands when asked, which the page's script then
keeps up to date. Every text from a table (names, places, the game's words) is escaped here,
and the page runs no inline script, so the strict policy of `server.SECURITY` holds."""

from __future__ import annotations

import base64
from html import escape

from ..i18n import tr
from ..service import Replayed, Watched


def _head(lang: str, title: str, script: str = "") -> str:
    """Every page's start: its language, its title (escaped here), style, icon, script."""
    module = f'<script type="module" src="/static/{script}"></script>\n' if script else ""
    return f"""<!doctype html>
<html lang="{escape(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>{escape(title)}</title>
<link rel="stylesheet" href="/static/table.css">
<link rel="icon" href="/static/icon.svg">
{module}</head>
"""


def table_page(watched: Watched, paths: dict[str, str]) -> str:
    """The page of a table; `paths` has its own (`base`), its `events` and `board`
    addresses."""
    lang = watched.lang
    seats = "".join(f"<li>{escape(name)}</li>" for name in watched.seats)
    reconnecting = escape(tr(lang, "Reconnecting…"))
    alt = escape(tr(lang, "The table"))
    players = escape(tr(lang, "Players"))
    now = escape(tr(lang, "Now"))
    yours = escape(tr(lang, "Your seat"))
    moves = escape(tr(lang, "Moves"))
    story = "".join(f"<li>{escape(line)}</li>" for line in watched.log)
    view = escape(tr(lang, "What you see"))
    unseen = "" if paths["board"] else " hidden"
    return (
        _head(lang, watched.title, "table.js")
        + f"""<body>
<main id="table" data-base="{escape(paths["base"])}" data-events="{escape(paths["events"])}">
<header>
<h1 id="title">{escape(watched.title)}</h1>
<p id="place">{escape(watched.place)}</p>
</header>
<p id="connection" role="status" hidden>{reconnecting}</p>
<figure id="figure" data-board="{escape(paths["board"])}" data-alt="{alt}"{unseen}>
<div id="stage"><div id="spots"></div></div>
</figure>
<section id="mine" aria-labelledby="yours" hidden>
<h2 id="yours">{yours}</h2>
<div id="tray"></div>
<div id="said" role="alert"></div>
<div id="choices"></div>
<template id="message">
<div class="message"><p class="text"></p><img class="view" alt="{view}">
<div class="buttons"></div></div>
</template>
</section>
<section aria-labelledby="players">
<h2 id="players">{players}</h2>
<ol id="seats">{seats}</ol>
</section>
<section aria-labelledby="news">
<h2 id="news">{now}</h2>
<p id="status" aria-live="polite">{escape(watched.text)}</p>
</section>
<section aria-labelledby="told">
<h2 id="told">{moves}</h2>
<ol id="story">{story}</ol>
</section>
</main>
</body>
</html>
"""
    )


def missing_page(lang: str) -> str:
    """What a link to no table shows (a wrong link, or a game whose archive is gone)."""
    title = tr(lang, "No such table")
    text = tr(
        lang,
        "This link leads to no table: it is mistyped, or its game ended long ago. "
        "Ask for the table's link with /fc board in its chat.",
    )
    return (
        _head(lang, title)
        + f"""<body>
<main>
<h1>{escape(title)}</h1>
<p>{escape(text)}</p>
</main>
</body>
</html>
"""
    )


def opening_page(lang: str) -> str:
    """The Mini App's own page: its script finds the table the direct link named, then goes
    there."""
    title = tr(lang, "Opening the table…")
    return (
        _head(lang, title, "opening.js")
        + f"""<body>
<main id="opening">
<h1>{escape(title)}</h1>
<p id="said" role="alert"></p>
</main>
</body>
</html>
"""
    )


def activity_page(lang: str, client_id: str) -> str:
    """The Discord Activity's own page: its script signs the player in through Discord, then
    goes to the table of the channel the Activity was opened in."""
    title = tr(lang, "Opening the table…")
    return (
        _head(lang, title, "activity.js")
        + f"""<body>
<main id="activity" data-client="{escape(client_id)}">
<h1>{escape(title)}</h1>
<p id="said" role="alert"></p>
</main>
</body>
</html>
"""
    )


def replay_page(replayed: Replayed, base: str) -> str:
    """A kept game to step through: its positions one at a time (buttons, a slider, the
    arrow keys), its actions beside them, each a button that goes to the position after it.
    It opens on the deal, at its top, as a game is watched from its start."""
    lang = replayed.lang
    last = replayed.positions - 1
    words = {
        "first": tr(lang, "Start"),
        "back": tr(lang, "Back"),
        "next": tr(lang, "Next"),
        "last": tr(lang, "End"),
        "slider": tr(lang, "Position"),
        "moves": tr(lang, "Moves"),
        "alt": tr(lang, "The table"),
        "start": tr(lang, "The deal"),
    }
    moves = "".join(
        f'<li><button type="button" data-step="{n}">{escape(move)}</button></li>'
        for n, move in enumerate(replayed.moves, start=1)
    )
    w = {key: escape(value) for key, value in words.items()}
    return (
        _head(lang, replayed.title, "replay.js")
        + f"""<body>
<main id="replay" data-base="{escape(base)}" data-last="{last}">
<header>
<h1>{escape(replayed.title)}</h1>
</header>
<div id="controls" role="group" aria-label="{w["slider"]}">
<button type="button" id="first">« {w["first"]}</button>
<button type="button" id="back">◀ {w["back"]}</button>
<input type="range" id="slider" min="0" max="{last}" value="0" aria-label="{w["slider"]}">
<button type="button" id="next">{w["next"]} ▶</button>
<button type="button" id="last">{w["last"]} »</button>
<output id="where" for="slider">0 / {last}</output>
</div>
<figure>
<img id="frame" src="{escape(base)}/frame/0.png" alt="{w["alt"]}">
</figure>
<section aria-labelledby="moves">
<h2 id="moves">{w["moves"]}</h2>
<ol id="log" start="0">
<li><button type="button" data-step="0">{w["start"]}</button></li>{moves}
</ol>
</section>
</main>
</body>
</html>
"""
    )


def standing_page(lang: str, text: str, image: bytes | None) -> str:
    """A leaderboard or a player's standing, as `/fc top` and `/fc stats` show it: its
    picture (with the ratings' trend), then its words, one line a paragraph, the first as
    the title."""
    title, *lines = text.split("\n") or [""]
    picture = ""
    if image is not None:
        source = "data:image/png;base64," + base64.b64encode(image).decode()
        picture = f'<figure><img id="standing" src="{source}" alt="{escape(title)}"></figure>\n'
    said = "".join(f"<p>{escape(line)}</p>\n" for line in lines)
    return (
        _head(lang, title)
        + f"""<body>
<main id="standings">
<h1>{escape(title)}</h1>
{picture}<section id="lines">
{said}</section>
</main>
</body>
</html>
"""
    )
