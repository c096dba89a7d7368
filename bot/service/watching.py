"""A table as anyone watching it may see it: what the channel is shown, nothing more.

The web's table page reads its table here. A table is named by its channel and its game id:
the id is in the link the bot posts, so a page is found by those who were given it, and a
link to a game that ended shows how it ended (while its archive lasts) instead of whatever
game the channel plays next. Everything comes from the public view, as the channel's image
does, so no secret can reach a watcher.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass, field
from typing import TypeVar

from ..exchange.actor import Actor
from ..exchange.buttons import FORGET, REPLAY, Frame
from ..exchange.refused import Refused
from ..exchange.replies import MENTION, Reply
from ..games import Playing
from ..games.sidebar import Sidebar
from ..links.tokens import SeatToken
from ..records.table import Table
from ..store import Channel
from ..text.i18n import tr
from .context import Context, Loaded, user_names
from .moment import Moment, enter_stored
from .reading import _waited

G = TypeVar("G", bound=Playing)
V = TypeVar("V")
A = TypeVar("A")


@dataclass(frozen=True, slots=True)
class Watched:
    """What a watcher is shown of a table: its words are the chat's, in the chat's language."""

    title: str
    lang: str
    version: int  # changes with every move: the page's image is asked for by it
    started: bool  # dealt: the table has an image
    over: bool  # ended (played out, ended by a vote, or aborted)
    text: str  # the status the channel gets with `/fc board`, or how the game ended
    seats: tuple[str, ...]  # players' names, in seat order
    place: str  # where the table is ("#general", "Group › Topic"), "" if not known
    drawing: str  # how the page draws the table: "svg" or "png" (`GameInfo.web_board`)
    log: tuple[str, ...] = ()  # the last actions in the chat's sentences, oldest first
    sidebar: Sidebar = field(default_factory=Sidebar)  # what the chat's picture shows around


async def find(ctx: Context, channel: Channel, game_id: str) -> tuple[Loaded, bool] | None:
    """The table of game `game_id` in `channel`: live (False) or ended (True); None if the
    channel plays another game, or the game's archive is gone."""
    loaded = await ctx.load(channel)
    if loaded is not None and loaded.record.game_id == game_id:
        return loaded, False
    record = await ctx.store.load_archived(channel, game_id)
    if record is None:
        return None
    return Loaded(record, Table.model_validate_json(record.data)), True


async def watch(ctx: Context, channel: Channel, game_id: str) -> Watched | None:
    """The table as its watchers see it now, or None if there is no such game."""
    found = await find(ctx, channel, game_id)
    if found is None:
        return None
    loaded, ended = found
    table = loaded.table
    lang = await ctx.channel_language(channel)
    names = user_names(table)
    if table.game is None:
        text = tr(
            lang,
            "Waiting to start ({n}/{high}): {names}.",
            n=len(table.seats),
            high=table.most,
            names=", ".join(s.name for s in table.seats),
        )
        log: list[str] = []
        sidebar = Sidebar()
    else:
        text, sidebar, log = await enter_stored(ctx, loaded, lang, loaded.channel, _shown, ended)
    return Watched(
        title=tr(lang, table.module.title),
        lang=lang,
        version=loaded.record.version,
        started=table.started,
        over=ended,
        text=MENTION.sub(lambda m: names.get(m[1], "?"), text),
        seats=tuple(s.name for s in table.seats),
        place=table.place,
        drawing=table.module.web_board,
        log=tuple(MENTION.sub(lambda m: names.get(m[1], "?"), line) for line in log),
        sidebar=sidebar,
    )


LOG_LINES = 12  # sentences of the game's log a page shows


async def _shown(moment: Moment[G, V, A], ended: bool) -> tuple[str, Sidebar, list[str]]:
    """The table's status in the chat's words, what the page shows beside its board, and the
    game's last actions."""
    text, sidebar = _words(moment, ended)
    return text, sidebar, await _log(moment)


async def _log(moment: Moment[G, V, A]) -> list[str]:
    """The game's last actions as the chat was told them: the game replayed from its record
    (a long game takes some milliseconds, so off the event loop, once a change for all of a
    table's pages)."""
    data = moment.table.game
    if data is None:
        return []
    at = moment.at(count=0)
    lines = await moment.ctx.draw(lambda: moment.module.log_words(at, data))
    return [line for line in lines if line][-LOG_LINES:]


