"""Players whose DMs are closed: after Discord refuses once (error 50007) the bot stops asking,
and the turn notice goes to the channel as a hint (once per game), until something changes.

The real client, service and redis-server, as in tests/test_discord_games.py.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta

import pytest

from bot.config import Settings
from bot.discord import FcClient
from bot.service import GameService
from bot.store import Store
from tests.conftest import fixed_seeds
from tests.fake_discord import FakeDiscord, Person, dispatch, fake_discord, logged_in
from tests.test_discord_games import (
    PLAYERS,
    Clock,
    Game,
    Spy,
    assert_settled,
    open_table,
    play_by_command,
)

HOUR = 3600.0


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with fake_discord() as server:
        yield server


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def client(fake: FakeDiscord, store: Store, clock: Clock) -> AsyncIterator[FcClient]:
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    service = Spy(GameService(store, settings, clock=clock, seeds=fixed_seeds()))
    async with logged_in(FcClient(service, deadline_seconds=None)) as ready:
        yield ready


async def start(fake: FakeDiscord, client: FcClient, store: Store) -> tuple[Game, Person, Person]:
    """Ann and Ben, both with DMs closed, start a game: who plays first, who second."""
    fake.blocked_dms.update(p.id for p in PLAYERS[:2])
    game = Game(fake, store)
    lobby = await open_table(fake, client, PLAYERS[:2])
    await dispatch(client, fake.press_payload(PLAYERS[0], lobby, f"fc:st:{fake.channel_id}"))
    first = await game.current()
    assert first is not None
    second = next(p for p in PLAYERS[:2] if p != first)
    return game, first, second


def hints(fake: FakeDiscord, who: Person) -> int:
    return sum(
        1
        for m in fake.channel_messages()
        if m.content.startswith(f"<@{who.id}>, I cannot send you direct messages")
    )


async def test_after_one_refusal_the_bot_stops_asking_turn_after_turn(
    fake: FakeDiscord, client: FcClient, store: Store, clock: Clock
) -> None:
    game, first, second = await start(fake, client, store)
    for _ in range(6):
        who = await game.current()
        assert who is not None
        await play_by_command(fake, client, game, who)
    clock.now += 13 * HOUR  # the reminder of the player whose turn it is
    assert await client.delivery.fire_due() == 1
    assert (fake.dm_attempts(first), fake.dm_attempts(second)) == (1, 1)
    # The turn notices still reach the players, as one hint each in the channel.
    assert (hints(fake, first), hints(fake, second)) == (1, 1)
    assert fake.dms(first) == [] and fake.dms(second) == []
    assert_settled(fake)


async def test_opening_dms_is_not_guessed_from_playing_in_the_channel(
    fake: FakeDiscord, client: FcClient, store: Store
) -> None:
    game, first, second = await start(fake, client, store)
    fake.blocked_dms.clear()  # they allow DMs, but the bot cannot know it
    await play_by_command(fake, client, game, first)
    await play_by_command(fake, client, game, second)
    assert fake.dm_attempts(first) == 1 and fake.dms(first) == []


async def test_notify_on_tries_again(fake: FakeDiscord, client: FcClient, store: Store) -> None:
    game, first, second = await start(fake, client, store)
    await play_by_command(fake, client, game, first)
    fake.blocked_dms.discard(first.id)
    await dispatch(client, fake.command_payload(first, "notify", setting="on"))
    await play_by_command(fake, client, game, second)
    [notice] = fake.dms(first)
    assert notice.menu() is not None and notice.images()[0].format == "PNG"


async def test_using_the_bot_in_the_dm_tries_again(
    fake: FakeDiscord, client: FcClient, store: Store
) -> None:
    game, first, second = await start(fake, client, store)
    await play_by_command(fake, client, game, first)
    fake.blocked_dms.discard(first.id)
    await dispatch(client, fake.dm_command_payload(first, "games"))
    await play_by_command(fake, client, game, second)
    assert len(fake.dms(first)) == 1


async def test_a_day_later_the_bot_asks_again(
    fake: FakeDiscord, client: FcClient, store: Store, clock: Clock
) -> None:
    game, first, second = await start(fake, client, store)
    await play_by_command(fake, client, game, first)
    clock.now += 23 * HOUR
    await play_by_command(fake, client, game, second)
    assert fake.dm_attempts(first) == 1
    await play_by_command(fake, client, game, first)
    clock.now += 2 * HOUR
    await play_by_command(fake, client, game, second)
    assert fake.dm_attempts(first) == 2
    assert hints(fake, first) == 1  # still once per game


async def test_the_refusal_outlives_a_restart(
    fake: FakeDiscord, client: FcClient, store: Store, redis_url: str, clock: Clock
) -> None:
    game, first, second = await start(fake, client, store)
    await play_by_command(fake, client, game, first)
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    other = Store.from_url(redis_url)
    try:
        service = GameService(other, settings, clock=clock, seeds=fixed_seeds())
        async with logged_in(FcClient(service, deadline_seconds=None)) as restarted:
            await play_by_command(fake, restarted, game, second)
    finally:
        await other.close()
    assert fake.dm_attempts(first) == 1 and hints(fake, first) == 1


async def test_redis_forgets_a_refusal_after_the_time_given(store: Store) -> None:
    await store.set_dms_closed("discord", "42", 1000.0, keep=timedelta(seconds=1))
    assert await store.dms_closed_at("discord", "42") == 1000.0
    assert await store.dms_closed_at("discord", "43") is None
    await asyncio.sleep(1.2)
    assert await store.dms_closed_at("discord", "42") is None
    await store.set_dms_closed("discord", "42", 1000.0, keep=timedelta(days=1))
    await store.clear_dms_closed("discord", "42")
    assert await store.dms_closed_at("discord", "42") is None
