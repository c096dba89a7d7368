"""Deadlines (reminders, turn limits, computer players' turns), kept per bucket beside the
games they belong to (see `keys`), and claimed as leases so that one process fires each.

A claim moves the deadline to the end of its lease: if the claimer dies before its work is
`done`, the deadline comes due again then. The lease's length is the caller's; long work
`renew`s its lease while it runs. A claim, a renewal and an end each wait for a replica, as a
saved move does: one lost in a failover would hand the deadline to a second process.
"""

from __future__ import annotations

import heapq
import uuid

from .base import StoreBase, guarded
from .connecting import Script
from .keys import BUCKETS, Channel, Deadline, claims_key, deadlines_key
from .plans import ClaimPlan, LeasePlan
from .scripts import CLAIM, DONE, RENEW

__all__ = ["CLAIM_LEASE", "Deadlines"]

# How long a claim holds a deadline before it comes due again, if its work was not done (its
# process died): the service renews it while the work goes on.
CLAIM_LEASE = 30.0

_CLAIM, _RENEW, _DONE = Script(CLAIM), Script(RENEW), Script(DONE)


class Deadlines(StoreBase):
    """Schedule, read and claim deadlines."""

    @guarded
    async def schedule(self, channel: Channel, kind: str, due: float) -> Deadline:
        """Set (or move) the channel's deadline of this kind; moving it invalidates any
        claim based on the old time."""
        deadline = Deadline(channel, kind, float(due))
        client = await self._client()
        await client.zadd(channel.deadlines_key, {deadline.member: deadline.due})
        return deadline

    @guarded
    async def cancel(self, channel: Channel, kind: str) -> bool:
        client = await self._client()
        return bool(await client.zrem(channel.deadlines_key, channel.deadline_member(kind)))

    @guarded
    async def deadline(self, channel: Channel, kind: str) -> Deadline | None:
        client = await self._client()
        score = await client.zscore(channel.deadlines_key, channel.deadline_member(kind))
        return None if score is None else Deadline(channel, kind, float(score))

    @guarded
    async def due(self, now: float | None = None, limit: int = 100) -> list[Deadline]:
        """Deadlines due at `now` (default: the clock), earliest first, at most `limit`.
        Read-only: a caller must `claim` one before acting on it. Reads every bucket in one
        pipeline (on a cluster, one per master, all at once)."""
        at = self._clock() if now is None else now
        client = await self._client()
        pipe = client.pipeline(transaction=False)
        for bucket in range(BUCKETS):
            pipe.zrangebyscore(
                deadlines_key(bucket), "-inf", at, start=0, num=limit, withscores=True
            )
        rows: list[list[tuple[str, float]]] = await pipe.execute()
        earliest = heapq.nsmallest(limit, (row for found in rows for row in found), key=_order)
        return [Deadline._parse(member, float(score)) for member, score in earliest]

    @guarded
    async def claim(self, deadline: Deadline) -> bool:
        """Claim the deadline for `CLAIM_LEASE` seconds by the store's clock (see `lease`).
        True for exactly one caller across all processes."""
        return await self.lease(deadline, self._clock() + CLAIM_LEASE) is not None

    @guarded
    async def lease(self, deadline: Deadline, until: float) -> Deadline | None:
        """Claim the deadline if it is still set for the same time: it then comes due
        again at `until` unless the work is `done` or the deadline is set anew first.
        Returns the claimed deadline (for `renew` and `done`), or None for every other
        caller."""
        claimed = Deadline(deadline.channel, deadline.kind, float(until), uuid.uuid4().hex)
        plan = ClaimPlan(
            member=deadline.member,
            due=repr(deadline.due),
            new_due=repr(claimed.due),
            token=claimed.token,
        )
        client = await self._client()
        won = await self._replicas.write(client, _CLAIM, _keys(deadline.channel), [plan.to_json()])
        return claimed if won else None

    @guarded
    async def renew(self, claimed: Deadline, until: float) -> Deadline | None:
        """Extend a lease still held by its token to `until` (work that runs longer than
        its lease). Returns the renewed claim, or None if the lease was lost: it ran out
        and another process took the deadline, or the deadline was set anew."""
        plan = ClaimPlan(
            member=claimed.member,
            due=repr(claimed.due),
            new_due=repr(float(until)),
            token=claimed.token,
        )
        client = await self._client()
        kept = await self._replicas.write(client, _RENEW, _keys(claimed.channel), [plan.to_json()])
        if not kept:
            return None
        return Deadline(claimed.channel, claimed.kind, float(until), claimed.token)

    @guarded
    async def done(self, claimed: Deadline) -> bool:
        """The work of a claimed deadline is done: drop it, unless it was set anew since."""
        plan = LeasePlan(member=claimed.member, due=repr(claimed.due), token=claimed.token)
        client = await self._client()
        removed = await self._replicas.write(
            client, _DONE, _keys(claimed.channel), [plan.to_json()]
        )
        return bool(removed)


def _keys(channel: Channel) -> list[str]:
    return [deadlines_key(channel.bucket), claims_key(channel.bucket)]


def _order(row: tuple[str, float]) -> tuple[float, str]:
    return (float(row[1]), row[0])
