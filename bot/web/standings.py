"""Leaderboard and player pages: `/top/<game>` (everywhere), `/top/<game>/<platform>/<id>`
(one server or group) and `/p/<platform>/<user id>`, the same words and picture as `/fc
top` and `/fc stats`, read from the ratings at each request (so `forget me` reaches them at
once). Anyone may open them, as anyone in the chat may ask for them; an address asking too
often is told to wait, since each answer draws a picture.

The picture is drawn `SCALE` times as large as the chat's and shown at the chat's size (900
CSS px, less on a narrow screen): a phone has 3 pixels to the CSS px and shows it 366 CSS px
wide (1,098 pixels), a laptop 2 at 900 (1,800). 2 serves both: 1,800 pixels, 85 KB and 60 ms
for 20 rows; 3 would be 140 KB and 130 ms, for only a 3x screen showing it over 600 CSS px."""

from __future__ import annotations

import time

from aiohttp import web

from ..i18n import tr
from ..replies import Reply
from ..store import StoreUnavailable
from .common import LIMITS, SERVICE, client, language
from .page import missing_page, standing_page

SCALE = 2  # the page's picture, against the chat's


def _lang(request: web.Request) -> str:
    lang = language(request, request.app[SERVICE].ctx.default_language)
    _, per_address = request.app[LIMITS]
    if not per_address.allow(client(request), time.monotonic()):
        raise web.HTTPTooManyRequests(text=tr(lang, "Too many requests at once: wait a moment."))
    return lang


def _shown(lang: str, reply: Reply | None) -> web.Response:
    if reply is None or not reply.public:
        raise web.HTTPNotFound(text=missing_page(lang), content_type="text/html")
    message = reply.public[0]
    headers = {"Cache-Control": "no-cache"}
    return web.Response(
        text=standing_page(lang, message.text, message.image, SCALE),
        content_type="text/html",
        headers=headers,
    )


async def top(request: web.Request) -> web.Response:
    lang = _lang(request)
    info = request.match_info
    community = f"{info['platform']}:{info['id']}" if "platform" in info else None
    try:
        reply = await request.app[SERVICE].leaderboard(info["game"], community, lang, SCALE)
    except StoreUnavailable as error:
        raise web.HTTPServiceUnavailable() from error
    return _shown(lang, reply)


async def player(request: web.Request) -> web.Response:
    lang = _lang(request)
    info = request.match_info
    try:
        key = f"{info['platform']}:{info['user']}"
        reply = await request.app[SERVICE].standing(key, lang, SCALE)
    except StoreUnavailable as error:
        raise web.HTTPServiceUnavailable() from error
    if reply is None:
        text = tr(lang, "No rated games yet for {name}.", name=tr(lang, "this player"))
        return web.Response(text=standing_page(lang, text, None), content_type="text/html")
    return _shown(lang, reply)
