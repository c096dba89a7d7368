"""What a simulated player does: open a table with a player in every seat, and decide
(for `python -m bot load` and `python -m bot bench`)."""

from __future__ import annotations

import random
from typing import Any, TypeVar, cast

from engine.ai import game_ai
from engine.core.shape import Engine

from ..exchange.actor import Actor
from ..games import GameModule, Playing, module
from ..records.table import Table, load_game
from ..runtime.computer_pool import Computer, decide
from ..service import GameService

G = TypeVar("G", bound=Playing)
V = TypeVar("V")
A = TypeVar("A")
PLATFORM = "load"
PLAYERS = ("a", "b", "c", "d")


def choose(
    game_module: GameModule[G, V, A], table: Table, rng: random.Random, seat: str | None = None
) -> tuple[str, str]:
    """The seat that must act (or `seat`, one of those), and its action in notation: the
    game's greedy baseline (`engine.ai`), the best immediate gain, as a person playing to win
    would look for. Not the stand-in, the action for a seat that did not decide in time: in
    Die Verbotene Stadt it passes whenever it may, and a game played by stand-ins alone never
    ends (5,000 actions and a 110 KB record, where greedy players finish in about 250)."""
    game = load_game(game_module, table)
    seat = seat or game.to_act[0].seat
    engine = cast("Engine[object]", game)  # each module's game is its engine's own
    return seat, str(game_ai(game_module.key).greedy(engine, seat, rng))


def waiting_for(
    game_module: GameModule[G, V, A], table: Table, user: str, game: G | None = None
) -> str | None:
    """`user`'s next action in notation if the game waits for them (`choose`), else None;
    `game`: the table's game, if the caller loaded it already."""
    game = load_game(game_module, table) if game is None else game
    seat = table.engine_seat(user)
    if seat is None or seat not in {t.seat for t in game.to_act}:
        return None
    return choose(game_module, table, random.Random(game_module.count(game)), seat)[1]


class QuickComputer(Computer):
    """Computer players that decide in this process with a small search: what a game posts,
    and how the platforms pace it, do not depend on how well they play."""

    def __init__(self) -> None:
        super().__init__(1, 5.0, 8)

    async def decide(self, game_key: str, level: str, view: Any, seat: str, seed: int) -> Any:
        return decide(game_key, level, view, seat, seed, self.limit, self.iterations).action


async def open_table(
    service: GameService,
    game_key: str,
    channel: str,
    platform: str = PLATFORM,
    computers: int = 0,
    level: str = "normal",
) -> None:
    """A started table of `game_key`, every seat taken: `computers` computer players of
    `level`, and a simulated person in each other seat."""
    game = module(game_key)
    for user in PLAYERS[: game.max_players - computers]:
        actor = Actor(platform, channel, channel + user, user.upper())
        bots = f" bots:{computers}:{level}" if computers else ""
        text = f"new {game.words[0]}{bots}" if user == "a" else "join"
        reply = await service.command(actor, text)
        if not reply.ok:
            raise RuntimeError(f"{channel}: {text} refused")
    reply = await service.command(Actor(platform, channel, channel + "a", "A"), "start")
    if not reply.ok:
        raise RuntimeError(f"{channel}: start refused")
