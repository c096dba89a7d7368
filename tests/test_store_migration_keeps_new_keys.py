"""What the move to the bucketed key layout leaves alone: whatever the new layout already
holds under a name it would move a first-layout key to (chat settings, a deadline, a claim
on it) stays as it is, and once the store is marked migrated a later start-up moves
nothing, not even first-layout keys written since. Against a real redis-server."""

from __future__ import annotations

from bot.store import Deadline, Store
from tests.test_store_migration import CHAN, snapshot, write_first_layout

OLD_CHAT = "fc:chat:discord:1234567890"


async def test_the_migration_overwrites_nothing_the_new_layout_holds(
    store: Store, redis_url: str
) -> None:
    await write_first_layout(redis_url)  # chat in Italian, a reminder at 1000.5, a claimed bot turn
    await store.set_chat_language(CHAN, "en")
    await store.schedule(CHAN, "remind", 7777.0)
    await store.schedule(CHAN, "bot", 900.0)
    mine = await store.lease(Deadline(CHAN, "bot", 900.0), 1500.0)
    assert mine is not None

    assert await store.migrate() == 2
    assert (await store.chat_settings(CHAN)).language == "en"
    assert await store.client.exists(OLD_CHAT)  # left where it was, not lost
    assert await store.deadline(CHAN, "remind") == Deadline(CHAN, "remind", 7777.0)
    assert await store.deadline(CHAN, "bot") == Deadline(CHAN, "bot", 1500.0)
    assert await store.done(mine)  # the new layout's claim still holds its lease


async def test_once_migrated_a_later_start_up_moves_nothing(store: Store, redis_url: str) -> None:
    assert await store.migrate() == 0  # an empty store: marked, nothing to move
    await write_first_layout(redis_url)  # written afterwards, by a process of the old version
    before = snapshot(redis_url)
    assert await store.migrate() == 0
    assert snapshot(redis_url) == before
