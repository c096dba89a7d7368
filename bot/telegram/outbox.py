"""One queue per chat for everything the bot sends, because Telegram's flood limits are per chat.

When a chat gets too much, Telegram answers 429 with `retry_after`; python-telegram-bot's
AIORateLimiter would then pause every call of the bot while it waits. Here each chat with
something to send has its own first-in-first-out queue and worker task, so a flooded chat
waits alone, and what waits for it is retried until it arrives, unless a newer parcel with the
same key (a newer turn notice of the same game) replaced it. Network failures are retried too:
a few times, or for as long as it takes for a parcel with a key. A caller waits for its parcel
only until it is delivered, refused, or held up for a retry: a handler never keeps its update
slot for a flooded chat. A chat's task ends when its queue is empty.

Nothing waiting is ever dropped. A queue grows only when its chat cannot take messages as fast
as they come (a group gets about 20 a minute), so whenever more than one parcel waits for the
next to go, or `CROWDED` wait behind one still under way, what waits is coalesced into fewer
messages (`coalesce`): texts next to each other joined into one, and a picture of the table
that a newer one waits behind left out, its words kept. Only the `Words` and `Picture` steps
that `delivery.plan` marks are touched: a message with buttons, a file or a turn notice (a
parcel with a key) goes as it is, and no text is joined across it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from telegram.error import BadRequest, ChatMigrated, NetworkError, RetryAfter, TelegramError

from bot.runtime.metrics import COALESCED

from .contract import PLATFORM
from .parcels import (
    ChatId,
    Outcome,
    Parcel,
    Step,
    coalesce,
)

log = logging.getLogger(__name__)

CROWDED: Final = 50  # parcels waiting behind the one under way that are coalesced at once
NETWORK_TRIES: Final = 3  # retries after a network failure, for parcels without a key
BACKOFF: Final = 1.0  # seconds before the first of those retries, doubling up to:
MAX_BACKOFF: Final = 60.0


def _transient(error: TelegramError) -> bool:
    """A network failure or a server error (5xx), not a refusal: worth trying again. A
    timed-out call may have arrived all the same; a rare double beats a lost notice."""
    return isinstance(error, NetworkError) and not isinstance(error, BadRequest)


def retry_seconds(error: RetryAfter) -> float:
    """The wait Telegram asked for. Read from the timedelta PTB keeps: its public
    `retry_after` warns about a future change of type."""
    return error._retry_after.total_seconds()


@dataclass(eq=False)
class _Chat:
    queue: deque[Parcel] = field(default_factory=deque)
    current: Parcel | None = None
    held: bool = False  # waiting to retry: callers are not kept waiting meanwhile
    task: asyncio.Task[None] | None = None

    def parcels(self) -> list[Parcel]:
        return ([self.current] if self.current is not None else []) + list(self.queue)


class Outbox:
    """The queues of one bot, keyed by chat id."""

    def __init__(
        self,
        undeliverable: Callable[[TelegramError], bool],
        crowded: int = CROWDED,
        backoff: float = BACKOFF,
    ) -> None:
        self._undeliverable = undeliverable
        self._crowded = crowded
        self._backoff = backoff
        self._chats: dict[ChatId, _Chat] = {}

    def put(self, parcel: Parcel) -> Parcel:
        """Queue `parcel`; `await parcel.released.wait()` to wait until it is settled or
        held up for a retry."""
        chat = self._chats.get(parcel.chat_id)
        if chat is None:
            chat = self._chats[parcel.chat_id] = _Chat()
        if parcel.key is not None:
            for older in [p for p in chat.queue if p.key == parcel.key]:
                chat.queue.remove(older)
                older.finish("superseded")
            if chat.current is not None and chat.current.key == parcel.key:
                chat.current.superseded = True
        chat.queue.append(parcel)
        if chat.held:
            parcel.released.set()
        if len(chat.queue) >= self._crowded:
            self._coalesce(parcel.chat_id, chat)
        if chat.task is None:
            chat.task = asyncio.create_task(self._work(parcel.chat_id, chat))
        return parcel

    async def send(self, parcel: Parcel) -> Outcome | None:
        """Queue `parcel` and wait until it is settled (its outcome) or held up (None)."""
        self.put(parcel)
        if asyncio.current_task() is self._chats[parcel.chat_id].task:
            return None  # sent from this chat's own worker (a callback): it cannot wait for itself
        await parcel.released.wait()
        return parcel.outcome

    def pending(self) -> int:
        return sum(len(chat.parcels()) for chat in self._chats.values())

    async def drained(self, among: Callable[[ChatId], bool] = lambda _: True) -> None:
        """Wait until every queue (of the chats `among` names) is empty: what was put so
        far is settled, however long the chats' limits make that take."""
        while tasks := [
            chat.task
            for chat_id, chat in self._chats.items()
            if chat.task is not None and not chat.task.done() and among(chat_id)
        ]:
            await asyncio.wait(tasks)

    async def close(self, grace: float) -> None:
        """Give the queues `grace` seconds to empty, then drop what is left (the process is
        stopping: this is the one time anything is)."""
        tasks = [chat.task for chat in self._chats.values() if chat.task is not None]
        if tasks:
            await asyncio.wait(tasks, timeout=grace)
        left = self.pending()
        if left:
            log.warning("stopping with %d parcels undelivered", left)
        for chat in list(self._chats.values()):
            if chat.task is not None:
                chat.task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await chat.task

    def _coalesce(self, chat_id: ChatId, chat: _Chat) -> None:
        """What waits for a busy chat, in fewer messages (`coalesce`)."""
        done = coalesce(chat.queue)
        if not done.changed:
            return
        chat.queue = deque(done.parcels)
        for parcel in done.superseded:
            parcel.finish("superseded")
        COALESCED.labels(PLATFORM).inc(done.before - done.after)
        log.info(
            "chat %s is busy: %d waiting messages coalesced into %d, older pictures left out: %d",
            chat_id,
            done.before,
            done.after,
            done.pictures,
        )

    async def _work(self, chat_id: ChatId, chat: _Chat) -> None:
        try:
            while chat.queue:
                if len(chat.queue) > 1:
                    self._coalesce(chat_id, chat)
                    if not chat.queue:
                        break
                parcel = chat.current = chat.queue.popleft()
                try:
                    await self._deliver(chat, parcel)
                except Exception:
                    log.exception("could not send to chat %s", chat_id)
                    parcel.finish("dropped")
                chat.current = None
        finally:
            for parcel in chat.parcels():
                parcel.finish("dropped")
            if self._chats.get(chat_id) is chat:
                del self._chats[chat_id]

    async def _deliver(self, chat: _Chat, parcel: Parcel) -> None:
        refused = False
        for steps in parcel.messages:
            for step in steps:
                outcome = await self._call(chat, parcel, step)
                if outcome == "unreachable":
                    if parcel.on_unreachable is not None:
                        await parcel.on_unreachable()
                    parcel.finish(outcome)
                    return
                if outcome == "superseded":
                    parcel.finish(outcome)
                    return
                if outcome is None:  # refused for another reason: skip this message
                    refused = True
                    break
        parcel.finish("failed" if refused else "delivered")

    @staticmethod
    async def _hold(chat: _Chat, wait: float) -> None:
        """Wait before a retry, releasing whoever waits for this chat's parcels."""
        chat.held = True
        for waiting in chat.parcels():
            waiting.release()
        await asyncio.sleep(wait)
        chat.held = False

    async def _call(self, chat: _Chat, parcel: Parcel, step: Step) -> Outcome | None:
        """One call, retried while the chat is flooded or the network fails (a parcel with
        a key, a turn notice, for as long as it takes); None if Telegram refused it."""
        followed = False  # a group upgraded to a supergroup is followed once
        failures = 0
        while True:
            if parcel.superseded:
                return "superseded"
            try:
                await step(parcel.chat_id)
                return "delivered"
            except RetryAfter as flood:
                wait = retry_seconds(flood)
                log.info("chat %s is flooded: retrying in %.1f s", parcel.chat_id, wait)
                await self._hold(chat, wait)
            except ChatMigrated as migrated:
                log.warning("chat %s moved to %s", parcel.chat_id, migrated.new_chat_id)
                if followed:
                    return None
                followed, parcel.chat_id = True, migrated.new_chat_id
            except TelegramError as error:
                if _transient(error) and (parcel.key is not None or failures < NETWORK_TRIES):
                    failures += 1
                    wait = min(self._backoff * 2 ** (failures - 1), MAX_BACKOFF)
                    log.warning(
                        "sending to chat %s failed (%s): retrying in %.1f s",
                        parcel.chat_id,
                        error,
                        wait,
                    )
                    await self._hold(chat, wait)
                    continue
                if self._undeliverable(error):
                    log.info("chat %s cannot be reached: %s", parcel.chat_id, error)
                    return "unreachable"
                log.exception("could not send to chat %s", parcel.chat_id)
                return None
