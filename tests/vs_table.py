"""Die Verbotene Stadt tables for the service tests: opened through the service, then (for the
special cases) given a prepared position, stored as a real game would be."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.exchange.replies import Reply
from bot.records.table import Table
from bot.service import GameService
from bot.store import Channel, Store
from engine.verbotene_stadt import Game
from engine.verbotene_stadt.board import Square
from engine.verbotene_stadt.game import RULES
from tests.tables import keep
from tests.test_service import CHANNEL, table_of, who
from tests.vs_driver import Chat

# On the engine's board a slide west from 2,1 to 6,1 enters pavilion 1 (docs/rules-notes.md);
# the others stand on start squares, where they move one square at a time.
OFFICIALS: dict[str, Square] = {
    "RR": (4, 1),
    "KK": (5, 5),
    "GG": (6, 6),
    "YY": (7, 7),
    "BB": (8, 8),
    "RB": (9, 9),
}


async def open_stadt(
    service: GameService, chat: Chat, users: Sequence[str], options: str = ""
) -> Reply:
    """`/fc new stadt`, the others join, the creator starts; the start's reply."""
    chat.take(users[0], await service.command(who(users[0]), f"new stadt {options}".strip()))
    for user in users[1:]:
        chat.take(user, await service.command(who(user), "join"))
    return chat.take(users[0], await service.command(who(users[0]), "start"))


async def store_position(store: Store, game: Game, channel: Channel | None = None) -> Table:
    """Replace the stored game by `game` (same seats), as if it had been played to there."""
    channel = channel or Channel.of("console", CHANNEL)
    record = await store.load(channel)
    assert record is not None
    table = Table.model_validate_json(record.data)
    assert tuple(table.players) == game.players
    keep(table, game)
    table.waiting = sorted(f"{t.seat} {t.kind}" for t in game.to_act)
    await store.save(channel, table.model_dump_json(), record.version, players=table.user_ids())
    return table


def position(
    seats: int,
    bribes: Sequence[str | None],
    *,
    hands: Sequence[Sequence[str]] = (),
    piles: Mapping[int, Sequence[str]] | None = None,
    exiled: Sequence[str] = (),
    officials: Mapping[str, Square] | None = None,
    seed: int = 0,
    rules: int = RULES,
    teams: bool = False,
) -> Game:
    """North to move with pavilion 1 open: RR one slide west from its door."""
    return Game.from_position(
        seats,
        officials=officials or OFFICIALS,
        open_pavilion=1,
        bribes=bribes,
        hands=hands,
        piles=piles,
        exiled=exiled,
        mover=0,
        seed=seed,
        rules=rules,
        teams=teams,
    )


async def user_of(store: Store, seat: str) -> str:
    table = await table_of(store)
    assert table is not None
    return table.user_of(seat).user_id


async def prompt_all(service: GameService, chat: Chat, users: Sequence[str]) -> None:
    """Every player asks for `hand`: whoever must decide gets the prompt with its buttons."""
    for user in users:
        chat.take(user, await service.command(who(user), "hand"))
