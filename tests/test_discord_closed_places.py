"""Places that close under a table, or never open: a thread a moderator deletes mid-game closes
its table, and then nobody is asked to play there nor told it is a permission problem; a
`/fc new thread:true` the game refuses opens no thread at all. The real client, service and
redis-server; only Discord is faked (tests/fake_discord.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta

import pytest

from bot.config import Settings
from bot.discord import FcClient
from bot.exchange.replies import Direct, Message, Reply
from bot.service import GameService
from bot.store import Store
from tests.conftest import fixed_seeds
from tests.fake_discord import FakeDiscord, Person, Thread, dispatch, fake_discord, logged_in
from tests.test_discord_delivery import Scripted
from tests.test_discord_games import Clock
from tests.test_discord_threads import ANN, BEN, mover, open_in_thread, place

PERMISSIONS = "View Channel, Send Messages and Attach Files"  # the words of a permission problem


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with fake_discord() as server:
        server.manage_threads = False  # the README's permissions: no Manage Threads
        yield server


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def client(fake: FakeDiscord, store: Store, clock: Clock) -> AsyncIterator[FcClient]:
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        reminder_after=timedelta(hours=1),
        turn_limit=timedelta(hours=2),
    )
    service = GameService(store, settings, clock=clock, seeds=fixed_seeds())
    async with logged_in(FcClient(service, deadline_seconds=None)) as ready:
        yield ready


def assert_told_closed_once(fake: FakeDiscord, thread: Thread) -> None:
    """The channel around the thread learnt, once, that its table is closed."""
    [told] = fake.channel_messages()
    assert f"#{thread.name} is closed" in told.content


@pytest.mark.parametrize("how", ["deleted", "locked"])
async def test_a_move_into_a_deleted_or_locked_thread_closes_the_table_and_asks_nobody(
    fake: FakeDiscord, client: FcClient, store: Store, how: str
) -> None:
    thread = fake.open_thread("Doomed game")
    await open_in_thread(fake, client, thread)
    who, spot, rotation = await mover(store, thread)
    other = BEN if who == ANN else ANN
    if how == "deleted":
        await fake.delete_thread(thread)
    else:  # a moderator locked it, and it was archived
        thread.archived = thread.locked = True
    asked = fake.dm_attempts(other)

    # The mover plays from their DMs, where the turn notice reached them.
    await dispatch(client, fake.dm_command_payload(who, "play", spot=spot, rotation=rotation))

    [answer] = fake.last_interaction().seen_by_user()
    assert answer.where == "ephemeral"
    assert "#Doomed game is closed: that place was closed or deleted" in answer.content
    assert PERMISSIONS not in answer.content
    assert answer.files == [] and answer.components == []  # no new tile, no menu
    assert fake.dm_attempts(other) == asked  # no turn notice for a closed table
    assert await store.load(place(thread)) is None
    assert_told_closed_once(fake, thread)
    assert fake.unexpected == []


async def test_a_move_into_a_thread_whose_table_was_closed_already_is_explained(
    fake: FakeDiscord,
) -> None:
    """Another post closed the table first (or the move ended the game): closing it says
    nothing more, yet the mover learns why their move went nowhere, in their language."""
    thread = fake.open_thread("Doomed game")
    await fake.delete_thread(thread)
    turn = Direct(str(BEN.id), Message("Your turn"), turn_notice=True)
    service = Scripted(
        reply=Reply(
            public=[Message("Anne places a tile")],
            private=[Message("Your new tile.")],
            direct=[turn],
            channel_id=str(thread.id),
        )
    )
    anne = Person(5011, "Anne", locale="fr")
    async with logged_in(FcClient(service, deadline_seconds=None)) as client:
        await dispatch(client, fake.dm_command_payload(anne, "play", spot="3"))

    [answer] = fake.last_interaction().seen_by_user()
    assert answer.where == "ephemeral"
    assert answer.content == "Le lieu de cette table a été fermé ou supprimé : on n'y joue plus."
    assert fake.dm_attempts(BEN) == 0
    assert ("place_closed", None, f"discord:{thread.id}") in service.calls
    assert fake.unexpected == []


async def test_a_computer_move_into_a_deleted_thread_sends_no_turn_notice(
    fake: FakeDiscord, client: FcClient, store: Store, clock: Clock
) -> None:
    thread = fake.open_thread("Doomed game")
    await dispatch(client, fake.thread_command_payload(ANN, thread, "new", bots=1))
    [lobby] = fake.channel_messages(thread.id)
    await dispatch(client, fake.press_payload(ANN, lobby, f"fc:st:{thread.id}"))
    clock.now += 60
    await client.delivery.fire_due()  # the computer's first move, if it sits first
    who, spot, rotation = await mover(store, thread)
    assert who == ANN
    await dispatch(client, fake.dm_command_payload(ANN, "play", spot=spot, rotation=rotation))
    await fake.delete_thread(thread)  # while the computer thinks
    asked = fake.dm_attempts(ANN)

    clock.now += 60
    assert await client.delivery.fire_due() == 1  # the computer's move finds the thread gone

    assert fake.dm_attempts(ANN) == asked  # Ann is not asked to play at a closed table
    assert await store.load(place(thread)) is None
    assert_told_closed_once(fake, thread)
    clock.now += 7 * 86400
    assert await client.delivery.fire_due() == 0
    assert fake.dm_attempts(ANN) == asked
    assert fake.unexpected == []


async def test_a_refused_new_thread_true_opens_no_thread(
    fake: FakeDiscord, client: FcClient, store: Store
) -> None:
    # teams is an option of Die Verbotene Stadt, not of Forbidden City.
    await dispatch(client, fake.command_payload(ANN, "new", game="knizia", teams=True, thread=True))

    [answer] = fake.last_interaction().seen_by_user()
    assert answer.where == "ephemeral"
    assert "The start side is “beginner” or “advanced”." in answer.content
    assert ("POST", f"/channels/{fake.channel_id}/threads") not in fake.requests
    assert fake.threads == {}
    assert fake.channel_messages() == []
    assert fake.unexpected == []


async def test_a_refused_new_thread_true_is_refused_in_the_users_language(
    fake: FakeDiscord, client: FcClient, store: Store
) -> None:
    anne = Person(5011, "Anne", locale="fr")
    await dispatch(
        client, fake.command_payload(anne, "new", game="stadt", side="advanced", thread=True)
    )

    [answer] = fake.last_interaction().seen_by_user()
    assert answer.where == "ephemeral"
    assert "La seule option est « teams »" in answer.content
    assert fake.threads == {}
    assert fake.unexpected == []


async def test_a_level_without_computers_opens_no_thread_either(
    fake: FakeDiscord, client: FcClient, store: Store
) -> None:
    """`bots:0` with a level is refused as the table would refuse it: before any thread."""
    await dispatch(client, fake.command_payload(ANN, "new", bots=0, level="hard", thread=True))

    [answer] = fake.last_interaction().seen_by_user()
    assert answer.where == "ephemeral"
    assert "Write bots:N with N from 1 to 3" in answer.content
    assert ("POST", f"/channels/{fake.channel_id}/threads") not in fake.requests
    assert fake.threads == {}
    assert fake.unexpected == []
