"""The web server run by every bot process: a table's page, its state, its image and its
stream of changes, and the page's static files.

    GET /t/<platform>/<channel>/<game id>             the page (HTML)
    GET /t/<platform>/<channel>/<game id>/state       what the page shows (JSON)
    GET /t/<platform>/<channel>/<game id>/board.png   the channel's image of the table
    GET /t/<platform>/<channel>/<game id>/board.svg   the board as the page draws it
    GET /t/<platform>/<channel>/<game id>/events      server-sent events: the state, at
                                                      once and after every change
    GET /t/<platform>/<channel>/<game id>/seat        a player's own: their choices now
    POST /t/<platform>/<channel>/<game id>/press      a choice pressed: {"data": ...}
    POST /t/<platform>/<channel>/<game id>/telegram   the page opened as the Telegram Mini
                                                      App: {"initData": ...} for a token
    GET /app, POST /app/open                          the Mini App opened by its direct link
                                                      (`startapp=` names the table)
    POST /t/discord/<channel>/<game id>/discord       the page as a Discord Activity:
                                                      {"code": ...} for a token
    GET /activity, POST /activity/open                the Activity's entry: the channel's table
    GET /r/<platform>/<channel>/<game id>             a kept game's replay page
    GET /r/<platform>/<channel>/<game id>/frame/<n>.png   its position n (0: the start);
                                              .svg: its board, .html: what is beside it
    GET /top/<game>[/<platform>/<id>], /p/<platform>/<user>   leaderboards, a player's page
    GET /static/<file>                                the page's script and style

Every response carries a strict Content-Security-Policy (no inline script, nothing from
elsewhere), and no response sets a cookie. What a seat sees and does needs its player's token
(`bot/links/tokens.py`) in the `Authorization: Bearer` header, for this very table: a forged,
expired or other table's token gets 403 and changes nothing. Without a header a request
cannot act, so another site cannot make a browser act either.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import asdict
from pathlib import Path
from typing import TypeVar

from aiohttp import web

from ..service import GameService, Watched
from ..store import Channel, StoreUnavailable
from ..text.i18n import N_
from . import standings
from .capacity import Streams, capped, connection_limit, raise_descriptor_limit
from .common import HUB, LAUNCHES, LIMITS, SERVICE, STREAMS, client, language, refuse, table_of
from .errors import WebPortError
from .guarded import SECURITY, SERVER, Guarded
from .hub import Hub
from .limits import Limits
from .page import missing_page, table_page
from .replays import frame, replay
from .seats import (
    activity,
    activity_open,
    discord_activity,
    mini_app,
    mini_app_open,
    press,
    seat,
    telegram,
)

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
PING = 20.0  # seconds between keep-alive comments on a quiet stream
RECHECK = 60.0  # a quiet stream reads its table anyway, in case a change went unheard
PER_TOKEN = (10.0, 30.0)  # a player's requests a second, and at once
PER_ADDRESS = (20.0, 60.0)  # a house of players behind one address
# Launches of the Activity, each traded at Discord: an address's, and the whole process's.
LAUNCHES_PER_ADDRESS = (0.5, 10.0)
LAUNCHES_IN_ALL = (10.0, 30.0)
BUSY = N_("The table's page is busy: it follows the table again in a moment.")
TOO_MANY_PAGES = N_("Too many pages open from here: close some, then try again.")


PART = re.compile(r"[^:\s/]{1,200}")  # a name in a path, as the store's keys allow it
WRITE_PATIENCE = 30.0  # seconds a stream's write may wait on its reader before it is dropped
IDLE = 3600.0  # seconds a stream follows a table that does not change, then it rests
HEADERS_WITHIN = 15.0  # seconds a connection has to send a whole request, or is closed


def _framers(client_id: str) -> str:
    """Inside Discord the page is an Activity: framed by Discord's client, through the proxy
    of the bot's own application (`https://<client id>.discordsays.com`) and no other's."""
    return (
        "frame-ancestors 'self' https://discord.com https://*.discord.com "
        f"https://{client_id}.discordsays.com"
    )


async def _secure(request: web.Request, response: web.StreamResponse) -> None:
    """Every response, pages, errors, files and streams alike, before its headers go."""
    for name, value in SECURITY.items():
        response.headers.setdefault(name, value)
    response.headers["Server"] = SERVER
    settings = request.app[SERVICE].settings
    if settings.discord_activity and settings.discord_client_id is not None:
        policy = response.headers["Content-Security-Policy"]
        response.headers["Content-Security-Policy"] = policy.replace(
            "frame-ancestors 'none'", _framers(settings.discord_client_id)
        )


@web.middleware
async def _checked(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Names in a path no table, game or player can have are a 404 before any handler
    reads them; a handler's failure is a bare 500, said once in the log."""
    info = request.match_info
    if any(not PART.fullmatch(value) for key, value in info.items() if key != "filename"):
        lang = language(request, request.app[SERVICE].ctx.default_language)
        raise web.HTTPNotFound(text=missing_page(lang), content_type="text/html")
    try:
        return await handler(request)
    except (web.HTTPException, ConnectionResetError):
        raise
    except Exception as error:
        log.error("%s %r failed: %s", request.method, request.path[:200], type(error).__name__)
        raise web.HTTPInternalServerError() from None


