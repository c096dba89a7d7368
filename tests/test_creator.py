"""The table's creator is named wherever the others need to know who runs the table."""

from __future__ import annotations

import pytest

from bot.service import GameService
from bot.store import Store
from tests.conftest import fixed_seeds
from tests.test_service import seated, settings, who


@pytest.fixture
def service(store: Store) -> GameService:
    return GameService(store, settings(), seeds=fixed_seeds())


async def test_the_lobby_names_its_creator(service: GameService) -> None:
    await service.command(who("ann"), "new")
    joined = await service.command(who("bob"), "join")
    assert "Ann starts the game with /fc start" in joined.public[0].text
    status = await service.command(who("bob"), "status")
    assert "Waiting for Ann to start (2/4): Ann, Bob." in status.private[0].text
    start = await service.command(who("bob"), "start")
    assert not start.ok and "Only Ann" in start.private[0].text
    abort = await service.command(who("bob"), "abort")
    assert not abort.ok and "Only Ann" in abort.private[0].text


async def test_a_creator_who_leaves_hands_the_table_on_by_name(service: GameService) -> None:
    await service.command(who("ann"), "new")
    await service.command(who("bob"), "join")
    await service.command(who("cid"), "join")
    left = await service.command(who("ann"), "leave")
    assert "Bob now runs the table" in left.public[0].text
    start = await service.command(who("cid"), "start")
    assert "Only Bob" in start.private[0].text


async def test_refusals_during_the_game_name_the_creator(service: GameService) -> None:
    await seated(service, ["ann", "bob"])
    abort = await service.command(who("bob"), "abort")
    assert not abort.ok and "Only Ann" in abort.private[0].text
    leave = await service.command(who("bob"), "leave")
    assert not leave.ok and "Ann can /fc abort" in leave.private[0].text
    await service.command(who("ann"), "lang fr")
    abort = await service.command(who("bob"), "abort")
    assert not abort.ok and "Seul Ann" in abort.private[0].text
