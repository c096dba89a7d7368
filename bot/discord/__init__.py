"""Discord adapter: `/fc` slash commands and persistent buttons over `bot.service.GameService`."""

from __future__ import annotations

import logging

import discord

from bot.config import Settings
from bot.runtime.ops import Health

from .client import FcClient, FcCommands, actor_of
from .components import FcButton, FcSelect
from .delivery import Delivery, Service

__all__ = [
    "Delivery",
    "FcButton",
    "FcClient",
    "FcCommands",
    "FcSelect",
    "Service",
    "actor_of",
    "build_client",
    "run",
]

log = logging.getLogger(__name__)


def build_client(
    settings: Settings, service: Service, *, dev_guild_id: int | None = None
) -> FcClient:
    """The client, ready for `start`; commands sync to `DISCORD_GUILD_ID` only, if set.

    Only the process that runs shard 0 (or every shard) syncs the commands: they are the
    application's, not a shard's, and one sync is enough."""
    guild = dev_guild_id if dev_guild_id is not None else settings.discord_guild_id
    ids = settings.discord_shard_ids
    return FcClient(
        service,
        dev_guild_id=guild,
        sync_commands=ids is None or 0 in ids,
        shard_count=settings.discord_shard_count,
        shard_ids=ids,
    )


async def run(settings: Settings, service: Service, health: Health | None = None) -> None:
    """Connect and serve until cancelled; the caller owns the service (and its store)."""
    if settings.discord_token is None:
        raise ValueError("DISCORD_TOKEN is not set")
    discord.http.Route.BASE = settings.discord_api_base  # REST, webhooks and the gateway's address
    client = build_client(settings, service)
    if health is not None:
        health.add("discord", client.connected)
    async with client:
        log.info(
            "Discord: shards %s of %s",
            settings.discord_shard_ids or "all",
            settings.discord_shard_count or "Discord's advice",
        )
        await client.start(settings.discord_token.get_secret_value())
