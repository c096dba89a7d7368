"""Leaderboard and player pages: `/top/<game>` (everywhere), `/top/<game>/<platform>/<id>`
(one server or group) and `/p/<platform>/<user id>`, what `/fc top` and `/fc stats` say, as a
table, read from the ratings at each request (so `forget me` reaches them at once). Anyone
may open them, as anyone in the chat may ask for them; an address asking too often is told
to wait.

The page draws no picture: the chat's is 900 px wide, more than a phone's 390 CSS px, and
would cost each request its drawing (a 15-row board: 35 ms and 72 KB a page with it, 3 ms
and 8 KB without). The table fits any width, and its trend lines are SVG, sharp on any
screen."""

from __future__ import annotations

import time

from aiohttp import web

from ..service import Standings
from ..store import StoreUnavailable
from ..text.i18n import tr
from .common import LIMITS, SERVICE, client, language
from .page import missing_page, standing_page


def _lang(request: web.Request) -> str:
    lang = language(request, request.app[SERVICE].ctx.default_language)
    _, per_address = request.app[LIMITS]
    if not per_address.allow(client(request), time.monotonic()):
        raise web.HTTPTooManyRequests(text=tr(lang, "Too many requests at once: wait a moment."))
    return lang


def _shown(lang: str, standings: Standings | None) -> web.Response:
    return web.Response(
        text=standing_page(lang, standings),
        content_type="text/html",
        headers={"Cache-Control": "no-cache"},
    )


async def top(request: web.Request) -> web.Response:
    lang = _lang(request)
    info = request.match_info
    community = f"{info['platform']}:{info['id']}" if "platform" in info else None
    try:
        board = await request.app[SERVICE].leaderboard(info["game"], community, lang)
    except StoreUnavailable as error:
        raise web.HTTPServiceUnavailable() from error
    if board is None:
        raise web.HTTPNotFound(text=missing_page(lang), content_type="text/html")
    return _shown(lang, board)


async def player(request: web.Request) -> web.Response:
    lang = _lang(request)
    info = request.match_info
    try:
        key = f"{info['platform']}:{info['user']}"
        standing = await request.app[SERVICE].standing(key, lang)
    except StoreUnavailable as error:
        raise web.HTTPServiceUnavailable() from error
    return _shown(lang, standing)
