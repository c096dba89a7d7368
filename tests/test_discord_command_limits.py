"""`/fc` as discord.py syncs it stays within what Discord accepts: 25 options a level
(subcommands, groups, parameters, choices), names and descriptions in every language within
their lengths, 4000 characters in all. Discord refuses a whole sync that breaks one rule, and
the bot then fails to start; the fake refuses it the same way (`command_problems`)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.discord import FcClient, FcCommands
from tests.fake_discord import (
    COMMAND_AT_MOST,
    OPTIONS_AT_MOST,
    FakeDiscord,
    command_problems,
    fake_discord,
    logged_in,
)
from tests.test_discord_delivery import Scripted

Json = dict[str, Any]


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with fake_discord() as server:
        yield server


def levels(item: Json) -> list[list[Json]]:
    """Every level of options under `item`: its own, then each subcommand's and group's."""
    found = [item.get("options", [])]
    for option in item.get("options", []):
        if option["type"] in (1, 2):
            found += levels(option)
    return found


async def test_fc_syncs_within_discords_limits_with_room_to_spare(fake: FakeDiscord) -> None:
    async with logged_in(FcClient(Scripted(), deadline_seconds=None)):
        pass
    [fc] = fake.commands
    assert command_problems(fake.commands) == []
    assert all(len(level) <= OPTIONS_AT_MOST for level in levels(fc))
    # A new subcommand must fit without regrouping the others first.
    assert len(fc["options"]) < OPTIONS_AT_MOST
    computers = next(o for o in fc["options"] if o["name"] == "bot")
    assert computers["type"] == 2 and [o["name"] for o in computers["options"]] == [
        "add",
        "remove",
    ]


async def test_one_more_subcommand_still_starts_the_bot(fake: FakeDiscord) -> None:
    """What the next feature will do: add a subcommand to `/fc`. With 25 already, discord.py
    refuses it at once and the bot does not start."""

    class Grown(FcClient):
        def __init__(self) -> None:
            super().__init__(Scripted(), deadline_seconds=None)
            fc = self.tree.get_command("fc")
            assert isinstance(fc, FcCommands)

            @app_commands.command(name="more", description="A command added later")
            async def more(interaction: discord.Interaction[Any]) -> None:
                pass

            fc.add_command(more)

    async with logged_in(Grown()):
        pass
    assert "more" in [o["name"] for o in fake.commands[0]["options"]]
    assert command_problems(fake.commands) == []


def test_what_discord_refuses_is_refused() -> None:
    """The fake's rules catch each limit, so a sync that passes here passes at Discord."""

    def command(options: list[Json], **more: Any) -> Json:
        return {"name": "fc", "description": "The game", "type": 1, "options": options, **more}

    def sub(name: str, **more: Any) -> Json:
        return {"type": 1, "name": name, "description": "Does a thing", **more}

    fine = command([sub(f"s{n}") for n in range(25)])
    assert command_problems([fine]) == []
    assert command_problems([command([sub(f"s{n}") for n in range(26)])]) == ["/fc: 26 options"]
    wrong = [
        sub("Join"),  # not lowercase
        sub("a" * 33),
        sub("ok", description="x" * 101),
        sub("fr", name_localizations={"fr": "rejoindre la table"}),  # a space
        sub("de", description_localizations={"de": ""}),
    ]
    assert len(command_problems([command(wrong)])) == len(wrong)
    group = {"type": 2, "name": "g", "description": "A group", "options": [sub("a")]}
    nested = {"type": 2, "name": "outer", "description": "A group", "options": [group]}
    assert command_problems([command([nested])]) == [
        "/fc outer g: a group inside a group",
        "/fc outer g: a group holds subcommands only",
    ]
    mixed = [sub("a"), {"type": 3, "name": "word", "description": "A word"}]
    assert command_problems([command(mixed)]) == ["/fc: subcommands mixed with other options"]
    choice = {"name": "x", "value": "x"}
    many = {"type": 3, "name": "c", "description": "A choice", "choices": [choice] * 26}
    assert command_problems([command([sub("a", options=[many])])]) == ["/fc a c: 26 choices"]
    # Each field counts at its longest language: long German descriptions pass 4000.
    long = "w" * 100
    heavy = [
        sub(f"s{n}", description="short", description_localizations={"de": long}) for n in range(25)
    ]
    heavy[0]["options"] = [{"type": 3, "name": f"o{n}", "description": long} for n in range(15)]
    [problem] = command_problems([command(heavy)])
    assert problem.startswith("/fc: ") and problem.endswith(f"(at most {COMMAND_AT_MOST})")
