"""What every handler of the web adapter shares: the app's service, hub and limits, and
reading a request's table and language."""

from __future__ import annotations

from urllib.parse import quote

from aiohttp import web

from ..i18n import LANGUAGES
from ..service import GameService
from ..store import Channel
from .hub import Hub
from .limits import Limits

SERVICE: web.AppKey[GameService] = web.AppKey("service", GameService)
HUB: web.AppKey[Hub] = web.AppKey("hub", Hub)
LIMITS: web.AppKey[tuple[Limits, Limits]] = web.AppKey("limits", tuple)


def language(request: web.Request, default: str) -> str:
    """The browser's first language the bot speaks, for pages that belong to no chat."""
    for part in request.headers.get("Accept-Language", "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return default


def named(request: web.Request, prefix: str) -> tuple[Channel, str, str]:
    """The table (or kept game) a request names, and its page's address."""
    info = request.match_info
    path = prefix + "/".join(quote(info[k], safe="") for k in ("platform", "channel", "game"))
    return Channel(info["platform"], info["channel"]), info["game"], path


def table_of(request: web.Request) -> tuple[Channel, str, str]:
    return named(request, "/t/")
