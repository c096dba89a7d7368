"""The lobby: opening a table, seats (people and computer players), the game switch, the start.

Only the table's creator (or a channel admin) runs the lobby; computer players never keep a table
open. Starting draws the seats at random, deals, and tells whoever must act first.
"""

from __future__ import annotations

import random
import re
from typing import TypeVar

from engine.ai import LEVELS

from ..exchange.actor import Actor
from ..exchange.buttons import ADD_COMPUTER, JOIN, NEW_THREAD, OTHER_GAME, START, not_valid
from ..exchange.refused import Refused
from ..exchange.replies import Button, Message, Reply, mention
from ..games import DEFAULT, MODULES, GameInfo, GameModule, Playing, by_word, module
from ..records.table import Seat, Table, keep
from ..runtime.computer_pool import DEFAULT_LEVEL
from ..store import AlreadyExists, Channel
from ..text.i18n import tr
from .context import (
    Context,
    Loaded,
    creator_name,
    no_computers,
    user_names,
    waiting,
    waiting_seats,
)
from .moment import Moment
from .schedule import DEADLINE_KINDS, turn_deadlines
from .turns import news_owed, news_told, prompts
from .weblinks import live_line, with_line

G = TypeVar("G", bound=Playing)
V = TypeVar("V")
A = TypeVar("A")
_BOTS = re.compile(r"^bots:(\d{1,2})(?::([a-z]+))?$")


def _buttons(table: Table, actor: Actor, lang: str) -> list[list[Button]]:
    """Join and a computer player while a seat is free, Start, the other games, and another
    table of this game in a new thread where the platform opens threads (`Actor.threads`)."""
    channel_id = actor.channel_id
    free = len(table.seats) < table.most
    row = [Button(tr(lang, "Join"), JOIN.encode(channel_id), "primary")] if free else []
    row.append(Button(tr(lang, "Start"), START.encode(channel_id), "success"))
    others = [
        Button(
            tr(lang, "Play {game} instead", game=tr(lang, module(key).title)),
            OTHER_GAME.encode(channel_id, 0, index),
        )
        for index, key in enumerate(MODULES)
        if key != table.kind
    ]
    add = [Button(tr(lang, "Add a computer player"), ADD_COMPUTER.encode(channel_id))]
    add = add if free else []
    game = list(MODULES).index(table.kind)
    thread = (
        [Button(tr(lang, "New table in a thread"), NEW_THREAD.encode(channel_id, 0, game))]
        if actor.threads
        else []
    )
    return [row, [*add, *others, *thread]]


def _message(table: Table, actor: Actor, text: str, lang: str) -> Message:
    return Message(text, buttons=_buttons(table, actor, lang), names=user_names(table))


async def _saved(ctx: Context, actor: Actor, loaded: Loaded, text: str, lang: str) -> Reply:
    """Saves a lobby change, then shows the lobby with `text` and its buttons."""
    await ctx.save(loaded)
    return Reply(public=[_message(loaded.table, actor, text, lang)])


def _room_for_one(table: Table, lang: str) -> None:
    if len(table.seats) >= table.most:
        raise Refused(tr(lang, "The table is full ({high} players).", high=table.most))


def _opening_text(table: Table, lang: str) -> str:
    game_module = table.module
    options = game_module.options_text(table.options, lang)
    low, high = game_module.seats(table.options)
    values: dict[str, object] = {"who": mention(table.creator), "game": tr(lang, game_module.title)}
    if low == high:
        return tr(
            lang,
            "{who} opens a {game} table ({options}). Join with /fc join: {n} players. "
            "{who} starts the game with /fc start.",
            options=options,
            n=high,
            **values,
        )
    values |= {"low": low, "high": high}
    if options:
        return tr(
            lang,
            "{who} opens a {game} table ({options}). Join with /fc join: {low} to {high} "
            "players. {who} starts the game with /fc start.",
            options=options,
            **values,
        )
    return tr(
        lang,
        "{who} opens a {game} table. Join with /fc join: {low} to {high} players. "
        "{who} starts the game with /fc start.",
        **values,
    )


