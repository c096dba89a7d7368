"""How often one seat token, and one address, may ask for a seat's page or press a choice:
a token bucket per key, in this process (each process of a deployment limits on its own, so
N processes allow N times as much: still far below what would hurt).

Only the most recent `keys` keys are remembered, so the memory stays bounded whatever the
number of addresses.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from ipaddress import IPv4Network, IPv6Network, ip_address

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


def address(request: web.Request, trusted: Sequence[IPv4Network | IPv6Network]) -> str:
    """The client's address: the peer's, unless the peer is one of the `trusted` proxies
    (`TRUSTED_PROXIES`); then the last address in `X-Forwarded-For` that no trusted proxy
    added. Anyone else's header is ignored: it is theirs to write."""
    peer = request.remote or ""
    if not _among(peer, trusted):
        return peer
    chain = [part.strip() for part in request.headers.get("X-Forwarded-For", "").split(",")]
    for hop in reversed(chain):
        if not hop:
            break
        if not _among(hop, trusted):
            try:
                return str(ip_address(hop))
            except ValueError:
                break  # not an address: the proxy passed on what a client wrote
    return peer


def _among(text: str, networks: Sequence[IPv4Network | IPv6Network]) -> bool:
    try:
        found = ip_address(text)
    except ValueError:
        return False
    return any(found in network for network in networks)
