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

import render
from engine.forbidden_city import (
    DISCARD,
    Game,
    IllegalMove,
    Place,
)
from engine.forbidden_city.players import choose_greedy
from engine.forbidden_city.record import CorruptRecord

from .actor import Actor
from .config import Settings
from .durations import duration_text
from .i18n import LANGUAGE_NAMES, LANGUAGES, normalize, tr, translations
from .names import without_controls
from .replies import Button, Direct, Message, Reply, Style, mention
from .spot_menu import page_count, spot_menu
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
from .summaries import HELP, RULES, describe, final_text, status_text
from .table import MAX_SEATS, MIN_SEATS, Seat, Table
from .targets import CELL, Refused, explain, target

COLOURS_BY_COUNT = {2: ["purple", "yellow"], 3: ["purple", "yellow", "red"]}
DEADLINE_KINDS = ("remind", "limit")
# After a platform refuses a private message to someone, the bot stops trying for this long,
# or until they use the bot privately or turn notices on again.
DMS_RETRY_AFTER = timedelta(days=1)
log = logging.getLogger(__name__)
_DATA = re.compile(r"^fc:([a-z]{1,3}):(-?[0-9A-Za-z_]{1,24})(?::(\d{1,4}))?(?::([-0-9,@]{1,16}))?$")


@dataclass(slots=True)
class Loaded:
    record: GameRecord
    table: Table


Handler = Callable[[Actor, list[str], str], Awaitable[Reply]]


