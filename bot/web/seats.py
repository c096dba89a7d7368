"""A player's own requests: their seat's choices (`seat`) and a choice pressed (`press`),
each with the player's token for this very table (`bot/tokens.py`), and the launches traded
for that token: the Telegram Mini App's (`telegram`, and `/app` for its direct link) and the
Discord Activity's (`discord_activity`)."""

from __future__ import annotations

import base64
import json
import time
from dataclasses import asdict
from urllib.parse import quote

from aiohttp import web

from ..i18n import tr
from ..replies import MENTION, Message, Reply
from ..service import GameService
from ..startapp import parse_start
from ..store import Channel, StoreUnavailable
from ..tokens import SeatToken, read, sign
from .activity import Authorised, authorised
from .common import LIMITS, SERVICE, language, table_of
from .limits import address
from .page import activity_page, missing_page, opening_page
from .telegram import Launch, verify


def _token(request: web.Request) -> SeatToken:
    """The request's seat token, if the bot signed it for this table and it is still good."""
    service = request.app[SERVICE]
    secret = service.settings.web_secret
    scheme, _, token_text = request.headers.get("Authorization", "").partition(" ")
    token_text = token_text.strip()
    token = None
    if secret is not None and scheme == "Bearer":
        token = read(secret.get_secret_value().encode(), token_text, service.clock())
    channel, game_id, _ = table_of(request)
    if (
        token is None
        or (token.platform, token.channel_id) != (channel.platform, channel.channel_id)
        or token.game_id != game_id
    ):
        lang = language(request, service.ctx.default_language)
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
        lang = language(request, service.ctx.default_language)
        text = tr(lang, "Too many requests at once: wait a moment.")
        raise web.HTTPTooManyRequests(
            text=json.dumps({"error": text}, ensure_ascii=False), content_type="application/json"
        )
    return token


def _png_size(image: bytes) -> tuple[int, int] | None:
    """Width and height from a PNG's header (its IHDR chunk), None if it is no PNG."""
    if image[:8] != b"\x89PNG\r\n\x1a\n" or image[12:16] != b"IHDR":
        return None
    return int.from_bytes(image[16:20], "big"), int.from_bytes(image[20:24], "big")


def _targets(message: Message) -> list[dict[str, object]]:
    """The message's places to tap, in percent of its image, so they stay on their cells
    however wide the page shows the image."""
    size = None if message.image is None else _png_size(message.image)
    if size is None or not all(size):
        return []
    width, height = size
    return [
        {
            "left": 100 * left / width,
            "top": 100 * top / height,
            "width": 100 * (right - left) / width,
            "height": 100 * (bottom - top) / height,
            "label": target.label,
            "data": target.data,
        }
        for target in message.targets
        for left, top, right, bottom in [target.box]
    ]


async def _body(request: web.Request) -> object:
    """A request's JSON body; 400 for anything else."""
    try:
        return await request.json()
    except ValueError as error:
        raise web.HTTPBadRequest(text="a JSON body is expected") from error


def _shown(message: Message) -> dict[str, object]:
    """A private message as the page shows it: mentions as names, its image inline with its
    places to tap."""
    image = message.image
    return {
        "text": MENTION.sub(lambda m: message.names.get(m[1], "?"), message.text),
        "image": None
        if image is None
        else "data:image/png;base64," + base64.b64encode(image).decode(),
        "buttons": [[asdict(b) for b in row] for row in message.buttons],
        "choices": [asdict(b) for b in message.choices],
        "placeholder": message.choices_placeholder,
        "targets": _targets(message),
        "keys": message.keys,
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
    body = await _body(request)
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
        lang = language(request, service.ctx.default_language)
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
    channel, game_id, _ = table_of(request)
    body = await _body(request)
    launch = _launch(request, body)
    if channel.platform != "telegram" or service.settings.web_secret is None:
        return web.json_response({"token": None})
    return web.json_response({"token": _seat_token(service, channel, game_id, launch.user_id)})


async def _discord_player(request: web.Request, body: object) -> Authorised:
    """The Discord user whose `identify` code the body carries, as Discord says; 403 for a
    code Discord does not honour."""
    service = request.app[SERVICE]
    code = body.get("code") if isinstance(body, dict) else None
    found = None
    if isinstance(code, str) and 0 < len(code) <= 200:
        found = await authorised(service.settings, code)
    if found is None:
        lang = language(request, service.ctx.default_language)
        text = tr(lang, "Discord did not vouch for this page: open the Activity again.")
        raise web.HTTPForbidden(
            text=json.dumps({"error": text}, ensure_ascii=False), content_type="application/json"
        )
    return found


async def discord_activity(request: web.Request) -> web.Response:
    """A Discord table's page opened as an Activity: the `identify` code its SDK got, traded
    at Discord for the player (`activity`); back go the access token the SDK needs and the
    player's seat token (a spectator's page if they have no seat there)."""
    service = request.app[SERVICE]
    channel, game_id, _ = table_of(request)
    found = await _discord_player(request, await _body(request))
    token = None
    if channel.platform == "discord" and service.settings.web_secret is not None:
        token = _seat_token(service, channel, game_id, found.user_id)
    return web.json_response({"access_token": found.access_token, "token": token})


async def activity(request: web.Request) -> web.Response:
    """The Activity's own address (the Developer Portal's root URL mapping): its script signs
    the player in (`activity_open`) and goes to the channel's table."""
    service = request.app[SERVICE]
    lang = language(request, service.ctx.default_language)
    client = service.settings.discord_client_id
    if not service.settings.discord_activity or client is None:
        raise web.HTTPNotFound(text=missing_page(lang), content_type="text/html")
    return web.Response(text=activity_page(lang, client), content_type="text/html")


async def activity_open(request: web.Request) -> web.Response:
    """Where an Activity goes: the `identify` code traded for the player (`activity`), the
    table of the channel Discord opened it in, and the player's seat token for it."""
    service = request.app[SERVICE]
    body = await _body(request)
    found = await _discord_player(request, body)
    channel_id = body.get("channel_id") if isinstance(body, dict) else None
    lang = language(request, service.ctx.default_language)
    game_id = None
    if isinstance(channel_id, str) and channel_id.isdigit() and len(channel_id) <= 24:
        game_id = await service.table_here("discord", channel_id)
    if game_id is None or not isinstance(channel_id, str):
        text = tr(lang, "There is no table here. Open one with /fc new.")
        raise web.HTTPNotFound(
            text=json.dumps({"error": text, "access_token": found.access_token}),
            content_type="application/json",
        )
    channel = Channel.of("discord", channel_id)
    token = None
    if service.settings.web_secret is not None:
        token = _seat_token(service, channel, game_id, found.user_id)
    path = f"/t/discord/{quote(channel_id, safe='')}/{quote(game_id, safe='')}"
    return web.json_response({"path": path, "token": token, "access_token": found.access_token})


async def mini_app(request: web.Request) -> web.Response:
    """The Mini App's own address (set with BotFather): its script asks `open` which table
    the direct link named."""
    lang = language(request, request.app[SERVICE].ctx.default_language)
    return web.Response(text=opening_page(lang), content_type="text/html")


async def mini_app_open(request: web.Request) -> web.Response:
    """Where a Mini App's direct link leads: `startapp=` is the table (`start_param`, which
    Telegram signs with the rest), and the player's seat token if they sit there."""
    service = request.app[SERVICE]
    body = await _body(request)
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
