"""The web door, closed: a seat's link opens its seat and nothing else, against the real server
and a real Redis. Each case is an attack a review reproduced from outside, kept so that none
can come back: a token pressing another table's buttons, a forwarded address from anyone, the
Activity's launch as a free outbound call, bad names and bodies as 500s, Telegram's launch
opening other platforms' seats, links that could not be ended, and a forgotten name shown
from a cache."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator
from ipaddress import ip_network

import aiohttp
import pytest
from aiohttp.test_utils import make_mocked_request
from pydantic import SecretStr

from bot.config import Settings
from bot.exchange.actor import Actor
from bot.links.startapp import start_param
from bot.service import GameService
from bot.store import Channel, Store
from bot.web.limits import address
from tests.conftest import Site, fixed_seeds
from tests.fake_discord import FakeDiscord, fake_discord
from tests.fake_telegram import TOKEN, TgUser, init_data
from tests.test_web_seats import (
    Clock,
    personal_link,
    press,
    seat,
    settings,
    start,
    who,
)

BACKENDS = ("single",)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def service(store: Store, clock: Clock) -> AsyncIterator[GameService]:
    made = GameService(store, settings(), seeds=fixed_seeds(), clock=clock)
    yield made
    made.computer.close()


async def _version(store: Store, channel: str) -> int:
    record = await store.load(Channel.of("console", channel))
    assert record is not None
    return record.version


async def _choices(service: GameService, user: str, channel: str) -> list[str]:
    """The data of the choices `user` is offered privately at `channel`'s table now."""
    hand = await service.command(who(user, channel), "hand")
    return [c.data for m in hand.private for c in m.choices]


async def test_a_seat_token_presses_on_its_own_table_and_no_other(
    service: GameService, site: Site, store: Store
) -> None:
    """The same person seated at two tables: their token for the first cannot move the
    second, vote there, replay its games or forget them; the same press with the second
    table's own token plays."""
    await start(service, "g1")
    dealt, g2 = await start(service, "g2")
    mover, path2, token2 = personal_link(dealt)  # the one to play at g2
    g1 = (await store.load(Channel.of("console", "g1"))).game_id  # type: ignore[union-attr]
    token1 = await service.seat_token("console", "g1", g1, mover)
    url1 = await site(service) + f"/t/console/g1/{g1}"
    [spot, *_] = await _choices(service, mover, "g2")
    assert ":g2:" in spot
    before = {room: await _version(store, room) for room in ("g1", "g2")}
    async with aiohttp.ClientSession() as http:
        for data in (
            spot,  # another table's move
            "fc:v:g2:0:skip",  # a vote there
            "fc:rp:g2:0:" + g2[:8],  # a replay of its game
            "fc:rp:g1:0:" + "0" * 8,  # another kept game of this very chat
            f"fc:fg:g1:0:{mover}",  # a forget: no table's to make
        ):
            status, body = await press(http, url1, token1, data)
            assert status == 403, data
            assert body["error"] == "This page plays its own table only."
        assert {room: await _version(store, room) for room in ("g1", "g2")} == before
        assert await service.fire_due("console") == []  # nothing posted, anywhere
        url2 = url1.replace(f"/g1/{g1}", f"/g2/{g2}")
        assert url2.endswith(path2)
        status, body = await press(http, url2, token2, spot)  # its own token: it plays on
        assert status == 200 and body["ok"]


async def test_a_player_ends_their_links_with_fc_web_new(
    service: GameService, site: Site, store: Store
) -> None:
    dealt, _ = await start(service, "room1")
    user, path, old = personal_link(dealt)
    url = await site(service) + path
    async with aiohttp.ClientSession() as http:
        assert (await seat(http, url, old))[0] == 200
        ended = await service.command(who(user, "room1"), "web new")
        assert (
            ended.ok and "Your earlier links to this table play no more." in ended.private[0].text
        )
        fresh = ended.private[0].web.partition("#seat=")[2]
        status, body = await seat(http, url, old)
        assert status == 403 and "no longer plays for you" in body["error"]
        [spot, *_] = await _choices(service, user, "room1")
        before = await _version(store, "room1")
        assert (await press(http, url, old, spot))[0] == 403
        assert await _version(store, "room1") == before
        status, body = await seat(http, url, fresh)
        assert status == 200 and body["ok"]
        refused = await service.command(who(user, "room1"), "web again")
        assert not refused.ok
        assert refused.private[0].text == "Write /fc web, or /fc web new to end your earlier links."


