"""`/fc new`: its parameters come from the game modules (the game, each game's own options,
computer players), so a game's options need no change in the adapter."""

from __future__ import annotations

import inspect
from typing import Any, Protocol

import discord
from discord import app_commands

from bot.games import DEFAULT, MODULES, GameInfo, NewOption, by_word, module
from bot.text.i18n import N_

__all__ = ["LEVELS", "Handles", "game_choices", "new_command"]

LEVELS = [  # computer players' levels, for /fc new and /fc bot add
    app_commands.Choice(name=N_("easy"), value="easy"),
    app_commands.Choice(name=N_("normal"), value="normal"),
    app_commands.Choice(name=N_("hard"), value="hard"),
]


def game_choices() -> list[app_commands.Choice[str]]:
    """Each game by its byline, sent as the first word its module accepts (`knizia`, `stadt`)."""
    return [app_commands.Choice(name=g.byline, value=g.words[0]) for g in map(module, MODULES)]


class Handles(Protocol):
    async def handle_command(self, interaction: discord.Interaction[Any], text: str) -> None: ...

    async def handle_new_thread(
        self, interaction: discord.Interaction[Any], text: str, game: GameInfo
    ) -> None: ...


def _signature(games: list[GameInfo], options: list[NewOption]) -> inspect.Signature:
    """`/fc new`'s parameters: the game, each game's options, computer players."""
    optional = inspect.Parameter.KEYWORD_ONLY
    interaction = inspect.Parameter(
        "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction
    )
    own = [
        inspect.Parameter(
            option.name,
            optional,
            default=None if option.choices else False,
            annotation=str | None if option.choices else bool,
        )
        for option in options
    ]
    bots = app_commands.Range[int, 0, max(g.max_players for g in games) - 1]
    return inspect.Signature(
        [
            interaction,
            inspect.Parameter("game", optional, default=None, annotation=str | None),
            *own,
            inspect.Parameter("bots", optional, default=0, annotation=bots),
            inspect.Parameter("level", optional, default=None, annotation=str | None),
            inspect.Parameter("thread", optional, default=False, annotation=bool),
        ]
    )


def new_command(client: Handles) -> app_commands.Command[Any, ..., None]:
    """`/fc new`: the game, each game's own options (from its module: a choice of words or a
    flag), computer players. Its parameters are built from the modules, so a game's options
    need no change here; the words typed are checked by the game, which says what it refuses."""
    games = [module(key) for key in MODULES]
    options = [option for game in games for option in game.new_options]

    async def new(interaction: discord.Interaction[Any], **values: Any) -> None:
        words = [values.get("game")]
        for option in options:
            value = values.get(option.name)
            words.append(value if option.choices else (option.name if value else None))
        bots, level = values.get("bots") or 0, values.get("level")
        if bots or level:
            words.append(f"bots:{bots}:{level}" if level else f"bots:{bots}")
        text = " ".join(["new", *(w for w in words if w)])
        if values.get("thread"):
            game = by_word(str(values.get("game") or "")) or module(DEFAULT)
            await client.handle_new_thread(interaction, text, game)
        else:
            await client.handle_command(interaction, text)

    vars(new)["__signature__"] = _signature(games, options)  # what discord.py reads
    names = {"game": N_("game"), "bots": N_("bots"), "level": N_("level"), "thread": N_("thread")}
    texts = {
        "game": N_("Which of the two games to play"),
        "bots": N_("Computer players to seat at once"),
        "level": N_("How well the computer players play"),
        "thread": N_("Open the table in a new thread of this channel"),
    }
    choices = {
        "game": game_choices(),
        "level": LEVELS,
    }
    for option in options:
        names[option.name] = option.name
        texts[option.name] = option.description
        if option.choices:
            choices[option.name] = [app_commands.Choice(name=w, value=w) for w in option.choices]
    command = app_commands.rename(**names)(new)
    command = app_commands.describe(**texts)(command)
    command = app_commands.choices(**choices)(command)
    return app_commands.command(name=N_("new"), description=N_("Open a table in this channel"))(
        command
    )
