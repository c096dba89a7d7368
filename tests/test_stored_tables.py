"""Tables saved by an earlier version of the bot (the files in tests/stored/, written by the
service before it was split into modules) load, show and play on as they were."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bot.config import Settings
from bot.exchange.actor import Actor
from bot.records.table import Table
from bot.service import GameService
from bot.store import Channel, Store
from tests.tables import load_game, module_of

STORED = Path(__file__).parent / "stored"
CHANNEL = "-100"


async def _stored(store: Store, name: str) -> Table:
    data = (STORED / f"{name}-table.json").read_text()
    table = Table.model_validate_json(data)
    await store.create(
        Channel.of("telegram", CHANNEL),
        json.dumps(json.loads(data)),
        creator=table.creator,
        players=table.user_ids(),
        language="en",
    )
    return table


@pytest.mark.parametrize("name", ["forbidden_city", "verbotene_stadt"])
async def test_a_table_saved_before_loads_shows_and_plays_on(store: Store, name: str) -> None:
    table = await _stored(store, name)
    game = load_game(table)
    dumped = json.loads(json.dumps(module_of(table).dump(game)))
    assert dumped.pop("rules", 1) == 1  # a game begun before keeps the rules it began with
    assert dumped == table.game  # the record replays to itself
    service = GameService(store, Settings(_env_file=None))  # type: ignore[call-arg]
    seat = game.to_act[0].seat
    user = table.user_of(seat).user_id
    actor = Actor("telegram", CHANNEL, user, "Someone")

    board = await service.command(actor, "board")
    assert board.ok and board.public[0].image is not None
    action = module_of(table).stand_in(game, seat, random.Random(1))
    played = await service.command(actor, f"play {action}")

    assert played.ok, played.private
    record = await store.load(Channel.of("telegram", CHANNEL))
    assert record is not None
    after = load_game(Table.model_validate_json(record.data))
    assert module_of(table).count(after) == module_of(table).count(game) + 1
