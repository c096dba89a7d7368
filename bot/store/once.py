"""What must happen once across processes, apart from deadlines: an update a platform
delivers twice (Telegram retries a webhook it got no answer to) is handled once, and a job
only one process may run at a time (polling Telegram) is held by a lease that runs out when
its holder dies."""

from __future__ import annotations

from .base import StoreBase, guarded
from .connecting import Script
from .keys import check_part

__all__ = ["Once"]

# KEYS: the lease. ARGV: holder, milliseconds. Taken when free, renewed by its holder.
_HOLD = Script(
    """
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if holder then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
"""
)
# KEYS: the lease. ARGV: holder. Given back only by its holder.
_LET_GO = Script(
    """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""
)


class Once(StoreBase):
    """Updates seen once, and leases on named jobs."""

    @guarded
    async def first_delivery(self, platform: str, update_id: int | str, keep: float) -> bool:
        """True the first time this update is seen, False for every delivery after it (for
        `keep` seconds: longer than the platform retries)."""
        key = f"fc:seen:{check_part('platform', platform)}:{check_part('update', str(update_id))}"
        client = await self._client()
        return bool(await client.set(key, "1", nx=True, ex=max(1, int(keep))))

    @guarded
    async def hold(self, job: str, holder: str, seconds: float) -> bool:
        """Take the job's lease, or renew it if `holder` has it; False while another holds
        it. A holder that stops renewing loses it after `seconds`."""
        client = await self._client()
        key = f"fc:lease:{check_part('job', job)}"
        return bool(await _HOLD(client, [key], [holder, int(seconds * 1000)]))

    @guarded
    async def let_go(self, job: str, holder: str) -> None:
        """Give the job's lease back at once (a clean stop), if `holder` still has it."""
        client = await self._client()
        await _LET_GO(client, [f"fc:lease:{check_part('job', job)}"], [holder])
