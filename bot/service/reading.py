"""What only reads: help, rules, status, your games, the board, your hand, how a game ended.

None of these changes a table, so none of them can conflict with a move.
"""

from __future__ import annotations

import contextlib
from functools import partial
from typing import TypeVar

from ..exchange.actor import Actor
from ..exchange.buttons import LAUNCH
from ..exchange.refused import Refused
from ..exchange.replies import Button, Message, Reply
from ..games import DEFAULT, MODULES, GameInfo, GameModule, Playing, by_word, module
from ..records.table import Table, load_game
from ..runtime.computer_pool import HELP as COMPUTER_HELP
from ..store import Channel, StoreUnavailable
from ..text.durations import turn_text
from ..text.i18n import N_, tr
from . import votes
from .context import Context, Loaded, creator_name, user_names, waiting_seats
from .moment import Moment, enter, enter_stored
from .schedule import turn_deadlines
from .turns import seated
from .weblinks import live_line, with_line, with_seat_link

G = TypeVar("G", bound=Playing)
V = TypeVar("V")
A = TypeVar("A")
# `/fc help` lines of the commands every game has, after the game's own lines.
COMMON_HELP = (
    N_("join / leave: sit down or stand up before the start"),
    N_("board: the table"),
    N_("web: the table's web page (your own link to play there, if you play)"),
    N_("rules: the rules in short"),
    N_("abort: end the game (the creator or an admin)"),
    N_("lang <en|fr|it|de>: the chat's language"),
    N_("notify on|off: private turn messages"),
    N_("games: your games everywhere"),
    N_("vote skip|end: when a turn runs past the time limit"),
    N_("stats [@player]: ratings, wins and best scores"),
    N_("top [game] [global]: the leaderboard here, or everywhere"),
    N_("history [@player]: the last finished games, with their ids"),
    N_("replay <id>: watch a finished game; export <id>: download its record"),
    N_("forget me: remove your name from every kept game and rating"),
)


async def hand(ctx: Context, actor: Actor, args: list[str], lang: str) -> Reply:
    """What is the actor's alone, privately: their prompt if they must decide, with their
    personal link to the table's page (a fresh one, whenever they ask)."""
    loaded = await ctx.need(actor, lang)
    return await enter(ctx, loaded, lang, _hand, actor)


async def _hand(moment: Moment[G, V, A], actor: Actor) -> Reply:
    ctx, loaded, game, lang = moment.ctx, moment.loaded, moment.game, moment.lang
    seat = seated(moment, actor)
    at = moment.at(pictures=not actor.page)
    absent = waiting_seats(game)
    if seat in absent:
        message = await ctx.draw(partial(moment.module.prompt, at, game, seat, False))
    else:
        message = await ctx.draw(partial(moment.module.private, at, game, seat))
    shown = [with_seat_link(ctx, lang, loaded, actor.user_id, message)]
    if votes.may_vote(loaded, seat, absent):
        text = tr(lang, "The turn runs past its time limit: your vote?")
        mine = loaded.table.votes.get(actor.user_id)
        if mine is not None:
            text += " " + tr(lang, "You voted: {choice}.", choice=votes.label(mine, lang))
        choices = votes.buttons(
            ctx, loaded.table.kind, moment.channel.channel_id, moment.count, lang
        )
        shown.append(Message(text, buttons=[choices]))
    return Reply(private=shown)


async def web(ctx: Context, actor: Actor, args: list[str], lang: str) -> Reply:
    """`/fc web`: the table's page, privately; a player's comes as their personal link,
    which plays for their seat (a fresh one, whenever they ask). `/fc web new` first ends
    every link of theirs made before, for a link shared by mistake."""
    loaded = await ctx.need(actor, lang)
    channel, game_id = loaded.channel, loaded.record.game_id
    line = live_line(ctx, lang, channel, game_id)
    if not line:
        raise Refused(tr(lang, "This bot serves no web pages."))
    seat = loaded.table.seat_of(actor.user_id)
    if [a.lower() for a in args] == ["new"]:
        if seat is None or seat.bot is not None:
            raise Refused(tr(lang, "You have no seat at this table."))
        seat.new_links()
        await ctx.save(loaded)
        line += "\n" + tr(lang, "Your earlier links to this table play no more.")
    elif args:
        raise Refused(tr(lang, "Write /fc web, or /fc web new to end your earlier links."))
    message = Message(line)
    if loaded.table.started and loaded.table.engine_seat(actor.user_id) is not None:
        message = with_seat_link(ctx, lang, loaded, actor.user_id, message)
    return Reply(private=[message])


async def board(ctx: Context, actor: Actor, args: list[str], lang: str) -> Reply:
    """The table image and scores in the channel; after the end, the final table."""
    channel = Channel.of(actor.platform, actor.channel_id)
    loaded = await ctx.load(channel)
    if loaded is None:
        ended = await ctx.ended(channel)
        if ended is None:
            raise Refused(tr(lang, "There is no table here. Open one with /fc new."))
        return await final(ctx, channel, ended, lang)
    if not loaded.table.started:
        return await status(ctx, actor, args, lang)
    return await enter(ctx, loaded, lang, _board)