async def test_leaving_a_table_ends_the_links_made_for_the_seat(
    service: GameService, site: Site
) -> None:
    assert (await service.command(who("ann", "room1"), "new")).ok
    assert (await service.command(who("bob", "room1"), "join")).ok
    record = await service.store.load(Channel.of("console", "room1"))
    assert record is not None
    path = f"/t/console/room1/{record.game_id}"
    url = await site(service) + path
    token = await service.seat_token("console", "room1", record.game_id, "bob")
    async with aiohttp.ClientSession() as http:
        assert (await seat(http, url, token))[0] == 200  # his seat, not dealt yet
        assert (await service.command(who("bob", "room1"), "leave")).ok
        assert (await service.command(who("bob", "room1"), "join")).ok  # and back
        status, body = await seat(http, url, token)
        assert status == 403 and "no longer plays for you" in body["error"]
        again = await service.seat_token("console", "room1", record.game_id, "bob")
        assert (await seat(http, url, again))[0] == 200


def test_a_forwarded_address_counts_only_from_a_trusted_proxy() -> None:
    proxy = (ip_network("127.0.0.1/32"),)

    def found(peer: str, forwarded: str | None, trusted: tuple[object, ...]) -> str:
        headers = {} if forwarded is None else {"X-Forwarded-For": forwarded}
        request = make_mocked_request("GET", "/", headers=headers).clone(remote=peer)
        return address(request, trusted)  # type: ignore[arg-type]

    assert found("127.0.0.1", "203.0.113.9", ()) == "127.0.0.1"  # trusted by nobody
    assert found("127.0.0.1", "203.0.113.9", proxy) == "203.0.113.9"
    assert found("198.51.100.7", "203.0.113.9", proxy) == "198.51.100.7"  # not our proxy
    # A client's own header before what the proxy appended: the proxy's word counts.
    assert found("127.0.0.1", "1.2.3.4, 203.0.113.9", proxy) == "203.0.113.9"
    assert found("127.0.0.1", "not-an-address", proxy) == "127.0.0.1"
    assert found("127.0.0.1", None, proxy) == "127.0.0.1"


async def _slowed(http: aiohttp.ClientSession, url: str, rotate: bool) -> int:
    """Of 100 leaderboard pages asked at once, how many are told to wait (429); each asks
    with another forwarded address if `rotate`."""

    async def one(n: int) -> int:
        headers = {"X-Forwarded-For": f"198.51.100.{n}"} if rotate else {}
        async with http.get(url, headers=headers) as answer:
            assert answer.status in (200, 429)
            return answer.status

    return (await asyncio.gather(*(one(n) for n in range(100)))).count(429)


async def test_a_rotating_forwarded_header_does_not_escape_the_address_limit(
    store: Store, site: Site
) -> None:
    plain = GameService(store, settings(), seeds=fixed_seeds())
    behind = GameService(store, settings(trusted_proxies="127.0.0.1"), seeds=fixed_seeds())
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
        assert await _slowed(http, await site(plain) + "/top/forbidden_city", rotate=True) >= 20
        url = await site(behind) + "/top/forbidden_city"
        assert await _slowed(http, url, rotate=True) == 0  # each address its own
        assert await _slowed(http, url, rotate=False) >= 20
    plain.computer.close()
    behind.computer.close()


@pytest.fixture
async def discord() -> AsyncIterator[FakeDiscord]:
    async with fake_discord() as fake:
        yield fake


def _activity(fake: FakeDiscord) -> Settings:
    return settings(
        discord_api_base=fake.base,
        discord_activity=True,
        discord_client_id=str(fake.app_id),
        discord_client_secret=SecretStr(fake.client_secret),
    )


def _trades(fake: FakeDiscord) -> int:
    return sum(1 for method, path in fake.requests if path == "/oauth2/token")


