"""A player's second rated game starts from the rating the first left them, not from a
newcomer's: their uncertainty keeps shrinking game after game. Through the service against a
real redis-server."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.service import GameService
from bot.store import Store
from tests.conftest import fixed_seeds
from tests.test_results import finish
from tests.test_service import Clock, settings

PLAYERS = ["console:ann", "console:bob"]


@pytest.fixture
async def service(store: Store) -> AsyncIterator[GameService]:
    made = GameService(store, settings(), clock=Clock(), seeds=fixed_seeds())
    yield made
    made.computer.close()


async def test_a_second_game_is_rated_from_the_first(service: GameService, store: Store) -> None:
    await finish(service, ["ann", "bob"])
    first = await store.players("forbidden_city", PLAYERS)
    await finish(service, ["ann", "bob"])
    second = await store.players("forbidden_city", PLAYERS)
    for key in PLAYERS:
        assert (first[key].games, second[key].games) == (1, 2)
        assert second[key].sigma < first[key].sigma, key  # surer of them after two games
