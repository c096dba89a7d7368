"""`/fc help` names every command of the table at hand, for either game."""

from __future__ import annotations

import re

import pytest

from bot.service import GameService
from bot.store import Store
from tests.test_service import settings, who

COMMANDS = (
    "new", "join", "leave", "start", "play", "hand", "board", "status", "rules", "abort",
    "lang", "notify", "games", "vote", "bot", "add", "remove", "back",
)  # fmt: skip


@pytest.mark.parametrize("game", ["knizia", "stadt"])
async def test_help_names_every_command(store: Store, game: str) -> None:
    service = GameService(store, settings())
    assert (await service.command(who("ann"), f"new {game}")).ok
    text = (await service.command(who("ann"), "help")).private[0].text
    named = set(re.findall(r"\b[a-z]+\b", text))
    assert set(COMMANDS) - named == set()
    assert text.count("\n") + 1 == len(set(text.splitlines()))  # no line twice
