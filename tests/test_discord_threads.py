"""Tables in Discord threads: a thread is a place of its own beside its channel; `/fc new
thread:true` opens one; an archived thread is opened again when the game posts there, and a
locked or deleted one closes its table cleanly. The real client, service and redis-server;
only Discord is faked (tests/fake_discord.py)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from datetime import timedelta

import pytest

import render.forbidden_city as render
from bot.config import Settings
from bot.discord import FcClient
from bot.records.table import Table
from bot.service import GameService
from bot.store import Channel, Store
from tests.conftest import fixed_seeds
from tests.fake_discord import FakeDiscord, Person, Thread, dispatch, fake_discord, logged_in
from tests.tables import load_game
from tests.test_discord_games import Clock
from tests.views import to_play

# On a Redis Cluster too: each place's keys lie in one slot, its steps stay atomic.
BACKENDS = ("single", "cluster")
ANN, BEN, CID = Person(5001, "Ann"), Person(5002, "Ben"), Person(5003, "Cid")
DEADLINES = ("remind", "limit", "bot", "news")


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with fake_discord() as server:
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


def place(thread: Thread) -> Channel:
    return Channel.of("discord", str(thread.id))


async def open_in_thread(fake: FakeDiscord, client: FcClient, thread: Thread) -> None:
    """Ann opens a table in the thread, Ben joins by its button, Ann starts by hers."""
    await dispatch(client, fake.thread_command_payload(ANN, thread, "new", side="beginner"))
    [lobby] = fake.channel_messages(thread.id)
    assert not [c for c in lobby.custom_ids() if c.startswith("fc:nt:")]  # no thread in it
    await dispatch(client, fake.press_payload(BEN, lobby, f"fc:j:{thread.id}"))
    joined = fake.channel_messages(thread.id)[-1]
    await dispatch(client, fake.press_payload(ANN, joined, f"fc:st:{thread.id}"))
    assert "begins" in fake.channel_messages(thread.id)[-1].content


async def mover(store: Store, thread: Thread) -> tuple[Person, str, int]:
    """Who moves in the thread's game, a legal spot number and rotation for them."""
    record = await store.load(place(thread))
    assert record is not None
    table = Table.model_validate_json(record.data)
    game = load_game(table)
    user = table.user_of(game.current).user_id
    spot = random.Random(len(game.moves)).choice(render.spots(to_play(game)))
    return next(p for p in (ANN, BEN) if str(p.id) == user), str(spot.number), spot.rotations[0]


async def test_a_thread_keeps_a_table_of_its_own_beside_its_channels(
    fake: FakeDiscord, client: FcClient, store: Store
) -> None:
    await dispatch(client, fake.command_payload(CID, "new"))  # the channel's own table
    channel_table = await store.load(Channel.of("discord", str(fake.channel_id)))
    thread = fake.open_thread("Side game")
    await open_in_thread(fake, client, thread)
    assert len(fake.channel_messages()) == 1  # the channel saw only its own lobby

    who, spot, rotation = await mover(store, thread)
    await dispatch(
        client, fake.thread_command_payload(who, thread, "play", spot=spot, rotation=rotation)
    )
    shown = fake.channel_messages(thread.id)[-1]
    assert "places a tile" in shown.content and shown.images()[0].format == "PNG"
    assert await store.load(Channel.of("discord", str(fake.channel_id))) == channel_table
    assert fake.unexpected == []

    # /fc games names the thread and links to it; a turn notice names it too.
    await dispatch(client, fake.dm_command_payload(BEN, "games"))
    [listing] = fake.last_interaction().seen_by_user()
    link = f"https://discord.com/channels/{fake.guild_id}/{thread.id}"
    assert "#Side game" in listing.content and link in listing.content
    notices = [m for m in fake.dms(ANN) + fake.dms(BEN) if m.menu() is not None]
    assert notices and "📍 #Side game" in notices[-1].content


async def test_an_archived_thread_is_opened_again_for_the_time_limit_and_a_move(
    fake: FakeDiscord, client: FcClient, store: Store, clock: Clock
) -> None:
    thread = fake.open_thread("Slow game")
    await open_in_thread(fake, client, thread)
    thread.archived = True  # a week without a message
    clock.now += 7201  # the turn ran past its limit
    await client.delivery.fire_due()
    assert not thread.archived
    [limit] = [m for m in fake.channel_messages(thread.id) if "/fc vote" in m.content]
    assert f"<@{(await mover(store, thread))[0].id}>" in limit.content

    thread.archived = True
    who, spot, rotation = await mover(store, thread)
    await dispatch(client, fake.dm_command_payload(who, "play", spot=spot, rotation=rotation))
    assert not thread.archived
    assert "places a tile" in fake.channel_messages(thread.id)[-1].content
    assert fake.channel_messages() == []  # nothing went to the channel instead
    assert fake.unexpected == []


