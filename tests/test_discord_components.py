"""Components the bot does not recognise (an older version's buttons, a mangled id) are still
answered: Discord shows "This interaction failed" to a user whose click gets no response.

The real client, service and redis-server, as in tests/test_discord_games.py.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.config import Settings
from bot.discord import FcClient
from bot.service import GameService
from bot.store import Store
from tests.conftest import fixed_seeds
from tests.fake_discord import FakeDiscord, Person, fake_discord, logged_in
from tests.test_discord_games import PLAYERS, Game, Spy, assert_settled, open_table, refused

ANNE = Person(3101, "Anne", locale="fr")


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with fake_discord() as server:
        yield server


@pytest.fixture
async def client(fake: FakeDiscord, store: Store) -> AsyncIterator[FcClient]:
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    service = Spy(GameService(store, settings, seeds=fixed_seeds()))
    async with logged_in(FcClient(service, deadline_seconds=None)) as ready:
        yield ready


@pytest.mark.parametrize(
    ("custom_id", "values"),
    [
        ("join-v0", None),  # a button of an older version of the bot
        ("fcmenu", None),  # the menu's id on a button
        ("fc:j:" + "9" * 120, None),  # too long to be the bot's
        ("spots-v0", ["3"]),  # an older menu
    ],
)
async def test_unknown_component_gets_a_private_localized_answer(
    fake: FakeDiscord,
    client: FcClient,
    store: Store,
    custom_id: str,
    values: list[str] | None,
) -> None:
    game = Game(fake, store)
    lobby = await open_table(fake, client, [ANNE, PLAYERS[1]])
    component = lobby.payload["components"][0]["components"][0]
    component["custom_id"] = custom_id
    if values is not None:
        component.update(type=3, options=[{"label": v, "value": v} for v in values])
    payload = fake.press_payload(ANNE, lobby, custom_id, values=values)
    text = await refused(fake, game, client, payload)
    assert text == "Ce bouton n'est pas valide."
    assert_settled(fake)


async def test_a_component_missing_from_its_message_is_answered(
    fake: FakeDiscord, client: FcClient, store: Store
) -> None:
    """The bot's own id pattern, but no such component on the message (edited since)."""
    game = Game(fake, store)
    lobby = await open_table(fake, client, [ANNE, PLAYERS[1]])
    payload = fake.press_payload(ANNE, lobby, "fc:zz:nothing")
    assert await refused(fake, game, client, payload) == "Ce bouton n'est pas valide."
    assert_settled(fake)
