"""The store's errors, so callers never need to know redis-py's."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .keys import Channel

__all__ = ["AlreadyExists", "Conflict", "NotFound", "StoreError", "StoreUnavailable"]


class StoreError(Exception):
    """Base of the store's errors."""


class StoreUnavailable(StoreError):
    """Redis cannot be reached (down, restarting, timed out, a master failing over): try
    again in a moment."""


class Conflict(StoreError):
    """The stored version is not the one the caller read: someone else wrote first."""

    def __init__(self, channel: Channel, expected: int, current: int) -> None:
        super().__init__(f"{channel}: expected version {expected}, found {current}")
        self.channel = channel
        self.expected = expected
        self.current = current


class AlreadyExists(StoreError):
    """The channel already has a live game."""


class NotFound(StoreError):
    """The channel has no live game (never created, or already archived)."""
