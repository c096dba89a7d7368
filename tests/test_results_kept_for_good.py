"""A finished game's result is kept for good while its archive expires: the archive step writes
both, and only the archive carries the archive's time to live. Against a real redis-server and
a cluster."""

from __future__ import annotations

from bot.store import Channel, Store

BACKENDS = ("single", "cluster")
ROOM = Channel.of("console", "room1")


async def test_the_result_outlives_the_archive_it_was_written_with(store: Store) -> None:
    await store.create(ROOM, "{}", creator="ann", players=["ann"], language="en")
    live = await store.load(ROOM)
    assert live is not None
    archive = await store.archive(ROOM, live.version, result='{"kept": 1}', game_id=live.game_id)
    client = store.client
    assert await client.ttl(archive) > 0  # the archive goes in time
    assert await client.ttl(ROOM.result_key(live.game_id)) == -1  # the result never does
    assert await store.result(f"{ROOM}:{live.game_id}") == '{"kept": 1}'
