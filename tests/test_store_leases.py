"""The store's steps that must survive a lost reply or a crash halfway (real redis-server):
deadlines written with the turn, the end of a game in one step, and claims as leases."""

from __future__ import annotations

import hashlib
import json

import pytest

from bot.local_redis.server import RedisServer
from bot.store import CLAIM_LEASE, Channel, Conflict, Deadline, Store, scripts
from tests.redis_proxy import CuttingProxy

BACKENDS = ("single", "cluster")
CHAN = Channel.of("discord", 42)


def record(n: int) -> str:
    return json.dumps({"move": n})


def sent(script: str) -> bytes:
    return hashlib.sha1(script.encode()).hexdigest().encode()


async def test_a_save_sets_and_cancels_deadlines_in_the_same_step(store: Store) -> None:
    await store.create(CHAN, record(0), creator=1, players=[1, 2], language="en")
    await store.schedule(CHAN, "limit", 50.0)
    assert await store.save(CHAN, record(1), 1, deadlines={"remind": 100.0, "limit": None}) == 2
    assert await store.deadline(CHAN, "remind") == Deadline(CHAN, "remind", 100.0)
    assert await store.deadline(CHAN, "limit") is None
    with pytest.raises(Conflict):
        await store.save(CHAN, record(9), 1, deadlines={"remind": 999.0, "limit": 999.0})
    assert await store.deadline(CHAN, "remind") == Deadline(CHAN, "remind", 100.0)
    assert await store.deadline(CHAN, "limit") is None


async def test_a_claimed_deadline_comes_due_again_unless_done(store: Store) -> None:
    await store.schedule(CHAN, "remind", 100.0)
    [due] = await store.due(now=100.0)
    claimed = await store.lease(due, 100.0 + CLAIM_LEASE)
    assert claimed is not None and claimed.due == 100.0 + CLAIM_LEASE
    assert await store.lease(due, 100.0 + CLAIM_LEASE) is None  # one holder only
    assert await store.due(now=100.0 + CLAIM_LEASE - 1) == []
    [again] = await store.due(now=100.0 + CLAIM_LEASE)  # the holder never finished
    retaken = await store.lease(again, 200.0 + CLAIM_LEASE)
    assert retaken is not None
    assert await store.done(claimed) is False  # the first holder's lease is over
    assert await store.done(retaken) is True
    assert await store.deadline(CHAN, "remind") is None
    assert await store.client.hlen(CHAN.claims_key) == 0  # nothing of it stays in Redis


async def test_a_late_holders_done_leaves_the_new_holder_its_lease(store: Store) -> None:
    """A process whose lease ran out finishes late: the process that took the deadline over
    keeps its lease (it can renew it and end it), so the deadline fires once."""
    await store.schedule(CHAN, "remind", 100.0)
    late = await store.lease(Deadline(CHAN, "remind", 100.0), 130.0)
    [again] = await store.due(now=130.0)
    holder = await store.lease(again, 160.0)
    assert late is not None and holder is not None
    assert await store.done(late) is False
    renewed = await store.renew(holder, 190.0)
    assert renewed is not None and renewed.due == 190.0
    assert await store.due(now=189.0) == []
    assert await store.done(renewed) is True
    assert await store.deadline(CHAN, "remind") is None


async def test_done_keeps_a_deadline_set_anew_meanwhile(store: Store) -> None:
    await store.schedule(CHAN, "remind", 100.0)
    claimed = await store.lease(Deadline(CHAN, "remind", 100.0), 400.0)
    assert claimed is not None
    await store.schedule(CHAN, "remind", 5000.0)  # the next turn, written meanwhile
    assert await store.done(claimed) is False
    assert await store.deadline(CHAN, "remind") == Deadline(CHAN, "remind", 5000.0)


async def test_lost_replies_to_a_claim_and_to_the_end_of_a_game_are_not_lost(
    redis_url: str, redis_server: RedisServer
) -> None:
    assert redis_server.unix_socket is not None
    proxy = CuttingProxy(redis_server.unix_socket)
    await proxy.start()
    store = Store.from_url(proxy.url, timeout=1.0, retries=2)
    try:
        await store.schedule(CHAN, "remind", 100.0)
        proxy.cut_after(sent(scripts.CLAIM))
        claimed = await store.lease(Deadline(CHAN, "remind", 100.0), 400.0)
        assert proxy.cuts == 1 and claimed is not None  # redis-py resent it: still ours

        game = await store.create(CHAN, record(0), creator=1, players=[1, 2], language="en")
        proxy.cut_after(sent(scripts.ARCHIVE))
        key = await store.archive(CHAN, 1, data=record(7), cancel_deadlines=["remind"])
        assert proxy.cuts == 2
        assert key == CHAN.archive_key(game.game_id)
        last = await store.last_archived(CHAN)
        assert last is not None and (last.version, last.data) == (2, record(7))
        assert await store.load(CHAN) is None
        assert await store.user_games("discord", 1) == []
        assert await store.deadline(CHAN, "remind") is None
    finally:
        await store.close()
        await proxy.stop()


async def test_the_end_of_a_game_with_a_stale_version_changes_nothing(store: Store) -> None:
    await store.create(CHAN, record(0), creator=1, players=[1], language="en")
    await store.save(CHAN, record(1), 1)
    with pytest.raises(Conflict):
        await store.archive(CHAN, 1, data=record(9))
    live = await store.load(CHAN)
    assert live is not None and (live.version, live.data) == (2, record(1))
    assert await store.last_archived(CHAN) is None


async def test_a_lease_is_renewed_while_held_and_never_once_lost(store: Store) -> None:
    await store.schedule(CHAN, "remind", 100.0)
    claimed = await store.lease(Deadline(CHAN, "remind", 100.0), 130.0)
    assert claimed is not None
    renewed = await store.renew(claimed, 160.0)
    assert renewed == Deadline(CHAN, "remind", 160.0, claimed.token)
    assert await store.renew(claimed, 160.0) == renewed  # a resend after a lost reply
    assert await store.due(now=159.0) == []  # the work goes on: not due at the first end
    assert await store.renew(claimed, 190.0) is None  # that lease's end is gone

    [again] = await store.due(now=160.0)  # the holder stopped renewing
    taken = await store.lease(again, 200.0)
    assert taken is not None
    assert await store.renew(renewed, 250.0) is None  # another process holds it now
    assert await store.deadline(CHAN, "remind") == Deadline(CHAN, "remind", 200.0)
    await store.schedule(CHAN, "remind", 5000.0)  # the next turn's deadline
    assert await store.renew(taken, 300.0) is None
    assert await store.deadline(CHAN, "remind") == Deadline(CHAN, "remind", 5000.0)
