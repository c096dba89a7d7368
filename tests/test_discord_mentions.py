"""A display name that spells out Discord's mention syntax pings nobody: the bot's messages
name their mentions in `allowed_mentions` and show such syntax as text. Through the real
client, the real service and redis-server; the fake reads each payload as Discord would."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.config import Settings
from bot.discord import FcClient
from bot.service import GameService
from bot.store import Store
from tests.conftest import fixed_seeds
from tests.fake_discord import FakeDiscord, Person, dispatch, fake_discord, logged_in

# A name of 31 characters, within Discord's 32, that names Ben, everyone, a role, a channel.
MALLORY = Person(3101, "M <@3103> @everyone <@&42> <#7>")
ANN = Person(3102, "Ann")
BEN = Person(3103, "Ben")


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with fake_discord() as server:
        yield server


@pytest.fixture
async def client(fake: FakeDiscord, store: Store) -> AsyncIterator[FcClient]:
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    service = GameService(store, settings, seeds=fixed_seeds())
    async with logged_in(FcClient(service, deadline_seconds=None)) as ready:
        yield ready


async def test_a_name_with_mention_syntax_pings_nobody(fake: FakeDiscord, client: FcClient) -> None:
    await dispatch(client, fake.command_payload(MALLORY, "new"))
    await dispatch(client, fake.command_payload(ANN, "join"))
    joined = fake.channel_messages()[-1]
    # "<@Ann> joins the table (2/4). <Mallory's name> starts the game with /fc start."
    assert joined.content.startswith(f"<@{ANN.id}> joins the table (2/4).")
    assert r"M \<@3103> \@everyone \<@&42> \<#7> starts the game" in joined.content
    assert joined.allowed_mentions == {"parse": [], "users": [ANN.id]}
    assert joined.pings == {f"user:{ANN.id}"}  # Ann, whom it names: not Ben, a role, everyone
    await dispatch(client, fake.command_payload(MALLORY, "start"))
    assert len(fake.sent) > 3
    for sent in fake.sent:  # nobody but the two players is ever pinged, and never everyone
        assert sent.allowed_mentions is not None and sent.allowed_mentions["parse"] == []
        assert sent.pings <= {f"user:{MALLORY.id}", f"user:{ANN.id}"}, sent.content