def opening(args: list[str], lang: str) -> tuple[GameInfo, int, str, dict[str, str]]:
    """What `/fc new <args>` asks for: the game, its computer players (how many, what level)
    and its options; `Refused` with why not. Read alike before an adapter opens a place for
    the table (a Discord thread, which a refusal must not leave empty) and when it opens."""
    bots = [a for a in args if a.lower().startswith("bots:")]
    args = [a for a in args if a not in bots]
    chosen = by_word(args[0]) if args else None
    game_module = chosen or module(DEFAULT)
    count, level = bots_wanted(bots, game_module, lang)
    options = game_module.options(args[1:] if chosen else args, 1 + count, lang)
    return game_module, count, level, options


def bots_wanted(words: list[str], game_module: GameInfo, lang: str) -> tuple[int, str]:
    """What `bots:N[:level]` asks for, or `Refused` with how to write it."""
    if not words:
        return 0, DEFAULT_LEVEL
    high = game_module.max_players - 1
    match = _BOTS.match(words[0].lower())
    if (
        len(words) > 1
        or match is None
        or not 1 <= int(match[1]) <= high
        or (match[2] or DEFAULT_LEVEL) not in LEVELS
    ):
        raise Refused(
            tr(
                lang,
                "Write bots:N with N from 1 to {high}, and a level if you like: "
                "bots:2:hard (easy, normal or hard).",
                high=high,
            )
        )
    return int(match[1]), match[2] or DEFAULT_LEVEL


def _seat_computer(table: Table, level: str, lang: str) -> Seat:
    """A computer player's seat, named for what it is (numbered if the name is taken)."""
    base = tr(lang, "Computer ({level})", level=tr(lang, level))
    taken = {s.name for s in table.seats}
    name = next(n for n in (base, *(f"{base} {i}" for i in range(2, 10))) if n not in taken)
    seat = Seat(user_id=table.new_computer_id(), name=name, bot=level)
    table.seats.append(seat)
    return seat


def _runs(table: Table, actor: Actor, lang: str) -> None:
    """`Refused` unless the actor runs the lobby (its creator, or a channel admin)."""
    if table.started:
        raise Refused(tr(lang, "The game has already started."))
    if actor.user_id != table.creator and not actor.is_admin:
        raise Refused(
            tr(
                lang,
                "Only {who}, who opened this table, or a channel admin can seat or remove "
                "computer players.",
                who=creator_name(table),
            )
        )


async def new(ctx: Context, actor: Actor, args: list[str], lang: str) -> Reply:
    if actor.private:
        raise Refused(tr(lang, "Open a table in a group or a server channel, not here."))
    game_module, count, level, options = opening(args, lang)
    if count and not ctx.playable(game_module.key):
        raise Refused(no_computers(game_module, lang))
    table = Table(
        kind=game_module.key,
        options=options,
        creator=actor.user_id,
        seats=[Seat.person(actor.user_id, actor.name)],
        # A community that is the chat itself (a Telegram group) is left to the chat's id at
        # the end, which follows the chat if it gets a new one.
        community="" if actor.community in (None, actor.channel_id) else actor.community,
        place=actor.place,
        link=actor.link,
        parent=actor.parent,
    )
    for _ in range(count):
        _seat_computer(table, level, lang)
    try:
        await ctx.store.create(
            Channel.of(actor.platform, actor.channel_id),
            table.model_dump_json(),
            creator=actor.user_id,
            players=[actor.user_id],
            language=lang,
        )
    except AlreadyExists:
        raise Refused(
            tr(lang, "A table is already open in this channel. See it with /fc board.")
        ) from None
    text = _opening_text(table, lang)
    if count:
        computers = ", ".join(s.name for s in table.seats if s.bot is not None)
        text += " " + tr(lang, "Computer players seated: {names}.", names=computers)
    return Reply(public=[_message(table, actor, text, lang)])


