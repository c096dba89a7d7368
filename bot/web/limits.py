"""How often one seat token, and one address, may ask for a seat's page or press a choice:
a token bucket per key, in this process (each process of a deployment limits on its own, so
N processes allow N times as much: still far below what would hurt).

Only the most recent `keys` keys are remembered, so the memory stays bounded whatever the
number of addresses.
"""

from __future__ import annotations

from collections import OrderedDict
from ipaddress import ip_address

from aiohttp import web

__all__ = ["Limits", "address"]


class Limits:
    def __init__(self, rate: float, burst: float, keys: int = 10_000) -> None:
        self.rate = rate
        self.burst = burst
        self.keys = keys
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # key -> tokens, at

    def allow(self, key: str, now: float) -> bool:
        """Whether one more request of `key` may go now (it is counted if so)."""
        tokens, at = self._buckets.pop(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - at) * self.rate)
        allowed = tokens >= 1
        self._buckets[key] = (tokens - 1 if allowed else tokens, now)
        if len(self._buckets) > self.keys:
            self._buckets.popitem(last=False)
        return allowed


def address(request: web.Request) -> str:
    """The client's address: the peer's, or, when the peer is a proxy on this machine (the
    reverse proxy of docs/operations.md), the first address it forwarded."""
    peer = request.remote or ""
    forwarded = request.headers.get("X-Forwarded-For", "").split(",")[0].strip()
    try:
        local = ip_address(peer).is_loopback
    except ValueError:
        local = False
    return forwarded if local and forwarded else peer
