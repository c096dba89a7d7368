"""A table moved to another chat id (a Telegram group that became a supergroup): everything
that belongs to it moves, in three steps that survive a crash after any of them and two
processes moving it at once."""

from __future__ import annotations

import asyncio

import pytest

from bot.store import AlreadyExists, Channel, Conflict, Deadline, GameRecord, Store

BACKENDS = ("single", "cluster")
OLD = Channel.of("telegram", -100111)
NEW = Channel.of("telegram", -100333)


async def seated(store: Store) -> tuple[str, Deadline]:
    """An ended game, then a live one with two deadlines (one claimed) and chat settings.
    Returns the ended game's id and the claim."""
    assert OLD.bucket < 85 < 171 < NEW.bucket  # different masters of the test cluster
    ended = await store.create(OLD, "{ended}", creator=1, players=[1], language="en")
    await store.archive(OLD, 1, data="{final}")
    await store.create(OLD, "{0}", creator=1, players=[1, 2], language="de")
    await store.save(OLD, "{1}", 1, deadlines={"remind": 100.0, "limit": 500.0})
    claimed = await store.lease(Deadline(OLD, "remind", 100.0), 130.0)
    assert claimed is not None
    await store.set_chat_language(OLD, "fr")
    await store.set_notify(OLD, 2, False)
    return ended.game_id, claimed


async def check_moved(store: Store, ended_id: str, claimed: Deadline) -> GameRecord:
    live = await store.load(NEW)
    assert live is not None
    assert (live.channel, live.version, live.data, live.players) == (NEW, 3, "{1}", ("1", "2"))
    assert live.language == "de"
    assert await store.load(OLD) == live  # the old id leads to the table
    assert await store.client.exists(OLD.game_key, OLD.settings_key, OLD.last_key) == 0
    assert await store.live_channels() == [NEW]
    assert await store.deadline(OLD, "limit") is None
    assert await store.deadline(NEW, "limit") == Deadline(NEW, "limit", 500.0)
    assert await store.deadline(NEW, "remind") == Deadline(NEW, "remind", 130.0)
    assert await store.done(Deadline(NEW, "remind", 130.0, claimed.token)) is True
    assert (await store.chat_settings(OLD)).language is None
    chat = await store.chat_settings(NEW)
    assert (chat.language, chat.notify) == ("fr", {"2": False})
    ended = await store.last_archived(NEW)
    assert ended is not None and (ended.game_id, ended.data) == (ended_id, "{final}")
    assert await store.client.ttl(NEW.archive_key(ended_id)) > 29 * 86400
    assert await store.user_games("telegram", 1) == [NEW]
    assert await store.user_games("telegram", 2) == [NEW]
    assert await store.save(NEW, "{2}", 3) == 4
    return live


async def test_a_table_moves_with_all_that_belongs_to_it(store: Store) -> None:
    ended_id, claimed = await seated(store)
    moved = await store.move_channel(OLD, NEW)
    live = await check_moved(store, ended_id, claimed)
    assert moved == live
    again = await store.move_channel(OLD, NEW)  # a resend: the table is where it went
    assert again is not None and (again.channel, again.version) == (NEW, 4)


async def test_a_chat_without_a_table_moves_its_settings_and_last_game(store: Store) -> None:
    ended = await store.create(OLD, "{ended}", creator=1, players=[1], language="en")
    await store.archive(OLD, 1)
    await store.set_chat_language(OLD, "it")
    assert await store.move_channel(OLD, NEW) is None
    assert (await store.chat_settings(NEW)).language == "it"
    last = await store.last_archived(NEW)
    assert last is not None and last.game_id == ended.game_id
    assert await store.last_archived(OLD) is None
    assert await store.load(NEW) is None and await store.load(OLD) is None