def _state(watched: Watched, path: str) -> dict[str, object]:
    return {
        **asdict(watched),
        "seats": list(watched.seats),
        "board": f"{path}/board.{watched.drawing}?v={watched.version}" if watched.started else "",
    }


async def _watched(request: web.Request) -> tuple[Watched, str]:
    """The table the request names, as anyone sees it: read once for all its pages in this
    process until it changes (`Hub.read`), so a crowd opening a page costs Redis one read."""
    service = request.app[SERVICE]
    channel, game_id, path = table_of(request)
    try:
        watched = await request.app[HUB].read(
            channel,
            game_id,
            lambda: service.watch(channel.platform, channel.channel_id, game_id),
        )
    except StoreUnavailable as error:
        raise web.HTTPServiceUnavailable(
            text="The game data is out of reach for a moment."
        ) from error
    except ValueError as error:  # a name no table can have
        watched = None
        log.debug("no table for %s: %s", path, error)
    if watched is None:
        lang = language(request, service.ctx.default_language)
        raise web.HTTPNotFound(text=missing_page(lang), content_type="text/html")
    return watched, path


async def page(request: web.Request) -> web.Response:
    watched, path = await _watched(request)
    shown = _state(watched, path)
    paths = {"base": path, "events": f"{path}/events", "board": str(shown["board"])}
    return web.Response(text=table_page(watched, paths), content_type="text/html")


async def state(request: web.Request) -> web.Response:
    watched, path = await _watched(request)
    return web.json_response(_state(watched, path))


T = TypeVar("T")


async def _drawn(
    request: web.Request,
    suffix: str,
    draw: Callable[[], Awaitable[tuple[int, T] | None]],
) -> tuple[T, dict[str, str]]:
    """A table's picture (`suffix`: "png" or "svg") and its caching headers: one drawing a
    change for all of a table's watchers in this process; a version newer than the one kept
    (heard of through another process first) is drawn afresh."""
    channel, game_id, _ = table_of(request)
    asked = request.query.get("v", "")
    hub = request.app[HUB]
    try:
        drawn = await hub.read(channel, f"{game_id}.{suffix}", draw)
        if drawn is not None and asked.isdigit() and int(asked) > drawn[0]:
            # Shared too, by the version asked: a crowd asking before this process heard of
            # the move still costs one drawing.
            drawn = await hub.read(channel, f"{game_id}.{suffix}@{asked}", draw)
    except StoreUnavailable as error:
        raise web.HTTPServiceUnavailable() from error
    except ValueError as error:
        raise web.HTTPNotFound() from error
    if drawn is None:
        raise web.HTTPNotFound()
    version, picture = drawn
    # The picture of a version never changes: the page asks for it by version, and caches it.
    cache = "public, max-age=86400, immutable" if asked == str(version) else "no-store"
    return picture, {"Cache-Control": cache}


