"""The web server run by every bot process: a table's page, its state, its image and its
stream of changes, and the page's static files.

    GET /t/<platform>/<channel>/<game id>             the page (HTML)
    GET /t/<platform>/<channel>/<game id>/state       what the page shows (JSON)
    GET /t/<platform>/<channel>/<game id>/board.png   the channel's image of the table
    GET /t/<platform>/<channel>/<game id>/events      server-sent events: the state, at
                                                      once and after every change
    GET /t/<platform>/<channel>/<game id>/seat        a player's own: their choices now
    POST /t/<platform>/<channel>/<game id>/press      a choice pressed: {"data": ...}
    POST /t/<platform>/<channel>/<game id>/telegram   the page opened as the Telegram Mini
                                                      App: {"initData": ...} for a token
    GET /app, POST /app/open                          the Mini App opened by its direct link
                                                      (`startapp=` names the table)
    GET /r/<platform>/<channel>/<game id>             a kept game's replay page
    GET /r/<platform>/<channel>/<game id>/frame/<n>.png   its position n (0: the start)
    GET /static/<file>                                the page's script and style

Every response carries a strict Content-Security-Policy (no inline script, nothing from
elsewhere), and no response sets a cookie. What a seat sees and does needs its player's token
(`bot/tokens.py`) in the `Authorization: Bearer` header, for this very table: a forged,
expired or other table's token gets 403 and changes nothing. Without a header a request
cannot act, so another site cannot make a browser act either.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict
from pathlib import Path
from urllib.parse import quote

from aiohttp import web

from ..i18n import LANGUAGES, tr
from ..replies import MENTION, Message, Reply
from ..service import GameService, Watched
from ..startapp import parse_start
from ..store import Channel, StoreUnavailable
from ..tokens import SeatToken, read, sign
from .errors import WebPortError
from .hub import Hub
from .limits import Limits, address
from .page import missing_page, opening_page, replay_page, table_page
from .telegram import Launch, verify

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
SECURITY = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; "
    "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}
PING = 20.0  # seconds between keep-alive comments on a quiet stream
RECHECK = 60.0  # a quiet stream reads its table anyway, in case a change went unheard
PER_TOKEN = (10.0, 30.0)  # a player's requests a second, and at once
PER_ADDRESS = (20.0, 60.0)  # a house of players behind one address
SERVICE: web.AppKey[GameService] = web.AppKey("service", GameService)
HUB: web.AppKey[Hub] = web.AppKey("hub", Hub)
LIMITS: web.AppKey[tuple[Limits, Limits]] = web.AppKey("limits", tuple)


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


def _named(request: web.Request, prefix: str) -> tuple[Channel, str, str]:
    """The table (or kept game) a request names, and its page's address."""
    info = request.match_info
    path = prefix + "/".join(quote(info[k], safe="") for k in ("platform", "channel", "game"))
    return Channel(info["platform"], info["channel"]), info["game"], path


def _table(request: web.Request) -> tuple[Channel, str, str]:
    return _named(request, "/t/")


def _state(watched: Watched, path: str) -> dict[str, object]:
    return {
        **asdict(watched),
        "seats": list(watched.seats),
        "board": f"{path}/board.png?v={watched.version}" if watched.started else "",
    }


async def _watched(request: web.Request) -> tuple[Watched, str]:
    """The table the request names, as anyone sees it: read once for all its pages in this
    process until it changes (`Hub.read`), so a crowd opening a page costs Redis one read."""
    service = request.app[SERVICE]
    channel, game_id, path = _table(request)
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
        lang = _language(request, service.ctx.default_language)
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
                again = await hub.read(
                    channel,
                    game_id,
                    lambda: service.watch(channel.platform, channel.channel_id, game_id),
                )
            except StoreUnavailable:
                continue  # the page keeps what it shows; the next change or check tries again
            if again is None:
                await response.write(b"event: gone\ndata: {}\n\n")
                return
            watched = again


