"""Turns: a typed `/fc play` or a pressed game button becomes an action, and what follows it.

After every action the game is saved with the next turn's deadlines in one step, then told: the
channel gets the words and (when the table changed) its image, whoever must act next gets a
private prompt, and the seat that acted gets its private news. A stale or doubled press fails
the versioned save (`Conflict`) and changes nothing.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, replace
from functools import partial
from typing import TypeVar

from engine.core.errors import IllegalMove

from ..exchange.actor import Actor
from ..exchange.buttons import not_valid
from ..exchange.refused import Refused
from ..exchange.replies import Direct, Message, Reply
from ..games import At, Playing
from ..records.table import Table, keep
from ..runtime.metrics import ACTIONS
from ..store import Channel, ChatSettings, StoreUnavailable
from ..text.i18n import tr
from . import results
from .context import Context, user_names, waiting, waiting_seats
from .moment import Moment, enter
from .schedule import NEWS_AFTER, saved_deadlines
from .weblinks import with_seat_link

G = TypeVar("G", bound=Playing)
V = TypeVar("V")
A = TypeVar("A")
Chat = ChatSettings | None


def seated(moment: Moment[G, V, A], actor: Actor) -> str:
    """The actor's seat in the game under way."""
    seat = moment.table.engine_seat(actor.user_id)
    if seat is None:
        raise Refused(tr(moment.lang, "You are not playing at this table."))
    if moment.game.is_over:
        raise Refused(tr(moment.lang, "The game is over."))
    return seat


def acting(moment: Moment[G, V, A], actor: Actor) -> str:
    """The actor's seat, if the game waits for a decision of theirs."""
    seat = seated(moment, actor)
    table, lang = moment.table, moment.lang
    if table.user_of(seat).away:
        raise Refused(
            tr(lang, "A computer player has your seat: /fc back to play it yourself again.")
        )
    if seat not in waiting_seats(moment.game):
        waited = [table.user_of(s).name for s in waiting_seats(moment.game)]
        raise Refused(tr(lang, "It is {who}'s turn, not yours.", who=", ".join(waited)))
    return seat


@dataclass(frozen=True, slots=True)
class Words:
    """An action typed: `/fc play <words>`."""

    words: list[str]


@dataclass(frozen=True, slots=True)
class Press:
    """A game's own button, made for the action `count`."""

    kind: str
    count: int
    payload: str


async def play(ctx: Context, actor: Actor, args: list[str], lang: str) -> Reply:
    """`/fc play <args>`: the game module reads the words as an action."""
    loaded = await ctx.need(actor, lang)
    return await enter(ctx, loaded, lang, _turn, actor, Words(args))


async def pressed(ctx: Context, actor: Actor, press: Press, lang: str, chat: Chat) -> Reply:
    """A game's own button: an action, or a private reply (a menu, a preview). `chat` is the
    chat's settings as the press's language was read from them (`None` in an outage)."""
    loaded = await ctx.need(actor, lang)
    if press.kind not in loaded.table.module.button_kinds:
        raise Refused(not_valid(lang))
    return await enter(ctx, loaded, lang, _turn, actor, press, chat)


async def _turn(
    moment: Moment[G, V, A], actor: Actor, move: Words | Press, chat: Chat = None
) -> Reply:
    """A person's action, typed or pressed: played, stored and told."""
    module, game = moment.module, moment.game
    if Channel.of(actor.platform, actor.channel_id) == moment.channel:  # not a moved table's
        moment.chat = chat
    seat = acting(moment, actor)
    at = moment.at()
    if isinstance(move, Words):
        action = module.typed(replace(at, private=actor.private), game, seat, move.words)
    else:
        made = partial(module.pressed, at, game, seat, move.kind, move.count, move.payload)
        outcome = await moment.ctx.draw(made)
        if isinstance(outcome, Reply):
            return outcome
        action = outcome
    try:
        acted = module.act(at, game, seat, action)
    except IllegalMove as err:
        raise Refused(module.explain(err, moment.lang)) from None
    ACTIONS.labels(module.key, "person").inc()
    lines = acted.lines + module.after_play(at, game)
    forced = moment.count > at.count + 1
    return await after_action(moment, lines, acted.draws, seat, forced=forced)


