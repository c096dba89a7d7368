"""Button data, written and read in one place: the frame every button shares, one typed codec
per kind of button, and the one refusal of a button that names nothing.

Data is `fc:<kind>:<channel>[:<count>][:<payload>]`, byte for byte as buttons already posted
in chats carry it. The channel is a Discord or Telegram id (`-100...`) or a console chat
(`table`, `dm-ann`); `count` is the action count a game's button was made for (0 where none
is needed). Telegram keeps at most 64 bytes of a button's data: a codec checks each button it
writes, so data too long or that would not read back is a programming error (`ValueError`),
never a button that silently does nothing. The kinds here are the service's own (lobby, votes,
results, reading, forget); each game keeps its kinds in its module (`buttons.py` there).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Final, Generic, TypeVar

from ..text.i18n import tr

T = TypeVar("T")
LIMIT: Final = 64  # bytes of callback data Telegram keeps
# `\Z`, not `$`, which lets a newline follow.
_FRAME: Final = re.compile(
    r"^fc:([a-z]{1,3}):(-?[0-9A-Za-z_][-0-9A-Za-z_]{0,23})"
    r"(?::(\d{1,4}))?(?::([-0-9A-Za-z,@.]{1,24}))?\Z"
)
_INTEGER: Final = re.compile(r"^-?(0|[1-9][0-9]*)\Z")
_SPELT: Final = re.compile(r"^[-0-9A-Za-z,@.]{1,24}\Z")  # what a payload may hold
_CHANNEL: Final = re.compile(r"^-?[0-9A-Za-z_][-0-9A-Za-z_]{0,23}\Z")  # and a channel


def not_valid(lang: str) -> str:
    """The refusal of a button's data that names nothing it could do (forged, stale in shape,
    or pressed where it was not posted): written once, so every refusal says the same."""
    return tr(lang, "This button is not valid.")


@dataclass(frozen=True, slots=True)
class Frame:
    """What every button carries; the payload is its kind's business (`Codec`)."""

    kind: str
    channel_id: str
    count: int | None = None
    payload: str | None = None

    def encode(self) -> str:
        """The data, checked: it reads back as this frame and fits Telegram's limit."""
        parts = ["fc", self.kind, self.channel_id]
        parts += [str(self.count)] if self.count is not None else []
        parts += [self.payload] if self.payload is not None else []
        data = ":".join(parts)
        if Frame.parse(data) != self or len(data.encode()) > LIMIT:
            raise ValueError(f"no button can carry {self!r}")
        return data

    @staticmethod
    def parse(data: str) -> Frame | None:
        """What a button's data names, or None for data no button of the bot carries."""
        match = _FRAME.match(data)
        if match is None:
            return None
        count = int(match[3]) if match[3] is not None else None
        return Frame(match[1], match[2], count, match[4])


@dataclass(frozen=True, slots=True)
class Tapped(Generic[T]):
    """A button of a kind, read: where it was made for, at which count, and its value."""

    channel_id: str
    count: int
    value: T


@dataclass(frozen=True, slots=True)
class Codec(Generic[T]):
    """One kind of button whose payload carries a `T`: `write` makes the payload, `read` takes
    it back (None: not a payload of this kind). Only the payload `write` would make is read,
    so each value has one spelling and a forged variant is refused."""

    kind: str
    write: Callable[[T], str]
    read: Callable[[str], T | None]

    def encode(self, channel_id: str, count: int, value: T) -> str:
        payload = self.write(value)
        if self.value(payload) != value:
            raise ValueError(f"{self.kind} buttons cannot carry {value!r}")
        return Frame(self.kind, channel_id, count, payload).encode()

    def value(self, payload: str) -> T | None:
        """The value of a payload of this kind, or None."""
        found = self.read(payload)
        return found if found is not None and self.write(found) == payload else None

    def decode(self, data: str) -> Tapped[T] | None:
        """The button's channel, count and value, or None if it is not of this kind."""
        return self.of(Frame.parse(data))

    def of(self, frame: Frame | None) -> Tapped[T] | None:
        """`decode`, of data already framed (the router reads the frame first)."""
        if frame is None or frame.kind != self.kind or frame.count is None:
            return None
        found = self.value(frame.payload) if frame.payload is not None else None
        return None if found is None else Tapped(frame.channel_id, frame.count, found)


@dataclass(frozen=True, slots=True)
class Bare:
    """A kind that carries its channel only (the lobby's Join, Start, Add a computer)."""

    kind: str

    def encode(self, channel_id: str) -> str:
        return Frame(self.kind, channel_id).encode()

    def decode(self, data: str) -> str | None:
        """The channel of a button of this kind, or None."""
        frame = Frame.parse(data)
        if frame is None or frame != Frame(self.kind, frame.channel_id):
            return None
        return frame.channel_id


def integer(payload: str) -> int | None:
    """An integer as a payload spells it (`-3`, `12`), or None."""
    return int(payload) if _INTEGER.match(payload) else None


def as_is(payload: str) -> str:
    """The payload itself: for values already spelt in the frame's alphabet (ids, words)."""
    return payload


def word_codec(kind: str, words: Iterable[str]) -> Codec[str]:
    """A kind whose payload is one of a few fixed words."""
    known = frozenset(words)
    return Codec(kind, as_is, lambda payload: payload if payload in known else None)


def number_codec(kind: str) -> Codec[int]:
    """A kind whose payload is an integer (a page, a spot, an index)."""
    return Codec(kind, str, integer)


# The service's own kinds.
JOIN: Final = Bare("j")
START: Final = Bare("st")
ADD_COMPUTER: Final = Bare("ab")
OTHER_GAME: Final = number_codec("gm")  # index in `MODULES`, count 0
NEW_THREAD: Final = number_codec("nt")  # index in `MODULES` of the game, count 0 (Discord)
LAUNCH: Final = word_codec("ac", ["open"])  # count 0: the Discord Activity
VOTE: Final = Codec("v", as_is, as_is)  # the choice, at the count the turn was late at
REPLAY: Final = Codec("rp", as_is, as_is)  # a kept game's short id, count 0
FORGET: Final = Codec("fg", as_is, as_is)  # `user_mark` of who asked, count 0


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def user_mark(user_id: str) -> str:
    """A user id as a payload carries it: itself where the frame spells it (Discord's and
    Telegram's digits), else a digest of it (a console name such as "zoë")."""
    return user_id if _SPELT.match(user_id) else _digest(user_id)


def channel_mark(prefix: str, name: str) -> str:
    """A channel id made of a name (the console's private chats, `dm-ann`) that buttons can
    carry: the name itself where the frame spells it, else a digest of it."""
    channel = prefix + name
    return channel if _CHANNEL.match(channel) else prefix + _digest(name)