def _token(request: web.Request) -> SeatToken:
    """The request's seat token, if the bot signed it for this table and it is still good."""
    service = request.app[SERVICE]
    secret = service.settings.web_secret
    scheme, _, token_text = request.headers.get("Authorization", "").partition(" ")
    token_text = token_text.strip()
    token = None
    if secret is not None and scheme == "Bearer":
        token = read(secret.get_secret_value().encode(), token_text, service.clock())
    channel, game_id, _ = _table(request)
    if (
        token is None
        or (token.platform, token.channel_id) != (channel.platform, channel.channel_id)
        or token.game_id != game_id
    ):
        lang = _language(request, service.ctx.default_language)
        text = tr(
            lang,
            "This link no longer plays for you: /fc hand in the game's chat brings a new one.",
        )
        raise web.HTTPForbidden(
            text=json.dumps({"error": text}, ensure_ascii=False), content_type="application/json"
        )
    now = time.monotonic()
    mac = token_text.rpartition(".")[2]
    per_token, per_address = request.app[LIMITS]
    if not (per_token.allow(mac, now) and per_address.allow(address(request), now)):
        lang = _language(request, service.ctx.default_language)
        text = tr(lang, "Too many requests at once: wait a moment.")
        raise web.HTTPTooManyRequests(
            text=json.dumps({"error": text}, ensure_ascii=False), content_type="application/json"
        )
    return token


def _shown(message: Message) -> dict[str, object]:
    """A private message as the page shows it: mentions as names, its image inline."""
    image = message.image
    return {
        "text": MENTION.sub(lambda m: message.names.get(m[1], "?"), message.text),
        "image": None
        if image is None
        else "data:image/png;base64," + base64.b64encode(image).decode(),
        "buttons": [[asdict(b) for b in row] for row in message.buttons],
        "choices": [asdict(b) for b in message.choices],
        "placeholder": message.choices_placeholder,
    }


def _answer(reply: Reply) -> web.Response:
    return web.json_response(
        {"ok": reply.ok, "messages": [_shown(m) for m in reply.private]},
        dumps=lambda data: json.dumps(data, ensure_ascii=False),
    )


async def seat(request: web.Request) -> web.Response:
    token = _token(request)
    try:
        reply = await request.app[SERVICE].seat_hand(token)
    except StoreUnavailable as error:
        raise web.HTTPServiceUnavailable() from error
    return _answer(reply)


async def press(request: web.Request) -> web.Response:
    token = _token(request)
    try:
        body = await request.json()
    except ValueError as error:
        raise web.HTTPBadRequest(text="a JSON body is expected") from error
    data = body.get("data") if isinstance(body, dict) else None
    if not isinstance(data, str) or not 0 < len(data) <= 100:
        raise web.HTTPBadRequest(text='{"data": "<a choice>"} is expected')
    try:
        reply = await request.app[SERVICE].seat_press(token, data)
    except StoreUnavailable as error:
        raise web.HTTPServiceUnavailable() from error
    return _answer(reply)


def _launch(request: web.Request, body: object) -> Launch:
    """The Telegram user a Mini App's `initData` names, if signed for this bot and recent."""
    service = request.app[SERVICE]
    token = service.settings.telegram_token
    init_data = body.get("initData") if isinstance(body, dict) else None
    launch = None
    if token is not None and isinstance(init_data, str) and len(init_data) <= 4096:
        launch = verify(token.get_secret_value(), init_data, service.clock())
    if launch is None:
        lang = _language(request, service.ctx.default_language)
        text = tr(lang, "Telegram did not vouch for this page: open it again from the bot.")
        raise web.HTTPForbidden(
            text=json.dumps({"error": text}, ensure_ascii=False), content_type="application/json"
        )
    return launch


def _seat_token(service: GameService, channel: Channel, game_id: str, user_id: str) -> str:
    secret = service.settings.web_secret
    assert secret is not None
    expires = service.clock() + service.settings.web_link_ttl.total_seconds()
    made = SeatToken(channel.platform, channel.channel_id, game_id, user_id, expires)
    return sign(secret.get_secret_value().encode(), made)


