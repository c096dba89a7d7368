"""What every part of the service shares: its dependencies, and reading and saving a table.

A command loads its table with the stored version, changes it in memory and saves it only if
nobody saved first (`Store.save` raises `Conflict` otherwise), so two clicks on one button apply
once. Nothing is kept between calls: any process can serve any command.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TypeVar

from engine.core.errors import CorruptRecord

from ..config import Settings
from ..exchange.actor import Actor
from ..exchange.refused import Refused
from ..games import GameInfo, GameModule, Playing
from ..records.table import Table, load_game
from ..runtime.computer_pool import Computer, playable
from ..runtime.metrics import DRAWING, DRAWN
from ..store import Channel, ChatSettings, GameRecord, Store, StoreUnavailable
from ..text.i18n import normalize, tr

G = TypeVar("G", bound=Playing)


def render_pool() -> ThreadPoolExecutor:
    """The threads images and replays are drawn in (Pillow releases the GIL for most work)."""
    return ThreadPoolExecutor(max_workers=2, thread_name_prefix="render")


V = TypeVar("V")
A = TypeVar("A")
T = TypeVar("T")


def _timed(make: Callable[[], T]) -> T:
    started = time.thread_time()
    try:
        return make()
    finally:
        DRAWING.inc(time.thread_time() - started)
        DRAWN.inc()


@dataclass(slots=True)
class Loaded:
    """A table as read, with the stored record (and its version) it came from."""

    record: GameRecord
    table: Table

    @property
    def channel(self) -> Channel:
        """Where the table lives now (a table moved to another chat id is found by its old)."""
        return self.record.channel


@dataclass(slots=True)
class Context:
    """The service's dependencies, handed to every part of it."""

    store: Store
    settings: Settings
    computer: Computer
    clock: Callable[[], float] = time.time
    seeds: Callable[[], int] = field(default=lambda: secrets.randbits(63))  # deals and seating
    executor: Executor = field(default_factory=render_pool)  # images, off the event loop
    # Work is CPU-bound (replay, images): past a few at once, more only queue inside Redis
    # calls and time out. Waiting here instead keeps every Redis round trip short.
    gate: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(8))
    store_down: bool = False  # so an outage is logged once, not at every poll
    next_sweep: float = 0.0  # when results left unrated are looked for again (`results`)
    # Channels whose news were told while Redis was away: their news deadline is cancelled
    # when it is back (a repeat, not a loss, if this process dies first).
    untold: set[Channel] = field(default_factory=set)
    # Autocomplete answers by (channel, table version, user, text typed): a new version makes
    # them unused, so they are always what Redis holds.
    completions: OrderedDict[tuple[str, int, str, str], list[tuple[str, str]]] = field(
        default_factory=OrderedDict
    )

    @staticmethod
    def playable(game_key: str) -> bool:
        """Whether computer players know this game."""
        return playable(game_key)

    @property
    def default_language(self) -> str:
        return str(self.settings.default_language.value)

    async def draw(self, make: Callable[[], T]) -> T:
        """Images off the event loop, so one big image never stalls other games; their count
        and CPU time are metrics (a load run tells images from the rest of a move's CPU)."""
        return await asyncio.get_running_loop().run_in_executor(self.executor, _timed, make)

    async def language(self, actor: Actor) -> str:
        """The chat's language (set, or kept from its first table), else the user's, else
        the bot's; never fails on an outage. A chat with a table always has one, so what a
        timer sends there (`channel_language`) speaks as the answers do."""
        return (await self.spoken(actor))[0]

    async def spoken(self, actor: Actor) -> tuple[str, ChatSettings | None]:
        """The chat's language (as `language` says) and the settings it was read from, so
        the answer reads them once (`None` on an outage)."""
        try:
            chat = await self.store.chat_settings(Channel.of(actor.platform, actor.channel_id))
        except StoreUnavailable:
            chat = None
        chosen = chat.spoken if chat is not None else None
        return chosen or normalize(actor.locale) or self.default_language, chat

    async def channel_language(self, channel: Channel) -> str:
        """The chat's language when nobody acts (timers, web pages): as `language` answers."""
        chat = await self.store.chat_settings(channel)
        return chat.spoken or self.default_language

    async def load(self, channel: Channel) -> Loaded | None:
        record = await self.store.load(channel)
        if record is None:
            return None
        try:
            table = Table.model_validate_json(record.data)
        except ValueError as err:
            raise Refused(f"stored table unreadable: {err}") from None
        return Loaded(record, table)

    async def need(self, actor: Actor, lang: str) -> Loaded:
        """The table of the actor's channel; `Refused` says why there is none."""
        channel = Channel.of(actor.platform, actor.channel_id)
        loaded = await self.load(channel)
        if loaded is None:
            if await self.ended(channel) is not None:
                raise Refused(
                    tr(
                        lang,
                        "The game here is over. /fc board shows the final table; "
                        "/fc new opens a new one.",
                    )
                )
            raise Refused(tr(lang, "There is no table here. Open one with /fc new."))
        return loaded

    async def ended(self, channel: Channel) -> Loaded | None:
        """The channel's last game if it was played to the end or ended by a vote (not
        aborted), while its archive lasts."""
        record = await self.store.last_archived(channel)
        if record is None:
            return None
        try:
            table = Table.model_validate_json(record.data)
            if table.game is None:
                return None
            finished = table.module.visit(_finished, table)
        except ValueError:
            return None
        if not (finished or table.voted_end):
            return None
        return Loaded(record, table)

    async def save(self, loaded: Loaded, deadlines: dict[str, float | None] | None = None) -> int:
        """Saves the table if nobody saved since it was read, with the deadlines given."""
        return await self.store.save(
            loaded.channel,
            loaded.table.model_dump_json(),
            loaded.record.version,
            players=loaded.table.user_ids(),
            deadlines=deadlines,
        )


def _finished(game_module: GameModule[G, V, A], table: Table) -> bool:
    return load_game(game_module, table).is_over


def game_of(game_module: GameModule[G, V, A], loaded: Loaded, lang: str) -> G:
    """The game under way at a loaded table; `Refused` if none."""
    if loaded.table.game is None:
        raise Refused(tr(lang, "The game has not started yet."))
    try:
        return load_game(game_module, loaded.table)
    except CorruptRecord as err:
        raise Refused(f"stored game unreadable: {err}") from None


def waiting(game: Playing) -> set[str]:
    """ "seat kind" for every decision the game waits for."""
    return {f"{t.seat} {t.kind}" for t in game.to_act}


def waiting_seats(game: Playing) -> list[str]:
    """The seats the game waits for, in turn order, each once."""
    seats: list[str] = []
    for turn in game.to_act:
        if turn.seat not in seats:
            seats.append(turn.seat)
    return seats


def creator_name(table: Table) -> str:
    seat = table.seat_of(table.creator)
    return seat.name if seat is not None else table.creator


def user_names(table: Table) -> dict[str, str]:
    """User id -> name of everyone seated, for the mentions of a message."""
    return {s.user_id: s.name for s in table.seats}


def no_computers(game_module: GameInfo, lang: str) -> str:
    return tr(lang, "Computer players cannot play {game} yet.", game=tr(lang, game_module.title))
