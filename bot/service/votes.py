"""Votes and hand-overs: when a turn runs past its limit the other players vote to skip it, to
hand the late seat to a computer player, or to end the game; `/fc back` takes a seat back.

Computer players never vote, nor people whose seat a computer plays; a strict majority of the
others decides.
"""

from __future__ import annotations

from functools import partial
from typing import Literal, TypeVar

from ..exchange.actor import Actor
from ..exchange.buttons import VOTE
from ..exchange.refused import Refused
from ..exchange.replies import Button, Message, Reply, Style, mention
from ..games import Playing
from ..runtime.computer_pool import DEFAULT_LEVEL
from ..text.i18n import tr
from . import results
from .context import Context, Loaded, no_computers, user_names, waiting_seats
from .moment import Moment, enter
from .schedule import turn_deadlines
from .turns import after_action, seated, stand_in

G = TypeVar("G", bound=Playing)
V = TypeVar("V")
A = TypeVar("A")
Choice = Literal["skip", "end", "bot"]
CHOICES: tuple[Choice, ...] = ("skip", "end", "bot")


async def vote(
    ctx: Context, actor: Actor, args: list[str], lang: str, count: int | None = None
) -> Reply:
    """`/fc vote skip|bot|end`, by a player the late turn keeps waiting; from a vote button
    (`buttons`), `count` is the move the turn was late at, so an old button is refused."""
    loaded = await ctx.need(actor, lang)
    return await enter(ctx, loaded, lang, _vote, actor, args, count)


def buttons(ctx: Context, kind: str, channel_id: str, count: int, lang: str) -> list[Button]:
    """The votes as buttons (`fc:v:<channel>:<count>:<choice>`): in the chat under the
    message that opens them, and on the voters' pages."""
    return [
        Button(label(choice, lang), VOTE.encode(channel_id, count, choice), style)
        for choice, style in _STYLES.items()  # in the order the chat's message names them
        if choice != "bot" or ctx.playable(kind)
    ]


_STYLES: dict[Choice, Style] = {"skip": "primary", "bot": "secondary", "end": "danger"}


def label(choice: str, lang: str) -> str:
    """A vote's choice in words (its button's label)."""
    if choice == "skip":
        return tr(lang, "Skip the turn")
    if choice == "bot":
        return tr(lang, "A computer plays for them")
    return tr(lang, "End the game")


def may_vote(loaded: Loaded, seat: str, absent: list[str]) -> bool:
    """Whether the seat's player votes on the late turn now."""
    table = loaded.table
    return table.limit_passed and seat not in absent and not table.user_of(seat).away


async def _vote(moment: Moment[G, V, A], actor: Actor, args: list[str], count: int | None) -> Reply:
    ctx, loaded, table, game, lang = (
        moment.ctx,
        moment.loaded,
        moment.table,
        moment.game,
        moment.lang,
    )
    if count is not None and (count != moment.count or not table.limit_passed):
        raise Refused(tr(lang, "This button is out of date: the table has changed since."))
    choice = _choice(args, lang)
    seat = table.engine_seat(actor.user_id)
    if seat is None:
        raise Refused(tr(lang, "You are not playing at this table."))
    absent = waiting_seats(game)
    if game.is_over or seat in absent or table.user_of(seat).away:
        raise Refused(tr(lang, "Only the players waiting for the turn can vote."))
    if not table.limit_passed:
        raise Refused(tr(lang, "Votes open when a turn runs past the time limit."))
    if choice == "bot" and not ctx.playable(table.kind):
        raise Refused(no_computers(table.module, lang))
    table.votes[actor.user_id] = choice
    voters = sum(1 for s in table.users() if s not in absent)
    votes = sum(1 for v in table.votes.values() if v == choice)
    if votes * 2 <= voters:
        await ctx.save(loaded)
        return Reply(public=[Message(_counted(actor, choice, votes, voters, lang))])
    if choice == "end":
        table.voted_end = True
        return await results.ended(moment, [], voted_end=True)
    if choice == "bot":
        return await _hand_over(ctx, loaded, absent, lang)
    names = ", ".join(table.user_of(s).name for s in absent)
    lines = [tr(lang, "The players voted to skip: a move is played for {who}.", who=names)]
    made = stand_in(moment, told=False)
    return await after_action(moment, lines + made.lines, made.draws, forced=made.forced)


def _choice(args: list[str], lang: str) -> Choice:
    choice = args[0].lower() if args else ""
    if choice not in CHOICES:
        raise Refused(tr(lang, "Vote with /fc vote skip, /fc vote bot or /fc vote end."))
    return choice


def _counted(actor: Actor, choice: Choice, count: int, voters: int, lang: str) -> str:
    """A vote that does not decide yet, with the count so far."""
    if choice == "bot":
        return tr(
            lang,
            "{who} votes to let a computer player play for the late player ({count}/{voters}).",
            who=actor.name,
            count=count,
            voters=voters,
        )
    return tr(
        lang,
        "{who} votes to {choice} ({count}/{voters}).",
        who=actor.name,
        choice=choice,
        count=count,
        voters=voters,
    )


async def _hand_over(ctx: Context, loaded: Loaded, absent: list[str], lang: str) -> Reply:
    """The players voted that a computer player takes the absent seats until their people
    come back (`/fc back`); it acts after the usual pause, as a seated one does."""
    table = loaded.table
    people = [table.user_of(s) for s in absent]
    for seat in people:
        seat.away = True
    table.votes = {}
    table.limit_passed = False
    await ctx.save(loaded, turn_deadlines(ctx, table))
    text = tr(
        lang,
        "The players voted: a computer player ({level}) plays for {who} until they come "
        "back with /fc back.",
        level=tr(lang, DEFAULT_LEVEL),
        who=", ".join(mention(s.user_id) for s in people),
    )
    return Reply(public=[Message(text, names=user_names(table))])


async def back(ctx: Context, actor: Actor, args: list[str], lang: str) -> Reply:
    """A person whose seat a computer played (`/fc vote bot`) takes it back."""
    loaded = await ctx.need(actor, lang)
    return await enter(ctx, loaded, lang, _back, actor)


async def _back(moment: Moment[G, V, A], actor: Actor) -> Reply:
    ctx, table, game, lang = moment.ctx, moment.table, moment.game, moment.lang
    engine_seat = seated(moment, actor)
    seat = table.user_of(engine_seat)
    if not seat.away:
        raise Refused(tr(lang, "You are playing your seat already."))
    seat.away = False
    mine = engine_seat in waiting_seats(game)
    if mine:  # the computer has not played this turn yet: it is the person's again
        table.turn_started = ctx.clock()
        table.limit_passed = False
        table.votes = {}
    await ctx.save(moment.loaded, turn_deadlines(ctx, table))
    text = tr(lang, "{who} is back and plays their own seat again.", who=mention(actor.user_id))
    reply = Reply(public=[Message(text, names=user_names(table))])
    if mine:
        prompt = partial(moment.module.prompt, moment.at(), game, engine_seat, False)
        reply.private.append(await ctx.draw(prompt))
    return reply
