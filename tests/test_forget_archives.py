"""`/fc forget me` and the ended games' archives: each one the person sat at or opened is
written again with their seat anonymous, only if it is still the archive that was read, and
keeps its lifetime; one whose table cannot be read goes. Against a real redis-server and a
cluster."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from datetime import timedelta

import pytest

from bot.records.table import Table
from bot.service import GameService
from bot.store import Channel, Store
from bot.store.forgetting import Archived
from tests.conftest import fixed_seeds
from tests.test_results import everything_mentioning, member
from tests.test_service import Clock, settings

BACKENDS = ("single", "cluster")
ROOM = Channel.of("console", "room1")


@pytest.fixture
async def service(store: Store) -> AsyncIterator[GameService]:
    made = GameService(store, settings(), clock=Clock(), seeds=fixed_seeds())
    yield made
    made.computer.close()


async def forget(service: GameService, user: str) -> None:
    asked = await service.command(member(user), "forget me")
    assert (await service.press(member(user), asked.private[0].buttons[0][0].data)).ok


async def archived(store: Store, data: str, players: list[str]) -> str:
    await store.create(ROOM, data, creator=players[0], players=players, language="en")
    return await store.archive(ROOM)


async def test_a_table_the_person_opened_and_left_forgets_them_too(
    service: GameService, store: Store, redis_url: str
) -> None:
    """The archive names who opened the table even after they left it before the game."""
    assert (await service.command(member("zoe"), "new")).ok
    assert (await service.command(member("bob"), "join")).ok
    assert (await service.command(member("zoe"), "leave")).ok
    assert (await service.command(member("bob"), "abort")).ok
    await forget(service, "zoe")
    assert await everything_mentioning(redis_url, ["zoe", "Zoe"]) == []
    kept = await store.last_archived(ROOM)
    assert kept is not None and kept.players == ("bob",) and "Bob" in kept.data


async def test_an_archive_no_table_can_be_read_from_goes(
    service: GameService, store: Store, redis_url: str
) -> None:
    key = await archived(store, '{"seats": "zoe was here"}', ["zoe", "bob"])
    await forget(service, "zoe")
    assert await store.client.exists(key) == 0
    assert await everything_mentioning(redis_url, ["zoe"]) == []


async def test_an_archive_is_written_only_as_it_was_read_and_keeps_its_lifetime(
    store: Store,
) -> None:
    key = await archived(store, "zoe's table", ["zoe", "bob"])
    [read] = await store.archives_of("console", "zoe")
    assert read.key == key and read.players == ("zoe", "bob")
    await store.client.hset(key, "data", "changed since")
    assert not await store.rewrite_archive(read, "anonymous", ["bob"], "bob")
    assert await store.client.hget(key, "data") == "changed since"
    [read] = await store.archives_of("console", "zoe")
    moved = key.replace("room1", "room2")
    await store.client.rename(key, moved)  # as a chat's move renames its archives
    assert not await store.rewrite_archive(read, "anonymous", ["bob"], "bob")
    assert await store.client.exists(key) == 0  # no key made without a lifetime
    await store.client.rename(moved, key)
    assert await store.rewrite_archive(read, "anonymous", ["bob"], "bob")
    assert await store.client.hmget(key, ["data", "players", "creator"]) == [
        "anonymous",
        '["bob"]',
        "bob",
    ]
    assert await store.client.ttl(key) > 0
    assert await store.archives_of("console", "zoe") == []


async def table_ended(service: GameService, opener: str, other: str) -> None:
    """A table `opener` opened and `other` joined, ended before its game (so archived)."""
    assert (await service.command(member(opener), "new")).ok
    assert (await service.command(member(other), "join")).ok
    assert (await service.command(member(opener), "abort")).ok


async def test_a_person_who_sat_at_a_table_another_opened_is_forgotten_there(
    service: GameService, store: Store, redis_url: str
) -> None:
    """Their seat keeps its place, anonymous and away (no one plays it now); the note that
    they were told about closed private messages goes with them, others' notes stay."""
    assert (await service.command(member("bob"), "new")).ok
    assert (await service.command(member("zoe"), "join")).ok
    data = await store.client.hget(ROOM.game_key, "data")
    assert isinstance(data, str)
    table = Table.model_validate_json(data)
    table.hinted = ["zoe", "bob"]
    await store.client.hset(ROOM.game_key, "data", table.model_dump_json())
    assert (await service.command(member("bob"), "abort")).ok
    await forget(service, "zoe")
    assert await everything_mentioning(redis_url, ["zoe", "Zoe"]) == []
    kept = await store.last_archived(ROOM)
    assert kept is not None and kept.players == ("bob",) and kept.creator == "bob"
    left = Table.model_validate_json(kept.data)
    assert [(s.name, s.away) for s in left.seats] == [("Bob", False), ("(anonymous)", True)]
    assert left.hinted == ["bob"]


