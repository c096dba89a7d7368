"""The lobby says how many may sit, and stops offering a seat once the table is full."""

from __future__ import annotations

from bot.config import Settings
from bot.exchange.actor import Actor
from bot.exchange.replies import Button, Reply
from bot.service import GameService
from bot.store import Store
from tests.conftest import fixed_seeds


def who(user: str) -> Actor:
    return Actor("console", "room", user, user.capitalize())


def buttons(reply: Reply) -> list[Button]:
    return [b for m in reply.public for row in m.buttons for b in row]


def service_on(store: Store) -> GameService:
    return GameService(store, Settings(_env_file=None), seeds=fixed_seeds())  # type: ignore[call-arg]


async def test_a_full_table_offers_no_join_and_no_computer_player(store: Store) -> None:
    service = service_on(store)
    opened = await service.command(who("ann"), "new")
    assert "Join" in [b.label for b in buttons(opened)]
    for user in ("bob", "cid"):
        joined = await service.command(who(user), "join")
        assert "Join" in [b.label for b in buttons(joined)]
    full = await service.command(who("ann"), "addbot")
    labels = [b.label for b in buttons(full)]
    assert "(4/4)" in full.public[0].text
    assert "Join" not in labels and "Add a computer player" not in labels
    assert "Start" in labels
    freed = await service.command(who("ann"), "removebot")  # a seat is free again
    labels = [b.label for b in buttons(freed)]
    assert "(3/4)" in freed.public[0].text
    assert "Join" in labels and "Add a computer player" in labels


async def test_the_team_game_says_four_players_and_counts_to_four(store: Store) -> None:
    service = service_on(store)
    opened = await service.command(who("ann"), "new stadt teams")
    text = opened.public[0].text
    assert "4 players" in text and "2 to 4" not in text
    joined = await service.command(who("bob"), "join")
    assert "(2/4)" in joined.public[0].text
    plain = await service.command(Actor("console", "other", "cid", "Cid"), "new stadt")
    assert "2 to 4 players" in plain.public[0].text