async def test_the_activitys_launch_calls_discord_within_its_limits(
    store: Store, site: Site, discord: FakeDiscord
) -> None:
    service = GameService(store, _activity(discord), seeds=fixed_seeds())
    address = await site(service)
    async with aiohttp.ClientSession() as http:
        for code in ("x", "code with spaces", "é" * 30, "a" * 500, 7, None, ["a" * 30]):
            async with http.post(address + "/activity/open", json={"code": code}) as answer:
                assert answer.status == 403
        assert _trades(discord) == 0  # refused by their shape, before any call
        statuses = []
        for n in range(200):
            body = {"code": f"{n:030d}", "channel_id": "4242"}
            async with http.post(address + "/activity/open", json=body) as answer:
                statuses.append(answer.status)
        assert statuses.count(429) >= 180 and set(statuses) == {403, 429}
        assert _trades(discord) <= 20  # the burst an address may trade, and no more
        async with http.post(address + "/activity/open", json={"code": "b" * 30}) as answer:
            said = await answer.json()
            assert (
                answer.status == 429
                and said["error"] == "Too many requests at once: wait a moment."
            )
    service.computer.close()


async def test_names_no_table_can_have_are_404_not_500(
    service: GameService, site: Site, caplog: pytest.LogCaptureFixture
) -> None:
    _, game_id = await start(service, "room1")
    address = await site(service)
    caplog.set_level(logging.DEBUG)
    async with aiohttp.ClientSession() as http:
        for path in (
            "/p/console/a:b",
            "/p/console/a%20b",
            "/top/forbidden_city/console/a:b",
            f"/t/console/a:b/{game_id}",
            f"/t/console/room1/{game_id}:x/state",
            "/t/console/a%20b/x/board.png",
            "/t/con:sole/room1/x/events",
            "/r/console/a:b/x",
            "/r/console/room1/a%20b/frame/1.png",
            f"/t/console/room1/{game_id}/seat",  # no token: refused, not failed
        ):
            async with http.get(address + path) as answer:
                assert answer.status in (403, 404), path
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


async def test_bodies_that_are_not_plain_json_are_refused_in_words(
    service: GameService, site: Site, caplog: pytest.LogCaptureFixture
) -> None:
    dealt, _ = await start(service, "room1")
    _, path, token = personal_link(dealt)
    address = await site(service)
    deep = "[" * 30_000 + "]" * 30_000  # within the size a body may have
    deeper = "[" * 100_000 + "]" * 100_000
    caplog.set_level(logging.DEBUG)
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    before = await _version(service.store, "room1")
    async with aiohttp.ClientSession() as http:
        for url in (address + path + "/press", address + "/app/open", address + "/activity/open"):
            async with http.post(url, data=deep, headers=headers) as answer:
                assert answer.status == 400, url
                assert (await answer.json())["error"] == "A JSON body is expected."
            async with http.post(url, data=deeper, headers=headers) as answer:
                assert answer.status == 413, url
                assert (await answer.json())["error"] == "That request is too large."
        plain = {"Authorization": f"Bearer {token}", "Content-Type": "text/plain"}
        body = json.dumps({"data": "fc:sp:room1:0:1"})
        async with http.post(address + path + "/press", data=body, headers=plain) as answer:
            assert answer.status == 415  # what another site's form could send
    assert await _version(service.store, "room1") == before
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


async def test_telegrams_launch_opens_telegram_seats_only(store: Store, site: Site) -> None:
    service = GameService(store, settings(telegram_token=SecretStr(TOKEN)), seeds=fixed_seeds())
    _, game_id = await start(service, "room1")  # a console table, ann seated
    address = await site(service)
    ann = TgUser(id=1, first_name="Ann")  # whoever Telegram says: no console seat is theirs
    async with aiohttp.ClientSession() as http:
        for platform, channel in (("console", "room1"), ("discord", "4242")):
            start_at = start_param(Channel(platform, channel), game_id)
            signed = init_data(TOKEN, ann, time.time(), start_param=start_at)
            async with http.post(address + "/app/open", json={"initData": signed}) as answer:
                said = await answer.json()
                assert answer.status == 404 and "token" not in said
    service.computer.close()


