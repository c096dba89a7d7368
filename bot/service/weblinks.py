"""Links to a table's web page, for the replies that carry one (the deal, `/fc board`).

Only when the pages are served somewhere a player can reach (`Settings.web_url`): a link to
a page nobody can open would be noise.
"""

from __future__ import annotations

from urllib.parse import quote

from ..i18n import tr
from ..store import Channel
from .context import Context


def link(base: str, channel: Channel, game_id: str) -> str:
    """The table's page: `<base>/t/<platform>/<channel>/<game id>`."""
    parts = (channel.platform, channel.channel_id, game_id)
    return base.rstrip("/") + "/t/" + "/".join(quote(p, safe="") for p in parts)


def live_line(ctx: Context, lang: str, channel: Channel, game_id: str) -> str:
    """ "Watch it live: <link>", or "" when the pages are not served."""
    base = ctx.settings.web_url
    if base is None:
        return ""
    return tr(lang, "The table, live: {link}", link=link(base, channel, game_id))


def with_line(text: str, line: str) -> str:
    return f"{text}\n{line}" if line else text
