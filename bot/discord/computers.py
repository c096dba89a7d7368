"""`/fc bot add` and `/fc bot remove`: computer players in the lobby, as one subcommand group.

Discord allows a command 25 subcommands, and `/fc` had reached them: the two seat commands
share one entry (a group), which leaves room for more. `commands.py` spells out the text the
service understands on every platform, `bot add <level>` and `bot remove [n]` (which Telegram and
the console may also type as `addbot` and `removebot`).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.text.i18n import N_

from . import commands
from .new import LEVELS, Handles

__all__ = ["computer_commands"]


def computer_commands(client: Handles) -> app_commands.Group:
    group = app_commands.Group(
        name=N_("bot"), description=N_("Seat or remove computer players before the start")
    )

    @group.command(
        name=N_("add"), description=N_("Seat a computer player at the table before the start")
    )
    @app_commands.rename(level=N_("level"))
    @app_commands.describe(level=N_("How well it plays"))
    @app_commands.choices(level=LEVELS)
    async def add(interaction: discord.Interaction[Any], level: str = "normal") -> None:
        await client.handle_command(interaction, commands.bot_add(level))

    @group.command(name=N_("remove"), description=N_("Remove a computer player before the start"))
    @app_commands.rename(number=N_("number"))
    @app_commands.describe(
        number=N_("Which computer player, counted in seat order (default: the last)")
    )
    async def remove(
        interaction: discord.Interaction[Any],
        number: app_commands.Range[int, 1, 9] | None = None,
    ) -> None:
        await client.handle_command(interaction, commands.bot_remove(number))

    return group
