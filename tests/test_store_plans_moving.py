"""The move's plans (`BeginMovePlan`, `CopyMovePlan`, `EndMovePlan`) field by field: a
neighbour in the same bucket whose id the old one's begins is left alone, each prefix finds
only the old channel's deadlines and archive, and the pointer names the new channel."""

from __future__ import annotations

import itertools

import pytest

from bot.store import Channel, Deadline, Store, StoreError

BACKENDS = ("single", "cluster")
OLD = Channel.of("telegram", -100111)
NEW = Channel.of("telegram", -100333)
OTHER = Channel.of("telegram", -100444)
# In the old channel's bucket, its text begins with the old channel's: "telegram:-100111…".
NEIGHBOUR = next(
    c
    for n in itertools.count()
    if (c := Channel.of("telegram", f"-100111{n}")).bucket == OLD.bucket
)


async def ended_and_live(store: Store, channel: Channel) -> tuple[str, Deadline]:
    """An ended game, then a live one with a claimed deadline. Returns the ended game's id."""
    ended = await store.create(channel, "{ended}", creator=1, players=[1], language="en")
    await store.archive(channel, 1, data="{final}")
    await store.create(channel, "{0}", creator=1, players=[1], language="de")
    await store.save(channel, "{1}", 1, deadlines={"remind": 100.0, "limit": 500.0})
    claimed = await store.lease(Deadline(channel, "remind", 100.0), 130.0)
    assert claimed is not None
    return ended.game_id, claimed


async def test_each_step_reads_its_own_fields(store: Store) -> None:
    assert NEIGHBOUR.bucket == OLD.bucket != NEW.bucket and str(NEIGHBOUR).startswith(str(OLD))
    ended_id, claimed = await ended_and_live(store, OLD)
    neighbour_id, neighbour_claim = await ended_and_live(store, NEIGHBOUR)

    move = await store.begin_move(OLD, NEW)  # BEGIN: marked for the new channel, by its op
    mark = await store.client.hmget(OLD.game_key, ["moving", "move_op"])
    assert mark == [str(NEW), move.op] and len(move.op) == 32
    with pytest.raises(StoreError):
        await store.begin_move(OLD, OTHER)
    again = await store.begin_move(OLD, NEW)
    assert (again.op, again.players) == (move.op, move.players) == (move.op, ("1",))

    for _ in range(2):  # COPY, once per op
        await store.copy_move(move)
    assert await store.deadline(NEW, "limit") == Deadline(NEW, "limit", 500.0)
    assert await store.deadline(NEW, "remind") == Deadline(NEW, "remind", 130.0)
    assert await store.client.hget(NEW.claims_key, claimed.member.replace(str(OLD), str(NEW)))
    assert await store.client.zcard(NEW.deadlines_key) == 2  # none of the neighbour's
    archived = await store.client.hgetall(NEW.archive_key(ended_id))
    assert archived["data"] == "{final}" and await store.client.ttl(NEW.archive_key(ended_id)) > 0

    for _ in range(2):  # END, and again once done
        await store.end_move(move)
    assert await store.client.get(OLD.moved_key) == str(NEW)
    assert await store.client.ttl(OLD.moved_key) > 29 * 86400
    assert await store.client.exists(OLD.archive_key(ended_id), OLD.game_key) == 0
    assert await store.deadline(OLD, "limit") is None
    assert await store.client.hget(OLD.claims_key, claimed.member) is None

    live = await store.load(NEIGHBOUR)  # untouched, though its members begin as OLD's
    assert live is not None and (live.data, live.version) == ("{1}", 2)
    assert await store.deadline(NEIGHBOUR, "limit") == Deadline(NEIGHBOUR, "limit", 500.0)
    assert await store.client.hget(NEIGHBOUR.claims_key, neighbour_claim.member) == (
        neighbour_claim.token
    )
    last = await store.last_archived(NEIGHBOUR)
    assert last is not None and last.game_id == neighbour_id
