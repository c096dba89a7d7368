"""A computer player's turn: a deadline a short pause after its turn comes, then a decision
searched from its seat's view alone in a worker process, played like a person's press."""

from __future__ import annotations

import logging
import random
from typing import TypeVar

from ..exchange.replies import Reply
from ..games import GameModule, Playing
from ..records.table import load_game
from ..runtime.computer_pool import DEFAULT_LEVEL
from ..runtime.metrics import ACTIONS, SEARCH
from ..store import Channel, Conflict
from .context import Context, Loaded
from .turns import after_action

G = TypeVar("G", bound=Playing)
V = TypeVar("V")
A = TypeVar("A")
log = logging.getLogger(__name__)


async def computer_turn(ctx: Context, channel: Channel) -> Reply:
    loaded = await ctx.load(channel)
    if loaded is None or loaded.table.game is None:
        return Reply()
    return await loaded.table.module.visit(_turn, ctx, channel)


async def _turn(game_module: GameModule[G, V, A], ctx: Context, channel: Channel) -> Reply:
    """If the table was saved while the computer decided, it decides again, unless the game
    went on (the save that moved it set its own deadlines); if it keeps changing, the
    deadline is set anew."""
    count: int | None = None
    for _ in range(3):
        loaded = await ctx.load(channel)
        if loaded is None or loaded.table.game is None:
            return Reply()
        table = loaded.table
        game = load_game(game_module, table)
        computers = set(table.computer_seats())
        turns = [t for t in game.to_act if t.seat in computers]
        if game.is_over or not turns or count not in (None, game_module.count(game)):
            return Reply()
        count = game_module.count(game)
        seat = turns[0].seat
        level = table.user_of(seat).bot or DEFAULT_LEVEL
        seed = game.seed + count  # the same decision if made again
        view = game_module.observe(game, seat)
        try:
            with SEARCH.labels(game_module.key, level).time():
                decided = await ctx.computer.decide(table.kind, level, view, seat, seed)
            action = game_module.parse_action(str(decided))
        except Exception:  # not even the greedy move: the table's own stand-in then
            log.exception("no computer decision in %s", channel)
            action = game_module.stand_in(game, seat, random.Random(seed))
        lang = await ctx.channel_language(channel)
        try:
            return await _plays(game_module, ctx, channel, loaded, game, seat, action, lang)
        except Conflict:
            continue
    await ctx.store.schedule(channel, "bot", ctx.clock() + ctx.settings.bot_pause.total_seconds())
    return Reply()


async def _plays(
    game_module: GameModule[G, V, A],
    ctx: Context,
    channel: Channel,
    loaded: Loaded,
    game: G,
    seat: str,
    action: A,
    lang: str,
) -> Reply:
    """A computer player's action, told to the table as a person's would be."""
    at = ctx.at(loaded.table, channel.channel_id, lang, game_module.count(game))
    try:
        acted = game_module.act(at, game, seat, action)
    except ValueError:  # an illegal decision, never expected: the table's own stand-in then
        log.exception("a computer player's action was refused in %s", channel)
        rng = random.Random(game.seed + at.count)
        acted = game_module.act(at, game, seat, game_module.stand_in(game, seat, rng))
    ACTIONS.labels(game_module.key, "computer").inc()
    lines = acted.lines + game_module.after_play(at, game)
    forced = game_module.count(game) > at.count + 1
    return await after_action(
        game_module, ctx, channel, loaded, game, lines, lang, acted.draws, forced=forced
    )
