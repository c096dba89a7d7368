"""A terminal chat: several users type the same commands as on Discord or Telegram."""

from .app import Console, run

__all__ = ["Console", "run"]