async def addbot(ctx: Context, actor: Actor, args: list[str], lang: str) -> Reply:
    level = args[0].lower() if args else DEFAULT_LEVEL
    if level not in LEVELS or len(args) > 1:
        raise Refused(tr(lang, "Choose a level: /fc bot add easy, normal or hard."))
    loaded = await ctx.need(actor, lang)
    table = loaded.table
    _runs(table, actor, lang)
    if not ctx.playable(table.kind):
        raise Refused(no_computers(table.module, lang))
    _room_for_one(table, lang)
    seat = _seat_computer(table, level, lang)
    text = tr(
        lang,
        "{name} takes a seat ({n}/{high}): a computer player. {creator} starts the game with "
        "/fc start.",
        name=seat.name,
        n=len(table.seats),
        high=table.most,
        creator=creator_name(table),
    )
    return await _saved(ctx, actor, loaded, text, lang)


async def removebot(ctx: Context, actor: Actor, args: list[str], lang: str) -> Reply:
    """Removes the computer player seated last, or the one numbered `args[0]` (1, 2...)."""
    loaded = await ctx.need(actor, lang)
    table = loaded.table
    _runs(table, actor, lang)
    computers = [s for s in table.seats if s.bot is not None]
    if not computers:
        raise Refused(tr(lang, "No computer player sits at this table."))
    if args and not (args[0].isdigit() and 1 <= int(args[0]) <= len(computers)):
        raise Refused(tr(lang, "Name a computer player by its number, 1 to {n}.", n=len(computers)))
    seat = computers[int(args[0]) - 1] if args else computers[-1]
    table.seats.remove(seat)
    text = tr(
        lang,
        "{who} leaves the table ({n}/{high}).",
        who=seat.name,
        n=len(table.seats),
        high=table.most,
    )
    return await _saved(ctx, actor, loaded, text, lang)


async def switch(ctx: Context, actor: Actor, index: int, lang: str) -> Reply:
    """The lobby's button that opens the other game instead (the creator's choice)."""
    keys = list(MODULES)
    if not 0 <= index < len(keys):
        raise Refused(not_valid(lang))
    loaded = await ctx.need(actor, lang)
    table = loaded.table
    if table.started:
        raise Refused(tr(lang, "The game has already started."))
    if actor.user_id != table.creator and not actor.is_admin:
        raise Refused(tr(lang, "Only {who} can choose the game.", who=creator_name(table)))
    game_module = module(keys[index])
    if len(table.seats) > game_module.max_players:
        raise Refused(tr(lang, "Too many players are seated for that game."))
    if len(table.user_ids()) < len(table.seats) and not ctx.playable(game_module.key):
        raise Refused(no_computers(game_module, lang))
    table.kind = game_module.key
    table.options = game_module.options([], len(table.seats), lang)
    return await _saved(ctx, actor, loaded, _opening_text(table, lang), lang)


async def join(ctx: Context, actor: Actor, args: list[str], lang: str) -> Reply:
    loaded = await ctx.need(actor, lang)
    table = loaded.table
    if table.started:
        raise Refused(tr(lang, "The game has already started."))
    if table.seat_of(actor.user_id):
        raise Refused(tr(lang, "You are already at the table."))
    _room_for_one(table, lang)
    table.seats.append(Seat.person(actor.user_id, actor.name))
    text = tr(
        lang,
        "{who} joins the table ({n}/{high}). {creator} starts the game with /fc start.",
        who=mention(actor.user_id),
        n=len(table.seats),
        high=table.most,
        creator=creator_name(table),
    )
    return await _saved(ctx, actor, loaded, text, lang)