async def _picture(request: web.Request, suffix: str) -> web.Response:
    service = request.app[SERVICE]
    channel, game_id, _ = table_of(request)
    where = (channel.platform, channel.channel_id, game_id)
    if suffix == "svg":
        drawing, headers = await _drawn(request, suffix, lambda: service.board_svg(*where))
        return web.Response(text=drawing, content_type="image/svg+xml", headers=headers)
    image, headers = await _drawn(request, suffix, lambda: service.board(*where))
    return web.Response(body=image, content_type="image/png", headers=headers)


async def board(request: web.Request) -> web.Response:
    """The table's picture as the chat gets it (PNG)."""
    return await _picture(request, "png")


async def board_svg(request: web.Request) -> web.Response:
    """The board as the page draws it, for a game that draws it in SVG."""
    return await _picture(request, "svg")


async def events(request: web.Request) -> web.StreamResponse:
    """The table's state now, then again after each change, until it ends, the page goes or
    the server stops; EventSource connects again by itself after a drop, and is sent the
    state at once. Each stream holds a file descriptor while open, so a process keeps at most
    `WEB_MAX_STREAMS`, an address `WEB_MAX_STREAMS_PER_ADDRESS`: past them a page is told to
    come back later (503, 429) rather than let the descriptors run out under a move."""
    streams, settings = request.app[STREAMS], request.app[SERVICE].settings
    who = client(request)  # refused before the table is read: a flood costs Redis nothing
    if streams.total >= settings.web_max_streams:
        refuse(request, web.HTTPServiceUnavailable, BUSY, headers={"Retry-After": "30"})
    if streams.by_address[who] >= settings.web_max_streams_per_address:
        refuse(request, web.HTTPTooManyRequests, TOO_MANY_PAGES, headers={"Retry-After": "30"})
    watched, path = await _watched(request)
    response = web.StreamResponse(
        headers={"Content-Type": "text/event-stream", "X-Accel-Buffering": "no"}
    )
    with streams.opened(who):
        await response.prepare(request)
        with contextlib.suppress(ConnectionResetError, TimeoutError):  # the page went away
            await _follow(request, response, watched, path)
    return response


async def _write(response: web.StreamResponse, data: bytes) -> None:
    """A write to a stream, given up on (TimeoutError) if its reader takes no more: a page
    whose device vanished without closing holds no descriptor for long."""
    async with asyncio.timeout(WRITE_PATIENCE):
        await response.write(data)


async def _event(hub: Hub, channel: Channel, game_id: str, watched: Watched, path: str) -> bytes:
    """The state event of `watched`, encoded once for all the pages of its table: a change
    seen by thousands of pages costs one encoding and a write each, and the event loop stays
    free for the moves meanwhile."""

    async def encoded() -> bytes:
        data = json.dumps(_state(watched, path), ensure_ascii=False)
        return f"id: {watched.version}\nevent: state\ndata: {data}\n\n".encode()

    return await hub.read(channel, f"{game_id} event {watched.version}", encoded)


