"""`/fc history`, `/fc replay` and `/fc export`: the kept results of finished games.

A replay is drawn from the public views only (`GameModule.replay_views`), the way the channel
saw the game, so it shows nothing a seat kept hidden; an export is the engine's own record,
which `python -m engine.<game> replay FILE` steps through.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import lru_cache
from typing import TypeVar

from babel.dates import format_date

from engine.core.errors import CorruptRecord

from ..exchange.actor import Actor
from ..exchange.refused import Refused
from ..exchange.replies import Message, Reply
from ..games import At, GameModule, Playing, Record, Visitor, module
from ..games.sidebar import Sidebar
from ..records.finished import SHORT, Result
from ..store import Channel, parse_ref
from ..text.i18n import tr, translations
from .context import Context
from .standings import player_name, shown_name, target
from .weblinks import replay_link

G = TypeVar("G", bound=Playing)
V = TypeVar("V")
A = TypeVar("A")
LISTED = 10  # games `/fc history` lists
_SHORT_ID = re.compile(rf"^[0-9a-f]{{{SHORT}}}$")


def summary(result: Result, lang: str) -> str:
    """`1a2b3c4d · 25 Nov 2026 · Forbidden City · Ann 61 🏆, Bob 54`."""
    day = format_date(datetime.fromtimestamp(result.ended, UTC), format="medium", locale=lang)
    seats = sorted(result.seats, key=lambda s: (s.place, s.seat))
    scores = ", ".join(
        f"{shown_name(s.name, lang)} {s.score}" + (" 🏆" if s.place == 1 else "") for s in seats
    )
    title = tr(lang, module(result.kind).title)
    ended = f" ({tr(lang, 'ended by a vote')})" if result.voted_end else ""
    return f"{result.short} · {day} · {title}{ended} · {scores}"


async def _results(ctx: Context, refs: list[str]) -> list[Result]:
    return [Result.model_validate_json(t) for t in await ctx.store.results(refs) if t]


async def history(ctx: Context, actor: Actor, args: list[str], lang: str) -> Reply:
    """`/fc history [@user]`: the channel's last games, or a player's."""
    if args:
        key, _ = target(actor, args, lang)
        refs = await ctx.store.history(key, LISTED)
        heading = tr(lang, "Their last games:")
    elif actor.private:
        refs = await ctx.store.history(f"{actor.platform}:{actor.user_id}", LISTED)
        heading = tr(lang, "Your last games:")
    else:
        channel = Channel.of(actor.platform, actor.channel_id)
        refs = await ctx.store.channel_results(channel, LISTED)
        heading = tr(lang, "The last games here:")
    found = await _results(ctx, refs)
    if not found:
        return Reply(public=[Message(tr(lang, "No finished game is kept yet."))])
    lines = [heading, *(_linked(ctx, r, summary(r, lang)) for r in found)]
    lines.append(tr(lang, "Watch one with /fc replay <id>; download it with /fc export <id>."))
    return Reply(public=[Message("\n".join(lines))])


def _linked(ctx: Context, result: Result, line: str) -> str:
    """A `/fc history` line, with the game's replay page when the pages are served."""
    page = replay_link(ctx, Channel.of(result.platform, result.channel), result.id)
    return f"{line} · {page}" if page else line


async def find(ctx: Context, actor: Actor, short: str, lang: str) -> Result:
    """The kept result a short id names; this channel's first if several share it."""
    short = short.lower()
    if not _SHORT_ID.match(short):
        raise Refused(
            tr(lang, "A game id is 8 letters and digits, as /fc history shows (e.g. 1a2b3c4d).")
        )
    refs = await ctx.store.find(short)
    here = [r for r in refs if parse_ref(r)[0] == Channel.of(actor.platform, actor.channel_id)]
    for ref in here + refs:
        text = await ctx.store.result(ref)
        if text is not None:
            return Result.model_validate_json(text)
    raise Refused(tr(lang, "No finished game has the id {id}.", id=short))


