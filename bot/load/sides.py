"""The two chat platforms' real adapters, run against the paced stand-ins (`stand_ins`) for
`python -m bot load --paced`: python-telegram-bot's application with the bot's own limiter
and per-chat outbox, and the bot's discord.py client with its own deadline loop. A person's
move is delivered as the adapter delivers a command's reply; computer players' moves come
from the adapter's own deadline poll."""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import replace
from typing import Final, Protocol

import discord
from pydantic import SecretStr

from ..config import Settings
from ..discord.client import FcClient
from ..exchange.actor import Actor
from ..exchange.replies import Reply
from ..service import GameService
from ..telegram.app import DEADLINE_INTERVAL, TelegramAdapter, build_application
from .stand_ins import DISCORD_TOKEN, TELEGRAM_TOKEN, PacedDiscord, PacedTelegram, StandIn

DRAIN: Final = 180.0  # seconds a side may take to send what waits once play stops


class Side(Protocol):
    """One platform's adapter, as the paced run drives it."""

    name: str

    @property
    def api(self) -> StandIn:
        """The stand-in it talks to: what reached a chat (`seen`), its 429s (`refused`)."""

    def group(self, index: int) -> str: ...

    def person(self, index: int) -> str: ...

    async def begin(self, service: GameService) -> None: ...

    async def deliver(self, actor: Actor, reply: Reply) -> None: ...

    async def end(self) -> bool: ...

    async def close(self) -> None: ...


class TelegramSide:
    """Groups are supergroups (negative ids), a person's private chat their user id."""

    name = "telegram"

    def __init__(self) -> None:
        self.api = PacedTelegram()
        self._adapter: TelegramAdapter | None = None
        self._poll: asyncio.Task[None] | None = None

    def group(self, index: int) -> str:
        return str(-1_001_000_000_000 - index)

    def person(self, index: int) -> str:
        return str(10_000 + index)

    async def begin(self, service: GameService) -> None:
        if not self.api.port:
            await self.api.start()
        settings = Settings(  # type: ignore[call-arg]
            _env_file=None, telegram_token=SecretStr(TELEGRAM_TOKEN), telegram_base_url=self.api.url
        )
        application = build_application(settings, service, deadline_interval=0)
        await application.initialize()
        adapter = application.bot_data["adapter"]
        assert isinstance(adapter, TelegramAdapter)
        self._adapter = adapter
        self._poll = asyncio.create_task(self._deadlines(adapter))

    @staticmethod
    async def _deadlines(adapter: TelegramAdapter) -> None:
        """The adapter's own poll (`_poll_deadlines`), stoppable between two polls."""
        while True:
            await adapter.fire_due()
            await asyncio.sleep(DEADLINE_INTERVAL)

    async def deliver(self, actor: Actor, reply: Reply) -> None:
        assert self._adapter is not None
        await self._adapter.delivery.reply(
            reply, channel_id=actor.channel_id, actor_id=actor.user_id, actor_name=actor.name
        )

    async def end(self) -> bool:
        """Stop the poll (never halfway through one: its replies are queued whole), then wait
        until every chat's queue is empty; False if that took longer than `DRAIN`."""
        assert self._adapter is not None and self._poll is not None
        self._poll.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._poll
        outbox = self._adapter.delivery.outbox
        try:
            async with asyncio.timeout(DRAIN):
                await self._adapter.deadline_posts.settled()
                await outbox.drained()
            return True
        except TimeoutError:
            return False
        finally:
            await outbox.close(0)
            await self._adapter.application.shutdown()

    async def close(self) -> None:
        await self.api.stop()


class DiscordSide:
    """Channels of one guild; a person's DMs a DM channel the stand-in opens."""

    name = "discord"

    def __init__(self) -> None:
        self.api = PacedDiscord()
        self._client: FcClient | None = None
        self._base = discord.http.Route.BASE

    def group(self, index: int) -> str:
        return str(1_100_000_000_000_000_000 + index)

    def person(self, index: int) -> str:
        return str(1_200_000_000_000_000_000 + index)

    async def begin(self, service: GameService) -> None:
        if not self.api.port:
            await self.api.start()
        discord.http.Route.BASE = self.api.url  # as `bot.discord.run` points it
        self._client = FcClient(service, sync_commands=False)
        await self._client.login(DISCORD_TOKEN)  # its setup_hook starts the deadline loop

    async def deliver(self, actor: Actor, reply: Reply) -> None:
        """What an answered command posts: the channel's part and the DMs (the private part
        goes to ephemeral follow-ups, which no channel limit paces)."""
        assert self._client is not None
        await self._client.delivery.to_reply_channel(actor.channel_id, replace(reply, private=[]))

    async def end(self) -> bool:
        """Let the deadline loop finish its tick, then wait until discord.py has sent every
        message handed to it; False if that took longer than `DRAIN`."""
        client = self._client
        assert client is not None and client.deadlines is not None
        client.deadlines.stop()
        waited = 0.0
        while client.deadlines.is_running() or client.delivery.sending or client.delivery.deadlines:
            if waited > DRAIN:
                break
            await asyncio.sleep(0.1)
            waited += 0.1
        await client.close()
        return waited <= DRAIN

    async def close(self) -> None:
        discord.http.Route.BASE = self._base
        await self.api.stop()
