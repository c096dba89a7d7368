"""The game service: the one place that turns chat commands into engine moves and replies.

Adapters (Discord, Telegram, console) call `command`, `press`, `complete`, `dm_failed` and
`fire_due`, and post the `Reply` they get. Every change is one optimistic write to Redis: the
table is loaded with its version, changed in memory, and saved only if nobody saved first, so
two clicks on the same button apply once. The process keeps no game between calls.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, replace
from datetime import timedelta
from functools import partial
from typing import Any

from engine.ai import LEVELS, game_ai
from engine.core.errors import CorruptRecord, IllegalMove

from .actor import Actor
from .computer import DEFAULT_LEVEL, Computer, playable
from .computer import HELP as COMPUTER_HELP
from .config import Settings
from .durations import duration_text
from .games import DEFAULT, MODULES, At, GameModule, by_word, module
from .i18n import LANGUAGE_NAMES, LANGUAGES, N_, normalize, tr, translations
from .names import without_controls
from .refused import Refused
from .replies import Button, Direct, Message, Reply, mention
from .store import (
    CLAIM_LEASE,
    AlreadyExists,
    Channel,
    ChatSettings,
    Conflict,
    GameRecord,
    NotFound,
    Store,
    StoreUnavailable,
)
from .table import Seat, Table

DEADLINE_KINDS = ("remind", "limit", "bot")
# A computer player's claimed decision comes due again this long after its time limit, if the
# process deciding it died: a restart loses a few seconds, not the decision.
BOT_LEASE_MARGIN = 30.0
# After a platform refuses a private message to someone, the bot stops trying for this long,
# or until they use the bot privately or turn notices on again.
DMS_RETRY_AFTER = timedelta(days=1)
log = logging.getLogger(__name__)
_DATA = re.compile(
    r"^fc:([a-z]{1,3}):(-?[0-9A-Za-z_]{1,24})(?::(\d{1,4}))?(?::([-0-9A-Za-z,@.]{1,24}))?$"
)
LOBBY_KINDS = ("j", "st", "gm", "ab")
# `/fc help` lines of the commands every game has, after the game's own lines.
COMMON_HELP = (
    N_("join / leave: sit down or stand up before the start"),
    N_("board: the table"),
    N_("rules: the rules in short"),
    N_("abort: end the game (the creator or an admin)"),
    N_("lang <en|fr|it|de>: the chat's language"),
    N_("notify on|off: private turn messages"),
    N_("games: your games everywhere"),
    N_("vote skip|end: when a turn runs past the time limit"),
)
_BOTS = re.compile(r"^bots:(\d{1,2})(?::([a-z]+))?$")


@dataclass(slots=True)
class Loaded:
    record: GameRecord
    table: Table


Handler = Callable[[Actor, list[str], str], Awaitable[Reply]]


class GameService:
    def __init__(
        self,
        store: Store,
        settings: Settings,
        *,
        clock: Callable[[], float] = time.time,
        executor: Executor | None = None,
        seeds: Callable[[], int] = lambda: secrets.randbits(63),
        max_concurrent: int = 8,
        computer: Computer | None = None,
    ) -> None:
        self.store = store
        self.settings = settings
        self.clock = clock
        self._seeds = seeds  # deals and seating; tests pass fixed ones
        self._store_down = False  # so an outage is logged once, not at every poll
        # Work is CPU-bound (replay, images): past a few at once, more only queue inside Redis
        # calls and time out. Waiting here instead keeps every Redis round trip short.
        self._gate = asyncio.Semaphore(max_concurrent)
        self._executor = executor or ThreadPoolExecutor(max_workers=2, thread_name_prefix="render")
        self.computer = computer or Computer(
            settings.bot_workers,
            settings.bot_think_limit.total_seconds(),
            settings.bot_iterations,
        )
        self._commands: dict[str, Handler] = {
            "new": self._new,
            "join": self._join,
            "leave": self._leave,
            "start": self._start,
            "play": self._play,
            "hand": self._hand,
            "board": self._board,
            "status": self._status,
            "score": self._status,
            "rules": self._rules,
            "abort": self._abort,
            "lang": self._lang,
            "notify": self._notify,
            "games": self._games,
            "help": self._help,
            "vote": self._vote,
            "addbot": self._addbot,
            "removebot": self._removebot,
            "back": self._back,
        }

    # ------------------------------------------------------------------ entry points
    async def command(self, actor: Actor, text: str) -> Reply:
        """Run `/fc <text>` typed by `actor`."""
        async with self._gate:
            await self._dms_open(actor)
            return await self._command(actor, without_controls(text))

    async def _command(self, actor: Actor, text: str) -> Reply:
        words = text.split()
        name = words[0].lower().lstrip("/") if words else "help"
        lang = await self._language_or_default(actor)
        handler = self._commands.get(name)
        if handler is None:
            return Reply.error(tr(lang, "Unknown command “{name}”. Try /fc help.", name=name[:30]))
        if actor.private and name not in ("help", "rules", "games", "new", "lang", "notify"):
            try:
                actor = await self._home(actor, lang)
            except Refused as refused:
                return Reply.error(str(refused))
            except StoreUnavailable:
                return await self._guard(lang, handler(actor, words[1:], lang))
            reply = await self._guard(lang, handler(actor, words[1:], lang))
            reply.channel_id = actor.channel_id
            return reply
        return await self._guard(lang, handler(actor, words[1:], lang))

    async def _home(self, actor: Actor, lang: str) -> Actor:
        """In a private chat, commands are about the user's game if there is only one."""
        games = await self.store.user_games(actor.platform, actor.user_id)
        if len(games) == 1:
            return replace(actor, channel_id=games[0].channel_id)
        if not games:
            raise Refused(tr(lang, "You have no game under way."))
        raise Refused(
            tr(
                lang,
                "You play in several chats: type the command in the game's chat, "
                "or use the buttons.",
            )
        )

    async def press(self, actor: Actor, data: str) -> Reply:
        """A button or menu choice; `data` names the game's channel, so DMs work too."""
        async with self._gate:
            await self._dms_open(actor)
            return await self._press(actor, data)

    async def _press(self, actor: Actor, data: str) -> Reply:
        lang = await self._language_or_default(actor)
        match = _DATA.match(data)
        if match is None:
            return Reply.error(tr(lang, "This button is not valid."))
        kind, channel_id, count, payload = match[1], match[2], match[3], match[4]
        where = replace(actor, channel_id=channel_id, private=False)
        lang = await self._language_or_default(where)
        reply = Reply.error(tr(lang, "This button is not valid."))
        if kind in LOBBY_KINDS and channel_id != actor.channel_id:
            pass  # lobby buttons only work where they were posted
        elif kind == "j":
            reply = await self._guard(lang, self._join(where, [], lang))
        elif kind == "st":
            reply = await self._guard(lang, self._start(where, [], lang))
        elif kind == "ab":
            reply = await self._guard(lang, self._addbot(where, [], lang))
        elif kind == "gm" and payload is not None:
            reply = await self._guard(lang, self._switch(where, payload, lang))
        elif count is not None and payload is not None:
            work = self._pressed(where, kind, int(count), payload, lang)
            reply = await self._guard(lang, work)
        reply.channel_id = channel_id
        return reply

    async def complete(self, actor: Actor, text: str) -> list[tuple[str, str]]:
        """Choices for the argument of `play`, for platforms with autocomplete."""
        try:
            if actor.private:  # the same game `play` would be about there
                actor = await self._home(actor, str(self.settings.default_language.value))
            loaded = await self._load(Channel.of(actor.platform, actor.channel_id))
            if loaded is None or loaded.table.game is None:
                return []
            table = loaded.table
            seat = table.engine_seat(actor.user_id)
            game = table.load_game()
        except (StoreUnavailable, Refused, CorruptRecord):
            return []
        if seat is None or game.is_over:
            return []
        lang = str(self.settings.default_language.value)
        at = self._at(table, actor.channel_id, lang, game)
        return table.module.complete(at, game, seat, text)

    async def dm_failed(
        self, platform: str, channel_id: str, user_id: str, link: str | None = None
    ) -> Reply:
        """A turn notice could not reach `user_id` privately: tell the channel, once per game.
        `link` opens a private chat with the bot, where the platform has one (Telegram)."""
        channel = Channel.of(platform, channel_id)
        for _ in range(3):
            try:
                loaded = await self._load(channel)
                if loaded is None or user_id in loaded.table.hinted:
                    return Reply()
                loaded.table.hinted.append(user_id)
                await self._save(channel, loaded)
            except Conflict:
                continue
            except (StoreUnavailable, Refused, NotFound):
                return Reply()
            lang = await self._channel_language(channel)
            secret = tr(lang, loaded.table.module.secret)
            if platform == "telegram" and link:
                text = tr(
                    lang,
                    "{who}, I cannot write to you privately. Open {link} and press Start, so I "
                    "can send you {secret} and tell you when it is your turn.",
                    who=mention(user_id),
                    link=link,
                    secret=secret,
                )
            elif platform == "telegram":
                text = tr(
                    lang,
                    "{who}, I cannot write to you privately. Open a private chat with me and "
                    "press Start, so I can send you {secret} and tell you when it is your turn.",
                    who=mention(user_id),
                    secret=secret,
                )
            else:
                text = tr(
                    lang,
                    "{who}, I cannot send you direct messages. Allow direct messages from "
                    "server members, or use /fc hand here to see {secret} when it is your turn.",
                    who=mention(user_id),
                    secret=secret,
                )
            return Reply(public=[Message(text, names=self._names(loaded.table))])
        return Reply()

    async def dms_closed(self, platform: str, user_id: str) -> bool:
        """Whether `user_id` refused private messages lately: adapters then send them none
        (a turn notice goes to `dm_failed` as if refused) instead of asking the platform again."""
        try:
            since = await self.store.dms_closed_at(platform, user_id)
        except StoreUnavailable:
            return False
        return since is not None and self.clock() - since < DMS_RETRY_AFTER.total_seconds()

    async def dms_refused(self, platform: str, user_id: str) -> None:
        """The platform refused a private message to `user_id` (DMs closed, bot blocked)."""
        with contextlib.suppress(StoreUnavailable):
            await self.store.set_dms_closed(platform, user_id, self.clock(), keep=DMS_RETRY_AFTER)

    async def _dms_open(self, actor: Actor) -> None:
        """Someone using the bot in a private chat may be written to there again."""
        if actor.private:
            with contextlib.suppress(StoreUnavailable):
                await self.store.clear_dms_closed(actor.platform, actor.user_id)

    async def fire_due(self, platform: str | None = None) -> list[tuple[str, str, Reply]]:
        """Reminders and turn limits that are due (on `platform`, or all), each claimed so it
        fires once across processes and adapters. A claim is a lease: one whose work fails
        halfway comes due again. Never raises for an outage, so polling loops keep going."""
        out: list[tuple[str, str, Reply]] = []
        try:
            for deadline in await self.store.due(self.clock()):
                if platform is not None and deadline.channel.platform != platform:
                    continue
                lease = CLAIM_LEASE
                if deadline.kind == "bot":
                    lease = self.computer.limit + BOT_LEASE_MARGIN
                claimed = await self.store.lease(deadline, self.clock() + lease)
                if claimed is None:
                    continue
                async with self._gate:
                    reply = await self._fire(deadline.channel, deadline.kind)
                if reply.public or reply.direct:
                    out.append((deadline.channel.platform, deadline.channel.channel_id, reply))
                await self.store.done(claimed)  # its work is stored: a failure here loses nothing
        except StoreUnavailable as err:
            if not self._store_down:
                log.warning("deadlines wait for the store: %s", err)
            self._store_down = True
            return out
        if self._store_down:
            log.info("the store is back; deadlines fire again")
        self._store_down = False
        return out

    async def restore_deadlines(self) -> int:
        """At start-up, give every turn under way its reminder and time limit again.

        Deadlines live in Redis and are written with each turn, so a restart keeps them;
        this covers any lost otherwise (a Redis restored from an older save, or games
        stored before deadlines were written with the turn). Returns how many were set.
        """
        restored = 0
        for channel in await self.store.live_channels():
            loaded = await self._load(channel)
            if loaded is None or loaded.table.game is None:
                continue
            table = loaded.table
            for kind, due in self._turn_deadlines(table).items():
                if due is not None and await self.store.deadline(channel, kind) is None:
                    await self.store.schedule(channel, kind, due)
                    restored += 1
        return restored

    # ------------------------------------------------------------------ plumbing
    async def _guard(self, lang: str, work: Awaitable[Reply]) -> Reply:
        try:
            return await work
        except Refused as refused:
            return Reply.error(str(refused))
        except IllegalMove as illegal:  # a module explains its own; this is the last resort
            return Reply.error(
                tr(lang, "That move is not allowed: {reason}.", reason=illegal.reason)
            )
        except Conflict:
            return Reply.error(
                tr(lang, "Someone was quicker: that was already played. Nothing was changed.")
            )
        except NotFound:
            return Reply.error(tr(lang, "This table is closed."))
        except StoreUnavailable:
            return Reply.error(
                tr(
                    lang,
                    "The game storage is unavailable right now. Nothing was changed; "
                    "please try again in a moment.",
                )
            )

    async def _language_or_default(self, actor: Actor) -> str:
        try:
            chat = await self.store.chat_settings(Channel.of(actor.platform, actor.channel_id))
            chosen = chat.language
        except StoreUnavailable:
            chosen = None
        return chosen or normalize(actor.locale) or str(self.settings.default_language.value)

    async def _channel_language(self, channel: Channel) -> str:
        chat = await self.store.chat_settings(channel)
        return chat.language or str(self.settings.default_language.value)

    async def _load(self, channel: Channel) -> Loaded | None:
        record = await self.store.load(channel)
        if record is None:
            return None
        try:
            table = Table.model_validate_json(record.data)
        except ValueError as err:
            raise Refused(f"stored table unreadable: {err}") from None
        return Loaded(record, table)

    async def _need(self, actor: Actor, lang: str) -> Loaded:
        channel = Channel.of(actor.platform, actor.channel_id)
        loaded = await self._load(channel)
        if loaded is None:
            if await self._ended(channel) is not None:
                raise Refused(
                    tr(
                        lang,
                        "The game here is over. /fc board shows the final table; "
                        "/fc new opens a new one.",
                    )
                )
            raise Refused(tr(lang, "There is no table here. Open one with /fc new."))
        return loaded

    async def _ended(self, channel: Channel) -> Loaded | None:
        """The channel's last game if it was played to the end or ended by a vote (not
        aborted), while its archive lasts."""
        record = await self.store.last_archived(channel)
        if record is None:
            return None
        try:
            table = Table.model_validate_json(record.data)
            game = table.load_game() if table.game is not None else None
        except ValueError:
            return None
        if game is None or not (game.is_over or table.voted_end):
            return None
        return Loaded(record, table)

    async def _save(
        self, channel: Channel, loaded: Loaded, deadlines: dict[str, float | None] | None = None
    ) -> int:
        version = await self.store.save(
            channel,
            loaded.table.model_dump_json(),
            loaded.record.version,
            players=loaded.table.user_ids(),
            deadlines=deadlines,
        )
        return version

    def _turn_deadlines(self, table: Table) -> dict[str, float | None]:
        """The deadlines of the stored turn, derived from it: written with every move, and
        again at start-up if missing. A limit already announced is not armed again. A
        computer player acts after a short pause, and is neither reminded nor timed."""
        started = table.turn_started
        waited = {w.split(" ", 1)[0] for w in table.waiting}
        computers = waited & set(table.computer_seats())
        people = bool(waited - computers)
        return {
            "remind": started + self.settings.reminder_after.total_seconds() if people else None,
            "limit": None
            if table.limit_passed or not people
            else started + self.settings.turn_limit.total_seconds(),
            "bot": self.clock() + self.settings.bot_pause.total_seconds() if computers else None,
        }

    @staticmethod
    def _creator_name(table: Table) -> str:
        seat = table.seat_of(table.creator)
        return seat.name if seat is not None else table.creator

    @staticmethod
    def _names(table: Table) -> dict[str, str]:
        return {s.user_id: s.name for s in table.seats}

    def _at(self, table: Table, channel_id: str, lang: str, game: Any | None = None) -> At:
        """What a game module is told of the table (see `bot.games.At`)."""
        return At(
            lang=lang,
            channel_id=channel_id,
            users=table.users(),
            names=table.names(),
            count=table.module.count(game) if game is not None else 0,
            words=translations(lang).gettext,
        )

    async def _draw(self, make: Callable[[], Any]) -> Any:
        """Images off the event loop, so one big image never stalls other games."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, make)

    @staticmethod
    def _game_of(loaded: Loaded, lang: str) -> Any:
        if loaded.table.game is None:
            raise Refused(tr(lang, "The game has not started yet."))
        try:
            return loaded.table.load_game()
        except CorruptRecord as err:
            raise Refused(f"stored game unreadable: {err}") from None

    @staticmethod
    def _waiting(game: Any) -> set[str]:
        """ "seat kind" for every decision the game waits for."""
        return {f"{t.seat} {t.kind}" for t in game.to_act}

    @staticmethod
    def _waiting_seats(game: Any) -> list[str]:
        seats: list[str] = []
        for turn in game.to_act:
            if turn.seat not in seats:
                seats.append(turn.seat)
        return seats

    # ------------------------------------------------------------------ lobby
    def _lobby_buttons(self, table: Table, channel_id: str, lang: str) -> list[list[Button]]:
        row = [
            Button(tr(lang, "Join"), f"fc:j:{channel_id}", "primary"),
            Button(tr(lang, "Start"), f"fc:st:{channel_id}", "success"),
        ]
        others = [
            Button(
                tr(lang, "Play {game} instead", game=tr(lang, module(key).title)),
                f"fc:gm:{channel_id}:0:{index}",
            )
            for index, key in enumerate(MODULES)
            if key != table.kind
        ]
        add = Button(tr(lang, "Add a computer player"), f"fc:ab:{channel_id}")
        return [row, [add, *others]]

    def _room_for_one(self, table: Table, lang: str) -> None:
        if len(table.seats) >= table.module.max_players:
            raise Refused(
                tr(lang, "The table is full ({high} players).", high=table.module.max_players)
            )

    async def _lobby_saved(self, actor: Actor, loaded: Loaded, text: str, lang: str) -> Reply:
        """Saves a lobby change, then shows the lobby with `text` and its buttons."""
        await self._save(Channel.of(actor.platform, actor.channel_id), loaded)
        table = loaded.table
        return Reply(public=[self._lobby_message(table, actor.channel_id, text, lang)])

    def _lobby_message(self, table: Table, channel_id: str, text: str, lang: str) -> Message:
        return Message(
            text, buttons=self._lobby_buttons(table, channel_id, lang), names=self._names(table)
        )

    def _opening_text(self, table: Table, lang: str) -> str:
        game_module = table.module
        options = game_module.options_text(table.options, lang)
        values = {
            "who": mention(table.creator),
            "game": tr(lang, game_module.title),
            "low": game_module.min_players,
            "high": game_module.max_players,
        }
        if options:
            return tr(
                lang,
                "{who} opens a {game} table ({options}). Join with /fc join: {low} to {high} "
                "players. {who} starts the game with /fc start.",
                options=options,
                **values,
            )
        return tr(
            lang,
            "{who} opens a {game} table. Join with /fc join: {low} to {high} players. "
            "{who} starts the game with /fc start.",
            **values,
        )

    async def _new(self, actor: Actor, args: list[str], lang: str) -> Reply:
        if actor.private:
            raise Refused(tr(lang, "Open a table in a group or a server channel, not here."))
        bots = [a for a in args if a.lower().startswith("bots:")]
        args = [a for a in args if a not in bots]
        chosen = by_word(args[0]) if args else None
        game_module = chosen or module(DEFAULT)
        count, level = self._bots_option(bots, game_module, lang)
        options = game_module.options(args[1:] if chosen else args, 1 + count, lang)
        channel = Channel.of(actor.platform, actor.channel_id)
        table = Table(
            kind=game_module.key,
            options=options,
            creator=actor.user_id,
            seats=[Seat(user_id=actor.user_id, name=actor.name)],
        )
        for _ in range(count):
            self._seat_computer(table, level, lang)
        try:
            await self.store.create(
                channel,
                table.model_dump_json(),
                creator=actor.user_id,
                players=[actor.user_id],
                language=lang,
            )
        except AlreadyExists:
            raise Refused(
                tr(lang, "A table is already open in this channel. See it with /fc board.")
            ) from None
        text = self._opening_text(table, lang)
        if count:
            computers = ", ".join(s.name for s in table.seats if s.bot is not None)
            text += " " + tr(lang, "Computer players seated: {names}.", names=computers)
        return Reply(public=[self._lobby_message(table, actor.channel_id, text, lang)])

    def _bots_option(self, words: list[str], game_module: GameModule, lang: str) -> tuple[int, str]:
        """`bots:N` (or `bots:N:level`) of `/fc new`: how many computer players sit at once."""
        if not words:
            return 0, DEFAULT_LEVEL
        high = game_module.max_players - 1
        match = _BOTS.match(words[0].lower())
        if (
            len(words) > 1
            or match is None
            or not 1 <= int(match[1]) <= high
            or (match[2] or DEFAULT_LEVEL) not in LEVELS
        ):
            raise Refused(
                tr(
                    lang,
                    "Write bots:N with N from 1 to {high}, and a level if you like: "
                    "bots:2:hard (easy, normal or hard).",
                    high=high,
                )
            )
        if not playable(game_module.key):
            raise Refused(self._no_computers(game_module, lang))
        return int(match[1]), match[2] or DEFAULT_LEVEL

    @staticmethod
    def _no_computers(game_module: GameModule, lang: str) -> str:
        return tr(
            lang, "Computer players cannot play {game} yet.", game=tr(lang, game_module.title)
        )

    @staticmethod
    def _seat_computer(table: Table, level: str, lang: str) -> Seat:
        """A computer player's seat, named for what it is (numbered if the name is taken)."""
        base = tr(lang, "Computer ({level})", level=tr(lang, level))
        taken = {s.name for s in table.seats}
        name = next(n for n in (base, *(f"{base} {i}" for i in range(2, 10))) if n not in taken)
        seat = Seat(user_id=table.new_computer_id(), name=name, bot=level)
        table.seats.append(seat)
        return seat

    def _runs(self, table: Table, actor: Actor, lang: str) -> None:
        """`Refused` unless the actor runs the lobby (its creator, or a channel admin)."""
        if table.started:
            raise Refused(tr(lang, "The game has already started."))
        if actor.user_id != table.creator and not actor.is_admin:
            raise Refused(
                tr(
                    lang,
                    "Only {who}, who opened this table, or a channel admin can seat or remove "
                    "computer players.",
                    who=self._creator_name(table),
                )
            )

    async def _addbot(self, actor: Actor, args: list[str], lang: str) -> Reply:
        level = args[0].lower() if args else DEFAULT_LEVEL
        if level not in LEVELS or len(args) > 1:
            raise Refused(tr(lang, "Choose a level: /fc addbot easy, normal or hard."))
        loaded = await self._need(actor, lang)
        table = loaded.table
        self._runs(table, actor, lang)
        if not playable(table.kind):
            raise Refused(self._no_computers(table.module, lang))
        self._room_for_one(table, lang)
        seat = self._seat_computer(table, level, lang)
        text = tr(
            lang,
            "{name} takes a seat ({n}/{high}): a computer player. {creator} starts the game with "
            "/fc start.",
            name=seat.name,
            n=len(table.seats),
            high=table.module.max_players,
            creator=self._creator_name(table),
        )
        return await self._lobby_saved(actor, loaded, text, lang)

    async def _removebot(self, actor: Actor, args: list[str], lang: str) -> Reply:
        """Removes the computer player seated last, or the one numbered `args[0]` (1, 2...)."""
        loaded = await self._need(actor, lang)
        table = loaded.table
        self._runs(table, actor, lang)
        computers = [s for s in table.seats if s.bot is not None]
        if not computers:
            raise Refused(tr(lang, "No computer player sits at this table."))
        if args and not (args[0].isdigit() and 1 <= int(args[0]) <= len(computers)):
            raise Refused(
                tr(lang, "Name a computer player by its number, 1 to {n}.", n=len(computers))
            )
        seat = computers[int(args[0]) - 1] if args else computers[-1]
        table.seats.remove(seat)
        text = tr(
            lang,
            "{who} leaves the table ({n}/{high}).",
            who=seat.name,
            n=len(table.seats),
            high=table.module.max_players,
        )
        return await self._lobby_saved(actor, loaded, text, lang)

    async def _switch(self, actor: Actor, payload: str, lang: str) -> Reply:
        """The lobby's button that opens the other game instead (the creator's choice)."""
        keys = list(MODULES)
        if not payload.isdigit() or int(payload) >= len(keys):
            raise Refused(tr(lang, "This button is not valid."))
        loaded = await self._need(actor, lang)
        table = loaded.table
        if table.started:
            raise Refused(tr(lang, "The game has already started."))
        if actor.user_id != table.creator and not actor.is_admin:
            raise Refused(
                tr(lang, "Only {who} can choose the game.", who=self._creator_name(table))
            )
        game_module = module(keys[int(payload)])
        if len(table.seats) > game_module.max_players:
            raise Refused(tr(lang, "Too many players are seated for that game."))
        if len(table.user_ids()) < len(table.seats) and not playable(game_module.key):
            raise Refused(self._no_computers(game_module, lang))
        table.kind = game_module.key
        table.options = game_module.options([], len(table.seats), lang)
        text = self._opening_text(table, lang)
        return await self._lobby_saved(actor, loaded, text, lang)

    async def _join(self, actor: Actor, args: list[str], lang: str) -> Reply:
        loaded = await self._need(actor, lang)
        table = loaded.table
        if table.started:
            raise Refused(tr(lang, "The game has already started."))
        if table.seat_of(actor.user_id):
            raise Refused(tr(lang, "You are already at the table."))
        self._room_for_one(table, lang)
        table.seats.append(Seat(user_id=actor.user_id, name=actor.name))
        text = tr(
            lang,
            "{who} joins the table ({n}/{high}). {creator} starts the game with /fc start.",
            who=mention(actor.user_id),
            n=len(table.seats),
            high=table.module.max_players,
            creator=self._creator_name(table),
        )
        return await self._lobby_saved(actor, loaded, text, lang)

    async def _leave(self, actor: Actor, args: list[str], lang: str) -> Reply:
        loaded = await self._need(actor, lang)
        table = loaded.table
        channel = Channel.of(actor.platform, actor.channel_id)
        if table.started:
            raise Refused(
                tr(
                    lang,
                    "The game is under way: nobody can leave it now. {creator} can /fc abort.",
                    creator=self._creator_name(table),
                )
            )
        seat = table.seat_of(actor.user_id)
        if seat is None:
            raise Refused(tr(lang, "You are not at this table."))
        table.seats.remove(seat)
        if not table.user_ids():  # computer players never keep a table open
            await self.store.archive(channel, loaded.record.version)
            return Reply(public=[Message(tr(lang, "Everybody left: the table is closed."))])
        text = tr(
            lang,
            "{who} leaves the table ({n}/{high}).",
            who=mention(actor.user_id),
            n=len(table.seats),
            high=table.module.max_players,
        )
        if table.creator == actor.user_id:
            table.creator = table.user_ids()[0]
            text += " " + tr(
                lang,
                "{creator} now runs the table and starts the game.",
                creator=self._creator_name(table),
            )
        await self._save(channel, loaded)
        return Reply(
            public=[Message(text, names={**self._names(table), actor.user_id: actor.name})]
        )

    async def _start(self, actor: Actor, args: list[str], lang: str) -> Reply:
        loaded = await self._need(actor, lang)
        table = loaded.table
        game_module = table.module
        if table.started:
            raise Refused(tr(lang, "The game has already started."))
        if actor.user_id != table.creator and not actor.is_admin:
            raise Refused(
                tr(
                    lang,
                    "Only {who} can start this game.",
                    who=self._creator_name(table),
                )
            )
        if len(table.seats) < game_module.min_players:
            raise Refused(
                tr(
                    lang,
                    "At least 2 players are needed to start: wait for someone to /fc join, "
                    "or seat a computer player with /fc addbot.",
                )
            )
        game_module.check_start(table.options, len(table.seats), lang)
        seed = self._seeds()
        order = list(table.seats)
        random.Random(seed).shuffle(order)
        game = game_module.new_game(len(order), table.options, seed)
        table.seats = order
        table.keep(game)
        table.waiting = sorted(self._waiting(game))
        table.turn_started = self.clock()
        channel = Channel.of(actor.platform, actor.channel_id)
        chat = await self.store.chat_settings(channel)
        await self._save(channel, loaded, self._turn_deadlines(table))
        at = self._at(table, actor.channel_id, lang, game)
        text = game_module.begin_text(at, game)
        image = await self._draw(lambda: game_module.table_image(at, game))
        reply = Reply(public=[Message(text, image=image, names=self._names(table))])
        reply.direct.extend(await self._notices(at, table, game, chat, self._waiting_seats(game)))
        return reply

    # ------------------------------------------------------------------ playing
    def _seated(self, loaded: Loaded, actor: Actor, lang: str) -> tuple[Any, str]:
        """The game under way and the actor's seat in it."""
        game = self._game_of(loaded, lang)
        seat = loaded.table.engine_seat(actor.user_id)
        if seat is None:
            raise Refused(tr(lang, "You are not playing at this table."))
        if game.is_over:
            raise Refused(tr(lang, "The game is over."))
        return game, seat

    def _acting(self, loaded: Loaded, actor: Actor, lang: str) -> tuple[Any, str]:
        """The game and the actor's seat, if the game waits for a decision of theirs."""
        game, seat = self._seated(loaded, actor, lang)
        if loaded.table.user_of(seat).away:
            raise Refused(
                tr(lang, "A computer player has your seat: /fc back to play it yourself again.")
            )
        if seat not in self._waiting_seats(game):
            waited = [loaded.table.user_of(s).name for s in self._waiting_seats(game)]
            raise Refused(tr(lang, "It is {who}'s turn, not yours.", who=", ".join(waited)))
        return game, seat

    async def _play(self, actor: Actor, args: list[str], lang: str) -> Reply:
        loaded = await self._need(actor, lang)
        game, seat = self._acting(loaded, actor, lang)
        at = replace(self._at(loaded.table, actor.channel_id, lang, game), private=actor.private)
        action = loaded.table.module.typed(at, game, seat, args)
        return await self._apply(actor, loaded, game, seat, action, lang)

    async def _pressed(self, actor: Actor, kind: str, count: int, payload: str, lang: str) -> Reply:
        loaded = await self._need(actor, lang)
        game_module = loaded.table.module
        if kind not in game_module.button_kinds:
            raise Refused(tr(lang, "This button is not valid."))
        game, seat = self._acting(loaded, actor, lang)
        at = self._at(loaded.table, actor.channel_id, lang, game)
        outcome = await self._draw(
            lambda: game_module.pressed(at, game, seat, kind, count, payload)
        )
        if isinstance(outcome, Reply):
            return outcome
        return await self._apply(actor, loaded, game, seat, outcome, lang)

    async def _apply(
        self, actor: Actor, loaded: Loaded, game: Any, seat: str, action: Any, lang: str
    ) -> Reply:
        channel = Channel.of(actor.platform, actor.channel_id)
        table = loaded.table
        at = self._at(table, actor.channel_id, lang, game)
        try:
            result = game.play(seat, action)
        except IllegalMove as err:
            raise Refused(table.module.explain(err, lang)) from None
        lines = table.module.announce(at, game, [result])
        lines += table.module.after_play(at, game)
        forced = table.module.count(game) > at.count + 1
        return await self._after_action(
            channel, loaded, game, lines, lang, [result], seat, forced=forced
        )

    async def _after_action(
        self,
        channel: Channel,
        loaded: Loaded,
        game: Any,
        lines: list[str],
        lang: str,
        results: list[Any],
        actor_seat: str | None = None,
        *,
        forced: bool = False,
    ) -> Reply:
        """Store the game after its actions and say so: to the channel, to whoever must act
        next (privately), and to the seat that acted.

        A decision the game did not wait for before is new: its seat gets a turn notice. So is
        every decision after the table played forced actions (`forced`: a tile set aside), even
        the actor's; otherwise the actor, still deciding (more moves in its turn), gets its next
        choice in the reply."""
        table = loaded.table
        game_module = table.module
        drawn = game_module.draws(results)
        before = set(table.waiting)
        table.keep(game)
        waiting = self._waiting(game)
        newly = waiting if forced else waiting - before
        table.waiting = sorted(waiting)
        if newly:  # a new decision is awaited: its clock starts, old votes are void
            table.turn_started = self.clock()
            table.votes = {}
            table.limit_passed = False
        at = self._at(table, channel.channel_id, lang, game)
        names = self._names(table)
        lines = [line for line in lines if line]
        if game.is_over:
            await self.store.archive(
                channel,
                loaded.record.version,
                data=table.model_dump_json(),
                cancel_deadlines=DEADLINE_KINDS,
            )
            lines.append(game_module.final_text(at, game, False))
            image = await self._draw(lambda: game_module.final_image(at, game, False))
            return Reply(
                public=[Message(" ".join(lines), image=image, image_name="final.png", names=names)]
            )
        # Everything the reply needs from Redis is read before the save, and the next turn's
        # deadlines go in the save itself: once the move is stored, nothing else can fail.
        chat = await self.store.chat_settings(channel)
        await self._save(channel, loaded, self._turn_deadlines(table))
        lines.append(game_module.next_text(at, game))
        told = {w.split(" ", 1)[0] for w in newly}
        if not forced:
            told.discard(actor_seat or "")
        # The images are drawn side by side: Pillow releases the GIL for most of the work.
        seats = [s for s in self._waiting_seats(game) if s in told]
        image, notices, own = await asyncio.gather(
            self._draw(lambda: game_module.table_image(at, game) if drawn else None),
            self._notices(at, table, game, chat, seats),
            self._own(game_module, at, game, None if actor_seat in told else actor_seat),
        )
        reply = Reply(public=[Message(" ".join(lines), image=image, names=names)], direct=notices)
        reply.private.extend(own)
        return reply

    async def _own(
        self, game_module: GameModule, at: At, game: Any, seat: str | None
    ) -> list[Message]:
        """For the seat that acted: its private news, and its next choice if it acts again."""
        if seat is None or game.is_over:
            return []
        out: list[Message] = await self._draw(lambda: game_module.after_own(at, game, seat))
        if seat in self._waiting_seats(game):
            out.append(await self._draw(lambda: game_module.prompt(at, game, seat, False)))
        return out

    async def _notices(
        self, at: At, table: Table, game: Any, chat: ChatSettings, seats: list[str]
    ) -> list[Direct]:
        """Private turn notices for `seats`, who must now decide (if they want notices)."""
        out = []
        for seat in seats:
            if seat not in at.users:  # a computer player's
                continue
            user = table.user_of(seat).user_id
            if not chat.notify_enabled(user):
                continue
            message = await self._draw(partial(table.module.prompt, at, game, seat, False))
            out.append(Direct(user, message, turn_notice=True))
        return out

    # ------------------------------------------------------------------ looking
    async def _hand(self, actor: Actor, args: list[str], lang: str) -> Reply:
        loaded = await self._need(actor, lang)
        game, seat = self._seated(loaded, actor, lang)
        at = self._at(loaded.table, actor.channel_id, lang, game)
        game_module = loaded.table.module
        if seat in self._waiting_seats(game):
            message = await self._draw(lambda: game_module.prompt(at, game, seat, False))
        else:
            message = await self._draw(lambda: game_module.private(at, game, seat))
        return Reply(private=[message])

    async def _board(self, actor: Actor, args: list[str], lang: str) -> Reply:
        channel = Channel.of(actor.platform, actor.channel_id)
        loaded = await self._load(channel)
        if loaded is None:
            ended = await self._ended(channel)
            if ended is None:
                raise Refused(tr(lang, "There is no table here. Open one with /fc new."))
            return await self._final(channel, ended.table, ended.table.load_game(), lang)
        table = loaded.table
        if not table.started:
            return await self._status(actor, args, lang)
        game = self._game_of(loaded, lang)
        at = self._at(table, actor.channel_id, lang, game)
        image = await self._draw(lambda: table.module.table_image(at, game))
        text = table.module.status_text(at, game, self._waited(table, lang))
        return Reply(public=[Message(text, image=image, names=self._names(table))])

    def _waited(self, table: Table, lang: str) -> str:
        return duration_text(self.clock() - table.turn_started, lang)

    async def _status(self, actor: Actor, args: list[str], lang: str) -> Reply:
        loaded = await self._need(actor, lang)
        table = loaded.table
        if not table.started:
            names = ", ".join(s.name for s in table.seats)
            text = tr(
                lang,
                "Waiting for {creator} to start ({n}/{high}): {names}.",
                creator=self._creator_name(table),
                n=len(table.seats),
                high=table.module.max_players,
                names=names,
            )
            return Reply(private=[Message(text)])
        game = self._game_of(loaded, lang)
        at = self._at(table, actor.channel_id, lang, game)
        return Reply(
            private=[Message(table.module.status_text(at, game, self._waited(table, lang)))]
        )

    async def _here(self, actor: Actor) -> GameModule:
        """The game of the table in the actor's channel, else the default one."""
        if not actor.private:
            with contextlib.suppress(StoreUnavailable, Refused):
                loaded = await self._load(Channel.of(actor.platform, actor.channel_id))
                if loaded is not None:
                    return loaded.table.module
        return module(DEFAULT)

    async def _rules(self, actor: Actor, args: list[str], lang: str) -> Reply:
        chosen = by_word(args[0]) if args else None
        game_module = chosen or await self._here(actor)
        return Reply(private=[Message("\n".join(tr(lang, line) for line in game_module.rules))])

    async def _help(self, actor: Actor, args: list[str], lang: str) -> Reply:
        chosen = by_word(args[0]) if args else None
        game_module = chosen or await self._here(actor)
        lines = [tr(lang, line) for line in (*game_module.help, *COMMON_HELP)]
        if playable(game_module.key):
            lines += [tr(lang, line) for line in COMPUTER_HELP]
        others = [module(k) for k in MODULES if k != game_module.key]
        lines += [
            tr(
                lang,
                "new {word}: open a {game} table instead (help {word}: its commands)",
                word=other.words[0],
                game=tr(lang, other.title),
            )
            for other in others
        ]
        return Reply(private=[Message("\n".join(lines))])

    async def _games(self, actor: Actor, args: list[str], lang: str) -> Reply:
        channels = await self.store.user_games(actor.platform, actor.user_id)
        if not channels:
            return Reply(private=[Message(tr(lang, "You have no game under way."))])
        lines = []
        for channel in channels:
            try:
                loaded = await self._load(channel)
            except Refused:
                continue
            if loaded is None:
                continue
            table = loaded.table
            title = tr(lang, table.module.title)
            if table.game is None:
                state = tr(lang, "waiting to start")
            else:
                game = table.load_game()
                waited = self._waiting_seats(game)
                if table.engine_seat(actor.user_id) in waited:
                    state = tr(lang, "your turn")
                else:
                    who = ", ".join(table.user_of(s).name for s in waited)
                    state = tr(lang, "{who} to play", who=who)
            lines.append(
                tr(lang, "Chat {id}: {state}", id=channel.channel_id, state=f"{title}, {state}")
            )
        return Reply(private=[Message("\n".join(lines))])

    # ------------------------------------------------------------------ settings
    async def _abort(self, actor: Actor, args: list[str], lang: str) -> Reply:
        loaded = await self._need(actor, lang)
        if actor.user_id != loaded.table.creator and not actor.is_admin:
            raise Refused(
                tr(
                    lang,
                    "Only {who}, who opened this table, or a channel admin can abort the game.",
                    who=self._creator_name(loaded.table),
                )
            )
        channel = Channel.of(actor.platform, actor.channel_id)
        await self.store.archive(channel, loaded.record.version, cancel_deadlines=DEADLINE_KINDS)
        text = tr(lang, "{who} aborted the game. The table is closed.", who=mention(actor.user_id))
        return Reply(public=[Message(text, names={actor.user_id: actor.name})])

    async def _lang(self, actor: Actor, args: list[str], lang: str) -> Reply:
        channel = Channel.of(actor.platform, actor.channel_id)
        if not args:
            options = ", ".join(f"{code} ({LANGUAGE_NAMES[code]})" for code in LANGUAGES)
            return Reply(
                private=[
                    Message(
                        tr(
                            lang,
                            "Language: {lang}. Choose with /fc lang <code>: {options}.",
                            lang=lang,
                            options=options,
                        )
                    )
                ]
            )
        code = args[0].lower()
        if code not in LANGUAGES:
            raise Refused(
                tr(lang, "Unknown language “{code}”. Choose en, fr, it or de.", code=code[:10])
            )
        await self.store.set_chat_language(channel, code)
        return Reply(public=[Message(tr(code, "This chat now plays in English."))])

    async def _notify(self, actor: Actor, args: list[str], lang: str) -> Reply:
        if not args or args[0].lower() not in ("on", "off"):
            raise Refused(tr(lang, "Use /fc notify on or /fc notify off."))
        enabled = args[0].lower() == "on"
        await self.store.set_notify(
            Channel.of(actor.platform, actor.channel_id), actor.user_id, enabled
        )
        if enabled:  # perhaps they opened their DMs: try again
            await self.store.clear_dms_closed(actor.platform, actor.user_id)
        text = (
            tr(lang, "You will get a private message when it is your turn here.")
            if enabled
            else tr(lang, "No more private turn messages for you here. /fc hand shows your tile.")
        )
        return Reply(private=[Message(text)])

    # ------------------------------------------------------------------ time
    async def _fire(self, channel: Channel, kind: str) -> Reply:
        if kind == "bot":
            return await self._fire_bot(channel)
        loaded = await self._load(channel)
        if loaded is None or loaded.table.game is None:
            return Reply()
        lang = await self._channel_language(channel)
        table = loaded.table
        game_module = table.module
        game = table.load_game()
        if game.is_over:
            return Reply()
        due = self._turn_deadlines(table).get(kind)
        if due is None:
            return Reply()
        if self.clock() < due:  # not yet due for the stored turn: set it for that turn
            await self.store.schedule(channel, kind, due)
            return Reply()
        at = self._at(table, channel.channel_id, lang, game)
        waiting = game.to_act
        if kind == "remind":
            chat = await self.store.chat_settings(channel)
            reply = Reply()
            for turn in waiting:
                user = at.users.get(turn.seat)
                if user is not None and chat.notify_enabled(user):
                    message = await self._draw(
                        partial(game_module.prompt, at, game, turn.seat, True)
                    )
                    reply.direct.append(Direct(user, message))
            await self.store.schedule(
                channel, "remind", self.clock() + self.settings.reminder_after.total_seconds()
            )
            return reply
        if kind == "limit":
            if all(game_module.on_limit(t.kind) == "default" for t in waiting):
                return await self._defaults(channel, loaded, game, lang)
            table.limit_passed = True
            try:
                await self._save(channel, loaded, {"limit": None})
            except Conflict:
                return Reply()
            who = ", ".join(at.mention(s) for s in self._waiting_seats(game))
            duration = duration_text(self.settings.turn_limit.total_seconds(), lang)
            if playable(table.kind):
                text = tr(
                    lang,
                    "{who} has had the turn for more than {duration}. The other players may "
                    "/fc vote skip (a move is played for them), /fc vote bot (a computer player "
                    "plays for them until they are back) or /fc vote end (the game ends now).",
                    who=who,
                    duration=duration,
                )
            else:
                text = tr(
                    lang,
                    "{who} has had the turn for more than {duration}. The other players may "
                    "/fc vote skip (a move is played for them) or /fc vote end (the game ends "
                    "now).",
                    who=who,
                    duration=duration,
                )
            return Reply(public=[Message(text, names=self._names(table))])
        return Reply()

    async def _fire_bot(self, channel: Channel) -> Reply:
        """A computer player's turn: its decision is searched from its seat's view alone, away
        from the event loop, then played like a person's press. If the table was saved
        meanwhile it is decided again, unless the game went on (the save that moved it set its
        own deadlines); if it keeps changing, the deadline is set anew."""
        count: int | None = None
        for _ in range(3):
            loaded = await self._load(channel)
            if loaded is None or loaded.table.game is None:
                return Reply()
            table = loaded.table
            game = table.load_game()
            computers = set(table.computer_seats())
            turns = [t for t in game.to_act if t.seat in computers]
            if game.is_over or not turns or count not in (None, table.module.count(game)):
                return Reply()
            count = table.module.count(game)
            seat = turns[0].seat
            level = table.user_of(seat).bot or DEFAULT_LEVEL
            view = game_ai(table.kind).view(game, seat)
            seed = game.seed + count  # the same decision if made again
            try:
                action = await self.computer.decide(table.kind, level, view, seat, seed)
            except Exception:  # not even the greedy move: the table's own stand-in then
                log.exception("no computer decision in %s", channel)
                action = table.module.stand_in(game, seat, random.Random(seed))
            lang = await self._channel_language(channel)
            try:
                return await self._computer_plays(channel, loaded, game, seat, action, lang)
            except Conflict:
                continue
        await self.store.schedule(
            channel, "bot", self.clock() + self.settings.bot_pause.total_seconds()
        )
        return Reply()

    async def _computer_plays(
        self, channel: Channel, loaded: Loaded, game: Any, seat: str, action: Any, lang: str
    ) -> Reply:
        """A computer player's action, told to the table as a person's would be."""
        game_module = loaded.table.module
        at = self._at(loaded.table, channel.channel_id, lang, game)
        try:
            result = game.play(seat, action)
        except IllegalMove:  # never expected: the table's own stand-in then
            log.exception("a computer player's action was refused in %s", channel)
            rng = random.Random(game.seed + at.count)
            result = game.play(seat, game_module.stand_in(game, seat, rng))
        lines = game_module.announce(at, game, [result])
        lines += game_module.after_play(at, game)
        forced = game_module.count(game) > at.count + 1
        return await self._after_action(channel, loaded, game, lines, lang, [result], forced=forced)

    async def _back(self, actor: Actor, args: list[str], lang: str) -> Reply:
        """A person whose seat a computer played (`/fc vote bot`) takes it back."""
        loaded = await self._need(actor, lang)
        game, engine_seat = self._seated(loaded, actor, lang)
        table = loaded.table
        seat = table.user_of(engine_seat)
        if not seat.away:
            raise Refused(tr(lang, "You are playing your seat already."))
        seat.away = False
        mine = engine_seat in self._waiting_seats(game)
        if mine:  # the computer has not played this turn yet: it is the person's again
            table.turn_started = self.clock()
            table.limit_passed = False
            table.votes = {}
        channel = Channel.of(actor.platform, actor.channel_id)
        await self._save(channel, loaded, self._turn_deadlines(table))
        text = tr(lang, "{who} is back and plays their own seat again.", who=mention(actor.user_id))
        reply = Reply(public=[Message(text, names=self._names(table))])
        if mine:
            at = self._at(table, actor.channel_id, lang, game)
            reply.private.append(
                await self._draw(partial(table.module.prompt, at, game, engine_seat, False))
            )
        return reply

    async def _defaults(self, channel: Channel, loaded: Loaded, game: Any, lang: str) -> Reply:
        """The turn limit made the waited-for decisions for their seats (as the game says)."""
        table = loaded.table
        game_module = table.module
        at = self._at(table, channel.channel_id, lang, game)
        lines: list[str] = []
        results: list[Any] = []
        privately: list[Direct] = []
        count = game_module.count(game)
        for turn in game.to_act:
            rng = random.Random(game.seed + game_module.count(game))
            action = game_module.stand_in(game, turn.seat, rng)
            result = game.play(turn.seat, action)
            results.append(result)
            lines.append(game_module.default_text(at, game, turn.seat, turn.kind))
            lines += game_module.announce(at, game, [result])
            news = game_module.after_own(at, game, turn.seat)
            user = at.users.get(turn.seat)
            privately += [Direct(user, message) for message in news if user is not None]
        lines += game_module.after_play(at, game)
        try:
            forced = game_module.count(game) > count + len(results)
            reply = await self._after_action(
                channel, loaded, game, lines, lang, results, forced=forced
            )
        except Conflict:
            return Reply()
        reply.direct = privately + reply.direct
        return reply

    async def _vote(self, actor: Actor, args: list[str], lang: str) -> Reply:
        loaded = await self._need(actor, lang)
        table = loaded.table
        game = self._game_of(loaded, lang)
        choice = args[0].lower() if args else ""
        if choice not in ("skip", "end", "bot"):
            raise Refused(tr(lang, "Vote with /fc vote skip, /fc vote bot or /fc vote end."))
        seat = table.engine_seat(actor.user_id)
        if seat is None:
            raise Refused(tr(lang, "You are not playing at this table."))
        absent = self._waiting_seats(game)
        if game.is_over or seat in absent or table.user_of(seat).away:
            raise Refused(tr(lang, "Only the players waiting for the turn can vote."))
        if not table.limit_passed:
            raise Refused(tr(lang, "Votes open when a turn runs past the time limit."))
        if choice == "bot" and not playable(table.kind):
            raise Refused(self._no_computers(table.module, lang))
        table.votes[actor.user_id] = choice  # type: ignore[assignment]
        # Computer players never vote, nor people whose seat a computer plays.
        voters = sum(1 for s in table.users() if s not in absent)
        count = sum(1 for v in table.votes.values() if v == choice)
        channel = Channel.of(actor.platform, actor.channel_id)
        if count * 2 <= voters:
            await self._save(channel, loaded)
            text = tr(
                lang,
                "{who} votes to {choice} ({count}/{voters}).",
                who=actor.name,
                choice=choice,
                count=count,
                voters=voters,
            )
            if choice == "bot":
                text = tr(
                    lang,
                    "{who} votes to let a computer player play for the late player "
                    "({count}/{voters}).",
                    who=actor.name,
                    count=count,
                    voters=voters,
                )
            return Reply(public=[Message(text)])
        if choice == "end":
            table.voted_end = True
            await self.store.archive(
                channel,
                loaded.record.version,
                data=table.model_dump_json(),
                cancel_deadlines=DEADLINE_KINDS,
            )
            return await self._final(channel, table, game, lang)
        if choice == "bot":
            return await self._hand_over(channel, loaded, absent, lang)
        game_module = table.module
        at = self._at(table, actor.channel_id, lang, game)
        names = ", ".join(table.user_of(s).name for s in absent)
        lines = [tr(lang, "The players voted to skip: a move is played for {who}.", who=names)]
        results: list[Any] = []
        count = game_module.count(game)
        for turn in game.to_act:
            rng = random.Random(game.seed + game_module.count(game))
            results.append(game.play(turn.seat, game_module.stand_in(game, turn.seat, rng)))
            lines += game_module.announce(at, game, results[-1:])
        lines += game_module.after_play(at, game)
        forced = game_module.count(game) > count + len(results)
        return await self._after_action(channel, loaded, game, lines, lang, results, forced=forced)

    async def _hand_over(
        self, channel: Channel, loaded: Loaded, absent: list[str], lang: str
    ) -> Reply:
        """The players voted that a computer player takes the absent seats until their people
        come back (`/fc back`); it acts after the usual pause, as a seated one does."""
        table = loaded.table
        people = [table.user_of(s) for s in absent]
        for seat in people:
            seat.away = True
        table.votes = {}
        table.limit_passed = False
        await self._save(channel, loaded, self._turn_deadlines(table))
        text = tr(
            lang,
            "The players voted: a computer player ({level}) plays for {who} until they come "
            "back with /fc back.",
            level=tr(lang, DEFAULT_LEVEL),
            who=", ".join(mention(s.user_id) for s in people),
        )
        return Reply(public=[Message(text, names=self._names(table))])

    async def _final(self, channel: Channel, table: Table, game: Any, lang: str) -> Reply:
        """How a game ended, with its last table: played out, or ended by a vote."""
        game_module = table.module
        at = self._at(table, channel.channel_id, lang, game)
        text = game_module.final_text(at, game, table.voted_end)
        image = await self._draw(lambda: game_module.final_image(at, game, table.voted_end))
        message = Message(text, image=image, image_name="final.png", names=self._names(table))
        return Reply(public=[message])
