"""What a simulated player does: open a table with a player in every seat, and decide
(for `python -m bot load` and `python -m bot bench`)."""

from __future__ import annotations

import random
from typing import TypeVar

from ..actor import Actor
from ..games import GameModule, Playing, module
from ..service import GameService
from ..table import Table, load_game

G = TypeVar("G", bound=Playing)
V = TypeVar("V")
A = TypeVar("A")
PLATFORM = "load"
PLAYERS = ("a", "b", "c", "d")


def choose(game_module: GameModule[G, V, A], table: Table, rng: random.Random) -> tuple[str, str]:
    """The seat that must act, and its action in notation (the game's own stand-in)."""
    game = load_game(game_module, table)
    seat = game.to_act[0].seat
    return seat, str(game_module.stand_in(game, seat, rng))


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
