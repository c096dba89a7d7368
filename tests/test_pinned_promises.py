"""Promises that an off-by-one or a careless write would break without any other test
noticing: the results sweep reaches the last bucket, a chat's move never overwrites what the
new chat holds, a renewed lease is still ended by its holder, and `/fc history` lists the
games it should, each once. Against a real redis-server and a local cluster."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

import pytest

from bot.records.finished import Result, ResultSeat
from bot.service import GameService
from bot.service import results as kept
from bot.service.history import LISTED
from bot.store import BUCKETS, Channel, Store
from bot.store.keys import unrated_key
from tests.conftest import fixed_seeds
from tests.test_service import Clock, settings, table_of, who

BACKENDS = ("single", "cluster")
KIND = "forbidden_city"


@pytest.fixture
async def service(store: Store) -> AsyncIterator[GameService]:
    made = GameService(store, settings(), clock=Clock(), seeds=fixed_seeds())
    yield made
    made.computer.close()


def room_in(bucket: int) -> Channel:
    """A console channel whose keys lie in `bucket`, by the store's own hashing."""
    return next(
        channel
        for number in range(100_000)
        if (channel := Channel.of("console", f"room{number}")).bucket == bucket
    )


def result_of(number: int, channel: Channel, winner: str, loser: str) -> Result:
    """A two-player result with an id of its own (its short id is the number, in hex)."""
    return Result(
        id=f"{number:08x}" + "0" * 24,
        kind=KIND,
        ended=1_000.0 + number,
        platform=channel.platform,
        channel=channel.channel_id,
        community="guild1",
        moves=56,
        seats=[
            ResultSeat(seat="A", name=winner.capitalize(), user_id=winner, score=60, place=1),
            ResultSeat(seat="B", name=loser.capitalize(), user_id=loser, score=50, place=2),
        ],
        record={},
    )


async def keep_result(store: Store, result: Result, *, unrated: bool) -> None:
    """A result as the archive step keeps it: written, listed in its channel and, if
    `unrated`, in its bucket's unrated set (its process died before rating it)."""
    channel = Channel.of(result.platform, result.channel)
    await store.client.set(channel.result_key(result.id), result.model_dump_json())
    await store.client.zadd(channel.results_key, {result.ref: result.ended})
    if unrated:
        await store.client.sadd(channel.unrated_key, result.ref)


def listed(text: str) -> list[str]:
    """The short ids a `/fc history` answer lists, in its order."""
    return [line.split(" · ")[0] for line in text.splitlines() if " · " in line]


# ------------------------------------------------------------------ 1. the sweep's buckets


async def test_the_sweep_rates_results_left_unrated_in_the_first_and_the_last_bucket(
    service: GameService, store: Store
) -> None:
    """A process that died after the archive leaves its result unrated wherever its chat
    hashes to; the sweep (run by `fire_due`) must reach the last bucket as well as the first,
    or those players would never be rated."""
    first = result_of(1, room_in(0), "ann", "bob")
    last = result_of(2, room_in(BUCKETS - 1), "cid", "dan")
    for result in (first, last):
        await keep_result(store, result, unrated=True)
    # Where they lie, read straight from Redis: the first and the last bucket's sets.
    assert await store.client.smembers(unrated_key(0)) == {first.ref}
    assert await store.client.smembers(unrated_key(BUCKETS - 1)) == {last.ref}
    await service.fire_due()
    assert await store.unrated() == []
    assert await store.client.smembers(unrated_key(BUCKETS - 1)) == set()
    rated = await store.players(KIND, [f"console:{u}" for u in ("ann", "bob", "cid", "dan")])
    assert {key: player.games for key, player in rated.items()} == {
        "console:ann": 1,
        "console:bob": 1,
        "console:cid": 1,
        "console:dan": 1,
    }
    assert rated["console:cid"].wins == 1 and rated["console:dan"].wins == 0


# ------------------------------------------------------------- 2. a chat's move to a new id