def _rotation_button(
    lang: str, channel: str, count: int, x: int, y: int, turn: int, style: Style = "secondary"
) -> Button:
    """Shows the tile at x,y turned `turn` quarter turns, as a preview."""
    return Button(
        tr(lang, "Rotation {r}", r=turn),
        f"fc:pv:{channel}:{count}:{x},{y}@{turn}",
        style,
    )


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
        kind, channel_id, count, move = match[1], match[2], match[3], match[4]
        where = replace(actor, channel_id=channel_id, private=False)
        lang = await self._language_or_default(where)
        reply = Reply.error(tr(lang, "This button is not valid."))
        if kind in ("j", "st") and channel_id != actor.channel_id:
            pass  # lobby buttons only work where they were posted
        elif kind == "j":
            reply = await self._guard(lang, self._join(where, [], lang))
        elif kind == "st":
            reply = await self._guard(lang, self._start(where, [], lang))
        elif kind in ("sp", "pg", "pv", "ok") and count is not None and move is not None:
            reply = await self._guard(lang, self._pressed_move(where, kind, int(count), move, lang))
        reply.channel_id = channel_id
        return reply

    async def complete(self, actor: Actor, text: str) -> list[tuple[str, str]]:
        """Choices for the spot of `play`, for platforms with autocomplete."""
        try:
            if actor.private:  # the same game `play` would be about there
                actor = await self._home(actor, str(self.settings.default_language.value))
            loaded = await self._load(Channel.of(actor.platform, actor.channel_id))
        except (StoreUnavailable, Refused):
            return []
        if loaded is None or loaded.table.game is None:
            return []
        game = loaded.table.load_game()
        if game.is_over or loaded.table.colour_of(actor.user_id) != game.current:
            return []
        typed = text.split()[-1] if text.split()[1:] else ""
        out = []
        for spot in render.spots(game):
            turns = "/".join(str(r) for r in spot.rotations)
            label = f"{spot.number}: {spot.x},{spot.y} ({turns})"
            if not typed or str(spot.number).startswith(typed) or f"{spot.x},{spot.y}" == typed:
                out.append((label, str(spot.number)))
        return out[:25]

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
            if platform == "telegram" and link:
                text = tr(
                    lang,
                    "{who}, I cannot write to you privately. Open {link} and press Start, so I "
                    "can send you your tile and tell you when it is your turn.",
                    who=mention(user_id),
                    link=link,
                )
            elif platform == "telegram":
                text = tr(
                    lang,
                    "{who}, I cannot write to you privately. Open a private chat with me and "
                    "press Start, so I can send you your tile and tell you when it is your turn.",
                    who=mention(user_id),
                )
            else:
                text = tr(
                    lang,
                    "{who}, I cannot send you direct messages. Allow direct messages from "
                    "server members, or use /fc hand here to see your tile when it is your turn.",
                    who=mention(user_id),
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
                claimed = await self.store.lease(deadline, self.clock() + CLAIM_LEASE)
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
        except IllegalMove as illegal:
            return Reply.error(explain(illegal, lang))
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
        again at start-up if missing. A limit already announced is not armed again."""
        started = table.turn_started
        return {
            "remind": started + self.settings.reminder_after.total_seconds(),
            "limit": None
            if table.limit_passed
            else started + self.settings.turn_limit.total_seconds(),
        }

    async def _png(self, lang: str, make: Callable[..., bytes], *args: object) -> bytes:
        """Render in `lang`, off the event loop, so one big image never stalls other games."""
        loop = asyncio.get_running_loop()
        words = translations(lang).gettext
        return await loop.run_in_executor(self._executor, lambda: make(*args, tr=words))

    @staticmethod
    def _creator_name(table: Table) -> str:
        seat = table.seat_of(table.creator)
        return seat.name if seat is not None else table.creator

    @staticmethod
    def _names(table: Table) -> dict[str, str]:
        return {s.user_id: s.name for s in table.seats}

    @staticmethod
    def _game_of(loaded: Loaded, lang: str) -> Game:
        if loaded.table.game is None:
            raise Refused(tr(lang, "The game has not started yet."))
        try:
            return loaded.table.load_game()
        except CorruptRecord as err:
            raise Refused(f"stored game unreadable: {err}") from None

    # ------------------------------------------------------------------ lobby
    def _lobby_buttons(self, channel_id: str, lang: str) -> list[list[Button]]:
        return [
            [
                Button(tr(lang, "Join"), f"fc:j:{channel_id}", "primary"),
                Button(tr(lang, "Start"), f"fc:st:{channel_id}", "success"),
            ]
        ]

    async def _new(self, actor: Actor, args: list[str], lang: str) -> Reply:
        if actor.private:
            raise Refused(tr(lang, "Open a table in a group or a server channel, not here."))
        side = args[0].lower() if args else "beginner"
        if side not in ("beginner", "advanced"):
            raise Refused(tr(lang, "The start side is “beginner” or “advanced”."))
        channel = Channel.of(actor.platform, actor.channel_id)
        table = Table(
            creator=actor.user_id,
            side="advanced" if side == "advanced" else "beginner",
            seats=[Seat(user_id=actor.user_id, name=actor.name)],
        )
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
        side_name = tr(lang, "beginner") if side == "beginner" else tr(lang, "advanced")
        text = tr(
            lang,
            "{who} opens a Forbidden City table ({side} side). Join with /fc join: 2 to 4 "
            "players. {who} starts the game with /fc start.",
            who=mention(actor.user_id),
            side=side_name,
        )
        return Reply(
            public=[
                Message(
                    text,
                    buttons=self._lobby_buttons(actor.channel_id, lang),
                    names={actor.user_id: actor.name},
                )
            ]
        )

    async def _join(self, actor: Actor, args: list[str], lang: str) -> Reply:
        loaded = await self._need(actor, lang)
        table = loaded.table
        if table.started:
            raise Refused(tr(lang, "The game has already started."))
        if table.seat_of(actor.user_id):
            raise Refused(tr(lang, "You are already at the table."))
        if len(table.seats) >= MAX_SEATS:
            raise Refused(tr(lang, "The table is full (4 players)."))
        table.seats.append(Seat(user_id=actor.user_id, name=actor.name))
        await self._save(Channel.of(actor.platform, actor.channel_id), loaded)
        text = tr(
            lang,
            "{who} joins the table ({n}/4). {creator} starts the game with /fc start.",
            who=mention(actor.user_id),
            n=len(table.seats),
            creator=self._creator_name(table),
        )
        return Reply(
            public=[
                Message(
                    text,
                    buttons=self._lobby_buttons(actor.channel_id, lang),
                    names=self._names(table),
                )
            ]
        )

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
        if not table.seats:
            await self.store.archive(channel, loaded.record.version)
            return Reply(public=[Message(tr(lang, "Everybody left: the table is closed."))])
        text = tr(
            lang, "{who} leaves the table ({n}/4).", who=mention(actor.user_id), n=len(table.seats)
        )
        if table.creator == actor.user_id:
            table.creator = table.seats[0].user_id
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
        if len(table.seats) < MIN_SEATS:
            raise Refused(tr(lang, "At least 2 players are needed to start."))
        seed = self._seeds()
        order = list(table.seats)
        random.Random(seed).shuffle(order)
        colours = COLOURS_BY_COUNT.get(len(order), ["purple", "yellow", "red", "blue"])
        game = Game(colours, table.side, seed=seed)
        table.seats = order
        table.keep(game)
        table.turn_started = self.clock()
        channel = Channel.of(actor.platform, actor.channel_id)
        chat = await self.store.chat_settings(channel)
        await self._save(channel, loaded, self._turn_deadlines(table))
        seats = ", ".join(
            f"{tr(lang, colour)} {mention(seat.user_id)}"
            for colour, seat in zip(colours, order, strict=True)
        )
        text = tr(
            lang,
            "The game begins! Seats in turn order: {seats}. {first} plays first.",
            seats=seats,
            first=mention(order[0].user_id),
        )
        image = await self._png(lang, render.table_png, game, table.names())
        reply = Reply(public=[Message(text, image=image, names=self._names(table))])
        reply.direct.extend(await self._turn_notice(channel, table, game, lang, chat))
        return reply

    # ------------------------------------------------------------------ playing
    def _seated(self, loaded: Loaded, actor: Actor, lang: str) -> tuple[Game, str]:
        """The game under way and the actor's seat colour in it."""
        game = self._game_of(loaded, lang)
        colour = loaded.table.colour_of(actor.user_id)
        if colour is None:
            raise Refused(tr(lang, "You are not playing at this table."))
        if game.is_over:
            raise Refused(tr(lang, "The game is over."))
        return game, colour

    def _playing(self, loaded: Loaded, actor: Actor, lang: str) -> Game:
        game, colour = self._seated(loaded, actor, lang)
        if game.current != colour:
            raise Refused(
                tr(
                    lang,
                    "It is {who}'s turn, not yours.",
                    who=loaded.table.user_of(game.current).name,
                )
            )
        return game

    async def _play(self, actor: Actor, args: list[str], lang: str) -> Reply:
        loaded = await self._need(actor, lang)
        game = self._playing(loaded, actor, lang)
        move = target(game, args, lang)
        return await self._apply(actor, loaded, game, move, lang)

    async def _apply(
        self, actor: Actor, loaded: Loaded, game: Game, move: Place, lang: str
    ) -> Reply:
        channel = Channel.of(actor.platform, actor.channel_id)
        table = loaded.table
        lines = [describe(table, game.play(move), lang)]
        lines += self._forced_discards(table, game, lang)
        table.keep(game)
        table.turn_started = self.clock()
        table.votes = {}
        table.limit_passed = False
        return await self._after_move(
            channel, loaded, game, lines, lang, loaded.table.colour_of(actor.user_id)
        )

    def _forced_discards(self, table: Table, game: Game, lang: str) -> list[str]:
        """Set aside, for the players to come, tiles that fit nowhere (docs/rules-notes.md)."""
        lines = []
        while not game.is_over and game.legal_moves() == [DISCARD]:
            seat = game.current
            game.play(DISCARD)
            lines.append(
                tr(
                    lang,
                    "{who}'s tile fits nowhere: it is shown and set aside.",
                    who=mention(table.user_of(seat).user_id),
                )
            )
        return lines

    async def _after_move(
        self,
        channel: Channel,
        loaded: Loaded,
        game: Game,
        lines: list[str],
        lang: str,
        mover: str | None = None,
    ) -> Reply:
        table = loaded.table
        names = self._names(table)
        if game.is_over:
            await self.store.archive(
                channel,
                loaded.record.version,
                data=table.model_dump_json(),
                cancel_deadlines=DEADLINE_KINDS,
            )
            lines.append(final_text(table, game, lang))
            image = await self._png(lang, render.end_png, game, table.names())
            return Reply(
                public=[Message(" ".join(lines), image=image, image_name="final.png", names=names)]
            )
        # Everything the reply needs from Redis is read before the save, and the next turn's
        # deadlines go in the save itself: once the move is stored, nothing else can fail.
        chat = await self.store.chat_settings(channel)
        await self._save(channel, loaded, self._turn_deadlines(table))
        lines.append(tr(lang, "Next: {who}.", who=mention(table.user_of(game.current).user_id)))
        # The images are drawn side by side: Pillow releases the GIL for most of the work.
        image, notice, new_tile = await asyncio.gather(
            self._png(lang, render.table_png, game, table.names()),
            self._turn_notice(channel, table, game, lang, chat),
            self._new_tile(table, game, lang, mover),
        )
        reply = Reply(public=[Message(" ".join(lines), image=image, names=names)], direct=notice)
        reply.private.extend(new_tile)
        return reply

    async def _new_tile(
        self, table: Table, game: Game, lang: str, mover: str | None
    ) -> list[Message]:
        """The tile the mover just drew, for them alone to plan with."""
        if mover is None or mover == game.current:
            return []
        image = await self._png(lang, render.hand_png, game, mover, table.names())
        return [Message(tr(lang, "Your new tile."), image=image, image_name="your-tile.png")]

    async def _private_turn(
        self, channel: Channel, table: Table, game: Game, lang: str, text: str
    ) -> Message:
        image = await self._png(lang, render.private_png, game, game.current, table.names())
        message = spot_menu(channel.channel_id, game, lang, 0)
        message.text, message.image, message.image_name = text, image, "your-turn.png"
        return message

    async def _turn_notice(
        self, channel: Channel, table: Table, game: Game, lang: str, chat: ChatSettings
    ) -> list[Direct]:
        seat = table.user_of(game.current)
        if not chat.notify_enabled(seat.user_id):
            return []
        text = tr(
            lang,
            "Your turn in Forbidden City. Your tile and the numbered spots where it fits are "
            "below: choose a spot, or type /fc play <spot> <rotation> in the game's chat.",
        )
        message = await self._private_turn(channel, table, game, lang, text)
        return [Direct(seat.user_id, message, turn_notice=True)]

    async def _pressed_move(
        self, actor: Actor, kind: str, count: int, data: str, lang: str
    ) -> Reply:
        loaded = await self._need(actor, lang)
        game = self._playing(loaded, actor, lang)
        if count != len(game.moves):
            raise Refused(tr(lang, "This button is out of date: the table has changed since."))
        channel = actor.channel_id
        if kind == "pg":
            if not data.isdigit() or not 0 <= int(data) < page_count(game):
                raise Refused(tr(lang, "This button is not valid."))
            return Reply(private=[spot_menu(channel, game, lang, int(data))])
        if kind == "sp":
            if not data.isdigit():
                raise Refused(tr(lang, "This button is not valid."))
            spot = next((s for s in render.spots(game) if s.number == int(data)), None)
            if spot is None:
                raise Refused(tr(lang, "This button is not valid."))
            buttons = [
                _rotation_button(lang, channel, count, spot.x, spot.y, r, "primary")
                for r in spot.rotations
            ]
            text = tr(
                lang,
                "Spot {n} ({x},{y}). Choose a rotation to see it on the table.",
                n=spot.number,
                x=spot.x,
                y=spot.y,
            )
            return Reply(private=[Message(text, buttons=[buttons])])
        match = CELL.match(data)
        if match is None or match[3] is None:
            raise Refused(tr(lang, "This button is not valid."))
        move = target(game, [f"{match[1]},{match[2]}", match[3]], lang)
        if kind == "ok":
            return await self._apply(actor, loaded, game, move, lang)
        others = next(
            (s.rotations for s in render.spots(game) if (s.x, s.y) == (move.x, move.y)), ()
        )
        game.play(move)  # this copy is never saved: it only draws the preview
        image = await self._png(lang, render.preview_png, game, loaded.table.names())
        row = [
            Button(
                tr(lang, "Place it here"),
                f"fc:ok:{channel}:{count}:{move.x},{move.y}@{move.rotation}",
                "success",
            )
        ]
        row += [
            _rotation_button(lang, channel, count, move.x, move.y, r)
            for r in others
            if r != move.rotation
        ]
        text = tr(
            lang,
            "Preview: your tile at {x},{y}, rotation {r}. Nothing is played until you confirm.",
            x=move.x,
            y=move.y,
            r=move.rotation,
        )
        return Reply(private=[Message(text, image=image, image_name="preview.png", buttons=[row])])

    # ------------------------------------------------------------------ looking
    async def _hand(self, actor: Actor, args: list[str], lang: str) -> Reply:
        loaded = await self._need(actor, lang)
        game, colour = self._seated(loaded, actor, lang)
        channel = Channel.of(actor.platform, actor.channel_id)
        if game.current == colour:
            text = tr(lang, "Your tile, and the numbered spots where it fits.")
            return Reply(
                private=[await self._private_turn(channel, loaded.table, game, lang, text)]
            )
        image = await self._png(lang, render.hand_png, game, colour, loaded.table.names())
        text = tr(
            lang,
            "Your tile. It is {who}'s turn; you will be told when it is yours.",
            who=loaded.table.user_of(game.current).name,
        )
        return Reply(private=[Message(text, image=image, image_name="your-tile.png")])

    async def _board(self, actor: Actor, args: list[str], lang: str) -> Reply:
        channel = Channel.of(actor.platform, actor.channel_id)
        loaded = await self._load(channel)
        if loaded is None:
            ended = await self._ended(channel)
            if ended is None:
                raise Refused(tr(lang, "There is no table here. Open one with /fc new."))
            return await self._final(ended.table, ended.table.load_game(), lang)
        table = loaded.table
        if not table.started:
            return await self._status(actor, args, lang)
        game = self._game_of(loaded, lang)
        image = await self._png(lang, render.table_png, game, table.names())
        text = status_text(table, game, lang, self.clock())
        return Reply(public=[Message(text, image=image, names=self._names(table))])

    async def _status(self, actor: Actor, args: list[str], lang: str) -> Reply:
        loaded = await self._need(actor, lang)
        table = loaded.table
        if not table.started:
            names = ", ".join(s.name for s in table.seats)
            text = tr(
                lang,
                "Waiting for {creator} to start ({n}/4): {names}.",
                creator=self._creator_name(table),
                n=len(table.seats),
                names=names,
            )
            return Reply(private=[Message(text)])
        game = self._game_of(loaded, lang)
        return Reply(private=[Message(status_text(table, game, lang, self.clock()))])

    async def _rules(self, actor: Actor, args: list[str], lang: str) -> Reply:
        return Reply(private=[Message("\n".join(tr(lang, line) for line in RULES))])

    async def _help(self, actor: Actor, args: list[str], lang: str) -> Reply:
        return Reply(private=[Message("\n".join(tr(lang, line) for line in HELP))])

    async def _games(self, actor: Actor, args: list[str], lang: str) -> Reply:
        channels = await self.store.user_games(actor.platform, actor.user_id)
        if not channels:
            return Reply(private=[Message(tr(lang, "You have no game under way."))])
        lines = []
        for channel in channels:
            loaded = await self._load(channel)
            if loaded is None:
                continue
            table = loaded.table
            if table.game is None:
                state = tr(lang, "waiting to start")
            else:
                game = table.load_game()
                if table.colour_of(actor.user_id) == game.current:
                    state = tr(lang, "your turn")
                else:
                    state = tr(lang, "{who} to play", who=table.user_of(game.current).name)
            lines.append(tr(lang, "Chat {id}: {state}", id=channel.channel_id, state=state))
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
        loaded = await self._load(channel)
        if loaded is None or loaded.table.game is None:
            return Reply()
        lang = await self._channel_language(channel)
        table = loaded.table
        game = table.load_game()
        if game.is_over:
            return Reply()
        due = self._turn_deadlines(table).get(kind)
        if due is None:
            return Reply()
        if self.clock() < due:  # not yet due for the stored turn: set it for that turn
            await self.store.schedule(channel, kind, due)
            return Reply()
        seat = table.user_of(game.current)
        if kind == "remind":
            chat = await self.store.chat_settings(channel)
            reply = Reply()
            if chat.notify_enabled(seat.user_id):
                text = tr(lang, "A gentle reminder: it is still your turn in Forbidden City.")
                message = await self._private_turn(channel, table, game, lang, text)
                reply = Reply(direct=[Direct(seat.user_id, message)])
            await self.store.schedule(
                channel, "remind", self.clock() + self.settings.reminder_after.total_seconds()
            )
            return reply
        if kind == "limit":
            table.limit_passed = True
            try:
                await self._save(channel, loaded, {"limit": None})
            except Conflict:
                return Reply()
            text = tr(
                lang,
                "{who} has had the turn for more than {duration}. The other players may "
                "/fc vote skip (a move is played for them) or /fc vote end (the game ends now).",
                who=mention(seat.user_id),
                duration=duration_text(self.settings.turn_limit.total_seconds(), lang),
            )
            return Reply(public=[Message(text, names=self._names(table))])
        return Reply()

    async def _vote(self, actor: Actor, args: list[str], lang: str) -> Reply:
        loaded = await self._need(actor, lang)
        table = loaded.table
        game = self._game_of(loaded, lang)
        choice = args[0].lower() if args else ""
        if choice not in ("skip", "end"):
            raise Refused(tr(lang, "Vote with /fc vote skip or /fc vote end."))
        colour = table.colour_of(actor.user_id)
        if colour is None:
            raise Refused(tr(lang, "You are not playing at this table."))
        if game.is_over or colour == game.current:
            raise Refused(tr(lang, "Only the players waiting for the turn can vote."))
        if not table.limit_passed:
            raise Refused(tr(lang, "Votes open when a turn runs past the time limit."))
        table.votes[actor.user_id] = choice  # type: ignore[assignment]
        voters = len(game.players) - 1
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
            return Reply(public=[Message(text)])
        if choice == "end":
            table.voted_end = True
            await self.store.archive(
                channel,
                loaded.record.version,
                data=table.model_dump_json(),
                cancel_deadlines=DEADLINE_KINDS,
            )
            return await self._final(table, game, lang)
        absent = table.user_of(game.current)
        move = choose_greedy(game, random.Random(game.seed + len(game.moves)))
        assert isinstance(move, Place)
        line = tr(lang, "The players voted to skip: a move is played for {who}.", who=absent.name)
        lines = [line, describe(table, game.play(move), lang)]
        lines += self._forced_discards(table, game, lang)
        table.keep(game)
        table.turn_started = self.clock()
        table.votes = {}
        table.limit_passed = False
        return await self._after_move(channel, loaded, game, lines, lang)

    async def _final(self, table: Table, game: Game, lang: str) -> Reply:
        """How a game ended, with its last table: played out, or ended by a vote."""
        if game.is_over:
            text = final_text(table, game, lang)
            image = await self._png(lang, render.end_png, game, table.names())
        else:
            best = max(game.scores.values())
            ranking = sorted(game.players, key=lambda c: -game.scores[c])
            scores = ", ".join(f"{table.user_of(c).name} {game.scores[c]}" for c in ranking)
            winners = ", ".join(
                mention(table.user_of(c).user_id) for c in ranking if game.scores[c] == best
            )
            text = tr(
                lang,
                "The players voted to end the game. Coins: {scores}. Winner: {winners}.",
                scores=scores,
                winners=winners,
            )
            image = await self._png(lang, render.table_png, game, table.names())
        message = Message(text, image=image, image_name="final.png", names=self._names(table))
        return Reply(public=[message])