async def after_action(
    moment: Moment[G, V, A],
    lines: list[str],
    drawn: bool,
    actor_seat: str | None = None,
    *,
    forced: bool = False,
) -> Reply:
    """Store the game after its actions and say so: to the channel, to whoever must act
    next (privately), and to the seat that acted.

    A decision the game did not wait for before is new: its seat gets a turn notice. So is
    every decision after the table played forced actions (`forced`: a tile set aside), even
    the actor's; otherwise the actor, still deciding (more moves in its turn), gets its next
    choice in the reply.

    Words without a picture that only computers follow (a secret choice) wait in the table
    and open the computers' post: one message to the group, not two."""
    ctx, table, game = moment.ctx, moment.table, moment.game
    before = set(table.waiting)
    keep(moment.module, table, game)
    now = waiting(game)
    newly = now if forced else now - before
    table.waiting = sorted(now)
    if newly:  # a new decision is awaited: its clock starts, old votes are void
        table.turn_started = ctx.clock()
        table.votes = {}
        table.limit_passed = False
    at = moment.at()
    lines = [line for line in [*table.said, *lines] if line]
    table.said = []
    if game.is_over:
        return await results.ended(moment, lines, voted_end=False)
    # Everything the reply needs from Redis is read before the save, and the next turn's
    # deadlines go in the save itself: once the move is stored, nothing else can fail.
    chat = await moment.settings()
    later = not drawn and _computers_next(table, game)
    if later:
        table.said = list(lines)  # a copy: the turn's words below are not owed
    await ctx.save(moment.loaded, saved_deadlines(ctx, table) | news_owed(ctx))
    lines.append(moment.module.next_text(at, game))
    told = {w.split(" ", 1)[0] for w in newly}
    if not forced:
        told.discard(actor_seat or "")
    seats = [s for s in waiting_seats(game) if s in told]
    image, notices, own = await asyncio.gather(
        _table_image(moment, at, drawn),
        prompts(moment, at, chat, seats),
        _own(moment, at, None if actor_seat in told else actor_seat),
    )
    message = Message(" ".join(lines), image=image, names=user_names(table))
    reply = Reply(public=[] if later else [message], direct=notices)
    reply.private.extend(own)
    await news_told(ctx, moment.channel)
    return reply


def _computers_next(table: Table, game: Playing) -> bool:
    """Whether only computer players are waited for now: they post within their pause."""
    seats = waiting_seats(game)
    return bool(seats) and set(seats) <= set(table.computer_seats())


def news_owed(ctx: Context) -> dict[str, float | None]:
    """The deadline of a move's news: due unless `news_told` cancels it (the reply is ready)."""
    return {"news": ctx.clock() + NEWS_AFTER}


async def news_told(ctx: Context, channel: Channel) -> None:
    """The reply is ready: its news are no longer owed. If Redis is away now, the process
    cancels them as soon as it is back, before any deadline fires (`Context.untold`); only a
    process that dies meanwhile tells them twice."""
    try:
        await ctx.store.cancel(channel, "news")
    except StoreUnavailable:
        ctx.untold.add(channel)


async def _table_image(moment: Moment[G, V, A], at: At, drawn: bool) -> bytes | None:
    """The channel's image, drawn from the public view, if the table changed enough."""
    if not drawn:
        return None
    module, game = moment.module, moment.game
    return await moment.ctx.draw(lambda: module.table_image(at, module.view(game, None)))


async def _own(moment: Moment[G, V, A], at: At, seat: str | None) -> list[Message]:
    """For the seat that acted: its private news, and its next choice if it acts again."""
    module, game, ctx = moment.module, moment.game, moment.ctx
    if seat is None or game.is_over:
        return []
    out = await ctx.draw(partial(module.after_own, at, game, seat))
    if seat in waiting_seats(game):
        out.append(await ctx.draw(partial(module.prompt, at, game, seat, False)))
    return out


async def prompts(
    moment: Moment[G, V, A],
    at: At,
    chat: ChatSettings,
    seats: list[str],
    *,
    reminder: bool = False,
) -> list[Direct]:
    """Private turn notices for `seats`, who must now decide (if they want notices), each
    headed by the place of the table when it is known, and ending with the reader's personal
    link to the table's page when the pages are served."""
    ctx, loaded, table, game = moment.ctx, moment.loaded, moment.table, moment.game
    out = []
    for seat in seats:
        if seat not in at.users:  # a computer player's
            continue
        user = table.user_of(seat).user_id
        if not chat.notify_enabled(user):
            continue
        message = await ctx.draw(partial(moment.module.prompt, at, game, seat, reminder))
        message = with_seat_link(ctx, at.lang, loaded, user, message)
        out.append(Direct(user, headed(table, message), turn_notice=not reminder))
    return out


def headed(table: Table, message: Message) -> Message:
    """A private message headed by the place of its table, when known: one may play in
    several groups, topics or threads at once."""
    if table.place:
        message.text = f"📍 {table.place}\n{message.text}"
    return message


@dataclass(slots=True)
class StoodIn:
    """Decisions made for the seats the game waited for (at the limit, or by a vote)."""

    lines: list[str]
    draws: bool
    forced: bool  # the table then played forced actions of its own
    news: list[Direct]  # each seat's private news, when they are told of it


def stand_in(moment: Moment[G, V, A], *, told: bool) -> StoodIn:
    """Plays the game module's stand-in for every seat the game waits for; `told` puts the
    module's words for a decision made at the limit before each, and keeps each seat's news."""
    game_module, game, at = moment.module, moment.game, moment.at()
    count = at.count
    lines: list[str] = []
    news: list[Direct] = []
    draws = False
    turns = game.to_act
    for turn in turns:
        rng = random.Random(game.seed + game_module.count(game))
        acted = game_module.act(at, game, turn.seat, game_module.stand_in(game, turn.seat, rng))
        ACTIONS.labels(game_module.key, "stand-in").inc()
        draws = draws or acted.draws
        if told:
            lines.append(game_module.default_text(at, game, turn.seat, turn.kind))
            user = at.users.get(turn.seat)
            if user is not None:
                news += [Direct(user, m) for m in game_module.after_own(at, game, turn.seat)]
        lines += acted.lines
    lines += game_module.after_play(at, game)
    forced = game_module.count(game) > count + len(turns)
    return StoodIn(lines, draws, forced, news)