async def test_a_chat_move_never_overwrites_what_the_new_chat_holds(
    service: GameService, store: Store
) -> None:
    """Telegram may announce a supergroup whose id already has a table or settings (a
    retried or crossed migration): the move must keep the new chat's own table, language and
    notices, and answer False when its table kept the old chat's table out."""
    # Both chats have a table and a language of their own: nothing moves.
    assert (await service.command(who("ann", "grp-old"), "new")).ok
    assert (await service.command(who("bob", "grp-old"), "join")).ok
    assert (await service.command(who("ann", "grp-old"), "lang de")).ok
    assert (await service.command(who("cid", "grp-new"), "new stadt")).ok
    assert (await service.command(who("cid", "grp-new"), "lang fr")).ok
    new_before = await store.load(Channel.of("console", "grp-new"))
    assert new_before is not None
    assert await service.chat_moved("console", "grp-old", "grp-new") is False
    new_after = await store.load(Channel.of("console", "grp-new"))
    assert new_after is not None
    assert (new_after.game_id, new_after.players) == (new_before.game_id, ("cid",))
    new_table = await table_of(store, "grp-new")
    assert new_table is not None and new_table.kind == "verbotene_stadt"
    old_table = await table_of(store, "grp-old")  # kept apart, still playable where it was
    assert old_table is not None and [s.user_id for s in old_table.seats] == ["ann", "bob"]
    assert (await service.command(who("eve", "grp-old"), "join")).ok
    new_settings = await store.chat_settings(Channel.of("console", "grp-new"))
    assert new_settings.language == "fr"
    # The new chat has no table but settings of its own: the table moves, its settings stay.
    assert (await service.command(who("ann", "grp-2"), "new")).ok
    assert (await service.command(who("ann", "grp-2"), "lang de")).ok
    assert (await service.command(who("ann", "grp-2"), "notify off")).ok
    assert (await service.command(who("ann", "grp-3"), "lang it")).ok
    assert (await service.command(who("ann", "grp-3"), "notify on")).ok
    assert await service.chat_moved("console", "grp-2", "grp-3") is True
    moved = await table_of(store, "grp-3")
    assert moved is not None and [s.user_id for s in moved.seats] == ["ann"]
    kept_settings = await store.chat_settings(Channel.of("console", "grp-3"))
    assert kept_settings.language == "it"
    assert kept_settings.notify_enabled("ann") is True
    shown = await service.command(who("ann", "grp-3"), "lang")
    assert shown.private[0].text.startswith("Lingua: it.")  # the chat still speaks Italian


# ----------------------------------------------------------- 3. a renewed lease, let go


async def test_a_renewed_lease_is_still_ended_by_its_holder(store: Store) -> None:
    """Long work renews its lease; when it is done, its holder's `done` (a deadline's) or
    `let_go` (a job's) must still end that lease: else the deadline fires again when the
    renewed lease runs out, and a job waits a whole lease for its next holder."""
    room = room_in(BUCKETS - 1)
    due = await store.schedule(room, "limit", 100.0)
    claimed = await store.lease(due, 1_000.0)
    assert claimed is not None
    renewed = await store.renew(claimed, 2_000.0)
    assert renewed is not None and renewed.due == 2_000.0
    assert await store.done(renewed) is True
    assert await store.deadline(room, "limit") is None
    assert await store.due(now=1e12) == []  # it never comes due again
    # A job's lease: held, renewed by its holder, given back, taken by another at once.
    first = await store.hold("poll-telegram", "process-a", 60.0)
    assert first is not None and first.taken
    again = await store.hold("poll-telegram", "process-a", 60.0)
    assert again is not None and not again.taken  # renewed, not taken anew
    await store.let_go("poll-telegram", "process-a")
    taken = await store.hold("poll-telegram", "process-b", 60.0)
    assert taken is not None and taken.taken and taken.handed_back


# ------------------------------------------------------------------- 4. history's length


@pytest.mark.parametrize("games", [LISTED - 1, LISTED, LISTED + 1, 2 * LISTED + 1])
async def test_history_lists_the_last_games_each_once(
    service: GameService, store: Store, games: int
) -> None:
    """`/fc history` lists a chat's (or a player's) last `LISTED` games, newest first: with
    fewer, all of them; never one more, one less, or one twice. And `/fc stats` counts every
    game, so the player sees how many the history leaves out."""
    room = Channel.of("console", "room1")
    results = [result_of(n, room, "ann", f"p{n:02d}") for n in range(games)]
    for result in results:
        await keep_result(store, result, unrated=False)
        await kept.apply(service.ctx, result)
    newest = [r.short for r in reversed(results)][:LISTED]
    for actor in (who("eve", "room1"), who("ann", "dm-ann", private=True)):
        reply = await service.command(actor, "history")
        shown = listed(reply.public[0].text)
        assert shown == newest, actor
        assert len(set(shown)) == len(shown) == min(games, LISTED)
    stats = await service.command(who("ann", "dm-ann", private=True), "stats")
    assert re.search(rf"\b{games} games\b", stats.public[0].text), stats.public[0].text