async def test_no_version_is_disclosed(service: GameService, site: Site) -> None:
    address = await site(service)
    async with aiohttp.ClientSession() as http:
        for path in ("/static/table.css", "/top/forbidden_city", "/nowhere"):
            async with http.get(address + path) as answer:
                assert answer.headers["Server"] == "fc-bot"


async def test_a_forgotten_name_leaves_an_ended_tables_page_at_once(
    service: GameService, site: Site, store: Store
) -> None:
    assert (await service.command(who("zebulon", "room1"), "new")).ok
    assert (await service.command(who("ann", "room1"), "join")).ok
    assert (await service.command(who("zebulon", "room1"), "start")).ok
    record = await store.load(Channel.of("console", "room1"))
    assert record is not None
    assert (await service.command(who("zebulon", "room1"), "abort")).ok
    url = await site(service) + f"/t/console/room1/{record.game_id}"
    async with aiohttp.ClientSession() as http:
        async with http.get(url + "/state") as answer:
            shown = await answer.json()
            assert "Zebulon" in shown["seats"]  # kept by the process
        private = Actor("console", "dm-zebulon", "zebulon", "Zebulon", private=True)
        asked = await service.command(private, "forget me")
        [button] = asked.private[0].buttons[0]
        done = await service.press(private, button.data)
        assert done.ok, done.private[0].text
        for part in ("", "/state"):
            async with http.get(url + part) as answer:
                assert "Zebulon" not in await answer.text()
        async with http.get(url + "/state") as answer:
            # A new picture too: the one kept under the old version showed the name.
            assert (await answer.json())["board"] != shown["board"]


async def test_the_streams_a_process_holds_are_capped(
    store: Store, site: Site, service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.web import server

    monkeypatch.setattr(server, "PING", 0.1)  # a page gone is heard of at the next ping
    capped = GameService(
        store,
        settings(web_max_streams=4, web_max_streams_per_address=2, trusted_proxies="127.0.0.1"),
        seeds=fixed_seeds(),
    )
    _, game_id = await start(service, "room1")
    url = await site(capped) + f"/t/console/room1/{game_id}/events"
    async with aiohttp.ClientSession() as http:
        held = []
        for _ in range(2):
            answer = await http.get(url, headers={"X-Forwarded-For": "203.0.113.1"})
            assert answer.status == 200
            held.append(answer)
        async with http.get(url, headers={"X-Forwarded-For": "203.0.113.1"}) as answer:
            assert answer.status == 429 and answer.headers["Retry-After"]
        for n in range(2):
            answer = await http.get(url, headers={"X-Forwarded-For": f"203.0.113.{n + 2}"})
            assert answer.status == 200
            held.append(answer)
        async with http.get(url, headers={"X-Forwarded-For": "203.0.113.9"}) as answer:
            assert answer.status == 503
            said = await answer.json()
            assert said["error"].startswith("The table's page is busy")
        held.pop().close()  # one page goes: another may come
        for _ in range(100):
            answer = await http.get(url, headers={"X-Forwarded-For": "203.0.113.9"})
            if answer.status == 200:
                held.append(answer)
                break
            answer.close()
            await asyncio.sleep(0.05)
        else:
            pytest.fail("a stream's place was never given back")
        for answer in held:
            answer.close()
    capped.computer.close()


async def test_a_quiet_stream_rests_and_says_so(
    service: GameService, site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.web import server

    monkeypatch.setattr(server, "PING", 0.05)
    monkeypatch.setattr(server, "RECHECK", 0.1)
    monkeypatch.setattr(server, "IDLE", 0.3)
    _, game_id = await start(service, "room1")
    url = await site(service) + f"/t/console/room1/{game_id}/events"
    started = time.monotonic()
    async with aiohttp.ClientSession() as http, http.get(url) as answer:
        text = (await asyncio.wait_for(answer.read(), 10)).decode()
    assert "event: state" in text and text.rstrip().endswith("event: idle\ndata: {}")
    assert time.monotonic() - started < 5
