"""Histories are in the order games ended, newest first, whatever their ids: a channel's
`/fc history` (the index the archive step writes) and a player's (the one rating writes).
Game ids are random, so the games below take ids that sort the other way round from the order
they ended in. Against a real redis-server and a cluster."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.records.finished import Result, ResultSeat
from bot.service import GameService
from bot.service import results as kept
from bot.service.history import LISTED
from bot.store import Channel, Store
from tests.conftest import fixed_seeds
from tests.test_service import Clock, settings, who

BACKENDS = ("single", "cluster")
ROOM = Channel.of("console", "room1")
# The first game to end has the id that sorts last, and so on.
IDS = ["f" * 32, "8" * 32, "0" * 32]


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def timed(redis_url: str, clock: Clock) -> AsyncIterator[Store]:
    """A store on the test server whose clock the test moves."""
    made = Store.from_url(redis_url, clock=clock)
    await made.ping()
    yield made
    await made.close()


@pytest.fixture
async def service(timed: Store, clock: Clock) -> AsyncIterator[GameService]:
    made = GameService(timed, settings(), clock=clock, seeds=fixed_seeds())
    yield made
    made.computer.close()


def result_of(game_id: str, ended: float, room: Channel = ROOM) -> Result:
    return Result(
        id=game_id,
        kind="forbidden_city",
        ended=ended,
        platform=room.platform,
        channel=room.channel_id,
        community="guild1",
        moves=56,
        seats=[
            ResultSeat(seat="A", name="Ann", user_id="ann", score=50, place=1),
            ResultSeat(seat="B", name="Bob", user_id="bob", score=40, place=2),
        ],
        record={},
    )


def listed(text: str) -> list[str]:
    """The short ids of the games a history lists, in its order."""
    return [line.split(" · ")[0] for line in text.splitlines() if " · " in line]


async def archive_games(timed: Store, clock: Clock, room: Channel) -> None:
    """The games of `IDS` played out in `room` one after the other, kept by the archive."""
    for game_id in IDS:
        clock.now += 600
        await timed.create(
            room, "{}", creator="ann", players=["ann"], language="en", game_id=game_id
        )
        live = await timed.load(room)
        assert live is not None
        result = result_of(game_id, clock.now, room)
        await timed.archive(room, live.version, result=result.model_dump_json(), game_id=game_id)


async def test_a_channels_history_lists_the_last_game_archived_first(
    service: GameService, timed: Store, clock: Clock
) -> None:
    await archive_games(timed, clock, ROOM)
    reply = await service.command(who("eve"), "history")
    assert listed(reply.public[0].text) == [game_id[:8] for game_id in reversed(IDS)]


async def test_a_group_with_a_new_id_lists_its_old_games_newest_first(
    service: GameService, timed: Store, clock: Clock
) -> None:
    old = Channel.of("console", "grp1")
    await archive_games(timed, clock, old)
    assert not await service.chat_moved("console", "grp1", "grp9")  # no table to move
    reply = await service.command(who("eve", "grp9"), "history")
    assert listed(reply.public[0].text) == [game_id[:8] for game_id in reversed(IDS)]


async def test_a_players_history_lists_the_last_game_rated_first(
    service: GameService, timed: Store
) -> None:
    for number, game_id in enumerate(IDS):
        result = result_of(game_id, 1_000.0 + number)
        await timed.client.set(ROOM.result_key(game_id), result.model_dump_json())
        await kept.apply(service.ctx, result)
    reply = await service.command(who("ann", "dm-ann", private=True), "history")
    assert listed(reply.public[0].text) == [game_id[:8] for game_id in reversed(IDS)]


async def test_a_players_history_lists_their_last_ten_games(
    service: GameService, timed: Store
) -> None:
    games = [f"{number:08x}" + "a" * 24 for number in range(LISTED + 2)]
    for number, game_id in enumerate(games):
        result = result_of(game_id, 1_000.0 + number)
        await timed.client.set(ROOM.result_key(game_id), result.model_dump_json())
        await kept.apply(service.ctx, result)
    mine = await service.command(who("ann", "dm-ann", private=True), "history")
    theirs = await service.command(who("eve"), "history <@bob>")
    for reply in (mine, theirs):
        assert listed(reply.public[0].text) == [g[:8] for g in reversed(games)][:LISTED]
