"""The sweep goes on past what it cannot rate: a result listed unrated that is no longer kept
is taken off the list, one that no longer reads is left there and logged with its reference
and the reason, and the results after them are rated all the same. Against a real
redis-server."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator

import pytest

from bot.service import GameService
from bot.service import results as kept
from bot.store import Channel, Store
from tests.conftest import fixed_seeds
from tests.test_results_every_bucket import left_unrated, two_player_result
from tests.test_service import Clock, settings

ROOM = Channel.of("console", "room1")


@pytest.fixture
async def service(store: Store) -> AsyncIterator[GameService]:
    made = GameService(store, settings(), clock=Clock(), seeds=fixed_seeds())
    yield made
    made.computer.close()


async def test_a_result_no_longer_kept_leaves_the_list_and_the_next_is_rated(
    service: GameService, store: Store
) -> None:
    gone, next_one = two_player_result(1, ROOM), two_player_result(2, ROOM)
    for result in (gone, next_one):
        await left_unrated(store, result)
    await store.client.delete(ROOM.result_key(gone.id))
    assert await kept.sweep(service.ctx) == 1
    assert await store.unrated() == []
    assert (await store.players("forbidden_city", ["console:w2"]))["console:w2"].games == 1


async def test_an_unreadable_result_is_logged_and_left_and_the_next_is_rated(
    service: GameService, store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    broken, next_one = two_player_result(1, ROOM), two_player_result(2, ROOM)
    for result in (broken, next_one):
        await left_unrated(store, result)
    await store.client.set(ROOM.result_key(broken.id), '{"format": 1, "id": "truncated')
    with caplog.at_level(logging.ERROR, logger="bot.service.results"):
        assert await kept.sweep(service.ctx) == 1
    assert await store.unrated() == [broken.ref]
    assert (await store.players("forbidden_city", ["console:w2"]))["console:w2"].games == 1
    [record] = [r for r in caplog.records if r.name == "bot.service.results"]
    assert record.getMessage().startswith(f"result {broken.ref} is unreadable and stays unrated: ")
    assert "Invalid JSON" in record.getMessage()
