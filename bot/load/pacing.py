"""How the platforms pace a bot: so many requests a period, counted over a sliding window
per key (a chat, a channel, the whole bot), as Telegram and Discord count them.

The tests' fakes pace every test by default with the limits the platforms publish
(`telegram_windows`, `discord_windows`); a test that needs speed raises one limit for its own
fake (`Window.limit`, or a chat's own window), and the pacing stays on for everyone else.
`python -m bot load --paced` paces its stand-ins (`stand_ins`) with the same windows.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Hashable
from dataclasses import dataclass, field


@dataclass
class Window:
    """At most `limit` requests per key in any `period` seconds."""

    limit: int
    period: float
    _times: dict[Hashable, deque[float]] = field(default_factory=dict, repr=False)

    def wait(self, key: Hashable, now: float | None = None) -> float:
        """Seconds until one more request for `key` may go (0: now)."""
        now = time.monotonic() if now is None else now
        times = self._times.get(key)
        if times is None:
            return 0.0
        while times and times[0] <= now - self.period:
            times.popleft()
        if len(times) < self.limit:
            return 0.0
        return times[-self.limit] + self.period - now

    def take(self, key: Hashable, now: float | None = None) -> None:
        """Count one request for `key`, which `wait` said may go."""
        now = time.monotonic() if now is None else now
        self._times.setdefault(key, deque()).append(now)

    def remaining(self, key: Hashable, now: float | None = None) -> int:
        """How many more may go for `key` before the window is full."""
        now = time.monotonic() if now is None else now
        times = self._times.get(key, deque())
        return max(0, self.limit - sum(1 for t in times if t > now - self.period))

    def reset_after(self, key: Hashable, now: float | None = None) -> float:
        """Seconds until the oldest request counted for `key` leaves the window."""
        now = time.monotonic() if now is None else now
        live = [t for t in self._times.get(key, deque()) if t > now - self.period]
        return max(0.0, live[0] + self.period - now) if live else 0.0


@dataclass
class Bucket:
    """At most `limit` requests per key in a window of `period` seconds that opens with the
    first request and then resets whole, as Discord's rate limit buckets count: its
    `X-RateLimit-Reset-After` says when all of `limit` is back (a sliding `Window` would
    refuse what discord.py, reading that header, rightly sends)."""

    limit: int
    period: float
    _open: dict[Hashable, tuple[float, int]] = field(default_factory=dict, repr=False)

    def _used(self, key: Hashable, now: float) -> tuple[float, int]:
        """When the key's window resets, and how much of it is used (0 once it reset)."""
        reset, used = self._open.get(key, (now, 0))
        return (reset, used) if now < reset else (now, 0)

    def wait(self, key: Hashable, now: float | None = None) -> float:
        now = time.monotonic() if now is None else now
        reset, used = self._used(key, now)
        return 0.0 if used < self.limit else reset - now

    def take(self, key: Hashable, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        reset, used = self._used(key, now)
        self._open[key] = (reset if used else now + self.period, used + 1)

    def remaining(self, key: Hashable, now: float | None = None) -> int:
        now = time.monotonic() if now is None else now
        return max(0, self.limit - self._used(key, now)[1])

    def reset_after(self, key: Hashable, now: float | None = None) -> float:
        now = time.monotonic() if now is None else now
        reset, used = self._used(key, now)
        return reset - now if used else 0.0


def whole_seconds(wait: float, second: float = 1.0) -> float:
    """A wait as Telegram says it: whole seconds, at least one (`second`: how long a second
    lasts for this fake)."""
    return max(1, math.ceil(wait / second - 1e-9)) * second


def telegram_windows() -> dict[str, Window]:
    """The Bot API's limits (the Bots FAQ): about one message a second in a private chat
    (short bursts allowed: five in five seconds here), 20 a minute in a group (a burst of 20
    allowed, as python-telegram-bot's limiter reads it), 30 a second in all."""
    return {
        "chat": Window(5, 5.0),
        "group": Window(20, 60.0),
        "overall": Window(30, 1.0),
    }


def discord_windows() -> dict[str, Window | Bucket]:
    """Discord's: 5 messages in 5 seconds per channel (the bucket of `POST
    /channels/{channel.id}/messages`, its headers telling the bot), 50 requests a second in
    all (interaction answers are not counted in it)."""
    return {"channel": Bucket(5, 5.0), "global": Window(50, 1.0)}
