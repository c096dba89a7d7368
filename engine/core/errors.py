"""Errors every engine raises the same way, so the bot catches one class for both games."""

from __future__ import annotations


class IllegalMove(ValueError):
    """An action the rules do not allow now; `reason` says why in plain words."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class CorruptRecord(ValueError):
    """A record that does not replay to the game it claims to be."""
