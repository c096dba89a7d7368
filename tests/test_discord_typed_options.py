"""`/fc` options arrive typed (a rotation is an `int` in 0-3, `bot remove`'s number one in
1-9): `bot.discord.commands` spells them out for the service once, and what lies outside a
declared `Range` is Discord's to refuse, by the `min_value`/`max_value` the sync declares."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.discord import FcClient, commands
from tests.fake_discord import FakeDiscord, Person, dispatch, fake_discord, logged_in
from tests.test_discord_delivery import Scripted

Json = dict[str, Any]
ALICE = Person(2101, "Alice")


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with fake_discord() as server:
        yield server


@pytest.fixture
def service() -> Scripted:
    return Scripted()


@pytest.fixture
async def client(fake: FakeDiscord, service: Scripted) -> AsyncIterator[FcClient]:
    async with logged_in(FcClient(service, deadline_seconds=None)) as bot:
        yield bot


def option(fake: FakeDiscord, path: str, name: str) -> Json:
    """The synced option `name` of `/fc <path>` ("play", "bot remove")."""
    [fc] = fake.commands
    item = fc
    for part in path.split():
        item = next(o for o in item["options"] if o["name"] == part)
    return next(o for o in item["options"] if o["name"] == name)


def discord_accepts(declared: Json, value: int) -> bool:
    """What Discord lets a user send for an integer option, by what the sync declared."""
    low, high = int(declared["min_value"]), int(declared["max_value"])
    return declared["type"] == 4 and low <= value <= high


def test_the_builders_spell_typed_values_out() -> None:
    assert commands.play("5") == "play 5"
    assert commands.play(" 2, -1 ", 0) == "play 2,-1 0"  # rotation 0 is spelled, not dropped
    assert commands.play("RB N , E", 3) == "play RB N,E 3"
    assert commands.web() == "web" and commands.web(renew=True) == "web new"
    assert commands.lang("it") == "lang it"
    assert commands.notify("on") == "notify on"
    assert commands.vote("end") == "vote end"
    assert commands.bot_add() == "bot add normal" and commands.bot_add("easy") == "bot add easy"
    assert commands.bot_remove() == "bot remove" and commands.bot_remove(2) == "bot remove 2"
    assert commands.words("x", None, 0, "y") == "x 0 y"


@pytest.mark.parametrize(
    ("subcommand", "options", "text"),
    [
        ("play", {"spot": "12", "rotation": 3}, "play 12 3"),
        ("play", {"spot": "4, 5", "rotation": 0}, "play 4,5 0"),
        ("play", {"spot": "12"}, "play 12"),
        ("web", {"renew": True}, "web new"),
        ("bot add", {"level": "hard"}, "bot add hard"),
        ("bot add", {}, "bot add normal"),
        ("bot remove", {"number": 2}, "bot remove 2"),
        ("bot remove", {}, "bot remove"),
    ],
)
async def test_a_typed_option_reaches_the_service_as_its_command(
    fake: FakeDiscord,
    client: FcClient,
    service: Scripted,
    subcommand: str,
    options: dict[str, str | int | bool],
    text: str,
) -> None:
    await dispatch(client, fake.command_payload(ALICE, subcommand, **options))
    assert [(kind, said) for kind, _actor, said in service.calls] == [("command", text)]


@pytest.mark.parametrize(
    ("path", "name", "low", "high"),
    [("play", "rotation", 0, 3), ("bot remove", "number", 1, 9)],
)
async def test_out_of_range_is_refused_by_the_declared_range(
    fake: FakeDiscord, client: FcClient, path: str, name: str, low: int, high: int
) -> None:
    declared = option(fake, path, name)
    assert (declared["min_value"], declared["max_value"]) == (low, high)
    assert not declared.get("required", False)
    assert all(discord_accepts(declared, value) for value in range(low, high + 1))
    assert not discord_accepts(declared, low - 1) and not discord_accepts(declared, high + 1)