async def leave(ctx: Context, actor: Actor, args: list[str], lang: str) -> Reply:
    loaded = await ctx.need(actor, lang)
    table = loaded.table
    channel = loaded.channel
    if table.started:
        raise Refused(
            tr(
                lang,
                "The game is under way: nobody can leave it now. {creator} can /fc abort.",
                creator=creator_name(table),
            )
        )
    seat = table.seat_of(actor.user_id)
    if seat is None:
        raise Refused(tr(lang, "You are not at this table."))
    table.seats.remove(seat)
    if not table.user_ids():  # computer players never keep a table open
        await ctx.store.archive(channel, loaded.record.version)
        return Reply(public=[Message(tr(lang, "Everybody left: the table is closed."))])
    text = tr(
        lang,
        "{who} leaves the table ({n}/{high}).",
        who=mention(actor.user_id),
        n=len(table.seats),
        high=table.most,
    )
    if table.creator == actor.user_id:
        table.creator = table.user_ids()[0]
        text += " " + tr(
            lang,
            "{creator} now runs the table and starts the game.",
            creator=creator_name(table),
        )
    await ctx.save(loaded)
    return Reply(public=[Message(text, names={**user_names(table), actor.user_id: actor.name})])


async def start(ctx: Context, actor: Actor, args: list[str], lang: str) -> Reply:
    loaded = await ctx.need(actor, lang)
    table = loaded.table
    if table.started:
        raise Refused(tr(lang, "The game has already started."))
    if actor.user_id != table.creator and not actor.is_admin:
        raise Refused(tr(lang, "Only {who} can start this game.", who=creator_name(table)))
    if len(table.seats) < table.module.min_players:
        raise Refused(
            tr(
                lang,
                "At least 2 players are needed to start: wait for someone to /fc join, "
                "or seat a computer player with /fc bot add.",
            )
        )
    table.module.check_start(table.options, len(table.seats), lang)
    return await table.module.visit(_deal, ctx, actor, loaded, lang)


async def _deal(
    game_module: GameModule[G, V, A], ctx: Context, actor: Actor, loaded: Loaded, lang: str
) -> Reply:
    """Seats drawn at random, the game dealt and stored, the first turn told."""
    table = loaded.table
    seed = ctx.seeds()
    order = list(table.seats)
    random.Random(seed).shuffle(order)
    game = game_module.new_game(len(order), table.options, seed)
    table.seats = order
    keep(game_module, table, game)
    table.waiting = sorted(waiting(game))
    table.turn_started = ctx.clock()
    moment = Moment(game_module, ctx, loaded, game, lang, loaded.channel)
    channel = moment.channel
    chat = await moment.settings()
    await ctx.save(loaded, turn_deadlines(ctx, table) | news_owed(ctx))
    at = moment.at()
    text = with_line(
        game_module.begin_text(at, game), live_line(ctx, lang, channel, loaded.record.game_id)
    )
    image = await ctx.draw(lambda: game_module.table_image(at, game_module.view(game, None)))
    reply = Reply(public=[Message(text, image=image, names=user_names(table))])
    reply.direct.extend(await prompts(moment, at, chat, waiting_seats(game)))
    await news_told(ctx, channel)
    return reply


async def abort(ctx: Context, actor: Actor, args: list[str], lang: str) -> Reply:
    """Closes the table, started or not (its creator, or a channel admin)."""
    loaded = await ctx.need(actor, lang)
    if actor.user_id != loaded.table.creator and not actor.is_admin:
        raise Refused(
            tr(
                lang,
                "Only {who}, who opened this table, or a channel admin can abort the game.",
                who=creator_name(loaded.table),
            )
        )
    channel = loaded.channel
    await ctx.store.archive(channel, loaded.record.version, cancel_deadlines=DEADLINE_KINDS)
    text = tr(lang, "{who} aborted the game. The table is closed.", who=mention(actor.user_id))
    return Reply(public=[Message(text, names={actor.user_id: actor.name})])
