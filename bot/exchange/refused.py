"""The one way a command says no."""

from __future__ import annotations


class Refused(Exception):
    """A command that may not run; the message is already in the user's language."""
