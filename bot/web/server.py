"""The web server run by every bot process: a table's page, its state, its image and its
stream of changes, and the page's static files.

    GET /t/<platform>/<channel>/<game id>             the page (HTML)
    GET /t/<platform>/<channel>/<game id>/state       what the page shows (JSON)
    GET /t/<platform>/<channel>/<game id>/board.png   the channel's image of the table
    GET /t/<platform>/<channel>/<game id>/events      server-sent events: the state, at
                                                      once and after every change
    GET /static/<file>                                the page's script and style

Every response carries a strict Content-Security-Policy (no inline script, nothing from
elsewhere), and no response sets a cookie.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import asdict
from pathlib import Path
from urllib.parse import quote

from aiohttp import web

from ..i18n import LANGUAGES
from ..service import GameService, Watched
from ..store import Channel, StoreUnavailable
from .errors import WebPortError
from .hub import Hub
from .page import missing_page, table_page

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
SECURITY = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; "
    "img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}
PING = 20.0  # seconds between keep-alive comments on a quiet stream
RECHECK = 60.0  # a quiet stream reads its table anyway, in case a change went unheard
SERVICE: web.AppKey[GameService] = web.AppKey("service", GameService)
HUB: web.AppKey[Hub] = web.AppKey("hub", Hub)


async def _secure(request: web.Request, response: web.StreamResponse) -> None:
    """Every response, pages, errors, files and streams alike, before its headers go."""
    for name, value in SECURITY.items():
        response.headers.setdefault(name, value)


def _language(request: web.Request, default: str) -> str:
    """The browser's first language the bot speaks, for pages that belong to no chat."""
    for part in request.headers.get("Accept-Language", "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return default


def _table(request: web.Request) -> tuple[Channel, str, str]:
    """The table a request names, and its page's address."""
    info = request.match_info
    path = "/t/" + "/".join(quote(info[k], safe="") for k in ("platform", "channel", "game"))
    return Channel(info["platform"], info["channel"]), info["game"], path


def _state(watched: Watched, path: str) -> dict[str, object]:
    return {
        **asdict(watched),
        "seats": list(watched.seats),
        "board": f"{path}/board.png?v={watched.version}" if watched.started else "",
    }


async def _watched(request: web.Request) -> tuple[Watched, str]:
    service = request.app[SERVICE]
    channel, game_id, path = _table(request)
    try:
        watched = await service.watch(channel.platform, channel.channel_id, game_id)
    except StoreUnavailable as error:
        raise web.HTTPServiceUnavailable(
            text="The game data is out of reach for a moment."
        ) from error
    except ValueError as error:  # a name no table can have
        watched = None
        log.debug("no table for %s: %s", path, error)
    if watched is None:
        lang = _language(request, service.ctx.default_language)
        raise web.HTTPNotFound(text=missing_page(lang), content_type="text/html")
    return watched, path


async def page(request: web.Request) -> web.Response:
    watched, path = await _watched(request)
    shown = _state(watched, path)
    paths = {"events": f"{path}/events", "board": str(shown["board"])}
    return web.Response(text=table_page(watched, paths), content_type="text/html")


async def state(request: web.Request) -> web.Response:
    watched, path = await _watched(request)
    return web.json_response(_state(watched, path))


async def board(request: web.Request) -> web.Response:
    service = request.app[SERVICE]
    channel, game_id, _ = _table(request)
    try:
        drawn = await service.board(channel.platform, channel.channel_id, game_id)
    except StoreUnavailable as error:
        raise web.HTTPServiceUnavailable() from error
    except ValueError as error:
        raise web.HTTPNotFound() from error
    if drawn is None:
        raise web.HTTPNotFound()
    version, image = drawn
    asked = request.query.get("v")
    # The image of a version never changes: the page asks for it by version, and caches it.
    cache = "public, max-age=86400, immutable" if asked == str(version) else "no-store"
    return web.Response(body=image, content_type="image/png", headers={"Cache-Control": cache})


async def events(request: web.Request) -> web.StreamResponse:
    """The table's state now, then again after each change, until it ends, the page goes or
    the server stops; EventSource connects again by itself after a drop, and is sent the
    state at once."""
    watched, path = await _watched(request)
    response = web.StreamResponse(
        headers={"Content-Type": "text/event-stream", "X-Accel-Buffering": "no"}
    )
    await response.prepare(request)
    with contextlib.suppress(ConnectionResetError):  # the page went away
        await _follow(request, response, watched, path)
    return response


async def _follow(
    request: web.Request, response: web.StreamResponse, watched: Watched, path: str
) -> None:
    channel, game_id, _ = _table(request)
    service, hub = request.app[SERVICE], request.app[HUB]
    await response.write(b"retry: 1000\n\n")
    shown = -1
    with hub.follow(channel) as changed:
        while not hub.closing:
            if watched.version != shown:
                shown = watched.version
                data = json.dumps(_state(watched, path), ensure_ascii=False)
                await response.write(f"id: {shown}\nevent: state\ndata: {data}\n\n".encode())
            if watched.over:
                return
            waited = 0.0
            while waited < RECHECK and not changed.is_set():
                try:
                    async with asyncio.timeout(PING):
                        await changed.wait()
                except TimeoutError:
                    waited += PING
                    await response.write(b": ping\n\n")
            changed.clear()
            if hub.closing:
                return
            try:
                again = await service.watch(channel.platform, channel.channel_id, game_id)
            except StoreUnavailable:
                continue  # the page keeps what it shows; the next change or check tries again
            if again is None:
                await response.write(b"event: gone\ndata: {}\n\n")
                return
            watched = again


def app(service: GameService, hub: Hub) -> web.Application:
    made = web.Application()
    made.on_response_prepare.append(_secure)
    made[SERVICE] = service
    made[HUB] = hub
    table = "/t/{platform}/{channel}/{game}"
    made.router.add_get(table, page)
    made.router.add_get(table + "/state", state)
    made.router.add_get(table + "/board.png", board)
    made.router.add_get(table + "/events", events)
    made.router.add_static("/static", STATIC)

    async def closing(_: web.Application) -> None:
        hub.close()

    made.on_shutdown.append(closing)
    return made


async def serve(service: GameService, host: str, port: int) -> Callable[[], Awaitable[None]]:
    """Start the pages' server and its hub; returns what stops them. A port in use is said
    in one line (`WebPortError`), not a traceback."""
    hub = Hub(service.changes)
    runner = web.AppRunner(app(service, hub), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    try:
        await site.start()
    except OSError as error:
        await runner.cleanup()
        raise WebPortError(
            f"the web pages cannot be served on {host}:{port} ({error.strerror}): "
            "set WEB_PORT to a free port"
        ) from error
    hub.start()
    log.info("table pages on http://%s:%d", host, port)

    async def stop() -> None:
        await hub.stop()
        await runner.cleanup()

    return stop
