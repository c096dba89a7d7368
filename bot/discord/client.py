"""The Discord client: `/fc` slash commands and persistent components, thin over the service.

Every handler does the same four things: build the command text (`commands.py`, from the
typed options), defer (Discord allows 3 s
before the first response), ask the service, deliver the `Reply`. The rules live in the service.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import tasks
from discord.gateway import DiscordWebSocket

from bot.exchange.actor import Actor
from bot.exchange.buttons import LAUNCH
from bot.exchange.replies import Reply
from bot.games import GameInfo
from bot.text.i18n import N_
from bot.text.lengths import cut

from . import commands
from .components import FcButton, FcSelect, recognised
from .computers import computer_commands
from .delivery import PLATFORM, Delivery, Service, failure
from .new import new_command
from .records import record_commands
from .threads import game_of_button, open_in_thread
from .translator import FcTranslator

__all__ = ["FcClient", "FcCommands", "actor_of"]

log = logging.getLogger(__name__)

# Computer players act a short pause after their turn comes (`BOT_PAUSE`): deadlines are looked
# for every second (one small Redis read).
DEADLINE_SECONDS = 1.0
CLOSE_GRACE = 10.0  # seconds the posts of fired deadlines get to go out when the bot stops


def actor_of(interaction: discord.Interaction[Any]) -> Actor:
    """Who acted, and where, as the service sees it: a channel, or a thread (a channel of its
    own, inside the one it is a thread of)."""
    permissions = interaction.permissions
    channel = interaction.channel
    guild = interaction.guild_id
    name = channel.name if isinstance(channel, discord.abc.GuildChannel | discord.Thread) else ""
    return Actor(
        platform=PLATFORM,
        channel_id=str(interaction.channel_id),
        user_id=str(interaction.user.id),
        name=interaction.user.display_name,
        locale=str(interaction.locale),
        is_admin=interaction.guild_id is not None
        and (permissions.manage_channels or permissions.manage_guild),
        private=interaction.guild_id is None,
        community=None if interaction.guild_id is None else str(interaction.guild_id),
        place=f"#{name}" if guild and name else "",
        link=f"https://discord.com/channels/{guild}/{interaction.channel_id}" if guild else "",
        parent=str(channel.parent_id)
        if isinstance(channel, discord.Thread) and channel.parent_id
        else "",
        threads=isinstance(channel, discord.TextChannel),
    )


class FcCommands(app_commands.Group):
    """`/fc <subcommand>`: each one only hands its typed options to `commands.py`, which
    spells out the text the service understands.

    Names and descriptions are marked `N_` for the catalogues: `FcTranslator` gives Discord
    them in French, Italian and German. Discord still sends the English names back. Discord
    allows 25 subcommands (or groups) here, and one more fails the sync at start-up: a new one
    joins a group (`/fc bot add`) or becomes an option once the 25 are taken.
    """

    def __init__(self, client: FcClient) -> None:
        super().__init__(
            name="fc", description=N_("Play Forbidden City (Knizia) or Die Verbotene Stadt")
        )
        self.client = client
        self.add_command(new_command(client))
        self.add_command(computer_commands(client))
        for command in record_commands(client):
            self.add_command(command)

    async def _run(self, interaction: discord.Interaction[Any], text: str) -> None:
        await self.client.handle_command(interaction, text)

    @app_commands.command(name=N_("join"), description=N_("Take a seat at the table"))
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        await self._run(interaction, "join")

    @app_commands.command(
        name=N_("leave"), description=N_("Leave the table before the game starts")
    )
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        await self._run(interaction, "leave")

    @app_commands.command(
        name=N_("start"), description=N_("Start the game with the players seated")
    )
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        await self._run(interaction, "start")

    @app_commands.command(name=N_("play"), description=N_("Play your move"))
    @app_commands.rename(spot=N_("spot"), rotation=N_("rotation"))
    @app_commands.describe(
        spot=N_("A spot number or x,y; in Die Verbotene Stadt an action such as RB N,E"),
        rotation=N_("Quarter turns clockwise (0-3)"),
    )
    async def play(
        self,
        interaction: discord.Interaction[Any],
        spot: str,
        rotation: app_commands.Range[int, 0, 3] | None = None,
    ) -> None:
        await self._run(interaction, commands.play(spot, rotation))

    @play.autocomplete("spot")
    async def _spot_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.client.spot_choices(interaction, current)

    @app_commands.command(name=N_("hand"), description=N_("See your tile (only you see it)"))
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        await self._run(interaction, "hand")

    @app_commands.command(name=N_("board"), description=N_("Show the board"))
    async def board(self, interaction: discord.Interaction[Any]) -> None:
        await self._run(interaction, "board")

    @app_commands.command(name=N_("status"), description=N_("Whose turn it is, and the scores"))
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        await self._run(interaction, "status")

    @app_commands.command(
        name=N_("web"), description=N_("The table's web page (your own link if you play)")
    )
    @app_commands.rename(renew=N_("renew"))
    @app_commands.describe(renew=N_("End your earlier links to this table (one shared by mistake)"))
    async def web(self, interaction: discord.Interaction[Any], renew: bool = False) -> None:
        await self._run(interaction, commands.web(renew))

    @app_commands.command(name=N_("rules"), description=N_("A summary of the rules"))
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        await self._run(interaction, "rules")

    @app_commands.command(name=N_("abort"), description=N_("End the game in this channel"))
    async def abort(self, interaction: discord.Interaction[Any]) -> None:
        await self._run(interaction, "abort")

    @app_commands.command(name=N_("lang"), description=N_("The bot's language in this channel"))
    @app_commands.rename(language=N_("language"))
    @app_commands.describe(language=N_("Language"))
    @app_commands.choices(
        language=[
            app_commands.Choice(name="English", value="en"),
            app_commands.Choice(name="Français", value="fr"),
            app_commands.Choice(name="Italiano", value="it"),
            app_commands.Choice(name="Deutsch", value="de"),
        ]
    )
    async def lang(self, interaction: discord.Interaction[Any], language: str) -> None:
        await self._run(interaction, commands.lang(language))

    @app_commands.command(
        name=N_("notify"), description=N_("Turn notices by direct message on or off")
    )
    @app_commands.rename(setting=N_("setting"))
    @app_commands.describe(setting=N_("On: a private message when it is your turn here"))
    @app_commands.choices(
        setting=[
            app_commands.Choice(name=N_("on"), value="on"),
            app_commands.Choice(name=N_("off"), value="off"),
        ]
    )
    async def notify(self, interaction: discord.Interaction[Any], setting: str) -> None:
        await self._run(interaction, commands.notify(setting))

    @app_commands.command(name=N_("games"), description=N_("Your games"))
    async def games(self, interaction: discord.Interaction[Any]) -> None:
        await self._run(interaction, "games")

    @app_commands.command(name=N_("help"), description=N_("How to play with this bot"))
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        await self._run(interaction, "help")

    @app_commands.command(
        name=N_("vote"),
        description=N_(
            "Vote on a late turn: skip it, hand the seat to a computer, or end the game"
        ),
    )
    @app_commands.rename(choice=N_("choice"))
    @app_commands.describe(
        choice=N_(
            "Skip: one move is played for them; bot: a computer plays for them; end: game over"
        )
    )
    @app_commands.choices(
        choice=[
            app_commands.Choice(name=N_("skip"), value="skip"),
            app_commands.Choice(name=N_("bot"), value="bot"),
            app_commands.Choice(name=N_("end"), value="end"),
        ]
    )
    async def vote(self, interaction: discord.Interaction[Any], choice: str) -> None:
        await self._run(interaction, commands.vote(choice))

    @app_commands.command(
        name=N_("back"), description=N_("Play your seat again after a computer played it for you")
    )
    async def back(self, interaction: discord.Interaction[Any]) -> None:
        await self._run(interaction, "back")


class FcClient(discord.AutoShardedClient):
    """The bot. Holds no game state: everything is asked of the service.

    Sharded: `shard_count` and `shard_ids` (unset: all the shards Discord recommends) say
    which guilds' events this process receives; replies and notices go out over REST, so
    any process can deliver to any channel or user.
    """

    def __init__(
        self,
        service: Service,
        *,
        dev_guild_id: int | None = None,
        deadline_seconds: float | None = DEADLINE_SECONDS,
        sync_commands: bool = True,
        **options: Any,
    ) -> None:
        # Slash commands and components need no gateway intents at all.
        super().__init__(intents=discord.Intents.none(), **options)
        self.service = service
        self.delivery = Delivery(self, service)
        self.tree = app_commands.CommandTree(self)
        self.tree.add_command(FcCommands(self))
        self.dev_guild_id = dev_guild_id
        self.sync_commands = sync_commands
        self.deadlines: tasks.Loop[Callable[[], Coroutine[Any, Any, None]]] | None = None
        if deadline_seconds is not None:
            self.deadlines = tasks.loop(seconds=deadline_seconds)(self._deadline_tick)

    async def launch_shards(self) -> None:
        """discord.py asks Discord where its gateway is only when it picks the shard count
        itself; ask always, so a given count connects to the gateway Discord names too."""
        if self.shard_count is not None and not self.is_closed():
            _count, url, _limit = await self.http.get_bot_gateway()
            DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
        await super().launch_shards()

    def connected(self) -> bool:
        """Every shard of this process is connected (for `/healthz`)."""
        return self.is_ready() and all(not s.is_closed() for s in self.shards.values())

    async def setup_hook(self) -> None:
        """Register the components of every message ever sent, sync commands, start deadlines."""
        self.add_dynamic_items(FcButton, FcSelect)
        await self.tree.set_translator(FcTranslator())
        if self.sync_commands:
            if self.dev_guild_id is not None:
                # A guild's commands update at once; global ones may take a while to show.
                guild = discord.Object(self.dev_guild_id)
                self.tree.copy_global_to(guild=guild)
                await self.tree.sync(guild=guild)
            else:
                await self.tree.sync()
        if self.deadlines is not None:
            self.deadlines.start()

    async def close(self) -> None:
        if self.deadlines is not None:
            self.deadlines.cancel()
        if not await self.delivery.deadlines.settled(CLOSE_GRACE):
            log.warning("closing with deadline posts still waiting for their channels")
        if getattr(self, "_AutoShardedClient__queue", None) is None:
            # Never started: AutoShardedClient.close needs the queue its start makes.
            await discord.Client.close(self)
        else:
            await super().close()

    async def _deadline_tick(self) -> None:
        try:
            await self.delivery.post_due()  # the next tick waits for no channel's posts
        except Exception:
            # The loop must survive a Redis outage or a failed send; next tick retries.
            log.exception("delivering deadlines failed")

    # ------------------------------------------------------------------ handlers
    async def handle_command(self, interaction: discord.Interaction[Any], text: str) -> None:
        """`/fc <text>`: public replies go to this channel."""
        await self._answer(
            interaction,
            lambda actor: self.service.command(actor, text),
            str(interaction.channel_id),
        )

    async def handle_new_thread(
        self, interaction: discord.Interaction[Any], text: str, game: GameInfo
    ) -> None:
        """`/fc new thread:true`, or *New table in a thread* (see `threads.py`)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        await open_in_thread(self, interaction, actor_of(interaction), text, game)

    async def handle_press(self, interaction: discord.Interaction[Any], data: str) -> None:
        """A component press; public replies go to the game's channel the reply names. *New
        table in a thread* (`fc:nt:<channel>:0:<game>`) is the adapter's own: it opens the
        thread where the button was pressed, as `/fc new thread:true` does; so is *Play on the
        board* (`fc:ac:<channel>:0:open`), which launches the page as the channel's Activity."""
        game = game_of_button(data)
        if game is not None:
            await self.handle_new_thread(interaction, f"new {game.words[0]}", game)
            return
        if LAUNCH.decode(data) is not None:  # *Play on the board* under /fc board: the Activity
            await interaction.response.launch_activity()
            return
        await self._answer(
            interaction, lambda actor: self.service.press(actor, data), str(interaction.channel_id)
        )

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """A component no dynamic item recognises (an older version's, a mangled id): the
        service refuses it, so the user gets a reason instead of "This interaction failed"."""
        if interaction.type is discord.InteractionType.component and not recognised(interaction):
            data: dict[str, Any] = dict(interaction.data or {})
            await self.handle_press(interaction, str(data.get("custom_id", "")))

    async def spot_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            found = await self.service.complete(actor_of(interaction), f"play {current}".strip())
        except Exception:
            log.exception("autocomplete failed")
            return []
        return [
            app_commands.Choice(name=cut(label, 100) or cut(value, 100), value=value[:100])
            for label, value in found[:25]
        ]

    async def _answer(
        self,
        interaction: discord.Interaction[Any],
        work: Callable[[Actor], Awaitable[Reply]],
        channel_id: str,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            reply = await work(actor_of(interaction))
        except Exception:
            log.exception("the service failed")
            reply = failure()
        await self.delivery.to_interaction(interaction, reply, reply.channel_id or channel_id)
