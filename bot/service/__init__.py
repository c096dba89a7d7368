"""The game service: the one place that turns chat commands into engine moves and replies.

Adapters (Discord, Telegram, console) call `GameService`'s entry points (`command`, `press`,
`complete`, `dm_failed`, `dms_closed`, `dms_refused`, `fire_due`) and post the `Reply` they
get. Behind them the service is a package of small modules, each owning one job:

- `router`: command words and button kinds to their handlers, and refusals in words;
- `lobby`: opening a table, seats, computer players, the game switch, the start, abort;
- `turns`: an action typed or pressed, and what follows it (words, images, private prompts);
- `deadlines`, `computers`, `schedule`: reminders, time limits, computer players' turns;
- `votes`: votes on a late turn and seats handed to a computer and back;
- `chat`: the chat's language, turn notices, closed private messages;
- `reading`: what only reads (help, rules, status, games, board, hand, the end);
- `watching`, `weblinks`: a table as its web page shows it to anyone, and links to it;
- `context`: the dependencies they share, and reading and saving a table.

No game rule lives here: each game is reached through its module (`bot.games`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Executor

from ..config import Settings
from ..exchange.actor import Actor
from ..exchange.refused import Refused
from ..exchange.replies import Reply
from ..games import MODULES, module
from ..games.sidebar import Sidebar
from ..links.tokens import SeatToken
from ..runtime.computer_pool import Computer
from ..runtime.metrics import COMMANDS
from ..store import Channel, Claim, Held, Store
from . import chat, deadlines, history, posting, router, standings, watching, weblinks
from .context import Context, render_pool
from .history import Replayed
from .standings import Standings
from .watching import EndedLink, ForeignPress, Watched

__all__ = ["EndedLink", "ForeignPress", "GameService", "Replayed", "Standings", "Watched"]


# A platform retries an update it got no answer to within minutes; remember it for a day.
SEEN_FOR = 24 * 3600.0
# How long a process may handle an update before another takes it over, its process presumed
# dead: far above a command's handling time, short enough that a retry soon finds it free.
DELIVERY_CLAIM = 15.0


class GameService:
    """The entry points the adapters call; the work is done by the modules above."""

    def __init__(
        self,
        store: Store,
        settings: Settings,
        *,
        clock: Callable[[], float] = time.time,
        executor: Executor | None = None,
        seeds: Callable[[], int] | None = None,
        max_concurrent: int = 8,
        computer: Computer | None = None,
    ) -> None:
        self.ctx = Context(
            store=store,
            settings=settings,
            computer=computer
            or Computer(
                settings.search_workers,
                settings.bot_think_limit.total_seconds(),
                settings.bot_iterations,
            ),
            clock=clock,
            executor=executor or render_pool(),
            gate=asyncio.Semaphore(max_concurrent),
        )
        if seeds is not None:
            self.ctx.seeds = seeds

    @property
    def store(self) -> Store:
        return self.ctx.store

    @property
    def settings(self) -> Settings:
        return self.ctx.settings

    @property
    def computer(self) -> Computer:
        return self.ctx.computer

    @computer.setter
    def computer(self, computer: Computer) -> None:
        self.ctx.computer = computer

    @property
    def clock(self) -> Callable[[], float]:
        return self.ctx.clock

    async def language(self, actor: Actor) -> str:
        """The language `actor`'s chat is answered in, for an adapter's own words."""
        return await self.ctx.language(actor)

    async def command(self, actor: Actor, text: str) -> Reply:
        """Run `/fc <text>` typed by `actor`."""
        with COMMANDS.labels("command").time():
            async with self.ctx.gate:
                await chat.dms_open(self.ctx, actor)
                return await router.command(self.ctx, actor, text)

    async def press(self, actor: Actor, data: str) -> Reply:
        """A button or menu choice; `data` names the game's channel, so DMs work too."""
        with COMMANDS.labels("press").time():
            async with self.ctx.gate:
                await chat.dms_open(self.ctx, actor)
                return await router.press(self.ctx, actor, data)

    async def complete(self, actor: Actor, text: str) -> list[tuple[str, str]]:
        """Choices for the argument of `play`, for platforms with autocomplete."""
        with COMMANDS.labels("complete").time():
            return await router.complete(self.ctx, actor, text)

    async def dm_failed(
        self, platform: str, channel_id: str, user_id: str, link: str | None = None
    ) -> Reply:
        """A turn notice could not reach `user_id` privately: the channel is told, once."""
        return await chat.dm_failed(self.ctx, platform, channel_id, user_id, link)

    async def dms_closed(self, platform: str, user_id: str) -> bool:
        """Whether `user_id` refused private messages lately (adapters then send none)."""
        return await chat.dms_closed(self.ctx, platform, user_id)

    async def dms_refused(self, platform: str, user_id: str) -> None:
        """The platform refused a private message to `user_id`."""
        await chat.dms_refused(self.ctx, platform, user_id)

    async def chat_moved(self, platform: str, old_id: str, new_id: str) -> bool:
        """A chat got a new id (a Telegram supergroup): its table goes with it."""
        return await chat.moved(self.ctx, platform, old_id, new_id)

    async def place_closed(self, platform: str, channel_id: str) -> Reply:
        """A table's place (a forum topic, a thread) was closed or deleted: the table closes;
        the reply goes to the place around it."""
        return await chat.closed(self.ctx, platform, channel_id)

    async def fire_due(self, platform: str | None = None) -> list[tuple[str, str, Reply]]:
        """Reminders, time limits and computer players' turns that are due, each once."""
        return await deadlines.fire_due(self.ctx, platform)

    async def resume(self, platform: str, channel_id: str) -> Reply:
        """The table of a channel as it stands, and the prompts of those it waits for."""
        return await deadlines.resume(self.ctx, Channel.of(platform, channel_id))

    async def watch(self, platform: str, channel_id: str, game_id: str) -> Watched | None:
        """Game `game_id` of a channel as anyone may see it (its web page); None if unknown."""
        return await watching.watch(self.ctx, Channel.of(platform, channel_id), game_id)

    async def board(self, platform: str, channel_id: str, game_id: str) -> tuple[int, bytes] | None:
        """That game's table image as the channel sees it, and the version it shows."""
        return await watching.board(self.ctx, Channel.of(platform, channel_id), game_id)

    async def seat_hand(self, token: SeatToken) -> Reply:
        """What the token's player sees of their seat (`/fc hand`: their choices now, if the
        game waits for them), for their page; refused if the token's game is not live or the
        player has no seat at it (`EndedLink` if they ended the token's links)."""
        actor = await watching.seat_actor(self.ctx, token)
        if isinstance(actor, Reply):
            return actor
        return await self.command(actor, "hand")

    async def seat_press(self, token: SeatToken, data: str) -> Reply:
        """A choice pressed on the token's player's page: the same press as in the chat. What
        the chat must get is posted there by its platform (`posting`); the page gets the
        private part. A button of another table raises `ForeignPress`, a token whose player
        ended their links `EndedLink`: the page refuses both."""
        watching.check_pressed(token, data)
        actor = await watching.seat_actor(self.ctx, token)
        if isinstance(actor, Reply):
            return actor
        reply = await self.press(actor, data)
        return await posting.post(self.ctx, Channel.of(token.platform, token.channel_id), reply)

    async def board_svg(
        self, platform: str, channel_id: str, game_id: str
    ) -> tuple[int, str] | None:
        """The table's board as SVG for its page, with its version (`watching.board_svg`)."""
        return await watching.board_svg(self.ctx, Channel.of(platform, channel_id), game_id)

    async def seat_token(self, platform: str, channel_id: str, game_id: str, user_id: str) -> str:
        """A token for `user_id`'s seat at that table, for a page opened inside a platform
        (the Mini App, the Activity): one that opens no seat if they have none there; "" when
        the bot has no secret to sign it with."""
        channel = Channel.of(platform, channel_id)
        try:
            loaded = await self.ctx.load(channel)
        except Refused:  # a table that cannot be read seats nobody
            loaded = None
        table = loaded.table if loaded is not None and loaded.record.game_id == game_id else None
        return weblinks.seat_token(self.ctx, channel, game_id, table, user_id)

    async def table_here(self, platform: str, channel_id: str) -> str | None:
        """The game id of the table in a channel now (dealt or not), or None: where a Discord
        Activity opened in that channel goes."""
        record = await self.store.load(Channel.of(platform, channel_id))
        return None if record is None else record.game_id

    async def leaderboard(self, game: str, community: str | None, lang: str) -> Standings | None:
        """A game's board (`game`: its key) in a community (`<platform>:<id>`) or everywhere,
        as `/fc top` says it, for its page (which draws no picture); None for a game the bot
        does not play."""
        if game not in MODULES:
            return None
        return await standings.board(self.ctx, module(game), community, lang)

    async def standing(self, key: str, lang: str) -> Standings | None:
        """A rated player's standing as `/fc stats` says it, for their page; None if they
        have no rated game (never played, or asked to be forgotten)."""
        return await standings.standing(self.ctx, key, "", lang)

    async def replayed(self, platform: str, channel_id: str, game_id: str) -> Replayed | None:
        """A kept game for its replay page: its summary and its actions as the table saw
        them; None if it is not kept."""
        return await history.replayed(self.ctx, Channel.of(platform, channel_id), game_id)

    async def replay_frame(
        self, platform: str, channel_id: str, game_id: str, number: int
    ) -> bytes | None:
        """Position `number` of a kept game (0: the start), drawn as the channel saw it."""
        return await history.frame(self.ctx, Channel.of(platform, channel_id), game_id, number)

    async def replay_svg(
        self, platform: str, channel_id: str, game_id: str, number: int
    ) -> str | None:
        """Position `number`'s board as SVG, for the replay page (`history.frame_svg`)."""
        channel = Channel.of(platform, channel_id)
        return await history.frame_svg(self.ctx, channel, game_id, number)

    async def replay_sidebar(
        self, platform: str, channel_id: str, game_id: str, number: int
    ) -> Sidebar | None:
        """What the replay page shows beside position `number`'s board (its seats, its
        scores; `history.frame_sidebar`)."""
        channel = Channel.of(platform, channel_id)
        return await history.frame_sidebar(self.ctx, channel, game_id, number)

    def changes(self) -> AsyncIterator[Channel | None]:
        """Every table written by any process, as it is written (`Store.changes`)."""
        return self.store.changes()

    async def claim_delivery(self, platform: str, update_id: int) -> Claim:
        """Whether to handle a platform's update now (see `Store.claim_delivery`)."""
        return await self.store.claim_delivery(platform, update_id, DELIVERY_CLAIM)

    async def delivered(self, platform: str, update_id: int) -> None:
        """The update is handled: a delivery of it again is dropped."""
        await self.store.delivered(platform, update_id, SEEN_FOR)

    async def hold(self, job: str, holder: str, seconds: float) -> Held | None:
        """Take or renew the lease of a job one process runs at a time (see `Store.hold`)."""
        return await self.store.hold(job, holder, seconds)

    async def let_go(self, job: str, holder: str) -> None:
        await self.store.let_go(job, holder)

    async def restore_deadlines(self) -> int:
        """At start-up, every turn under way gets its deadlines again (see `deadlines`)."""
        return await deadlines.restore(self.ctx)
