"""Time: reminders, turn limits and computer players' turns, fired once across processes.

Deadlines live in Redis beside the games (`Store.due`); each is claimed as a lease before its
work, so two processes never fire one twice, and one whose process died comes due again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TypeVar

from ..exchange.refused import Refused
from ..exchange.replies import Message, Reply
from ..games import Playing
from ..runtime.metrics import DEADLINES, DUE, LATE
from ..store import CLAIM_LEASE, Channel, Conflict, Deadline, StoreUnavailable
from ..text.durations import duration_text
from ..text.i18n import tr
from . import posting, results, votes
from .computers import computer_turn
from .context import Context, user_names, waiting_seats
from .moment import Moment, enter_stored
from .schedule import turn_deadlines
from .turns import after_action, prompts, stand_in

G = TypeVar("G", bound=Playing)
V = TypeVar("V")
A = TypeVar("A")
log = logging.getLogger(__name__)


class Lease:
    """Keeps a claimed deadline's lease while its work goes on (a computer player's search,
    a slow image): renewed every third of `CLAIM_LEASE`, so a process that dies lets another
    take the deadline over within `CLAIM_LEASE`, and a live one never loses it."""

    def __init__(self, ctx: Context, claimed: Deadline) -> None:
        self.ctx = ctx
        self.claimed = claimed
        self._renewer: asyncio.Task[None] | None = None

    async def __aenter__(self) -> Lease:
        self._renewer = asyncio.create_task(self._renew())
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._renewer is not None:
            self._renewer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._renewer

    async def _renew(self) -> None:
        while True:
            await asyncio.sleep(CLAIM_LEASE / 3)
            try:
                renewed = await self.ctx.store.renew(self.claimed, self.ctx.clock() + CLAIM_LEASE)
            except StoreUnavailable:
                continue  # the lease may run out; the work is then done again, not lost
            if renewed is None:
                self._ended()
                return
            self.claimed = renewed

    def _ended(self) -> None:
        """A renewal refused. Another process can claim the deadline only once the lease has
        run out: only then may the work be done twice, which is worth a warning. Before that,
        the deadline was set anew or cancelled: most often by its own work (a save with the
        next turn's deadlines, a reminder set for the turn as stored), else by a move or a
        vote saved meanwhile, whose turn the work then finds changed. Both are normal."""
        member = self.claimed.member
        if self.ctx.clock() >= self.claimed.due:
            log.warning("the lease of %s was lost: it ran out before it was renewed", member)
        else:
            log.debug("the lease of %s ended: its deadline was set anew or cancelled", member)


async def fire_due(ctx: Context, platform: str | None = None) -> list[tuple[str, str, Reply]]:
    """Reminders and turn limits that are due (on `platform`, or all), each claimed so it
    fires once across processes and adapters. A claim is a lease: one whose work fails
    halfway comes due again. Never raises for an outage, so polling loops keep going.
    The `fc_deadlines_due` gauge then counts what the poll left due (another platform's)."""
    out: list[tuple[str, str, Reply]] = []
    try:
        while ctx.untold:
            channel = next(iter(ctx.untold))
            await ctx.store.cancel(channel, "news")
            ctx.untold.discard(channel)
        if ctx.clock() >= ctx.next_sweep:
            ctx.next_sweep = ctx.clock() + results.SWEEP_EVERY
            await results.sweep(ctx)
        due = await ctx.store.due(ctx.clock())
        DUE.set(len(due))  # what the poll read: no round trip of its own
        for deadline in due:
            if platform is not None and deadline.channel.platform != platform:
                continue  # still due: another platform's poller fires it
            claimed = await ctx.store.lease(deadline, ctx.clock() + CLAIM_LEASE)
            DUE.dec()  # no longer waiting: claimed here or elsewhere, or set anew
            if claimed is None:
                continue
            DEADLINES.labels(deadline.kind).inc()
            LATE.labels(deadline.kind).observe(max(0.0, ctx.clock() - deadline.due))
            lease = Lease(ctx, claimed)
            async with ctx.gate, lease:
                reply = await _fire(ctx, deadline.channel, deadline.kind)
            if reply.public or reply.direct:
                out.append((deadline.channel.platform, deadline.channel.channel_id, reply))
            await ctx.store.done(lease.claimed)  # its work is stored: a failure loses nothing
    except StoreUnavailable as err:
        if not ctx.store_down:
            log.warning("deadlines wait for the store: %s", err)
        ctx.store_down = True
        return out
    if ctx.store_down:
        log.info("the store is back; deadlines fire again")
    ctx.store_down = False
    return out


async def restore(ctx: Context) -> int:
    """At start-up, give every turn under way its reminder and time limit again.

    Deadlines live in Redis and are written with each turn, so a restart keeps them;
    this covers any lost otherwise (a Redis restored from an older save, or games
    stored before deadlines were written with the turn). Returns how many were set.
    """
    restored = 0
    for listed in await ctx.store.live_channels():
        try:
            loaded = await ctx.load(listed)
        except Refused as unreadable:  # one broken table must not keep the others waiting
            log.error("%s: %s", listed, unreadable)
            continue
        if loaded is None or loaded.table.game is None:
            continue
        channel = loaded.record.channel  # where the table is now, if it moved meanwhile
        for kind, due in turn_deadlines(ctx, loaded.table).items():
            if due is not None and await ctx.store.deadline(channel, kind) is None:
                await ctx.store.schedule(channel, kind, due)
                restored += 1
    return restored


async def _fire(ctx: Context, channel: Channel, kind: str) -> Reply:
    if kind == "bot":
        return await computer_turn(ctx, channel)
    if kind == "post":
        return await posting.deliver(ctx, channel)
    loaded = await ctx.load(channel)
    if loaded is None or loaded.table.game is None:
        return Reply()
    lang = await ctx.channel_language(channel)
    if kind == "news":
        return await enter_stored(ctx, loaded, lang, channel, _news)
    return await enter_stored(ctx, loaded, lang, channel, _fire_turn, kind)


async def resume(ctx: Context, channel: Channel) -> Reply:
    """The table as it stands and the waited-for seats' prompts: the news of a move whose
    reply was lost, or a console started again (it keeps no private messages)."""
    loaded = await ctx.load(channel)
    if loaded is None or loaded.table.game is None:
        return Reply()
    lang = await ctx.channel_language(channel)
    return await enter_stored(ctx, loaded, lang, channel, _news)


async def _news(moment: Moment[G, V, A]) -> Reply:
    ctx, game, game_module = moment.ctx, moment.game, moment.module
    if game.is_over:
        return Reply()
    at = moment.at()
    text = tr(moment.lang, "The game stands as shown: every move so far is saved.")
    text += " " + game_module.next_text(at, game)
    image = await ctx.draw(lambda: game_module.table_image(at, game_module.view(game, None)))
    notices = await prompts(moment, at, await moment.settings(), waiting_seats(game))
    message = Message(text, image=image, names=user_names(moment.table))
    return Reply(public=[message], direct=notices)


async def _fire_turn(moment: Moment[G, V, A], kind: str) -> Reply:
    """A person's reminder or time limit, if it is still due for the stored turn."""
    ctx = moment.ctx
    if moment.game.is_over:
        return Reply()
    due = turn_deadlines(ctx, moment.table).get(kind)
    if due is None:
        return Reply()
    if ctx.clock() < due:  # not yet due for the stored turn: set it for that turn
        await ctx.store.schedule(moment.channel, kind, due)
        return Reply()
    if kind == "remind":
        return await _remind(moment)
    if kind == "limit":
        return await _limit(moment)
    return Reply()


async def _remind(moment: Moment[G, V, A]) -> Reply:
    """A gentle reminder, privately, to each person the game still waits for."""
    ctx, at = moment.ctx, moment.at()
    chat = await moment.settings()
    seats = list(dict.fromkeys(turn.seat for turn in moment.game.to_act))
    reply = Reply(direct=await prompts(moment, at, chat, seats, reminder=True))
    await ctx.store.schedule(
        moment.channel, "remind", ctx.clock() + ctx.settings.reminder_after.total_seconds()
    )
    return reply


async def _limit(moment: Moment[G, V, A]) -> Reply:
    """The turn ran past its limit: the decisions are made for the seats, or votes open."""
    ctx, table, game, lang = moment.ctx, moment.table, moment.game, moment.lang
    if all(moment.module.on_limit(t.kind) == "default" for t in game.to_act):
        return await _defaults(moment)
    table.limit_passed = True
    try:
        await ctx.save(moment.loaded, {"limit": None})
    except Conflict:
        return Reply()
    at = moment.at()
    who = ", ".join(at.mention(s) for s in waiting_seats(game))
    duration = duration_text(ctx.settings.turn_limit.total_seconds(), lang)
    if ctx.playable(table.kind):
        text = tr(
            lang,
            "{who} has had the turn for more than {duration}. The other players may "
            "/fc vote skip (a move is played for them), /fc vote bot (a computer player "
            "plays for them until they are back) or /fc vote end (the game ends now).",
            who=who,
            duration=duration,
        )
    else:
        text = tr(
            lang,
            "{who} has had the turn for more than {duration}. The other players may "
            "/fc vote skip (a move is played for them) or /fc vote end (the game ends "
            "now).",
            who=who,
            duration=duration,
        )
    choices = votes.buttons(ctx, table.kind, moment.channel.channel_id, at.count, lang)
    return Reply(public=[Message(text, names=user_names(table), buttons=[choices])])


async def _defaults(moment: Moment[G, V, A]) -> Reply:
    """The turn limit made the waited-for decisions for their seats (as the game says)."""
    made = stand_in(moment, told=True)
    try:
        reply = await after_action(moment, made.lines, made.draws, forced=made.forced)
    except Conflict:
        return Reply()
    reply.direct = made.news + reply.direct
    return reply
