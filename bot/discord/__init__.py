"""Discord adapter: `/fc` slash commands and persistent buttons over `bot.service.GameService`."""

from __future__ import annotations

import logging

from bot.config import Settings

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
    """The client, ready for `start`; commands sync to `DISCORD_GUILD_ID` only, if set."""
    guild = dev_guild_id if dev_guild_id is not None else settings.discord_guild_id
    return FcClient(service, dev_guild_id=guild)


async def run(settings: Settings, service: Service) -> None:
    """Connect and serve until cancelled; the caller owns the service (and its store)."""
    if settings.discord_token is None:
        raise ValueError("DISCORD_TOKEN is not set")
    client = build_client(settings, service)
    async with client:
        await client.start(settings.discord_token.get_secret_value())
