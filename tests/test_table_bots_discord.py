"""Computer players' commands on Discord: `/fc bot add` with its levels, `/fc bot remove`,
`/fc back` and the vote's new choice, as synced to Discord and as the service receives them."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.discord import FcClient
from tests.fake_discord import FakeDiscord, dispatch, fake_discord, logged_in
from tests.test_discord_delivery import ALICE, Scripted

Json = dict[str, Any]


@pytest.fixture
async def synced() -> AsyncIterator[tuple[FakeDiscord, FcClient, Scripted]]:
    service = Scripted()
    async with fake_discord() as fake, logged_in(FcClient(service, deadline_seconds=None)) as bot:
        yield fake, bot, service


def subcommands(fake: FakeDiscord) -> dict[str, Json]:
    return {o["name"]: o for o in fake.commands[0]["options"]}


async def test_addbot_offers_the_levels_in_the_users_language(
    synced: tuple[FakeDiscord, FcClient, Scripted],
) -> None:
    commands = subcommands(synced[0])
    computers = {o["name"]: o for o in commands["bot"]["options"]}
    assert commands["bot"]["name_localizations"]["fr"] == "ordinateur"
    [level] = computers["add"]["options"]
    assert not level.get("required", False)  # normal when left out
    assert [c["value"] for c in level["choices"]] == ["easy", "normal", "hard"]
    hard = level["choices"][2]
    assert (hard["name_localizations"]["fr"], hard["name_localizations"]["de"]) == (
        "difficile",
        "schwer",
    )
    assert computers["add"]["name_localizations"]["it"] == "aggiungi"
    [number] = computers["remove"]["options"]
    assert number["min_value"] == 1 and not number.get("required", False)
    assert commands["back"]["name_localizations"]["fr"] == "retour"
    [choice] = commands["vote"]["options"]
    assert [c["value"] for c in choice["choices"]] == ["skip", "bot", "end"]


async def test_the_commands_reach_the_service_as_text(
    synced: tuple[FakeDiscord, FcClient, Scripted],
) -> None:
    fake, bot, service = synced
    await dispatch(bot, fake.command_payload(ALICE, "bot add"))
    await dispatch(bot, fake.command_payload(ALICE, "bot add", level="hard"))
    await dispatch(bot, fake.command_payload(ALICE, "bot remove"))
    await dispatch(bot, fake.command_payload(ALICE, "bot remove", number=2))
    await dispatch(bot, fake.command_payload(ALICE, "vote", choice="bot"))
    await dispatch(bot, fake.command_payload(ALICE, "back"))
    assert [c[2] for c in service.calls] == [
        "bot add normal",
        "bot add hard",
        "bot remove",
        "bot remove 2",
        "vote bot",
        "back",
    ]
