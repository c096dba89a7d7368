"""How the platforms pace a bot, for the fakes: so many requests a period, counted over a
sliding window per key (a chat, a channel, the whole bot), as Telegram and Discord count them.

Both fakes pace every test by default with the limits the platforms publish
(`TELEGRAM`, `DISCORD_*`); a test that needs speed raises one limit for its own fake
(`Window.limit`, or a chat's own window), and the pacing stays on for everyone else.
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


def discord_windows() -> dict[str, Window]:
    """Discord's: 5 messages in 5 seconds per channel (the bucket of `POST
    /channels/{channel.id}/messages`, its headers telling the bot), 50 requests a second in
    all (interaction answers are not counted in it)."""
    return {"channel": Window(5, 5.0), "global": Window(50, 1.0)}
