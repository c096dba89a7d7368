"""A computer player's turn: a deadline a short pause after its turn comes, then a decision
searched from its seat's view alone in a worker process, played like a person's press.

Computer players who act one after another decide in one go and are told as one message
with one picture: a group hears of a round of three computers once, not three times, which
keeps a solo game within the platforms' pace (Telegram: about 20 messages a minute in a
group; Discord: 5 in 5 s in a channel)."""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass, field
from typing import TypeVar

from ..exchange.replies import Reply
from ..games import GameModule, Playing
from ..records.table import load_game
from ..runtime.computer_pool import DEFAULT_LEVEL
from ..runtime.metrics import ACTIONS, SEARCH
from ..store import Channel, Conflict
from .context import Context, Loaded
from .moment import Moment
from .turns import after_action

G = TypeVar("G", bound=Playing)
V = TypeVar("V")
A = TypeVar("A")
log = logging.getLogger(__name__)

CHAIN = 12  # the most computer decisions told together (a round of bribes and moves)


@dataclass(slots=True)
class Chain:
    """Computer decisions played one after another on the game in memory, not saved yet."""

    lines: list[str] = field(default_factory=list)
    draws: bool = False
    actions: int = 0


async def computer_turn(ctx: Context, channel: Channel) -> Reply:
    loaded = await ctx.load(channel)
    if loaded is None or loaded.table.game is None:
        return Reply()
    return await loaded.table.module.visit(_turn, ctx, channel)


async def _turn(game_module: GameModule[G, V, A], ctx: Context, channel: Channel) -> Reply:
    """If the table was saved while the computers decided, they decide again, unless the
    game went on (the save that moved it set its own deadlines); if it keeps changing, the
    deadline is set anew."""
    count: int | None = None
    for _ in range(3):
        loaded = await ctx.load(channel)
        if loaded is None or loaded.table.game is None:
            return Reply()
        game = load_game(game_module, loaded.table)
        if _computer_seat(loaded, game) is None or count not in (None, game_module.count(game)):
            return Reply()
        count = game_module.count(game)
        lang = await ctx.channel_language(channel)
        moment = Moment(game_module, ctx, loaded, game, lang, channel)
        chain = await _chain(moment)
        forced = moment.count > count + chain.actions
        try:
            return await after_action(moment, chain.lines, chain.draws, forced=forced)
        except Conflict:
            continue
    await ctx.store.schedule(channel, "bot", ctx.clock() + ctx.settings.bot_pause.total_seconds())
    return Reply()


def _computer_seat(loaded: Loaded, game: Playing) -> str | None:
    """The first seat a computer plays among those the game waits for, if any."""
    if game.is_over:
        return None
    computers = set(loaded.table.computer_seats())
    return next((t.seat for t in game.to_act if t.seat in computers), None)


async def _chain(moment: Moment[G, V, A]) -> Chain:
    """Every computer decision due before a person's, played on the moment's game."""
    game_module, loaded, game = moment.module, moment.loaded, moment.game
    chain = Chain()
    while chain.actions < CHAIN and (seat := _computer_seat(loaded, game)) is not None:
        action = await _decide(moment, seat)
        at = moment.at()
        try:
            acted = game_module.act(at, game, seat, action)
        except ValueError:  # an illegal decision, never expected: the table's stand-in then
            log.exception("a computer player's action was refused in %s", moment.channel)
            rng = random.Random(game.seed + at.count)
            acted = game_module.act(at, game, seat, game_module.stand_in(game, seat, rng))
        ACTIONS.labels(game_module.key, "computer").inc()
        chain.lines += acted.lines + game_module.after_play(at, game)
        chain.draws = chain.draws or acted.draws
        chain.actions += 1
    return chain


async def _decide(moment: Moment[G, V, A], seat: str) -> A:
    """The seat's decision, searched from its view alone; the same if made again."""
    game_module, table, game = moment.module, moment.table, moment.game
    level = table.user_of(seat).bot or DEFAULT_LEVEL
    seed = game.seed + moment.count
    view = game_module.observe(game, seat)
    try:
        with SEARCH.labels(game_module.key, level).time():
            decided = await moment.ctx.computer.decide(table.kind, level, view, seat, seed)
        return game_module.parse_action(str(decided))
    except Exception:  # not even the greedy move: the table's own stand-in then
        log.exception("no computer decision in %s", moment.channel)
        return game_module.stand_in(game, seat, random.Random(seed))
