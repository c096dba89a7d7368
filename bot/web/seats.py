"""A player's own requests: their seat's choices (`seat`) and a choice pressed (`press`),
each with the player's token for this very table (`bot/links/tokens.py`), and the launches traded
for that token: the Telegram Mini App's (`telegram`, and `/app` for its direct link) and the
Discord Activity's (`discord_activity`)."""

from __future__ import annotations

import base64
import json
import re
import time
from dataclasses import asdict
from urllib.parse import quote

from aiohttp import web

from ..exchange.replies import MENTION, Message, Reply
from ..links.startapp import parse_start
from ..links.tokens import SeatToken, read
from ..service import EndedLink, ForeignPress
from ..store import Channel, StoreUnavailable
from ..text.i18n import N_, tr
from .activity import Authorised, authorised
from .common import LAUNCHES, LIMITS, SERVICE, body, client, language, refuse, table_of
from .page import activity_page, missing_page, opening_page
from .telegram import Launch, verify

NO_LONGER = N_("This link no longer plays for you: /fc hand in the game's chat brings a new one.")
TOO_MANY = N_("Too many requests at once: wait a moment.")
# An OAuth2 authorization code as Discord gives it to the Activity: letters and digits (a
# few dozen). Anything else is refused before any call to Discord.
DISCORD_CODE = re.compile(r"[A-Za-z0-9_-]{16,128}")


def _token(request: web.Request) -> SeatToken:
    """The request's seat token, if the bot signed it for this table and it is still good."""
    service = request.app[SERVICE]
    secret = service.settings.web_secret
    scheme, _, token_text = request.headers.get("Authorization", "").partition(" ")
    token_text = token_text.strip()
    token = None
    if secret is not None and scheme == "Bearer" and len(token_text) <= 1024:
        token = read(secret.get_secret_value().encode(), token_text, service.clock())
    channel, game_id, _ = table_of(request)
    if (
        token is None
        or (token.platform, token.channel_id) != (channel.platform, channel.channel_id)
        or token.game_id != game_id
    ):
        refuse(request, web.HTTPForbidden, NO_LONGER)
    now = time.monotonic()
    mac = token_text.rpartition(".")[2]
    per_token, per_address = request.app[LIMITS]
    if not (per_token.allow(mac, now) and per_address.allow(client(request), now)):
        refuse(request, web.HTTPTooManyRequests, TOO_MANY)
    return token


def _places(message: Message) -> list[dict[str, object]]:
    """The message's places to touch on the page's own board, in its drawing's units."""
    return [
        {"box": list(target.spot), "label": target.label, "data": target.data}
        for target in message.targets
        if target.spot is not None
    ]


