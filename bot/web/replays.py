"""A kept game's replay page and its positions."""

from __future__ import annotations

from aiohttp import web

from ..store import Channel, StoreUnavailable
from .common import SERVICE, language, named
from .page import missing_page, replay_page


def _kept(request: web.Request) -> tuple[Channel, str, str]:
    return named(request, "/r/")


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
        lang = language(request, service.ctx.default_language)
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
    # A kept game's moves never change: its positions are cached by the browser for a day,
    # by it alone (`forget me` may yet rewrite the names they show, under the same address).
    headers = {"Cache-Control": "private, max-age=86400, immutable"}
    return web.Response(body=image, content_type="image/png", headers=headers)
