"""The page as a Discord Activity, server side, against the fake Discord: the `identify` code
the page's SDK got is traded at Discord's OAuth2 token endpoint for the player, whose seat
the page then plays; a wrong or used code, another application's client and a user with no
seat get nothing of a seat. Inside Discord the page may be framed by Discord alone."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import pytest
from pydantic import SecretStr

from bot.actor import Actor
from bot.config import Settings
from bot.service import GameService
from bot.store import Channel, Store
from tests.conftest import Site, fixed_seeds
from tests.fake_discord import FakeDiscord, Person, fake_discord
from tests.test_web_seats import SECRET, seat

BACKENDS = ("single",)
ANN, BOB, ZED = Person(3001, "Ann"), Person(3002, "Bob"), Person(3009, "Zed")
CHANNEL = "4242"


@pytest.fixture
async def discord() -> AsyncIterator[FakeDiscord]:
    async with fake_discord() as fake:
        yield fake


def _settings(fake: FakeDiscord, **values: object) -> Settings:
    chosen: dict[str, object] = {
        "web_url": "https://fc.example",
        "web_secret": SecretStr(SECRET),
        "discord_api_base": fake.base,
        "discord_activity": True,
        "discord_client_id": str(fake.app_id),
        "discord_client_secret": SecretStr(fake.client_secret),
    }
    return Settings(_env_file=None, **{**chosen, **values})  # type: ignore[call-arg, arg-type]


def who(person: Person) -> Actor:
    return Actor("discord", CHANNEL, str(person.id), person.name, community="guild")


async def _dealt(service: GameService) -> str:
    assert (await service.command(who(ANN), "new")).ok
    assert (await service.command(who(BOB), "join")).ok
    assert (await service.command(who(ANN), "start")).ok
    record = await service.store.load(Channel.of("discord", CHANNEL))
    assert record is not None
    return f"/t/discord/{CHANNEL}/{record.game_id}"


async def _launch(http: aiohttp.ClientSession, url: str, code: object) -> tuple[int, dict]:  # type: ignore[type-arg]
    async with http.post(url + "/discord", json={"code": code}) as answer:
        return answer.status, await answer.json()


async def test_a_code_from_discord_opens_the_players_seat(
    store: Store, site: Site, discord: FakeDiscord
) -> None:
    service = GameService(store, _settings(discord), seeds=fixed_seeds())
    path = await _dealt(service)
    url = await site(service) + path
    async with aiohttp.ClientSession() as http:
        code = discord.authorise(BOB)
        status, body = await _launch(http, url, code)
        assert status == 200 and body["access_token"].startswith("access-")
        status, mine = await seat(http, url, body["token"])
        assert status == 200 and mine["ok"]
        assert "Your tile" in mine["messages"][0]["text"]  # Bob's own seat, as /fc hand shows it

        again = await _launch(http, url, code)  # a code is good once
        assert again[0] == 403 and "Discord did not vouch" in again[1]["error"]
        assert (await _launch(http, url, "made-up"))[0] == 403
        assert (await _launch(http, url, 12))[0] == 403

        status, body = await _launch(http, url, discord.authorise(ZED))  # no seat here
        assert status == 200
        status, theirs = await seat(http, url, body["token"])
        assert not theirs.get("ok")  # a spectator: nothing of a seat
    service.computer.close()


async def test_another_applications_client_gets_nothing(
    store: Store, site: Site, discord: FakeDiscord
) -> None:
    wrong = _settings(discord, discord_client_secret=SecretStr("not-the-secret"))
    service = GameService(store, wrong, seeds=fixed_seeds())
    path = await _dealt(service)
    url = await site(service) + path
    async with aiohttp.ClientSession() as http:
        status, body = await _launch(http, url, discord.authorise(ANN))
        assert status == 403 and "token" not in body
        async with http.get(url) as page:  # framed by Discord alone, inside Discord
            policy = page.headers["Content-Security-Policy"]
    assert (
        "frame-ancestors https://discord.com" in policy
        and "'none'" not in policy.split("frame-ancestors")[1]
    )
    service.computer.close()


async def test_without_the_activity_no_code_is_traded(
    store: Store, site: Site, discord: FakeDiscord
) -> None:
    plain = _settings(discord, discord_activity=False)
    service = GameService(store, plain, seeds=fixed_seeds())
    path = await _dealt(service)
    url = await site(service) + path
    async with aiohttp.ClientSession() as http:
        status, _ = await _launch(http, url, discord.authorise(ANN))
        assert status == 403
        async with http.get(url) as page:
            assert "frame-ancestors 'none'" in page.headers["Content-Security-Policy"]
    assert ("POST", "/oauth2/token") not in discord.requests  # Discord was not even asked
    service.computer.close()