@pytest.mark.parametrize("how", ["locked", "deleted"])
async def test_a_locked_or_deleted_thread_closes_its_table_and_the_channel_is_told(
    fake: FakeDiscord, client: FcClient, store: Store, clock: Clock, how: str
) -> None:
    thread = fake.open_thread("Doomed game")
    await open_in_thread(fake, client, thread)
    if how == "locked":  # a moderator locked it, and it was archived
        thread.archived = thread.locked = True
    else:
        thread.deleted = True
    clock.now += 7201
    await client.delivery.fire_due()

    assert await store.load(place(thread)) is None
    for kind in DEADLINES:
        assert await store.deadline(place(thread), kind) is None
    [told] = fake.channel_messages()
    assert "#Doomed game is closed" in told.content and "Forbidden City" in told.content
    clock.now += 7 * 86400  # nothing fires again, nothing is said again
    assert await client.delivery.fire_due() == 0
    assert len(fake.channel_messages()) == 1
    assert fake.unexpected == []


async def test_new_thread_true_opens_a_thread_named_after_the_game_and_its_creator(
    fake: FakeDiscord, client: FcClient, store: Store
) -> None:
    await dispatch(client, fake.command_payload(ANN, "new", thread=True))
    [thread] = fake.threads.values()
    assert thread.name == "Forbidden City · Ann" and thread.parent_id == fake.channel_id
    [lobby] = fake.channel_messages(thread.id)
    assert "opens a Forbidden City table" in lobby.content
    assert f"fc:j:{thread.id}" in lobby.custom_ids()
    [line] = fake.channel_messages()  # the channel gets one line with the link
    assert line.content == f"<@{ANN.id}> opened a table in <#{thread.id}>."
    assert line.components == []
    table = await store.load(place(thread))
    assert table is not None and Table.model_validate_json(table.data).parent == str(
        fake.channel_id
    )
    # The channel may still open its own table; both play at once.
    await dispatch(client, fake.command_payload(BEN, "new"))
    assert await store.load(Channel.of("discord", str(fake.channel_id))) is not None
    await dispatch(client, fake.command_payload(CID, "new", game="stadt", thread=True))
    names = sorted(t.name for t in fake.threads.values())
    assert names == ["Die Verbotene Stadt · Cid", "Forbidden City · Ann"]
    assert fake.unexpected == []


async def test_new_thread_true_is_refused_clearly_where_it_cannot_be(
    fake: FakeDiscord, client: FcClient, store: Store
) -> None:
    inside = fake.open_thread("A thread")
    await dispatch(client, fake.thread_command_payload(ANN, inside, "new", thread=True))
    [answer] = fake.last_interaction().seen_by_user()
    assert answer.where == "ephemeral" and "from a server channel" in answer.content

    fake.no_threads.add(fake.channel_id)
    await dispatch(client, fake.command_payload(ANN, "new", thread=True))
    [answer] = fake.last_interaction().seen_by_user()
    assert answer.where == "ephemeral" and "Create Public Threads" in answer.content
    fake.no_threads.clear()

    # A table the game refuses takes its new thread along.
    await dispatch(client, fake.command_payload(ANN, "new", game="knizia", teams=True, thread=True))
    [answer] = fake.last_interaction().seen_by_user()
    assert answer.where == "ephemeral"
    assert [t for t in fake.threads.values() if t is not inside and not t.deleted] == []
    assert fake.channel_messages() == []
    assert fake.unexpected == []


async def test_the_new_table_in_a_thread_button_opens_another_table_of_that_game(
    fake: FakeDiscord, client: FcClient, store: Store
) -> None:
    await dispatch(client, fake.command_payload(ANN, "new", game="stadt"))
    [lobby] = fake.channel_messages()
    button = lobby.button(f"fc:nt:{fake.channel_id}:0:")
    assert button["label"] == "New table in a thread"
    await dispatch(client, fake.press_payload(BEN, lobby, button["custom_id"]))
    [thread] = fake.threads.values()
    assert thread.name == "Die Verbotene Stadt · Ben"
    [inside] = fake.channel_messages(thread.id)
    assert "opens a Die Verbotene Stadt table" in inside.content
    # A thread holds no threads: its lobby offers none.
    assert not [c for c in inside.custom_ids() if c.startswith("fc:nt:")]
    assert fake.channel_messages()[-1].content == f"<@{BEN.id}> opened a table in <#{thread.id}>."
    for where in (fake.channel_id, thread.id):  # the channel's table and the thread's
        assert await store.load(Channel.of("discord", str(where))) is not None
    assert fake.unexpected == []


async def test_a_thread_the_bot_may_not_post_in_says_which_permission_is_missing(
    fake: FakeDiscord, client: FcClient, store: Store
) -> None:
    thread = fake.open_thread("Quiet thread")
    fake.unwritable.add(thread.id)  # no Send Messages in Threads there
    await dispatch(client, fake.thread_command_payload(ANN, thread, "new"))
    answers = fake.last_interaction().seen_by_user()
    assert [a.where for a in answers] == ["ephemeral"]
    assert "Send Messages in Threads" in answers[0].content
    assert fake.channel_messages(thread.id) == [] and fake.channel_messages() == []
    assert fake.unexpected == []
