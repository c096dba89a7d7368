"""What every handler of the web adapter shares: the app's service, hub and limits, and
reading a request's table, address, language and JSON body; refusals in words."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from typing import NoReturn
from urllib.parse import quote

from aiohttp import web

from ..service import GameService
from ..store import Channel
from ..text.i18n import LANGUAGES, N_, tr
from .capacity import Streams
from .hub import Hub
from .limits import Limits, address

SERVICE: web.AppKey[GameService] = web.AppKey("service", GameService)
HUB: web.AppKey[Hub] = web.AppKey("hub", Hub)
LIMITS: web.AppKey[tuple[Limits, Limits]] = web.AppKey("limits", tuple)
# Launches traded at Discord (each costs an outbound call with the client secret): per address,
# and for the whole process.
LAUNCHES: web.AppKey[tuple[Limits, Limits]] = web.AppKey("launches", tuple)
STREAMS: web.AppKey[Streams] = web.AppKey("streams", Streams)
MAX_BODY = 64 * 1024  # a JSON body's bytes: a press or a launch is a few hundred


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


def client(request: web.Request) -> str:
    """The request's client address, through the proxies the settings trust alone."""
    return address(request, request.app[SERVICE].settings.trusted_proxies)


def refuse(
    request: web.Request,
    error: Callable[..., web.HTTPError],
    text: str,
    headers: dict[str, str] | None = None,
) -> NoReturn:
    """A JSON refusal, `{"error": <text in the browser's language>}`, with `error`'s status
    (an HTTP error class, or one with its arguments bound)."""
    lang = language(request, request.app[SERVICE].ctx.default_language)
    said = json.dumps({"error": tr(lang, text)}, ensure_ascii=False)
    raise error(text=said, content_type="application/json", headers=headers)


async def body(request: web.Request) -> object:
    """A request's JSON body: 415 if it is not sent as JSON (a form or text another site's
    page could post), 413 if over `MAX_BODY`, 400 for anything that is not JSON or is nested
    past what the parser follows."""
    if request.content_type != "application/json":
        refuse(request, web.HTTPUnsupportedMediaType, N_("A JSON body is expected."))
    raw = await request.read()  # over the app's client_max_size: 413 already
    if len(raw) > MAX_BODY:
        too_large = partial(web.HTTPRequestEntityTooLarge, MAX_BODY, len(raw))
        refuse(request, too_large, N_("That request is too large."))
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        refuse(request, web.HTTPBadRequest, N_("A JSON body is expected."))