async def _board(moment: Moment[G, V, A]) -> Reply:
    ctx, loaded, table, lang = moment.ctx, moment.loaded, moment.table, moment.lang
    game_module, game, at = moment.module, moment.game, moment.at()
    image = await ctx.draw(lambda: game_module.table_image(at, game_module.view(game, None)))
    text = game_module.status_text(at, game, _waited(ctx, table, lang))
    text = with_line(text, live_line(ctx, lang, loaded.channel, loaded.record.game_id))
    message = Message(text, image=image, names=user_names(table))
    if ctx.settings.discord_activity and loaded.channel.platform == "discord":
        # The Discord adapter answers it by launching the page as the channel's Activity.
        launch = LAUNCH.encode(loaded.channel.channel_id, 0, "open")
        message.buttons = [[Button(tr(lang, "Play on the board"), launch, "primary")]]
    return Reply(public=[message])


def _waited(ctx: Context, table: Table, lang: str) -> str:
    """The turn's time for the status: since when, and until its limit (none runs while only
    computer players are waited for; once announced, it has passed)."""
    now = ctx.clock()
    limit = turn_deadlines(ctx, table)["limit"]
    left = 0.0 if table.limit_passed else None if limit is None else limit - now
    return turn_text(now - table.turn_started, left, lang)


async def status(ctx: Context, actor: Actor, args: list[str], lang: str) -> Reply:
    """Scores, what is left, who must act and for how long (privately)."""
    loaded = await ctx.need(actor, lang)
    table = loaded.table
    if not table.started:
        names = ", ".join(s.name for s in table.seats)
        text = tr(
            lang,
            "Waiting for {creator} to start ({n}/{high}): {names}.",
            creator=creator_name(table),
            n=len(table.seats),
            high=table.most,
            names=names,
        )
        return Reply(private=[Message(text)])
    return await enter(ctx, loaded, lang, _status)


async def _status(moment: Moment[G, V, A]) -> Reply:
    waited = _waited(moment.ctx, moment.table, moment.lang)
    text = moment.module.status_text(moment.at(), moment.game, waited)
    return Reply(private=[Message(text)])


async def _here(ctx: Context, actor: Actor) -> GameInfo:
    """The game of the table in the actor's channel, else of the game it played last (its
    final table is what `/fc board` shows there), else the default one."""
    if not actor.private:
        channel = Channel.of(actor.platform, actor.channel_id)
        with contextlib.suppress(StoreUnavailable, Refused, ValueError):
            loaded = await ctx.load(channel)
            if loaded is not None:
                return loaded.table.module
            last = await ctx.store.last_archived(channel)
            if last is not None:
                return Table.model_validate_json(last.data).module
    return module(DEFAULT)


async def rules(ctx: Context, actor: Actor, args: list[str], lang: str) -> Reply:
    chosen = by_word(args[0]) if args else None
    game_module = chosen or await _here(ctx, actor)
    return Reply(private=[Message("\n".join(tr(lang, line) for line in game_module.rules))])


async def help_text(ctx: Context, actor: Actor, args: list[str], lang: str) -> Reply:
    """The commands of the game at the table (or the one named), then those every game has."""
    chosen = by_word(args[0]) if args else None
    game_module = chosen or await _here(ctx, actor)
    lines = [tr(lang, line) for line in (*game_module.help, *COMMON_HELP)]
    if ctx.playable(game_module.key):
        lines += [tr(lang, line) for line in COMPUTER_HELP]
    others = [module(k) for k in MODULES if k != game_module.key]
    lines += [
        tr(
            lang,
            "new {word}: open a {game} table instead (help {word}: its commands)",
            word=other.words[0],
            game=tr(lang, other.title),
        )
        for other in others
    ]
    return Reply(private=[Message("\n".join(lines))])


async def games(ctx: Context, actor: Actor, args: list[str], lang: str) -> Reply:
    """The actor's games under way on this platform: where each is (with a link to that
    place, if it has one) and whose turn it is."""
    channels = await ctx.store.user_games(actor.platform, actor.user_id)
    if not channels:
        return Reply(private=[Message(tr(lang, "You have no game under way."))])
    lines = []
    for channel in channels:
        try:
            loaded = await ctx.load(channel)
        except Refused:
            continue
        if loaded is None:
            continue
        table = loaded.table
        title = tr(lang, table.module.title)
        if table.game is None:
            state = tr(lang, "waiting to start")
        else:
            waited = table.module.visit(_waited_seats, table)
            if table.engine_seat(actor.user_id) in waited:
                state = tr(lang, "your turn")
            else:
                who = ", ".join(table.user_of(s).name for s in waited)
                state = tr(lang, "{who} to play", who=who)
        state = f"{title}, {state}"
        line = (
            tr(lang, "{place}: {state}", place=table.place, state=state)
            if table.place
            else tr(lang, "Chat {id}: {state}", id=channel.channel_id, state=state)
        )
        lines.append(f"{line} · {table.link}" if table.link else line)
    return Reply(private=[Message("\n".join(lines))])


def _waited_seats(game_module: GameModule[G, V, A], table: Table) -> list[str]:
    return waiting_seats(load_game(game_module, table))


async def final(ctx: Context, channel: Channel, ended: Loaded, lang: str) -> Reply:
    """How a game ended, with its last table: played out, or ended by a vote."""
    return await enter_stored(ctx, ended, lang, channel, _final)


async def _final(moment: Moment[G, V, A]) -> Reply:
    game_module, table, game, at = moment.module, moment.table, moment.game, moment.at()
    text = game_module.final_text(at, game, table.voted_end)
    image = await moment.ctx.draw(
        lambda: game_module.final_image(at, game_module.view(game, None), table.voted_end)
    )
    message = Message(text, image=image, image_name="final.png", names=user_names(table))
    return Reply(public=[message])
