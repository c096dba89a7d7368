"""Links to a table's web page, for the replies that carry one: the table's (the deal,
`/fc board`), and each player's personal one in their private turn messages.

Only when the pages are served somewhere a player can reach (`Settings.web_url`), and
personal links only when they can be signed (`Settings.web_secret`): a link to a page nobody
can open would be noise.
"""

from __future__ import annotations

from urllib.parse import quote

from ..exchange.replies import Message
from ..games import GameInfo
from ..links.startapp import start_param
from ..links.tokens import SeatToken, sign
from ..records.table import Table
from ..store import Channel
from ..text.i18n import tr
from .context import Context, Loaded


def link(base: str, channel: Channel, game_id: str) -> str:
    """The table's page: `<base>/t/<platform>/<channel>/<game id>`."""
    parts = (channel.platform, channel.channel_id, game_id)
    return base.rstrip("/") + "/t/" + "/".join(quote(p, safe="") for p in parts)


def replay_link(ctx: Context, channel: Channel, game_id: str) -> str:
    """A kept game's replay page, or "" when the pages are not served."""
    base = ctx.settings.web_url
    if base is None:
        return ""
    parts = (channel.platform, channel.channel_id, game_id)
    return base.rstrip("/") + "/r/" + "/".join(quote(p, safe="") for p in parts)


def live_line(ctx: Context, lang: str, channel: Channel, game_id: str) -> str:
    """The table's link in words, or "" when the pages are not served. A Telegram table's
    link is the bot's Mini App's direct link when there is one: it opens the page inside
    Telegram, which tells the page who opened it."""
    base, mini_app = ctx.settings.web_url, ctx.settings.telegram_mini_app
    if base is None:
        return ""
    if mini_app is not None and channel.platform == "telegram":
        made = f"{mini_app.rstrip('/')}?startapp={start_param(channel, game_id)}"
    else:
        made = link(base, channel, game_id)
    return tr(lang, "The table, live: {link}", link=made)


def seat_token(
    ctx: Context, channel: Channel, game_id: str, table: Table | None, user_id: str
) -> str:
    """A token that acts for `user_id`'s seat at the table until it expires, or until they end
    their links (`Seat.link`); with no seat there, one that opens none. "" without a secret."""
    secret = ctx.settings.web_secret
    if secret is None:
        return ""
    seat = None if table is None else table.seat_of(user_id)
    key = "" if seat is None else seat.link
    expires = ctx.clock() + ctx.settings.web_link_ttl.total_seconds()
    token = SeatToken(channel.platform, channel.channel_id, game_id, user_id, expires, key)
    return sign(secret.get_secret_value().encode(), token)


def seat_link(ctx: Context, loaded: Loaded, user_id: str) -> str:
    """`user_id`'s personal link to the table (it acts for their seat until it expires), or
    "" when none can be made."""
    base = ctx.settings.web_url
    if base is None:
        return ""
    game_id = loaded.record.game_id
    signed = seat_token(ctx, loaded.channel, game_id, loaded.table, user_id)
    if not signed:
        return ""
    return f"{link(base, loaded.channel, game_id)}#seat={signed}"


def with_seat_link(
    ctx: Context, lang: str, loaded: Loaded, user_id: str, message: Message
) -> Message:
    """A private turn message with its reader's personal link to the table, if any."""
    made = seat_link(ctx, loaded, user_id)
    if made:
        message.web, message.web_label = made, tr(lang, "Play on the board")
    return message


def _under(ctx: Context, prefix: str, *parts: str) -> str:
    base = ctx.settings.web_url
    if base is None:
        return ""
    return base.rstrip("/") + prefix + "/".join(quote(p, safe="") for p in parts)


def board_link(ctx: Context, game: GameInfo, community: str | None) -> str:
    """A game's leaderboard page: `/top/<game>` for everywhere, `/top/<game>/<platform>/<id>`
    for one server or group (`community` as the ratings name it, `<platform>:<id>`); "" when
    the pages are not served."""
    return _under(ctx, "/top/", game.key, *(community.split(":", 1) if community else ()))


def player_link(ctx: Context, key: str) -> str:
    """A rated player's page, `/p/<platform>/<user id>` (a computer level: `/p/ai/<level>`)."""
    return _under(ctx, "/p/", *key.split(":", 1))


def standing_line(ctx: Context, lang: str, made: str) -> str:
    """A board's or a player's page in words, or "" when there is none."""
    return tr(lang, "On the web: {link}", link=made) if made else ""


def with_line(text: str, line: str) -> str:
    return f"{text}\n{line}" if line else text