@pytest.mark.parametrize("steps", [1, 2])
@pytest.mark.parametrize("resume", ["load", "move_channel"])
async def test_a_move_cut_short_is_finished_later(store: Store, steps: int, resume: str) -> None:
    ended_id, claimed = await seated(store)
    move = await store.begin_move(OLD, NEW)  # the process dies after this step...
    if steps == 2:
        await store.copy_move(move)  # ...or after this one
        assert await store.client.exists(OLD.game_key, NEW.game_key) == 2
    if resume == "load":
        resumed = await store.load(OLD)
    else:
        resumed = await store.move_channel(OLD, NEW)
    assert resumed is not None and resumed.channel == NEW
    await check_moved(store, ended_id, claimed)


async def test_a_move_cut_short_before_its_index_update_is_repaired(store: Store) -> None:
    ended_id, claimed = await seated(store)
    move = await store.begin_move(OLD, NEW)
    await store.copy_move(move)
    await store.end_move(move)
    for user in (1, 2):  # as if the process died between the last step and the index
        await store.client.srem(f"fc:user:telegram:{user}", NEW.channel_id)
        await store.client.sadd(f"fc:user:telegram:{user}", OLD.channel_id)
    assert await store.user_games("telegram", 1) == []
    assert await store.repair_user_index() == 1
    await check_moved(store, ended_id, claimed)


async def test_a_save_racing_with_a_move_conflicts_and_finds_the_table_moved(
    store: Store,
) -> None:
    ended_id, claimed = await seated(store)
    read = await store.load(OLD)
    assert read is not None and read.version == 2
    await store.begin_move(OLD, NEW)
    with pytest.raises(Conflict):
        await store.save(OLD, "{lost}", read.version)
    await check_moved(store, ended_id, claimed)


async def test_a_move_onto_another_table_is_refused_and_changes_nothing(store: Store) -> None:
    await seated(store)
    await store.create(NEW, "{theirs}", creator=9, players=[9], language="en")
    with pytest.raises(AlreadyExists):
        await store.move_channel(OLD, NEW)
    old = await store.load(OLD)
    theirs = await store.load(NEW)
    assert old is not None and (old.channel, old.data) == (OLD, "{1}")
    assert theirs is not None and (theirs.data, theirs.players) == ("{theirs}", ("9",))
    assert await store.save(OLD, "{2}", old.version) == old.version + 1  # writable again
    assert await store.deadline(OLD, "limit") == Deadline(OLD, "limit", 500.0)
    assert (await store.chat_settings(OLD)).language == "fr"
    assert (await store.chat_settings(NEW)).language is None
    assert await store.user_games("telegram", 1) == [OLD]


@pytest.mark.parametrize("order", ["first-copies-first", "second-finishes-first"])
async def test_two_processes_moving_one_table(store: Store, redis_url: str, order: str) -> None:
    ended_id, claimed = await seated(store)
    first, second = Store.from_url(redis_url), Store.from_url(redis_url)
    try:
        a = await first.begin_move(OLD, NEW)
        b = await second.begin_move(OLD, NEW)
        assert a.op == b.op  # the second joins the move under way
        if order == "first-copies-first":
            steps = [first.copy_move(a), second.copy_move(b), first.end_move(a)]
            steps.append(second.end_move(b))
        else:
            steps = [second.copy_move(b), second.end_move(b), first.copy_move(a)]
            steps.append(first.end_move(a))
        for step in steps:
            await step
        await check_moved(store, ended_id, claimed)
    finally:
        await first.close()
        await second.close()


async def test_two_processes_moving_one_table_at_once(store: Store, redis_url: str) -> None:
    ended_id, claimed = await seated(store)
    others = [Store.from_url(redis_url) for _ in range(2)]
    try:
        moved = await asyncio.gather(*(other.move_channel(OLD, NEW) for other in others))
        assert moved[0] == moved[1] and moved[0] is not None and moved[0].channel == NEW
        await check_moved(store, ended_id, claimed)
    finally:
        for other in others:
            await other.close()
