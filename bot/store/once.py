"""What must happen once across processes, apart from deadlines: an update a platform
delivers twice (Telegram retries a webhook it got no answer to) is handled once (and again
only if the process handling it died first), and a job
only one process may run at a time (polling Telegram) is held by a lease that runs out when
its holder dies, and that remembers how its last holder left."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .base import StoreBase, guarded
from .connecting import Script
from .keys import check_part

__all__ = ["Claim", "Held", "Once"]

Claim = Literal["claimed", "handled", "busy"]
_CLAIMS: dict[int, Claim] = {0: "handled", 1: "claimed", 2: "busy"}

# KEYS: the update's key. ARGV: milliseconds a claim lasts. 1: claimed now, by the caller; 0:
# handled already ("1" is what processes of the first version wrote on seeing one); 2: being
# handled, by a process that claimed it less than a claim ago.
_CLAIM_DELIVERY = Script(
    """
local seen = redis.call('GET', KEYS[1])
if seen == 'done' or seen == '1' then return 0 end
if seen then return 2 end
redis.call('SET', KEYS[1], 'claimed', 'PX', ARGV[1])
return 1
"""
)

# KEYS: the lease, its trace. ARGV: holder, milliseconds. Taken when free, renewed by its
# holder. The trace keeps when a holder last had it (Redis's clock, ms) and whether it gave it
# back; taking the lease returns {2, ms since then, given back}, renewing it {1}, neither {0}.
_HOLD = Script(
    """
local clock = redis.call('TIME')
local now = clock[1] * 1000 + math.floor(clock[2] / 1000)
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  redis.call('HSET', KEYS[2], 'at', now, 'back', 0)
  return {1}
end
if holder then return {0} end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
local last = redis.call('HMGET', KEYS[2], 'at', 'back')
redis.call('HSET', KEYS[2], 'at', now, 'back', 0)
if not last[1] then return {2} end
return {2, now - tonumber(last[1]), tonumber(last[2])}
"""
)
# KEYS: the lease, its trace. ARGV: holder. Given back only by its holder, which the trace
# notes with the time.
_LET_GO = Script(
    """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
local clock = redis.call('TIME')
redis.call('HSET', KEYS[2], 'at', clock[1] * 1000 + math.floor(clock[2] / 1000), 'back', 1)
return redis.call('DEL', KEYS[1])
"""
)


@dataclass(frozen=True, slots=True)
class Held:
    """A job's lease, held by the caller of `hold`.

    `taken`: it was free and this holder took it (else it renewed it). On taking only,
    `idle` is how long the job had had no holder, in seconds from the moment the last holder
    last renewed or gave back the lease (None if no process ever held it), and `handed_back`
    whether that holder gave it back (a clean stop) rather than letting it run out (killed)."""

    taken: bool
    idle: float | None = None
    handed_back: bool = False


def _keys(job: str) -> list[str]:
    """The lease and its trace. The trace's hash tag is the lease's whole name, so both lie in
    one slot of a cluster and one script reads them; the lease keeps its name from before
    the trace, so processes of both versions agree on who polls."""
    lease = f"fc:lease:{check_part('job', job)}"
    return [lease, f"{{{lease}}}:trace"]


def _seen(platform: str, update_id: int | str) -> str:
    return f"fc:seen:{check_part('platform', platform)}:{check_part('update', str(update_id))}"


class Once(StoreBase):
    """Updates seen once, and leases on named jobs."""

    @guarded
    async def claim_delivery(self, platform: str, update_id: int | str, lease: float) -> Claim:
        """ "claimed" when the caller is to handle this update now: nobody has, or the process
        that claimed it died (its claim lasts `lease` seconds); "handled" once `delivered`
        said so; "busy" while another process handles it."""
        client = await self._client()
        state = await _CLAIM_DELIVERY(client, [_seen(platform, update_id)], [int(lease * 1000)])
        return _CLAIMS[int(state)]

    @guarded
    async def delivered(self, platform: str, update_id: int | str, keep: float) -> None:
        """The update is handled: every later delivery of it is dropped, for `keep` seconds
        (longer than the platform retries)."""
        client = await self._client()
        await client.set(_seen(platform, update_id), "done", ex=max(1, int(keep)))

    @guarded
    async def hold(self, job: str, holder: str, seconds: float) -> Held | None:
        """Take the job's lease, or renew it if `holder` has it; None while another holds
        it. A holder that stops renewing loses it after `seconds`."""
        client = await self._client()
        state, *trace = await _HOLD(client, _keys(job), [holder, max(1, int(seconds * 1000))])
        if state == 0:
            return None
        if state == 1 or not trace:
            return Held(taken=state == 2)
        since, back = trace  # ms on the master's clock (a failover may bring another clock)
        return Held(taken=True, idle=max(0, int(since)) / 1000, handed_back=bool(int(back)))

    @guarded
    async def let_go(self, job: str, holder: str) -> None:
        """Give the job's lease back at once (a clean stop), if `holder` still has it."""
        client = await self._client()
        await _LET_GO(client, _keys(job), [holder])
