"""What waits for a Telegram chat (`Parcel`: its messages, each a few Bot API calls), and
how waiting parcels join into fewer messages when the chat is crowded (`coalesce`): texts
next to each other (`Words`) joined within Telegram's limits, counted as Telegram counts
them (UTF-16 units), and an older picture of the table (`Picture`) left out behind a newer
one, its words kept. The queue that sends them is `outbox.Outbox`."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Final, Literal

from telegram.constants import MessageLimit

from ..text.lengths import utf16_length

TEXT_LIMIT: Final = int(MessageLimit.MAX_TEXT_LENGTH)  # 4096 UTF-16 units
CAPTION_LIMIT: Final = int(MessageLimit.CAPTION_LENGTH)  # 1024
JOINT: Final = "\n"  # between the texts joined into one message

ChatId = int | str
Step = Callable[[ChatId], Awaitable[object]]  # one Bot API call, given the chat to send to
Write = Callable[[ChatId, str], Awaitable[object]]  # sends a text (HTML) to a chat
Show = Callable[[ChatId, str | None], Awaitable[object]]  # sends a picture, with a caption or not
Outcome = Literal["delivered", "failed", "unreachable", "superseded", "dropped"]


@dataclass(frozen=True, eq=False)
class Words:
    """A text message without buttons, in Telegram's HTML: the outbox may join it with the
    texts next to it. `units` is its length as Telegram counts it (UTF-16 units of the text
    once the markup is parsed), `write` sends any such text where this one was going (as a
    reply to what this one answered)."""

    html: str
    units: int
    write: Write

    async def __call__(self, place: ChatId) -> object:
        return await self.write(place, self.html)

    def joined(self, after: Words, limit: int = TEXT_LIMIT) -> Words | None:
        """This text and `after` as one message (answering what this one answered), or None
        if that would pass `limit` (counted both ways: parsed, and as the HTML sent)."""
        html = self.html + JOINT + after.html
        units = self.units + len(JOINT) + after.units
        if units > limit or utf16_length(html) > limit:
            return None
        return Words(html, units, self.write)


@dataclass(frozen=True, eq=False)
class Picture:
    """The picture of the table at a place, without buttons: a newer one waiting behind it
    makes it stale. `show` sends it with any caption (HTML, or None), `caption` is its
    words, which become a text of their own if it is left out, and `image` its bytes."""

    image: bytes
    caption: Words | None
    show: Show

    async def __call__(self, place: ChatId) -> object:
        return await self.show(place, self.caption.html if self.caption else None)

    def with_words(self, words: Words, before: bool) -> Picture | None:
        """The picture with `words` joined to its caption, before or after what it says
        (keeping the order they were sent in), or None if the caption would be too long."""
        if self.caption is None:
            fits = words.units <= CAPTION_LIMIT and utf16_length(words.html) <= CAPTION_LIMIT
            joined = words if fits else None
        elif before:
            joined = words.joined(self.caption, CAPTION_LIMIT)
        else:
            joined = self.caption.joined(words, CAPTION_LIMIT)
        return None if joined is None else Picture(self.image, joined, self.show)

    def repeats(self, other: Picture) -> bool:
        """The same picture with the same words: nothing in this one is news beside `other`."""
        mine = self.caption.html if self.caption else ""
        theirs = other.caption.html if other.caption else ""
        return self.image == other.image and mine == theirs


Item = Words | Picture


@dataclass(eq=False)
class Parcel:
    """What one message or a few messages to one chat need: each message is a list of calls
    (a photo, then its text), and a failed call skips only the rest of its message. A parcel
    coalesced from others keeps them as `parts`, which end as it ends."""

    chat_id: ChatId
    messages: Sequence[Sequence[Step]]
    key: Hashable | None = None
    on_unreachable: Callable[[], Awaitable[None]] | None = None
    outcome: Outcome | None = None
    superseded: bool = False
    released: asyncio.Event = field(default_factory=asyncio.Event)
    parts: list[Parcel] = field(default_factory=list)

    def finish(self, outcome: Outcome) -> None:
        self.outcome = outcome
        self.released.set()
        for part in self.parts:
            part.finish(outcome)

    def release(self) -> None:
        """Let whoever waits for this parcel (or for one of its parts) go on."""
        self.released.set()
        for part in self.parts:
            part.released.set()


def _items(parcel: Parcel) -> list[Item] | None:
    """The calls of a parcel the outbox may join or leave out, or None if it has any other
    (a message with buttons, a file) or a key (a turn notice, which a newer one replaces)."""
    if parcel.key is not None:
        return None
    items: list[Item] = []
    for steps in parcel.messages:
        for step in steps:
            if not isinstance(step, Words | Picture):
                return None
            items.append(step)
    return items


def _joined(last: Item, item: Item) -> Item | None:
    """Two neighbouring messages as one, in the same order, if they fit in one."""
    if isinstance(last, Words) and isinstance(item, Words):
        return last.joined(item)
    if isinstance(last, Words) and isinstance(item, Picture):
        return item.with_words(last, before=True)
    if isinstance(last, Picture) and isinstance(item, Words):
        return last.with_words(item, before=False)
    return None  # two pictures: only the newest is left by then


def _each(parts: Sequence[Parcel]) -> Callable[[], Awaitable[None]] | None:
    """What each part would have done on finding its chat unreachable, in their order."""
    reports = [p.on_unreachable for p in parts if p.on_unreachable is not None]
    if not reports:
        return None

    async def report() -> None:
        for each in reports:
            await each()

    return report


@dataclass
class Coalesced:
    """What `coalesce` made of a queue: its parcels, the messages (Bot API sends) that
    waited and that wait now, the older pictures left out, the parcels left with nothing to
    send (an older picture without news), and whether anything changed at all."""

    parcels: list[Parcel] = field(default_factory=list)
    before: int = 0
    after: int = 0
    pictures: int = 0
    superseded: list[Parcel] = field(default_factory=list)
    changed: bool = False


def coalesce(waiting: Sequence[Parcel]) -> Coalesced:
    """The same words in fewer messages, in the same order: texts next to each other joined
    into one (within Telegram's limits, answering what the first one answered), every table
    picture but the newest left out and its words kept where it was (unless the newest is the
    same picture with the same words), and words next to a picture joined to its caption
    where they fit. A parcel with anything else stays as it is, and nothing is joined across
    it; a picture is left out across it, as its table is the same (one per place)."""
    found = [_items(parcel) for parcel in waiting]
    pictures = [item for items in found for item in items or () if isinstance(item, Picture)]
    newest = pictures[-1] if pictures else None
    done = Coalesced()
    run: list[tuple[Parcel, list[Item]]] = []

    def flush() -> None:
        steps: list[Item] = []
        changed = False
        for _, items in run:
            for item in items:
                if isinstance(item, Picture) and newest is not None and item is not newest:
                    changed, done.pictures = True, done.pictures + 1
                    if item.caption is None or item.repeats(newest):
                        continue
                    item = item.caption
                joined = _joined(steps[-1], item) if steps else None
                if joined is None:
                    steps.append(item)
                else:
                    steps[-1], changed = joined, True
        parcels = [parcel for parcel, _ in run]
        before = sum(len(items) for _, items in run)
        done.before += before
        run.clear()
        if not changed:
            done.parcels.extend(parcels)
            done.after += before
            return
        done.changed = True
        parts = [part for parcel in parcels for part in parcel.parts or [parcel]]
        done.after += len(steps)
        if not steps:
            done.superseded.extend(parts)
            return
        merged = Parcel(parcels[0].chat_id, [[s] for s in steps], on_unreachable=_each(parts))
        merged.parts = parts
        done.parcels.append(merged)

    for parcel, items in zip(waiting, found, strict=True):
        if items is None:
            flush()
            done.parcels.append(parcel)
        else:
            run.append((parcel, items))
    flush()
    return done
