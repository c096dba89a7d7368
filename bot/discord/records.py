"""`/fc stats`, `top`, `history`, `replay`, `export`, `forget`: what was played, read back.

Like every `/fc` subcommand they only spell out the text the service understands; a user is
named in it as `<@id>`, the mention syntax the service reads on every platform. They are
added to the `/fc` group the way `/fc new` is (`FcCommands.__init__`).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.text.i18n import N_

from .new import Handles, game_choices

__all__ = ["SCOPES", "record_commands", "user_text"]

Command = app_commands.Command[Any, ..., None]
SCOPES = [  # `/fc top`: this server's players (the default) or everyone's
    app_commands.Choice(name=N_("this server"), value="here"),
    app_commands.Choice(name=N_("everywhere"), value="global"),
]


def user_text(word: str, user: discord.abc.User | None) -> str:
    """`stats`, or `stats <@id>` about someone else."""
    return word if user is None else f"{word} <@{user.id}>"


def top_text(game: str | None, scope: str | None) -> str:
    """`top`, `top stadt`, `top global`, `top stadt global`: "here" is the service's default."""
    return " ".join(["top", *([game] if game else []), *(["global"] if scope == "global" else [])])


def record_commands(client: Handles) -> list[Command]:
    return [
        _about_user(client, N_("stats"), N_("A player's results and ratings")),
        _top(client),
        _about_user(client, N_("history"), N_("A player's last games")),
        _game_record(client, N_("replay"), N_("Watch a finished game again, as an animation")),
        _game_record(client, N_("export"), N_("A finished game's record, as a JSON file")),
        _forget(client),
    ]


def _about_user(client: Handles, name: str, description: str) -> Command:
    """`/fc <name> [user]`: about the one who typed it, or the user picked."""

    @app_commands.command(name=name, description=description)
    @app_commands.rename(user=N_("user"))
    @app_commands.describe(user=N_("The player (default: you)"))
    async def about(
        interaction: discord.Interaction[Any], user: discord.User | None = None
    ) -> None:
        await client.handle_command(interaction, user_text(name, user))

    return about


def _top(client: Handles) -> Command:
    @app_commands.command(
        name=N_("top"), description=N_("Leaderboards: the best players here or everywhere")
    )
    @app_commands.rename(game=N_("game"), scope=N_("scope"))
    @app_commands.describe(
        game=N_("Which game's leaderboard"), scope=N_("This server only, or players everywhere")
    )
    @app_commands.choices(game=game_choices(), scope=SCOPES)
    async def top(
        interaction: discord.Interaction[Any], game: str | None = None, scope: str | None = None
    ) -> None:
        await client.handle_command(interaction, top_text(game, scope))

    return top


def _game_record(client: Handles, name: str, description: str) -> Command:
    """`/fc <name> id`: one finished game, by the short id `/fc history` shows."""

    @app_commands.command(name=name, description=description)
    @app_commands.rename(game_id=N_("id"))
    @app_commands.describe(game_id=N_("The game's 8-character id"))
    async def record(interaction: discord.Interaction[Any], game_id: str) -> None:
        await client.handle_command(interaction, f"{name} {game_id.strip()}")

    return record


def _forget(client: Handles) -> Command:
    @app_commands.command(
        name=N_("forget"),
        description=N_("Delete your results and ratings (you are asked to confirm)"),
    )
    async def forget(interaction: discord.Interaction[Any]) -> None:
        await client.handle_command(interaction, "forget me")

    return forget