async def replay(ctx: Context, actor: Actor, args: list[str], lang: str) -> Reply:
    """`/fc replay <id>`: the whole game as an animation, a second a move."""
    if len(args) != 1:
        raise Refused(tr(lang, "Write /fc replay <id>, with an id from /fc history."))
    return await show_replay(ctx, actor, args[0], lang)


async def show_replay(ctx: Context, actor: Actor, short: str, lang: str) -> Reply:
    result = await find(ctx, actor, short, lang)
    game_module = module(result.kind)
    at = _seen(result, actor.channel_id, lang)
    image = await ctx.draw(lambda: game_module.visit(_animation, at, result))
    text = tr(lang, "Replay of {game}", game=summary(result, lang))
    page = replay_link(ctx, Channel.of(result.platform, result.channel), result.id)
    if page:
        text += "\n" + tr(lang, "Step through it: {link}", link=page)
    return Reply(public=[Message(text, image=image, image_name=f"replay-{result.short}.gif")])


def _seen(result: Result, channel_id: str, lang: str) -> At:
    """How a kept game is drawn: its players by the names they kept, nobody mentioned."""
    return At(
        lang=lang,
        channel_id=channel_id,
        users={},
        names={s.seat: shown_name(s.name, lang) for s in result.seats},
        words=translations(lang).gettext,
    )


def _animation(game_module: GameModule[G, V, A], at: At, result: Result) -> bytes:
    try:
        views = game_module.replay_views(result.record)
    except CorruptRecord as err:
        raise Refused(f"stored game unreadable: {err}") from None
    return game_module.replay_image(at, views)


async def export(ctx: Context, actor: Actor, args: list[str], lang: str) -> Reply:
    """`/fc export <id>`: the engine's record of the game, as a file."""
    if len(args) != 1:
        raise Refused(tr(lang, "Write /fc export <id>, with an id from /fc history."))
    result = await find(ctx, actor, args[0], lang)
    name = f"{result.kind.replace('_', '-')}-{result.short}.json"
    # The record says who sat where, as the table named them (forgotten: anonymous).
    sat = {
        s.seat: player_name(result.player(s), None, lang) if s.level else shown_name(s.name, lang)
        for s in result.seats
    }
    data = json.dumps({**result.record, "names": sat}, ensure_ascii=False, indent=1).encode()
    text = tr(
        lang,
        "{game}. Step through it with: python -m {engine} replay {file}",
        game=summary(result, lang),
        engine=module(result.kind).engine,
        file=name,
    )
    return Reply(public=[Message(text, image=data, image_name=name)])


@dataclass(frozen=True, slots=True)
class Replayed:
    """A kept game as its replay page shows it: the chat's words, each action as the table
    saw it, how many positions there are to step through (the start, then one an action),
    and what it opens on beside the deal's board."""

    title: str  # the summary line of `/fc history`
    lang: str
    moves: tuple[str, ...]  # "Ann: -1,-2@0", one an action
    positions: int
    sidebar: Sidebar = field(default_factory=Sidebar)  # beside the deal (`frame_sidebar`)


def _ref(channel: Channel, game_id: str) -> str:
    return f"{channel}:{game_id}"


async def _kept(ctx: Context, channel: Channel, game_id: str) -> Result | None:
    text = await ctx.store.result(_ref(channel, game_id))
    return None if text is None else Result.model_validate_json(text)


async def replayed(ctx: Context, channel: Channel, game_id: str) -> Replayed | None:
    """The kept game `game_id` of `channel` for its replay page, None if none is kept."""
    result = await _kept(ctx, channel, game_id)
    if result is None:
        return None
    lang = await ctx.channel_language(channel)
    names = {s.seat: shown_name(s.name, lang) for s in result.seats}
    log = await ctx.draw(lambda: _log(result.kind, result.record))
    moves = tuple(f"{names.get(seat, seat)}: {action}" for seat, action in log)
    at = _seen(result, channel.channel_id, lang)
    dealt = await ctx.draw(lambda: module(result.kind).visit(_sidebar, at, result, 0))
    return Replayed(summary(result, lang), lang, moves, len(moves) + 1, dealt or Sidebar())