async def _follow(
    request: web.Request, response: web.StreamResponse, watched: Watched, path: str
) -> None:
    channel, game_id, _ = table_of(request)
    service, hub = request.app[SERVICE], request.app[HUB]
    await _write(response, b"retry: 1000\n\n")
    shown = -1
    quiet = 0.0  # seconds since the table last changed

    def watch() -> Awaitable[Watched | None]:
        return service.watch(channel.platform, channel.channel_id, game_id)

    async def warm() -> None:
        """The table's state and its event, made once for all its pages."""
        now = await hub.read(channel, game_id, watch)
        if now is not None:
            await _event(hub, channel, game_id, now, path)

    with hub.follow(channel, warm) as changed:
        while not hub.closing:
            if watched.version != shown:
                shown, quiet = watched.version, 0.0
                await _write(response, await _event(hub, channel, game_id, watched, path))
            if watched.over:
                return
            waited = 0.0
            while waited < RECHECK and not changed.is_set():
                try:
                    async with asyncio.timeout(PING):
                        await changed.wait()
                except TimeoutError:
                    waited += PING
                    await _write(response, b": ping\n\n")
            quiet += waited
            if quiet >= IDLE:  # the page rests; it follows again when it is looked at
                await _write(response, b"event: idle\ndata: {}\n\n")
                return
            changed.clear()
            if hub.closing:
                return
            try:
                again = await hub.read(channel, game_id, watch)
            except StoreUnavailable:
                continue  # the page keeps what it shows; the next change or check tries again
            if again is None:
                await _write(response, b"event: gone\ndata: {}\n\n")
                return
            watched = again


def app(service: GameService, hub: Hub) -> web.Application:
    made = web.Application(middlewares=[_checked])
    made.on_response_prepare.append(_secure)
    made[SERVICE] = service
    made[HUB] = hub
    made[LIMITS] = (Limits(*PER_TOKEN), Limits(*PER_ADDRESS))
    made[LAUNCHES] = (Limits(*LAUNCHES_PER_ADDRESS), Limits(*LAUNCHES_IN_ALL))
    made[STREAMS] = Streams()
    table = "/t/{platform}/{channel}/{game}"
    made.router.add_get(table, page)
    made.router.add_get(table + "/state", state)
    made.router.add_get(table + "/board.png", board)
    made.router.add_get(table + "/board.svg", board_svg)
    made.router.add_get(table + "/events", events)
    made.router.add_get(table + "/seat", seat)
    made.router.add_post(table + "/press", press)
    made.router.add_post(table + "/telegram", telegram)
    made.router.add_post(table + "/discord", discord_activity)
    made.router.add_get("/app", mini_app)
    made.router.add_get("/activity", activity)
    made.router.add_post("/activity/open", activity_open)
    made.router.add_post("/app/open", mini_app_open)
    kept = "/r/{platform}/{channel}/{game}"
    made.router.add_get(kept, replay)
    made.router.add_get(kept + "/frame/{number}.{kind}", frame)  # png, svg, html
    made.router.add_get("/top/{game}", standings.top)
    made.router.add_get("/top/{game}/{platform}/{id}", standings.top)
    made.router.add_get("/p/{platform}/{user}", standings.player)
    made.router.add_static("/static", STATIC)

    async def closing(_: web.Application) -> None:
        hub.close()

    made.on_shutdown.append(closing)
    return made


async def serve(service: GameService, host: str, port: int) -> Callable[[], Awaitable[None]]:
    """Start the pages' server and its hub; returns what stops them. A port in use is said
    in one line (`WebPortError`), not a traceback. A connection has `HEADERS_WITHIN` seconds
    to send a request, and past `capacity.connection_limit` open ones a new one is refused."""
    hub = Hub(service.changes)
    runner = web.AppRunner(app(service, hub), access_log=None)
    await runner.setup()
    server = runner.server
    assert server is not None
    loop = asyncio.get_running_loop()

    def handler() -> Guarded:
        # access_log None: no line a request, as AppRunner's own handlers are made with it.
        return Guarded(
            server,
            loop=loop,
            access_log=None,  # type: ignore[arg-type]
            keepalive_timeout=HEADERS_WITHIN,
        )

    limit = connection_limit(raise_descriptor_limit())
    factory = capped(handler, lambda: len(server.connections), limit)
    try:
        listening = await loop.create_server(factory, host, port)
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
        listening.close()
        await runner.cleanup()

    return stop
