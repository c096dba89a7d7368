"""Display names as everyone sees them: one line of visible text, never markup.

Profiles on Discord and Telegram may hold anything: line breaks (an image draws a name on one
line), bidi overrides that turn the text around them, invisible format characters, control
characters, hundreds of characters. `clean_name` is the one gate every name passes where it
enters: the `Actor` an adapter builds, and each `Seat` read back from Redis.
"""

from __future__ import annotations

import unicodedata
from typing import Final

from .lengths import cut

MAX_NAME: Final = 32  # Discord's own limit for a display name
FALLBACK: Final = "Player"  # a name with nothing visible left in it
# Joiners shape Persian and Indic words and join emoji sequences: invisible but meaningful.
JOINERS: Final = frozenset("\u200c\u200d")


def clean_name(raw: str, fallback: str = FALLBACK, *, longest: int = MAX_NAME) -> str:
    """`raw` without control, format (bidi) and private-use characters, its whitespace (line
    breaks included) collapsed to single spaces, at most `longest` characters; `fallback` if
    nothing visible is left."""
    kept: list[str] = []
    for char in unicodedata.normalize("NFC", raw):
        if char.isspace() or unicodedata.category(char) in ("Zl", "Zp"):
            kept.append(" ")
        elif unicodedata.category(char)[0] != "C" or char in JOINERS:
            kept.append(char)
    text = " ".join("".join(kept).split())
    text = cut(text, longest)
    if not any(unicodedata.category(char)[0] in "LNPS" for char in text):
        return fallback
    return text


def without_controls(text: str) -> str:
    """Typed text without control characters (line breaks become spaces): they carry the
    mention markup of `replies`, so nobody can type a mention."""
    return "".join(
        " " if char.isspace() else char
        for char in text
        if char.isspace() or unicodedata.category(char) != "Cc"
    )