async def test_the_anonymous_seat_is_named_in_the_chats_language(
    service: GameService, store: Store
) -> None:
    await store.set_chat_language(ROOM, "fr")
    await table_ended(service, "bob", "zoe")
    await forget(service, "zoe")
    kept = await store.last_archived(ROOM)
    assert kept is not None and "(anonyme)" in kept.data and "(anonymous)" not in kept.data


async def test_the_same_id_on_another_platform_is_someone_else(
    service: GameService, store: Store
) -> None:
    """A Discord user and a console user may share an id: forgetting one leaves the other's
    archives and settings as they were."""
    elsewhere = Channel.of("discord", "room1")
    await store.create(elsewhere, "zoe's table", creator="zoe", players=["zoe"], language="en")
    key = await store.archive(elsewhere)
    await store.set_notify(elsewhere, "zoe", False)
    assert await store.archives_of("console", "zoe") == []
    await forget(service, "zoe")
    assert await store.client.hmget(key, ["data", "players", "creator"]) == [
        "zoe's table",
        '["zoe"]',
        "zoe",
    ]
    assert await store.client.hget(elsewhere.settings_key, "notify:zoe") == "0"


async def test_forgetting_a_user_deletes_their_own_keys_and_settings(store: Store) -> None:
    """Their turn-notice setting in every chat, the note that their private messages are
    closed, and their games index; what others set stays."""
    rooms = [ROOM, Channel.of("console", "room2")]
    for room in rooms:
        await store.set_notify(room, "zoe", False)
        await store.set_notify(room, "bob", False)
    await store.set_dms_closed("console", "zoe", 1000.0, keep=timedelta(days=1))
    await store.set_dms_closed("console", "bob", 1000.0, keep=timedelta(days=1))
    await store.client.sadd("fc:user:console:zoe", "room3")  # an index entry left behind
    assert await store.forget_user("console", "zoe") == 4
    for room in rooms:
        assert await store.client.hgetall(room.settings_key) == {"notify:bob": "0"}
    assert await store.dms_closed_at("console", "zoe") is None
    assert await store.dms_closed_at("console", "bob") == 1000.0
    assert await store.client.exists("fc:user:console:zoe") == 0


async def test_everyone_forgotten_at_one_table_keeps_a_seat_of_their_own(
    service: GameService, store: Store, redis_url: str
) -> None:
    """Several people forgotten at one table, one of whom opened it and left: each seat keeps
    an id of its own, and the table stays with the seat that took it over."""
    assert (await service.command(member("zoe"), "new")).ok
    for other in ("bob", "amy", "cy"):
        assert (await service.command(member(other), "join")).ok
    assert (await service.command(member("zoe"), "leave")).ok
    assert (await service.command(member("bob"), "abort")).ok
    for person in ("zoe", "amy", "cy", "bob"):
        await forget(service, person)
    assert await everything_mentioning(redis_url, ["zoe", "amy", "cy", "bob"]) == []
    kept = await store.last_archived(ROOM)
    assert kept is not None
    table = Table.model_validate_json(kept.data)
    seated = [seat.user_id for seat in table.seats]
    assert len(set(seated)) == 3 and table.creator == seated[0]


async def test_archives_that_keep_changing_under_the_forget_are_deleted(
    service: GameService, store: Store, redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each archive is written again by someone else (a chat's move, say) between the read
    and the forget's write, every time: after its last read the forget deletes them rather
    than leave the person in them."""
    for _ in range(2):
        await table_ended(service, "bob", "zoe")
    keys = [found.key for found in await store.archives_of("console", "zoe")]
    assert len(keys) == 2
    rewrite = store.rewrite_archive
    tries = 0

    async def meanwhile(archive: Archived, data: str, players: Sequence[str], creator: str) -> bool:
        nonlocal tries
        tries += 1
        changed = Table.model_validate_json(archive.data)
        changed.hinted.append("bob")
        await store.client.hset(archive.key, "data", changed.model_dump_json())
        return await rewrite(archive, data, players, creator)

    monkeypatch.setattr(store, "rewrite_archive", meanwhile)
    await forget(service, "zoe")
    assert tries > 2  # each archive was tried again after it changed
    assert [await store.client.exists(key) for key in keys] == [0, 0]
    assert await everything_mentioning(redis_url, ["zoe"]) == []


async def test_readable_archives_are_kept_however_many_unreadable_ones_are_listed_first(
    service: GameService, store: Store, redis_url: str
) -> None:
    """Eight archives no table can be read from and eight the person sat at, in whatever order
    Redis lists them: the unreadable ones go, the others all stay, the person anonymous."""
    broken = [await archived(store, '{"seats": "zoe was here"}', ["zoe", "bob"]) for _ in range(8)]
    for _ in range(8):
        await table_ended(service, "bob", "zoe")
    readable = [f.key for f in await store.archives_of("console", "zoe") if f.key not in broken]
    assert len(readable) == 8
    await forget(service, "zoe")
    assert [await store.client.exists(key) for key in broken] == [0] * 8
    assert [await store.client.exists(key) for key in readable] == [1] * 8
    assert await everything_mentioning(redis_url, ["zoe", "Zoe"]) == []
