"""The page as a Discord Activity, server side, against the fake Discord: the `identify` code
the page's SDK got is traded at Discord's OAuth2 token endpoint for the player, whose seat
the page then plays; a wrong or used code, another application's client and a user with no
seat get nothing of a seat. Inside Discord the page may be framed by Discord alone."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import pytest
from playwright.async_api import expect
from pydantic import SecretStr

from bot.config import Settings
from bot.discord import FcClient
from bot.exchange.actor import Actor
from bot.service import GameService
from bot.store import Channel, Store
from tests.browser import chromium
from tests.conftest import Site, fixed_seeds
from tests.fake_discord import FakeDiscord, Person, dispatch, fake_discord, logged_in
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
        async with http.get(url) as page:  # framed by Discord (or its own pages) alone
            policy = page.headers["Content-Security-Policy"]
    framers = policy.split("frame-ancestors ")[1].split(";")[0].split()
    assert framers == [
        "'self'",
        "https://discord.com",
        "https://*.discord.com",
        f"https://{discord.app_id}.discordsays.com",  # the bot's own application's alone
    ]
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


PARENT = """<!doctype html><html><body>
<iframe id="app" width="600" height="900" src="%(src)s"></iframe>
<script>
// Discord's client, as far as the Embedded App SDK sees it: the handshake answered with READY,
// AUTHORIZE with the code the fake Discord made, AUTHENTICATE with the user.
const app = document.getElementById("app");
window.commands = [];
window.addEventListener("message", (event) => {
  const [opcode, data] = event.data;
  const reply = (payload) => app.contentWindow.postMessage([1, payload], "*");
  if (opcode === 0) {
    reply({cmd: "DISPATCH", evt: "READY", nonce: null,
           data: {v: 1, config: {api_endpoint: "//discord.com/api", environment: "production"}}});
  } else if (opcode === 1) {
    window.commands.push(data.cmd);
    if (data.cmd === "AUTHORIZE") {
      reply({cmd: "AUTHORIZE", evt: null, nonce: data.nonce, data: {code: "%(code)s"}});
    } else if (data.cmd === "AUTHENTICATE") {
      reply({cmd: "AUTHENTICATE", evt: null, nonce: data.nonce, data: {
        access_token: data.args.access_token, scopes: ["identify"], expires: "2030-01-01",
        user: {username: "bob", discriminator: "0", id: "%(user)s", public_flags: 0},
        application: {id: "1", name: "fc-bot", description: ""}}});
    }
  }
});
</script></body></html>"""


async def test_the_activity_signs_in_through_discord_and_opens_the_players_seat(
    store: Store, site: Site, discord: FakeDiscord
) -> None:
    service = GameService(store, _settings(discord), seeds=fixed_seeds())
    path = await _dealt(service)
    address = await site(service)
    # Discord opens the Activity's root with its launch parameters, the channel among them.
    src = f"/activity?frame_id=f1&instance_id=i1&platform=desktop&guild_id=7&channel_id={CHANNEL}"
    parent = PARENT % {"src": src, "code": discord.authorise(BOB), "user": BOB.id}
    async with chromium() as browser:
        page = await browser.new_page()
        # Discord's client stands in the parent frame, served at the page's own origin.
        await page.route(
            f"{address}/discord-client.html",
            lambda route: route.fulfill(body=parent, content_type="text/html"),
        )
        await page.goto(f"{address}/discord-client.html")
        app = page.frame_locator("#app")
        await expect(app.locator("#table")).to_have_attribute("data-version", "3", timeout=10_000)
        await expect(app.locator("#choices .text").first).to_contain_text("Your tile")
        frame = next(f for f in page.frames if f.parent_frame is not None)
        assert frame.url.startswith(f"{address}{path}?frame_id=f1")  # Discord's launch kept
        assert "seat=" not in frame.url  # the token left the address
        assert await page.evaluate("window.commands") == ["AUTHORIZE", "AUTHENTICATE"]
    assert ("POST", "/oauth2/token") in discord.requests
    service.computer.close()


async def test_play_on_the_board_launches_the_activity_from_the_channel(
    store: Store, discord: FakeDiscord
) -> None:
    service = GameService(store, _settings(discord), seeds=fixed_seeds())
    async with logged_in(FcClient(service, deadline_seconds=None)) as client:
        for person, text in ((ANN, "new"), (BOB, "join"), (ANN, "start")):
            await dispatch(client, discord.command_payload(person, text))
        await dispatch(client, discord.command_payload(BOB, "board"))
        board = discord.channel_messages()[-1]
        button = board.button(f"fc:ac:{discord.channel_id}:0:open")
        assert button["label"] == "Play on the board"
        await dispatch(client, discord.press_payload(BOB, board, button["custom_id"]))
        assert discord.last_interaction().callbacks == [{"type": 12}]  # LAUNCH_ACTIVITY
    assert discord.unexpected == []
    service.computer.close()


async def test_without_the_activity_the_board_launches_nothing(
    store: Store, discord: FakeDiscord
) -> None:
    plain = _settings(discord, discord_activity=False)
    service = GameService(store, plain, seeds=fixed_seeds())
    async with logged_in(FcClient(service, deadline_seconds=None)) as client:
        for person, text in ((ANN, "new"), (BOB, "join"), (ANN, "start"), (BOB, "board")):
            await dispatch(client, discord.command_payload(person, text))
        board = discord.channel_messages()[-1]
        assert not [c for c in board.custom_ids() if c.startswith("fc:ac:")]
    service.computer.close()


async def test_the_activitys_entry_refuses_what_it_cannot_open(
    store: Store, site: Site, discord: FakeDiscord
) -> None:
    service = GameService(store, _settings(discord), seeds=fixed_seeds())
    address = await site(service)

    async def opened(code: object, channel: object) -> tuple[int, dict]:  # type: ignore[type-arg]
        body = {"code": code, "channel_id": channel}
        async with http.post(f"{address}/activity/open", json=body) as answer:
            return answer.status, await answer.json()

    async with aiohttp.ClientSession() as http:
        async with http.get(f"{address}/activity") as page:
            assert page.status == 200 and 'src="/static/activity.js"' in await page.text()
        status, body = await opened(discord.authorise(ANN), "999")  # no table in that channel
        assert status == 404 and body["error"] == "There is no table here. Open one with /fc new."
        assert body["access_token"]  # the SDK still signs in, to say so inside Discord
        assert (await opened("made-up", CHANNEL))[0] == 403
        assert (await opened(discord.authorise(ANN), "../etc"))[0] == 404
    plain = GameService(store, _settings(discord, discord_activity=False))
    address = await site(plain)
    async with aiohttp.ClientSession() as http, http.get(f"{address}/activity") as page:
        assert page.status == 404  # no Activity here
    service.computer.close()
    plain.computer.close()
