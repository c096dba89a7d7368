"""A kept game's replay page and its positions."""

from __future__ import annotations

from aiohttp import web

from ..store import Channel, StoreUnavailable
from .common import SERVICE, language, named
from .page import missing_page, replay_beside, replay_page

# A kept game's moves never change: its positions are cached by the browser for a day, by it
# alone (`forget me` may yet rewrite the names they show, under the same address).
KEPT = {"Cache-Control": "private, max-age=86400, immutable"}


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
    """Position n of a kept game (`frame/<n>.<kind>`): as the chat drew it (png), its board
    as the replay page shows it, sharp on any screen (svg), or what the page shows beside
    that board, its seats and facts (html)."""
    try:
        found = await _position(request)
    except StoreUnavailable as error:
        raise web.HTTPServiceUnavailable() from error
    except ValueError as error:
        raise web.HTTPNotFound() from error
    if found is None:
        raise web.HTTPNotFound()
    return found


async def _position(request: web.Request) -> web.Response | None:
    service = request.app[SERVICE]
    channel, game_id, _ = _kept(request)
    number, kind = request.match_info["number"], request.match_info.get("kind", "png")
    if not number.isdigit() or len(number) > 5:
        return None
    where = (channel.platform, channel.channel_id, game_id, int(number))
    if kind == "png":
        image = await service.replay_frame(*where)
        if image is not None:
            return web.Response(body=image, content_type="image/png", headers=KEPT)
    elif kind == "svg":
        drawing = await service.replay_svg(*where)
        if drawing is not None:
            return web.Response(text=drawing, content_type="image/svg+xml", headers=KEPT)
    elif kind == "html":
        sidebar = await service.replay_sidebar(*where)
        if sidebar is not None:
            beside = replay_beside(sidebar)
            return web.Response(text=beside, content_type="text/html", headers=KEPT)
    return None