def _shown(message: Message) -> dict[str, object]:
    """A private message as the page shows it: mentions as names, its image inline, its
    places to touch on the big board, the seat's own drawing of the board and its tray."""
    image = message.image
    return {
        "text": MENTION.sub(lambda m: message.names.get(m[1], "?"), message.text),
        "image": None
        if image is None
        else "data:image/png;base64," + base64.b64encode(image).decode(),
        "buttons": [[asdict(b) for b in row] for row in message.buttons],
        "choices": [asdict(b) for b in message.choices],
        "placeholder": message.choices_placeholder,
        "spots": _places(message),
        "keys": message.keys,
        "board": message.board,
        "tray": message.tray,
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
    except EndedLink:
        refuse(request, web.HTTPForbidden, NO_LONGER)
    return _answer(reply)


async def press(request: web.Request) -> web.Response:
    token = _token(request)
    sent = await body(request)
    data = sent.get("data") if isinstance(sent, dict) else None
    if not isinstance(data, str) or not 0 < len(data) <= 100:
        refuse(request, web.HTTPBadRequest, N_("A JSON body is expected."))
    try:
        reply = await request.app[SERVICE].seat_press(token, data)
    except StoreUnavailable as error:
        raise web.HTTPServiceUnavailable() from error
    except EndedLink:
        refuse(request, web.HTTPForbidden, NO_LONGER)
    except ForeignPress:
        refuse(request, web.HTTPForbidden, N_("This page plays its own table only."))
    return _answer(reply)


def _launch(request: web.Request, sent: object) -> Launch:
    """The Telegram user a Mini App's `initData` names, if signed for this bot and recent."""
    service = request.app[SERVICE]
    token = service.settings.telegram_token
    init_data = sent.get("initData") if isinstance(sent, dict) else None
    launch = None
    if token is not None and isinstance(init_data, str) and len(init_data) <= 4096:
        launch = verify(token.get_secret_value(), init_data, service.clock())
    if launch is None:
        refuse(
            request,
            web.HTTPForbidden,
            N_("Telegram did not vouch for this page: open it again from the bot."),
        )
    return launch


async def _opened(request: web.Request, channel: Channel, game_id: str, user_id: str) -> str | None:
    """The seat token of a page opened inside a platform, None without a secret to sign it."""
    service = request.app[SERVICE]
    try:
        made = await service.seat_token(channel.platform, channel.channel_id, game_id, user_id)
    except StoreUnavailable as error:
        raise web.HTTPServiceUnavailable() from error
    except ValueError:  # a place no table can have
        refuse(request, web.HTTPNotFound, N_("There is no table here. Open one with /fc new."))
    return made or None


async def telegram(request: web.Request) -> web.Response:
    """A Telegram table's page opened as the Mini App: its player's seat token, made from
    what Telegram vouches for (a spectator's page if they have no seat there)."""
    channel, game_id, _ = table_of(request)
    launch = _launch(request, await body(request))
    if channel.platform != "telegram":
        return web.json_response({"token": None})
    return web.json_response({"token": await _opened(request, channel, game_id, launch.user_id)})


async def _discord_player(request: web.Request, sent: object) -> Authorised:
    """The Discord user whose `identify` code the body carries, as Discord says; 403 for a
    code Discord does not honour, or not of the shape Discord gives; 429 past the launches
    an address, or the whole process, may trade at Discord (each is a call with the client
    secret)."""
    service = request.app[SERVICE]
    code = sent.get("code") if isinstance(sent, dict) else None
    found = None
    if isinstance(code, str) and DISCORD_CODE.fullmatch(code):
        per_address, overall = request.app[LAUNCHES]
        now = time.monotonic()
        if not (per_address.allow(client(request), now) and overall.allow("", now)):
            refuse(request, web.HTTPTooManyRequests, TOO_MANY)
        found = await authorised(service.settings, code)
    if found is None:
        refuse(
            request,
            web.HTTPForbidden,
            N_("Discord did not vouch for this page: open the Activity again."),
        )
    return found


async def discord_activity(request: web.Request) -> web.Response:
    """A Discord table's page opened as an Activity: the `identify` code its SDK got, traded
    at Discord for the player (`activity`); back go the access token the SDK needs and the
    player's seat token (a spectator's page if they have no seat there)."""
    channel, game_id, _ = table_of(request)
    found = await _discord_player(request, await body(request))
    token = None
    if channel.platform == "discord":
        token = await _opened(request, channel, game_id, found.user_id)
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
    sent = await body(request)
    found = await _discord_player(request, sent)
    channel_id = sent.get("channel_id") if isinstance(sent, dict) else None
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
    token = await _opened(request, channel, game_id, found.user_id)
    path = f"/t/discord/{quote(channel_id, safe='')}/{quote(game_id, safe='')}"
    return web.json_response({"path": path, "token": token, "access_token": found.access_token})


async def mini_app(request: web.Request) -> web.Response:
    """The Mini App's own address (set with BotFather): its script asks `open` which table
    the direct link named."""
    lang = language(request, request.app[SERVICE].ctx.default_language)
    return web.Response(text=opening_page(lang), content_type="text/html")


async def mini_app_open(request: web.Request) -> web.Response:
    """Where a Mini App's direct link leads: `startapp=` is the table (`start_param`, which
    Telegram signs with the rest), and the player's seat token if they sit there. Telegram
    vouches for Telegram's users only: a link naming a table elsewhere opens nothing."""
    launch = _launch(request, await body(request))
    opened = parse_start(launch.start_param)
    if opened is None or opened[0].platform != "telegram":
        refuse(request, web.HTTPNotFound, N_("There is no table here. Open one with /fc new."))
    channel, game_id = opened
    path = "/t/" + "/".join(
        quote(x, safe="") for x in (channel.platform, channel.channel_id, game_id)
    )
    return web.json_response(
        {"path": path, "token": await _opened(request, channel, game_id, launch.user_id)}
    )