def _log(kind: str, record: Record) -> list[tuple[str, str]]:
    try:
        return module(kind).visit(_replay_log, record)
    except CorruptRecord as err:
        raise Refused(f"stored game unreadable: {err}") from None


def _replay_log(game_module: GameModule[G, V, A], record: Record) -> list[tuple[str, str]]:
    return game_module.replay_log(record)


async def frame(ctx: Context, channel: Channel, game_id: str, number: int) -> bytes | None:
    """Position `number` of a kept game (0: the start) as the channel saw it, None if there
    is no such game or position."""
    return await _position(ctx, channel, game_id, _png, number)


async def frame_svg(ctx: Context, channel: Channel, game_id: str, number: int) -> str | None:
    """Position `number`'s board as SVG for the replay page (sharp on any screen), None if
    there is no such game or position."""
    return await _position(ctx, channel, game_id, _svg, number)


async def frame_sidebar(
    ctx: Context, channel: Channel, game_id: str, number: int
) -> Sidebar | None:
    """What the replay page shows beside position `number`'s board, as the channel's picture
    shows it around the board (seats and scores, the dice...): the SVG is the board alone."""
    return await _position(ctx, channel, game_id, _sidebar, number)


Drawn = TypeVar("Drawn")


async def _position(
    ctx: Context,
    channel: Channel,
    game_id: str,
    drawing: Visitor[[At, Result, int], Drawn | None],
    number: int,
) -> Drawn | None:
    result = await _kept(ctx, channel, game_id)
    if result is None:
        return None
    at = _seen(result, channel.channel_id, await ctx.channel_language(channel))
    return await ctx.draw(lambda: module(result.kind).visit(drawing, at, result, number))


def _view(game_module: GameModule[G, V, A], result: Result, number: int) -> V | None:
    views = _views(game_module, result.ref, result)
    return views[number] if 0 <= number < len(views) else None


def _png(game_module: GameModule[G, V, A], at: At, result: Result, number: int) -> bytes | None:
    view = _view(game_module, result, number)
    return None if view is None else game_module.table_image(at, view)


def _svg(game_module: GameModule[G, V, A], at: At, result: Result, number: int) -> str | None:
    view = _view(game_module, result, number)
    return None if view is None else _sized(game_module.table_svg(at, view))


def _sidebar(
    game_module: GameModule[G, V, A], at: At, result: Result, number: int
) -> Sidebar | None:
    view = _view(game_module, result, number)
    return None if view is None else game_module.sidebar(at, view)


_ROOT = re.compile(r"<svg\b[^>]*>")
_VIEW_BOX = re.compile(r'\bviewBox="\s*[-\d.]+[\s,]+[-\d.]+[\s,]+([\d.]+)[\s,]+([\d.]+)\s*"')


def _sized(drawing: str) -> str:
    """`drawing` with a size of its own, its viewBox's, if its root has none: an <img> of an
    SVG that has only a viewBox has no natural size (Chromium says 150 px), so how large a
    browser shows it is a guess; sized, a position is shown as large as its PNG was."""
    root = _ROOT.search(drawing)
    if root is None or re.search(r"\s(width|height)=", root[0]):
        return drawing
    box = _VIEW_BOX.search(root[0])
    if box is None:
        return drawing
    at = root.start() + len("<svg")
    return f'{drawing[:at]} width="{box[1]}" height="{box[2]}"{drawing[at:]}'


@lru_cache(maxsize=8)
def _cached_views(kind: str, ref: str, record_json: str) -> tuple[object, ...]:
    """The public views of a kept game, for the few games this process steps through now
    (a replay page asks for one position at a time)."""
    record: Record = json.loads(record_json)
    return tuple(module(kind).visit(_replay_views, record))


def _replay_views(game_module: GameModule[G, V, A], record: Record) -> list[V]:
    try:
        return game_module.replay_views(record)
    except CorruptRecord as err:
        raise Refused(f"stored game unreadable: {err}") from None


def _views(game_module: GameModule[G, V, A], ref: str, result: Result) -> list[V]:
    record_json = json.dumps(result.record, sort_keys=True)
    return list(_cached_views(result.kind, ref, record_json))  # type: ignore[arg-type]
