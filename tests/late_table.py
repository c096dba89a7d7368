"""A table far into its game, for tests that need many spots on the board."""

from __future__ import annotations

import random

import render.forbidden_city as render
from bot.records.table import Table
from bot.store import Channel, Store
from tests.tables import keep, load_game
from tests.views import to_play


async def advance(store: Store, channel: Channel, spots: int = 41, seed: int = 1) -> Table:
    """Play random moves on the stored game until the seat to move has `spots` spots or more,
    and store it. Seats keep their users; the stored version moves on as after real moves."""
    record = await store.load(channel)
    assert record is not None
    table = Table.model_validate_json(record.data)
    game = load_game(table)
    rng = random.Random(seed)
    while len(render.spots(to_play(game))) < spots:
        assert not game.is_over, "no table this late in this game: choose another seed"
        game.play(rng.choice(game.legal_moves()))
    keep(table, game)
    await store.save(channel, table.model_dump_json(), record.version, players=table.user_ids())
    return table
