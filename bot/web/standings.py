"""Leaderboard and player pages: `/top/<game>` (everywhere), `/top/<game>/<platform>/<id>`
(one server or group) and `/p/<platform>/<user id>`, the same words and picture as `/fc
top` and `/fc stats`, read from the ratings at each request (so `forget me` reaches them at
once). Anyone may open them, as anyone in the chat may ask for them; an address asking too
often is told to wait, since each answer draws a picture."""

from __future__ import annotations

import time

from aiohttp import web

from ..i18n import tr
from ..replies import Reply
from ..store import StoreUnavailable
from .common import LIMITS, SERVICE, client, language
from .page import missing_page, standing_page


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
        text=standing_page(lang, message.text, message.image),
        content_type="text/html",
        headers=headers,
    )


async def top(request: web.Request) -> web.Response:
    lang = _lang(request)
    info = request.match_info
    community = f"{info['platform']}:{info['id']}" if "platform" in info else None
    try:
        reply = await request.app[SERVICE].leaderboard(info["game"], community, lang)
    except StoreUnavailable as error:
        raise web.HTTPServiceUnavailable() from error
    return _shown(lang, reply)


async def player(request: web.Request) -> web.Response:
    lang = _lang(request)
    info = request.match_info
    try:
        reply = await request.app[SERVICE].standing(f"{info['platform']}:{info['user']}", lang)
    except StoreUnavailable as error:
        raise web.HTTPServiceUnavailable() from error
    if reply is None:
        text = tr(lang, "No rated games yet for {name}.", name=tr(lang, "this player"))
        return web.Response(text=standing_page(lang, text, None), content_type="text/html")
    return _shown(lang, reply)
