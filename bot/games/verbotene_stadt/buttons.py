"""Die Verbotene Stadt's buttons (none shared with the tile game or the lobby).

`count` is the number of actions played, so a stale button is refused, except for bribes: those
are chosen at the same time by several seats, so their buttons carry the count at which the
bribe round began and stay valid while the others choose.

    vb  bribe an official (payload its code) or keep one's bribe (payload `keep`)
    vo  the official to move: shows the first slides
    vw  back to the officials to move, from any step before Confirm (payload `0`)
    vs  one more slide: a private preview and the slides that may follow (payload: the path,
        `paths.pack`)
    vm  play the move previewed (same payload)
    va  pass, believe or doubt
    vt  take a card (payload `2.5C`: seat number in table order, the card)
"""

from __future__ import annotations

import re
from typing import Final

from ...exchange.buttons import Codec, as_is, word_codec
from .paths import pack, unpack

_OFFICIAL: Final = re.compile(r"^[RYBGK]{2}\Z")
_TAKE: Final = re.compile(r"^([1-4])\.([1-8][HCT])\Z")
KEEP: Final = "keep"
Path = tuple[str, tuple[str, ...]]  # an official and its slides
Take = tuple[int, str]  # a seat number, in table order, and a card


def _official(payload: str) -> str | None:
    return payload if _OFFICIAL.match(payload) else None


def _bribe(payload: str) -> str | None:
    return payload if payload == KEEP else _official(payload)


def _write_path(path: Path) -> str:
    return pack(*path)


def _write_take(take: Take) -> str:
    return f"{take[0]}.{take[1]}"


def _read_take(payload: str) -> Take | None:
    found = _TAKE.match(payload)
    return None if found is None else (int(found[1]), found[2])


BRIBE: Final = Codec("vb", as_is, _bribe)  # an official's code, or `KEEP`
OFFICIAL: Final = Codec("vo", as_is, _official)
OTHER: Final = word_codec("vw", ["0"])
SLIDE: Final = Codec("vs", _write_path, unpack)
MOVE: Final = Codec("vm", _write_path, unpack)
ANSWER: Final = word_codec("va", ["pass", "believe", "doubt"])
TAKE: Final = Codec("vt", _write_take, _read_take)
KINDS: Final = frozenset(
    {BRIBE.kind, OFFICIAL.kind, OTHER.kind, SLIDE.kind, MOVE.kind, ANSWER.kind, TAKE.kind}
)


def official_of(data: str) -> str | None:
    """The official a menu choice names (to bribe, to move), or None."""
    for codec in (OFFICIAL, BRIBE):
        found = codec.decode(data)
        if found is not None and found.value != KEEP:
            return found.value
    return None
