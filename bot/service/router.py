"""The router: command words and button kinds to their handlers, in one table each.

Every handler answers with a `Reply`; a refusal (`Refused`, an illegal move, a lost race, an
outage) becomes a short private answer that says why, and nothing is changed. In a private chat,
commands about a table act on the user's game when they have only one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import TypeVar

from engine.core.errors import CorruptRecord, IllegalMove

from ..exchange import buttons
from ..exchange.actor import Actor
from ..exchange.buttons import Codec, Frame, Tapped
from ..exchange.refused import Refused
from ..exchange.replies import Reply
from ..games import Playing
from ..runtime.metrics import ERRORS
from ..store import Channel, Conflict, NotFound, StoreUnavailable
from ..text.i18n import tr
from ..text.names import without_controls
from . import chat, forget, history, lobby, reading, standings, turns, votes
from .context import Context
from .moment import Moment, enter

G = TypeVar("G", bound=Playing)
V = TypeVar("V")
A = TypeVar("A")
Handler = Callable[[Context, Actor, list[str], str], Awaitable[Reply]]


@dataclass(frozen=True, slots=True)
class Command:
    handler: Handler
    anywhere: bool = False  # in a private chat it needs no game to be about


async def _computers(ctx: Context, actor: Actor, args: list[str], lang: str) -> Reply:
    """`/fc bot add [level]`, `/fc bot remove [n]`: the words of Discord's `/fc bot` group,
    the same on every platform (`addbot` and `removebot` still work)."""
    word = args[0].lower() if args else ""
    if word == "add":
        return await lobby.addbot(ctx, actor, args[1:], lang)
    if word == "remove":
        return await lobby.removebot(ctx, actor, args[1:], lang)
    raise Refused(tr(lang, "Write /fc bot add [easy|normal|hard] or /fc bot remove [n]."))


COMMANDS: dict[str, Command] = {
    "new": Command(lobby.new, anywhere=True),
    "join": Command(lobby.join),
    "leave": Command(lobby.leave),
    "start": Command(lobby.start),
    "bot": Command(_computers),
    "addbot": Command(lobby.addbot),  # `bot add`, as typed before the words were grouped
    "removebot": Command(lobby.removebot),
    "play": Command(turns.play),
    "vote": Command(votes.vote),
    "back": Command(votes.back),
    "hand": Command(reading.hand),
    "board": Command(reading.board),
    "web": Command(reading.web),
    "status": Command(reading.status),
    "score": Command(reading.status),
    "rules": Command(reading.rules, anywhere=True),
    "help": Command(reading.help_text, anywhere=True),
    "games": Command(reading.games, anywhere=True),
    "abort": Command(lobby.abort),
    "lang": Command(chat.lang, anywhere=True),
    "notify": Command(chat.notify, anywhere=True),
    "stats": Command(standings.stats, anywhere=True),
    "top": Command(standings.top, anywhere=True),
    "history": Command(history.history, anywhere=True),
    "replay": Command(history.replay, anywhere=True),
    "export": Command(history.export, anywhere=True),
    "forget": Command(forget.forget, anywhere=True),
}


ButtonHandler = Callable[[Context, Actor, Frame, str], Awaitable[Reply]]


def _tapped(codec: Codec[V], frame: Frame, lang: str) -> Tapped[V]:
    """The button read as its kind's codec reads it, or the refusal of a forged one."""
    found = codec.of(frame)
    if found is None:
        raise Refused(buttons.not_valid(lang))
    return found


async def _switch(ctx: Context, actor: Actor, frame: Frame, lang: str) -> Reply:
    return await lobby.switch(ctx, actor, _tapped(buttons.OTHER_GAME, frame, lang).value, lang)


async def _vote(ctx: Context, actor: Actor, frame: Frame, lang: str) -> Reply:
    pressed = _tapped(buttons.VOTE, frame, lang)
    return await votes.vote(ctx, actor, [pressed.value], lang, pressed.count)


async def _replay(ctx: Context, actor: Actor, frame: Frame, lang: str) -> Reply:
    return await history.show_replay(ctx, actor, _tapped(buttons.REPLAY, frame, lang).value, lang)


async def _forget(ctx: Context, actor: Actor, frame: Frame, lang: str) -> Reply:
    return await forget.confirmed(ctx, actor, _tapped(buttons.FORGET, frame, lang).value, lang)


# The lobby's buttons, which work only in the channel where they were posted. Every other kind
# is a game's own (`GameInfo.button_kinds`), carrying the action count it was made for.
LOBBY_BUTTONS: dict[str, ButtonHandler] = {
    buttons.JOIN.kind: lambda ctx, actor, frame, lang: lobby.join(ctx, actor, [], lang),
    buttons.START.kind: lambda ctx, actor, frame, lang: lobby.start(ctx, actor, [], lang),
    buttons.ADD_COMPUTER.kind: lambda ctx, actor, frame, lang: lobby.addbot(ctx, actor, [], lang),
    buttons.OTHER_GAME.kind: _switch,
}
# Buttons that work wherever they were posted or forwarded, each checking who presses: watch
# a kept game's replay, confirm `forget me`, vote on a late turn (`votes.buttons`: in the chat
# and in a voter's private `/fc hand`).
ANYWHERE_BUTTONS: dict[str, ButtonHandler] = {
    buttons.VOTE.kind: _vote,
    buttons.REPLAY.kind: _replay,
    buttons.FORGET.kind: _forget,
}
COMPLETIONS_KEPT = 512  # autocomplete answers kept per process (each for one table version)