def _words(moment: Moment[G, V, A], ended: bool) -> tuple[str, Sidebar]:
    """The table's status in the chat's words, and what the page shows beside its board."""
    game_module, table, game, lang = moment.module, moment.table, moment.game, moment.lang
    at = moment.at()
    sidebar = game_module.sidebar(at, game_module.view(game, None))
    if ended and (game.is_over or table.voted_end):
        return game_module.final_text(at, game, table.voted_end), sidebar
    if ended:
        return tr(lang, "This table was closed before the end of its game."), sidebar
    return game_module.status_text(at, game, _waited(moment.ctx, table, lang)), sidebar


async def _dealt(ctx: Context, channel: Channel, game_id: str) -> tuple[Loaded, bool, str] | None:
    """Game `game_id` of `channel` if it was dealt: the table, whether it ended, the
    channel's language; None if there is no such game or it has not started."""
    found = await find(ctx, channel, game_id)
    if found is None or found[0].table.game is None:
        return None
    return (*found, await ctx.channel_language(channel))


async def board(ctx: Context, channel: Channel, game_id: str) -> tuple[int, bytes] | None:
    """The table's image as the channel sees it, with the version it shows; None if there is
    no such game or it has not started."""
    dealt = await _dealt(ctx, channel, game_id)
    if dealt is None:
        return None
    loaded, ended, lang = dealt
    image = await enter_stored(ctx, loaded, lang, loaded.channel, _image, ended)
    return loaded.record.version, image


async def board_svg(ctx: Context, channel: Channel, game_id: str) -> tuple[int, str] | None:
    """The table's board as SVG for the page, as the channel sees it, with the version it
    shows; None if there is no such game, it has not started or its game draws none."""
    dealt = await _dealt(ctx, channel, game_id)
    if dealt is None or dealt[0].table.module.web_board != "svg":
        return None
    loaded, _, lang = dealt
    drawing = await enter_stored(ctx, loaded, lang, loaded.channel, _svg)
    return loaded.record.version, drawing


async def _svg(moment: Moment[G, V, A]) -> str:
    game_module, at, view = moment.module, moment.at(), moment.module.view(moment.game, None)
    return await moment.ctx.draw(lambda: game_module.table_svg(at, view))


async def _image(moment: Moment[G, V, A], ended: bool) -> bytes:
    game_module, at, view = moment.module, moment.at(), moment.module.view(moment.game, None)
    if ended:
        voted_end = moment.table.voted_end
        return await moment.ctx.draw(lambda: game_module.final_image(at, view, voted_end))
    return await moment.ctx.draw(lambda: game_module.table_image(at, view))


async def seat_actor(ctx: Context, token: SeatToken) -> Actor | Reply:
    """The player a seat token stands for, at its table, as an adapter would make them; a
    refusal in the chat's language if the game is over or they have no seat at it."""
    channel = Channel.of(token.platform, token.channel_id)
    lang = await ctx.channel_language(channel)
    try:
        loaded = await ctx.load(channel)
    except Refused as refused:
        return Reply.error(str(refused))
    if loaded is None or loaded.record.game_id != token.game_id:
        return Reply.error(tr(lang, "This game is over: the page shows how it ended."))
    seat = loaded.table.seat_of(token.user_id)
    if seat is None:
        return Reply.error(tr(lang, "You have no seat at this table."))
    if not hmac.compare_digest(seat.link, token.key):  # ended: they left, or asked anew
        raise EndedLink
    return Actor(token.platform, token.channel_id, token.user_id, seat.name, page=True)


NOT_A_TABLES = frozenset({FORGET.kind})  # buttons about a person, not a table: the chat's alone


class EndedLink(Exception):
    """A seat token made before its player ended their links (`Seat.link`): refused like a
    forged one."""


class ForeignPress(Exception):
    """A press on a table's page whose button names another place or game than the page's
    token: refused, and nothing is done."""


def check_pressed(token: SeatToken, data: str) -> None:
    """A seat token acts on its own table only: a button of another chat, another kept game
    or of no table (a forget) raises `ForeignPress`. Data no button carries goes on to the
    router, which refuses it in words."""
    pressed = Frame.parse(data)
    if pressed is None:
        return
    if pressed.channel_id != token.channel_id or pressed.kind in NOT_A_TABLES:
        raise ForeignPress
    if pressed.kind == REPLAY.kind and not token.game_id.startswith(pressed.payload or "-"):
        raise ForeignPress
