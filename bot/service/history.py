"""`/fc history`, `/fc replay` and `/fc export`: the kept results of finished games.

A replay is drawn from the public views only (`GameModule.replay_views`), the way the channel
saw the game, so it shows nothing a seat kept hidden; an export is the engine's own record,
which `python -m engine.<game> replay FILE` steps through.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import TypeVar

from babel.dates import format_date

from engine.core.errors import CorruptRecord

from ..actor import Actor
from ..games import At, GameModule, Playing, module
from ..i18n import tr, translations
from ..refused import Refused
from ..replies import Message, Reply
from ..results import SHORT, Result
from ..store import Channel, parse_ref
from .context import Context
from .standings import shown_name, target

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
    lines = [heading, *(summary(r, lang) for r in found)]
    lines.append(tr(lang, "Watch one with /fc replay <id>; download it with /fc export <id>."))
    return Reply(public=[Message("\n".join(lines))])


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
    at = At(
        lang=lang,
        channel_id=actor.channel_id,
        users={},
        names={s.seat: shown_name(s.name, lang) for s in result.seats},
        words=translations(lang).gettext,
    )
    image = await ctx.draw(lambda: game_module.visit(_animation, at, result))
    text = tr(lang, "Replay of {game}", game=summary(result, lang))
    return Reply(public=[Message(text, image=image, image_name=f"replay-{result.short}.gif")])


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
    data = json.dumps(result.record, ensure_ascii=False, indent=1).encode()
    text = tr(
        lang,
        "{game}. Step through it with: python -m {engine} replay {file}",
        game=summary(result, lang),
        engine=module(result.kind).engine,
        file=name,
    )
    return Reply(public=[Message(text, image=data, image_name=name)])