async def command(ctx: Context, actor: Actor, text: str) -> Reply:
    """Runs `/fc <text>` typed by `actor`."""
    words = without_controls(text).split()
    name = words[0].lower().lstrip("/") if words else "help"
    lang = await ctx.language(actor)
    found = COMMANDS.get(name)
    if found is None:
        ERRORS.labels("unknown_command").inc()
        return Reply.error(tr(lang, "Unknown command “{name}”. Try /fc help.", name=name[:30]))
    if not actor.private or found.anywhere:
        return await guard(lang, found.handler(ctx, actor, words[1:], lang))
    try:
        actor = await home(ctx, actor, lang)
    except Refused as refused:
        ERRORS.labels("refused").inc()
        return Reply.error(str(refused))
    except StoreUnavailable:
        return await guard(lang, found.handler(ctx, actor, words[1:], lang))
    reply = await guard(lang, found.handler(ctx, actor, words[1:], lang))
    reply.channel_id = actor.channel_id
    return reply


async def press(ctx: Context, actor: Actor, data: str) -> Reply:
    """A button or menu choice; `data` names the game's channel, so private chats work too.
    The language is that of the game's chat, read once with its settings (`turns.pressed`
    hands them down to the answer)."""
    pressed = Frame.parse(data)
    if pressed is None:
        return _not_valid(await ctx.language(actor))
    where = replace(actor, channel_id=pressed.channel_id, private=False)
    lang, chat = await ctx.spoken(where)
    lobby_button = LOBBY_BUTTONS.get(pressed.kind)
    anywhere_button = ANYWHERE_BUTTONS.get(pressed.kind)
    if anywhere_button is not None:
        reply = await guard(lang, anywhere_button(ctx, where, pressed, lang))
    elif lobby_button is not None and pressed.channel_id == actor.channel_id:  # where posted
        reply = await guard(lang, lobby_button(ctx, where, pressed, lang))
        _shown_again(reply)
    elif lobby_button is None and pressed.count is not None and pressed.payload is not None:
        press = turns.Press(pressed.kind, pressed.count, pressed.payload)
        reply = await guard(lang, turns.pressed(ctx, where, press, lang, chat))
    else:
        reply = _not_valid(lang)
    reply.channel_id = pressed.channel_id
    return reply


def _shown_again(reply: Reply) -> None:
    """A press on the lobby that shows the lobby again (a seat taken, a computer added, the
    other game chosen) replaces the lobby it was pressed on, where the platform edits."""
    if reply.ok and reply.public and reply.public[0].buttons:
        reply.public[0].in_place = True


def _not_valid(lang: str) -> Reply:
    """A button's data that names nothing it could do (forged, or pressed where it was not
    posted): counted, like every refusal, under its own kind."""
    ERRORS.labels("invalid_button").inc()
    return Reply.error(buttons.not_valid(lang))


async def complete(ctx: Context, actor: Actor, text: str) -> list[tuple[str, str]]:
    """Choices for the argument of `play`, for platforms with autocomplete. Hundreds may come
    at once (a player typing, a busy server): choices are kept per table version, so each asks
    Redis once and works out nothing twice, and a brief outage is waited out, not answered
    with nothing: three tries, a pause between each and the next (none after the last)."""
    for attempt in range(3):
        if attempt:
            await asyncio.sleep(0.2 * attempt)
        try:
            return await _choices(ctx, actor, text)
        except StoreUnavailable:
            continue
        except (Refused, CorruptRecord):
            return []
    return []


async def _choices(ctx: Context, actor: Actor, text: str) -> list[tuple[str, str]]:
    if actor.private:  # the same game `play` would be about there
        actor = await home(ctx, actor, ctx.default_language)
    channel = Channel.of(actor.platform, actor.channel_id)
    loaded = await ctx.load(channel)
    if loaded is None or loaded.table.game is None:
        return []
    key = (str(channel), loaded.record.version, actor.user_id, text)
    found = ctx.completions.get(key)
    if found is None:
        found = enter(ctx, loaded, ctx.default_language, _complete, actor, text)
        ctx.completions[key] = found
        while len(ctx.completions) > COMPLETIONS_KEPT:
            ctx.completions.popitem(last=False)
    return found


def _complete(moment: Moment[G, V, A], actor: Actor, text: str) -> list[tuple[str, str]]:
    seat = moment.table.engine_seat(actor.user_id)
    if seat is None or moment.game.is_over:
        return []
    return moment.module.complete(moment.at(), moment.game, seat, text)


async def home(ctx: Context, actor: Actor, lang: str) -> Actor:
    """In a private chat, commands are about the user's game if there is only one."""
    games = await ctx.store.user_games(actor.platform, actor.user_id)
    if len(games) == 1:
        return replace(actor, channel_id=games[0].channel_id)
    if not games:
        raise Refused(tr(lang, "You have no game under way."))
    raise Refused(
        tr(
            lang,
            "You play in several chats: type the command in the game's chat, or use the buttons.",
        )
    )


async def guard(lang: str, work: Awaitable[Reply]) -> Reply:
    """The reply of `work`, or the reason it changed nothing."""
    try:
        return await work
    except Refused as refused:
        ERRORS.labels("refused").inc()
        return Reply.error(str(refused))
    except IllegalMove as illegal:  # a module explains its own; this is the last resort
        ERRORS.labels("illegal").inc()
        return Reply.error(tr(lang, "That move is not allowed: {reason}.", reason=illegal.reason))
    except Conflict:
        ERRORS.labels("conflict").inc()
        return Reply.error(
            tr(lang, "Someone was quicker: that was already played. Nothing was changed.")
        )
    except NotFound:
        ERRORS.labels("closed").inc()
        return Reply.error(tr(lang, "This table is closed."))
    except StoreUnavailable:
        ERRORS.labels("store_unavailable").inc()
        return Reply.error(
            tr(
                lang,
                "The game storage is unavailable right now. Nothing was changed; "
                "please try again in a moment.",
            )
        )
