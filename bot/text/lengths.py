"""Text cut to a platform's length limit, as the platform counts: Discord in characters (code
points), Telegram in UTF-16 code units, where an emoji outside the Basic Multilingual Plane
counts two. A name of emoji that fits 200 characters may be 223 units, which Telegram refuses.

A cut never splits what reads as one character: an accent from its letter, an emoji from its
skin tone, variation selector or the joiner of its sequence, a flag's two halves.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Final

__all__ = ["ELLIPSIS", "cut", "fitting", "utf16_length"]

ELLIPSIS: Final = "…"
Length = Callable[[str], int]
_JOINER: Final = "\u200d"


def utf16_length(text: str) -> int:
    """Telegram's length of `text`: its UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2


def _extends(char: str) -> bool:
    """Whether `char` belongs to the one before it: a combining mark, a joiner, a variation
    selector, an emoji's skin tone or tag."""
    code = ord(char)
    return (
        unicodedata.category(char) in ("Mn", "Mc", "Me")
        or char == _JOINER
        or 0xFE00 <= code <= 0xFE0F
        or 0x1F3FB <= code <= 0x1F3FF
        or 0xE0020 <= code <= 0xE007F
    )


def _regional(char: str) -> bool:
    return 0x1F1E6 <= ord(char) <= 0x1F1FF  # a flag is two of them


def _splits(text: str, end: int) -> bool:
    """Whether ending a piece of `text` at index `end` cuts one character in two."""
    if end <= 0 or end >= len(text):
        return False
    if _extends(text[end]) or text[end - 1] == _JOINER:
        return True
    if not (_regional(text[end]) and _regional(text[end - 1])):
        return False
    run = 0
    while end - run - 1 >= 0 and _regional(text[end - run - 1]):
        run += 1
    return run % 2 == 1  # the last flag before the cut would lose its second half


def fitting(text: str, room: int, length: Length = len) -> int:
    """The end of the longest start of `text` within `room` as `length` counts it (a count
    that adds up character by character, as both platforms' do), cut between characters."""
    end, used = 0, 0
    for char in text:
        used += length(char)
        if used > room:
            break
        end += 1
    while _splits(text, end):
        end -= 1
    return end


def cut(text: str, limit: int, length: Length = len) -> str:
    """`text` if it fits in `limit`, else as much of its start as fits with "…" after it."""
    if length(text) <= limit:
        return text
    return text[: fitting(text, max(0, limit - length(ELLIPSIS)), length)].rstrip() + ELLIPSIS