async def telegram(request: web.Request) -> web.Response:
    """A Telegram table's page opened as the Mini App: its player's seat token, made from
    what Telegram vouches for (a spectator's page if they have no seat there)."""
    service = request.app[SERVICE]
    channel, game_id, _ = _table(request)
    try:
        body = await request.json()
    except ValueError as error:
        raise web.HTTPBadRequest(text="a JSON body is expected") from error
    launch = _launch(request, body)
    if channel.platform != "telegram" or service.settings.web_secret is None:
        return web.json_response({"token": None})
    return web.json_response({"token": _seat_token(service, channel, game_id, launch.user_id)})


async def mini_app(request: web.Request) -> web.Response:
    """The Mini App's own address (set with BotFather): its script asks `open` which table
    the direct link named."""
    lang = _language(request, request.app[SERVICE].ctx.default_language)
    return web.Response(text=opening_page(lang), content_type="text/html")


async def mini_app_open(request: web.Request) -> web.Response:
    """Where a Mini App's direct link leads: `startapp=` is the table (`start_param`, which
    Telegram signs with the rest), and the player's seat token if they sit there."""
    service = request.app[SERVICE]
    try:
        body = await request.json()
    except ValueError as error:
        raise web.HTTPBadRequest(text="a JSON body is expected") from error
    launch = _launch(request, body)
    opened = parse_start(launch.start_param)
    if opened is None:
        raise web.HTTPNotFound(
            text=json.dumps({"error": "no table"}), content_type="application/json"
        )
    channel, game_id = opened
    path = "/t/" + "/".join(
        quote(x, safe="") for x in (channel.platform, channel.channel_id, game_id)
    )
    token = None
    if service.settings.web_secret is not None:
        token = _seat_token(service, channel, game_id, launch.user_id)
    return web.json_response({"path": path, "token": token})


def _kept(request: web.Request) -> tuple[Channel, str, str]:
    return _named(request, "/r/")


async def replay(request: web.Request) -> web.Response:
    service = request.app[SERVICE]
    channel, game_id, path = _kept(request)
    try:
        replayed = await service.replayed(channel.platform, channel.channel_id, game_id)
    except StoreUnavailable as error:
        raise web.HTTPServiceUnavailable() from error
    except ValueError:
        replayed = None
    if replayed is None:
        lang = _language(request, service.ctx.default_language)
        raise web.HTTPNotFound(text=missing_page(lang), content_type="text/html")
    return web.Response(text=replay_page(replayed, path), content_type="text/html")


async def frame(request: web.Request) -> web.Response:
    service = request.app[SERVICE]
    channel, game_id, _ = _kept(request)
    number = request.match_info["number"]
    if not number.isdigit() or len(number) > 5:
        raise web.HTTPNotFound()
    try:
        image = await service.replay_frame(
            channel.platform, channel.channel_id, game_id, int(number)
        )
    except StoreUnavailable as error:
        raise web.HTTPServiceUnavailable() from error
    except ValueError as error:
        raise web.HTTPNotFound() from error
    if image is None:
        raise web.HTTPNotFound()
    # A kept game never changes: its positions are cached by the browser for a day.
    headers = {"Cache-Control": "public, max-age=86400, immutable"}
    return web.Response(body=image, content_type="image/png", headers=headers)


def app(service: GameService, hub: Hub) -> web.Application:
    made = web.Application()
    made.on_response_prepare.append(_secure)
    made[SERVICE] = service
    made[HUB] = hub
    made[LIMITS] = (Limits(*PER_TOKEN), Limits(*PER_ADDRESS))
    table = "/t/{platform}/{channel}/{game}"
    made.router.add_get(table, page)
    made.router.add_get(table + "/state", state)
    made.router.add_get(table + "/board.png", board)
    made.router.add_get(table + "/events", events)
    made.router.add_get(table + "/seat", seat)
    made.router.add_post(table + "/press", press)
    made.router.add_post(table + "/telegram", telegram)
    made.router.add_get("/app", mini_app)
    made.router.add_post("/app/open", mini_app_open)
    kept = "/r/{platform}/{channel}/{game}"
    made.router.add_get(kept, replay)
    made.router.add_get(kept + "/frame/{number}.png", frame)
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
