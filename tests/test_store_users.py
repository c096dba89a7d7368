"""The user index is derived from the tables: each inconsistency a process could leave by
dying between a write and its index update is written straight into Redis here, then
repaired by the store."""

from __future__ import annotations

import json

from bot.store import Channel, Store

BACKENDS = ("single", "cluster")
CHAN = Channel.of("discord", 1234567890)
GONE = Channel.of("discord", 555)
TABLES = [Channel.of("discord", 7000 + n) for n in range(12)]


async def index_of(store: Store, user: int) -> set[str]:
    return {str(m) for m in await store.client.smembers(f"fc:user:discord:{user}")}


async def test_a_read_drops_entries_whose_table_no_longer_seats_the_user(store: Store) -> None:
    await store.create(CHAN, "{}", creator=1, players=[1, 2], language="en")
    # Left by processes that died before their SREM: user 3 left the table, GONE ended.
    await store.client.sadd("fc:user:discord:3", CHAN.channel_id)
    await store.client.sadd("fc:user:discord:1", GONE.channel_id)
    assert await store.user_games("discord", 3) == []
    assert await store.user_games("discord", 1) == [CHAN]
    assert await index_of(store, 3) == set()
    assert await index_of(store, 1) == {CHAN.channel_id}
    assert await store.user_games("discord", 2) == [CHAN]


async def test_every_save_adds_all_current_players_again(store: Store) -> None:
    await store.create(CHAN, "{}", creator=1, players=[1, 2], language="en")
    # A process died before its SADD: user 2 is seated but not indexed.
    await store.client.srem("fc:user:discord:2", CHAN.channel_id)
    assert await store.user_games("discord", 2) == []
    assert await store.save(CHAN, "{1}", 1) == 2
    assert await store.user_games("discord", 2) == [CHAN]
    await store.client.srem("fc:user:discord:1", CHAN.channel_id)
    assert await store.save(CHAN, "{2}", 2, players=[1, 2, 4]) == 3
    assert [await store.user_games("discord", u) for u in (1, 2, 4)] == [[CHAN]] * 3


async def test_the_index_is_not_written_with_the_game(store: Store) -> None:
    """Only the game's own slot is written in its script: the index follows it."""
    await store.create(CHAN, "{}", creator=1, players=[1], language="en")
    players = await store.client.hget(CHAN.game_key, "players")
    assert players is not None and json.loads(players) == ["1"]
    await store.client.delete("fc:user:discord:1")
    await store.archive(CHAN)
    assert await index_of(store, 1) == set()


async def test_repair_rebuilds_every_live_games_entries(store: Store) -> None:
    for n, channel in enumerate(TABLES):
        await store.create(channel, "{}", creator=n, players=[n, 100], language="en")
    await store.archive(TABLES[0])
    for user in [*range(len(TABLES)), 100]:
        await store.client.delete(f"fc:user:discord:{user}")
    assert await store.user_games("discord", 100) == []

    assert await store.repair_user_index() == len(TABLES) - 1
    assert await store.user_games("discord", 100) == sorted(TABLES[1:], key=str)
    assert await store.user_games("discord", 5) == [TABLES[5]]
    assert await store.user_games("discord", 0) == []
    assert await store.repair_user_index() == len(TABLES) - 1  # again: nothing changes
    assert await index_of(store, 100) == {t.channel_id for t in TABLES[1:]}
