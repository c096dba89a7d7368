"""Attacks from outside that a security review tried on the web pages and that held, kept so
none comes back: against the real server (`bot.web.serve`) on loopback and a real Redis.

A seat token that is not this table's own, good and in date opens nothing and plays nothing;
no path leaves the static folder or sends the browser to another host; Mini App launch data
is trusted only as Telegram signs it (signed here by our own reading of Telegram's
documentation, not the bot's code); an oversized body is refused before it is read; no
response carries a secret or a seat token; every response carries the strict policy.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import re
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from urllib.parse import urlsplit

import aiohttp
import pytest
from pydantic import SecretStr

import bot.links.tokens
from bot.config import Settings
from bot.exchange.actor import Actor
from bot.service import GameService
from bot.store import Channel, Store
from tests.conftest import Site, fixed_seeds
from tests.security.attacks import (
    OUTSIDE,
    STATIC,
    TRAVERSALS,
    init_data,
    launch_fields,
    outside_markers,
    policy,
    raw_request,
    replaced,
    telegram_user,
)
from tests.test_web_replay import LINK, played_out
from tests.test_web_replay import who as kept_player
from tests.test_web_seats import NOW, SECRET, Clock, personal_link, press, seat, settings, start
from tests.test_web_seats import who as player
from tests.test_web_table import settings as plain_settings

BACKENDS = ("single",)
TELEGRAM_TOKEN = "4242424242:held-telegram-bot-token-AAaa"
DISCORD_SECRET = "held-discord-client-secret-0123456789"
DISCORD_CLIENT = "424242424242"
CHAT = "-100777"  # a Telegram group
ANN_TG, BEN_TG, EVE_TG = 501, 502, 509
DAY = 86400


@dataclass
class Seen:
    """One response, as any visitor gets it."""

    what: str
    status: int
    headers: list[tuple[str, str]]
    body: bytes


def every_setting(redis_url: str, **values: object) -> Settings:
    """The bot with every secret it can hold set, and every page that can be served on."""
    chosen: dict[str, object] = {
        "telegram_token": SecretStr(TELEGRAM_TOKEN),
        "discord_activity": True,
        "discord_client_id": DISCORD_CLIENT,
        "discord_client_secret": SecretStr(DISCORD_SECRET),
        "discord_api_base": "http://127.0.0.1:9",  # never reached: no code here is sent on
        "redis_url": SecretStr(redis_url),
    }
    return settings(**{**chosen, **values})


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def signed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every seat token the bot signs during the test, wherever it signs one."""
    made: list[str] = []
    original = bot.links.tokens.sign

    def spy(secret: bytes, token: bot.links.tokens.SeatToken) -> str:
        text = original(secret, token)
        made.append(text)
        return text

    for module in list(sys.modules.values()):
        if module.__name__.startswith("bot") and getattr(module, "sign", None) is original:
            monkeypatch.setattr(module, "sign", spy)
    return made


@pytest.fixture
async def service(
    store: Store, clock: Clock, redis_url: str, signed: list[str]
) -> AsyncIterator[GameService]:
    made = GameService(store, every_setting(redis_url), seeds=fixed_seeds(), clock=clock)
    yield made
    made.computer.close()


async def version(store: Store, platform: str, channel: str) -> int:
    record = await store.load(Channel.of(platform, channel))
    assert record is not None
    return record.version


async def confirm_data(http: aiohttp.ClientSession, url: str, token: str) -> str:
    """The genuine player picks a spot and a rotation on the page: the data of the press that
    would place the tile, which nothing has played yet."""
    status, body = await seat(http, url, token)
    assert status == 200 and body["ok"], body
    status, rotations = await press(http, url, token, body["messages"][0]["choices"][0]["data"])
    assert status == 200 and rotations["ok"], rotations
    rotation = rotations["messages"][0]["buttons"][0][0]["data"]
    status, preview = await press(http, url, token, rotation)
    assert status == 200 and preview["ok"], preview
    confirm = preview["messages"][0]["buttons"][0][0]
    assert confirm["label"] == "Place it here"
    return str(confirm["data"])


def resigned(genuine: str, **change: object) -> str:
    """The genuine token with one of its claims changed, signed again with the bot's own
    secret: what the bot would make for that other seat, table or time."""
    token = bot.links.tokens.read(SECRET.encode(), genuine, NOW)
    assert token is not None
    return bot.links.tokens.sign(SECRET.encode(), dataclasses.replace(token, **change))  # type: ignore[arg-type]


async def other_secrets_token(store: Store, clock: Clock, user: str, channel: str) -> str:
    """A token for this very seat from a bot with another WEB_SECRET (a staging copy, say)."""
    chosen = plain_settings(web_secret=SecretStr("another-bots-secret"))
    other = GameService(store, chosen, seeds=fixed_seeds(), clock=clock)
    try:
        hand = await other.command(player(user, channel), "hand")
    finally:
        other.computer.close()
    link = urlsplit(hand.private[0].web)
    assert link.fragment.startswith("seat=")
    return link.fragment[5:]


BAD_TOKENS = (
    "forged-signature",
    "forged-claims",
    "expired",
    "truncated",
    "wrong-secret",
    "other-table",
    "other-channel",
    "other-platform",
)


@pytest.mark.parametrize("kind", BAD_TOKENS)
async def test_a_seat_token_not_this_tables_own_good_and_in_date_opens_and_plays_nothing(
    kind: str, service: GameService, site: Site, store: Store, clock: Clock
) -> None:
    dealt, game_id = await start(service, "room1")
    user, path, token = personal_link(dealt)
    elsewhere, _ = await start(service, "room2")
    _, _, room2_token = personal_link(elsewhere)
    other = "ann" if user == "bob" else "bob"
    hand = await service.command(player(other, "room1"), "hand")
    others_token = urlsplit(hand.private[0].web).fragment[5:]
    body, _, mac = token.partition(".")
    wrong_secret = await other_secrets_token(store, clock, user, "room1")
    bad: list[str] = {
        "forged-signature": [f"{body}.{mac[:-3]}{'AAA' if mac[-3:] != 'AAA' else 'BBB'}"],
        # The other player's claims under this one's signature, and the other way round.
        "forged-claims": [
            f"{others_token.partition('.')[0]}.{mac}",
            f"{body}.{others_token.partition('.')[2]}",
        ],
        "expired": [resigned(token, expires=NOW - 1)],
        "truncated": [
            token[:-1],
            token[: len(token) // 2],
            body,
            f"{body}.",
            f".{mac}",
            mac,
            ".",
        ],
        "wrong-secret": [wrong_secret],
        "other-table": [resigned(token, game_id="0" * 32), resigned(token, game_id=game_id[:-1])],
        "other-channel": [room2_token, resigned(token, channel_id="room2")],
        "other-platform": [resigned(token, platform=p) for p in ("telegram", "discord")],
    }[kind]
    url = await site(service) + path
    async with aiohttp.ClientSession() as http:
        data = await confirm_data(http, url, token)
        before = await version(store, "console", "room1")
        assert await service.fire_due("console") == []
        for attempt in bad:
            assert attempt != token
            status, answer = await seat(http, url, attempt)
            assert status == 403 and "no longer plays for you" in answer["error"], attempt
            status, answer = await press(http, url, attempt, data)
            assert status == 403 and "messages" not in answer, attempt
        if kind == "expired":  # the genuine link itself, a day on
            clock.now = NOW + DAY + 1
            assert (await seat(http, url, token))[0] == 403
            assert (await press(http, url, token, data))[0] == 403
            clock.now = NOW
        assert await version(store, "console", "room1") == before
        assert await service.fire_due("console") == []  # nothing was posted
        # The genuine token still places the tile: the refused presses would have played.
        status, placed = await press(http, url, token, data)
        assert status == 200 and placed["ok"], placed
    assert await version(store, "console", "room1") > before
    assert [(p, c) for p, c, _ in await service.fire_due("console")] == [("console", "room1")]


async def test_no_path_leaves_the_static_folder_or_leads_to_another_host(
    service: GameService, site: Site
) -> None:
    await start(service, "room1")
    address = await site(service)
    markers = outside_markers()
    whole = [path.read_bytes() for path in OUTSIDE]
    control = await raw_request(address, "/static/table.css")  # the raw client does reach files
    assert control.status == 200 and control.body == (STATIC / "table.css").read_bytes()
    assert len(TRAVERSALS) >= 30
    wrong: list[str] = []
    for target in TRAVERSALS:
        answer = await raw_request(address, target)
        if answer.status not in (400, 403, 404):
            wrong.append(f"{target}: {answer.status}")
        if answer.header("Location") is not None:
            wrong.append(f"{target}: sends to {answer.header('Location')}")
        leaked = [m for m in markers if m in answer.body] + [w for w in whole if w == answer.body]
        if leaked:
            wrong.append(f"{target}: served {leaked[0][:40]!r}")
    assert wrong == []


def telegram_player(user_id: int) -> Actor:
    names = {ANN_TG: "Ann", BEN_TG: "Ben", EVE_TG: "Eve"}
    return Actor("telegram", CHAT, str(user_id), names[user_id], community=CHAT)


@pytest.fixture
async def telegram_table(service: GameService) -> AsyncIterator[str]:
    """A Telegram group's table, dealt between Ann and Ben: its page's path."""
    assert (await service.command(telegram_player(ANN_TG), "new")).ok
    assert (await service.command(telegram_player(BEN_TG), "join")).ok
    assert (await service.command(telegram_player(ANN_TG), "start")).ok
    record = await service.store.load(Channel.of("telegram", CHAT))
    assert record is not None
    yield f"/t/telegram/{CHAT}/{record.game_id}"


async def launched(http: aiohttp.ClientSession, url: str, data: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    async with http.post(url + "/telegram", json={"initData": data}) as answer:
        return answer.status, await answer.json()


def launch(user_id: int, name: str, auth_date: float, bot_token: str = TELEGRAM_TOKEN) -> str:
    return init_data(bot_token, launch_fields(telegram_user(user_id, name), auth_date))


async def test_launch_data_signed_as_telegram_documents_opens_that_players_own_seat(
    service: GameService, site: Site, telegram_table: str
) -> None:
    url = await site(service) + telegram_table
    shown: dict[int, str] = {}
    async with aiohttp.ClientSession() as http:
        # Just now, and a moment short of a day ago: both are still Telegram's word.
        for user_id, name, when in ((ANN_TG, "Ann", NOW - 5), (BEN_TG, "Ben", NOW - DAY + 5)):
            status, body = await launched(http, url, launch(user_id, name, when))
            assert status == 200 and body["token"], body
            status, mine = await seat(http, url, body["token"])
            assert status == 200 and mine["ok"], mine
            hand = await service.command(telegram_player(user_id), "hand")  # as the chat shows them
            assert mine["messages"][0]["text"] == hand.private[0].text
            shown[user_id] = mine["messages"][0]["text"]
        status, body = await launched(http, url, launch(EVE_TG, "Eve", NOW))
        assert status == 200
        status, theirs = await seat(http, url, body["token"])
        assert status == 200 and not theirs["ok"]  # no seat at this table: a spectator's page
    assert shown[ANN_TG] != shown[BEN_TG]  # each got their own seat, not the other's


def _refused_launches() -> dict[str, str]:
    """Launch data Telegram did not sign as it stands, for this bot, within the day."""
    good = launch(ANN_TG, "Ann", NOW - 5)
    old = launch(ANN_TG, "Ann", NOW - DAY - 1)  # a day and a second before the service's clock
    return {
        "user-changed-after-signing": replaced(good, "user", telegram_user(BEN_TG, "Ann")),
        "a-day-old": old,
        "a-day-old-with-its-date-changed": replaced(old, "auth_date", str(int(NOW))),
        "another-bots-token": launch(ANN_TG, "Ann", NOW - 5, "999:another-bot"),
        "without-its-hash": good.rpartition("&hash=")[0],
        "a-made-up-hash": good.rpartition("=")[0] + "=" + "0" * 64,
    }


@pytest.mark.parametrize("kind", list(_refused_launches()))
async def test_launch_data_tampered_too_old_or_for_another_bot_is_refused(
    kind: str, service: GameService, site: Site, telegram_table: str, store: Store
) -> None:
    url = await site(service) + telegram_table
    before = await version(store, "telegram", CHAT)
    async with aiohttp.ClientSession() as http:
        status, body = await launched(http, url, _refused_launches()[kind])
        assert status == 403 and "token" not in body
        assert body["error"].startswith("Telegram did not vouch for this page")
        # The same person, signed as Telegram signs: let in (the refusal is the data's).
        assert (await launched(http, url, launch(ANN_TG, "Ann", NOW - 5)))[0] == 200
    assert await version(store, "telegram", CHAT) == before
    assert await service.fire_due("telegram") == []


async def _chunks(data: bytes) -> AsyncIterator[bytes]:
    for at in range(0, len(data), 64 * 1024):
        yield data[at : at + 64 * 1024]


@pytest.mark.parametrize("sent", ["with-its-length", "chunked"])
@pytest.mark.parametrize("route", ["press", "telegram", "discord", "app-open", "activity-open"])
async def test_a_two_megabyte_body_is_refused_and_the_server_goes_on(
    route: str, sent: str, service: GameService, site: Site, store: Store
) -> None:
    dealt, _ = await start(service, "room1")
    _, path, token = personal_link(dealt)
    address = await site(service)
    target = {
        "press": f"{path}/press",
        "telegram": f"{path}/telegram",
        "discord": f"{path}/discord",
        "app-open": "/app/open",
        "activity-open": "/activity/open",
    }[route]
    field = {"press": "data", "discord": "code", "activity-open": "code"}.get(route, "initData")
    huge = json.dumps({field: "x" * 2_000_000}).encode()
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    before = await version(store, "console", "room1")
    async with aiohttp.ClientSession() as http:
        payload = huge if sent == "with-its-length" else _chunks(huge)
        async with http.post(address + target, data=payload, headers=headers) as answer:
            assert answer.status == 413
            assert "token" not in await answer.text()
        assert await version(store, "console", "room1") == before
        assert await service.fire_due("console") == []
        async with http.get(address + path) as page:  # and the pages are served as before
            assert page.status == 200
        status, mine = await seat(http, address + path, token)
        assert status == 200 and mine["ok"]


@dataclass
class Tables:
    """A kept game (room1, played out) and a live one (room2), served at `address`."""

    address: str
    live: str
    kept: str
    moves: int
    token: str  # the live table's first player's


async def tables(service: GameService, site: Site) -> Tables:
    moves = await played_out(service)
    history = await service.command(kept_player("ann"), "history")
    found = LINK.search(history.public[0].text)
    assert found is not None
    dealt, _ = await start(service, "room2")
    _, live, token = personal_link(dealt)
    for user in ("ann", "bob"):  # `/fc web` makes links too
        assert (await service.command(player(user, "room2"), "web")).ok
    return Tables(await site(service), live, f"/r/console/room1/{found[1]}", moves, token)


def _pairs(answer: aiohttp.ClientResponse) -> list[tuple[str, str]]:
    return [(k.decode("latin-1"), v.decode("latin-1")) for k, v in answer.raw_headers]


async def _first_event(http: aiohttp.ClientSession, address: str, path: str) -> Seen:
    async with http.get(address + path) as answer:
        got = b""
        async with asyncio.timeout(10):
            while b"event: state" not in got or b"\n\n" not in got.partition(b"event: state")[2]:
                got += await answer.content.readany()
        return Seen(path, answer.status, _pairs(answer), got)


async def public_responses(http: aiohttp.ClientSession, at: Tables) -> list[Seen]:
    """What anyone gets from every page that needs no token, error pages included."""
    a, live, kept = at.address, at.live, at.kept
    gets = [
        live,
        f"{live}/state",
        f"{live}/board.png",
        f"{live}/board.svg",
        kept,
        f"{kept}/frame/0.png",
        f"{kept}/frame/{at.moves}.png",
        "/top/forbidden_city",
        "/top/verbotene_stadt",
        "/top/forbidden_city/console/room1",
        "/p/console/ann",
        "/p/console/nobody",
        "/app",
        "/activity",
        *(f"/static/{p.relative_to(STATIC).as_posix()}" for p in STATIC.rglob("*") if p.is_file()),
        # Error pages: no table, no such game, no such page, no such file, no such frame.
        f"{live[:-4]}0000",
        "/t/console/nowhere/" + "0" * 32,
        f"{kept}/frame/{at.moves + 1}.png",
        "/r/console/room1/" + "0" * 32,
        "/top/chess",
        "/nothing-here",
        "/static/missing.js",
        f"{live}/seat",  # no token
    ]
    seen = [await _first_event(http, a, f"{live}/events")]
    for path in gets:
        async with http.get(a + path, allow_redirects=False) as answer:
            seen.append(Seen(path, answer.status, _pairs(answer), await answer.read()))
    posts = [
        (f"{live}/press", {"data": "x"}),
        (f"{live}/telegram", {"initData": "user=%7B%22id%22%3A1%7D&hash=00"}),
        (f"{live}/discord", {"code": ""}),
        ("/app/open", {"initData": ""}),
        ("/activity/open", {"code": ""}),
        (live, {}),  # a page that is not posted to
    ]
    for path, sent in posts:
        async with http.post(a + path, json=sent, allow_redirects=False) as answer:
            seen.append(Seen(f"POST {path}", answer.status, _pairs(answer), await answer.read()))
    async with http.head(a + live) as answer:
        seen.append(Seen(f"HEAD {live}", answer.status, _pairs(answer), b""))
    assert {s.status for s in seen} >= {200, 403, 404, 405}
    return seen


async def test_no_public_response_carries_a_secret_or_a_seat_token(
    service: GameService, site: Site, redis_url: str, signed: list[str]
) -> None:
    at = await tables(service, site)
    async with aiohttp.ClientSession() as http:
        seen = await public_responses(http, at)
    assert at.token in signed and len(signed) >= 4  # the spy saw the links the bot made
    secrets = {
        "WEB_SECRET": SECRET,
        "TELEGRAM_TOKEN": TELEGRAM_TOKEN,
        "the telegram token's secret half": TELEGRAM_TOKEN.partition(":")[2],
        "DISCORD_CLIENT_SECRET": DISCORD_SECRET,
        "REDIS_URL": redis_url,
        "the Redis socket": urlsplit(redis_url).path or redis_url,
        **{f"seat token {n}": t for n, t in enumerate(signed)},
        **{f"seat token {n}'s signature": t.rpartition(".")[2] for n, t in enumerate(signed)},
    }
    found = [
        f"{name} in {response.what} ({response.status})"
        for response in seen
        for name, secret in secrets.items()
        if secret.encode() in response.body
        or any(secret in f"{k}: {v}" for k, v in response.headers)
    ]
    assert found == []


def _unsafe(response: Seen, activity: bool) -> list[str]:
    """What is wrong with a response's policy headers; nothing for a safe one. Framed by
    nobody, or, as a Discord Activity, by Discord's client alone."""
    headers = {k.lower(): v for k, v in response.headers}
    said = f"{response.what} ({response.status})"
    wrong = [f"{said} sets a cookie" for k, _ in response.headers if k.lower() == "set-cookie"]
    if headers.get("x-content-type-options") != "nosniff":
        wrong.append(f"{said}: X-Content-Type-Options is {headers.get('x-content-type-options')}")
    if "content-security-policy" not in headers:
        return [*wrong, f"{said}: no Content-Security-Policy"]
    rules = policy(headers["content-security-policy"])
    expected = {
        "default-src": ["'none'"],
        "script-src": ["'self'"],
        "base-uri": ["'none'"],
        "form-action": ["'none'"],
    }
    if not activity:
        expected["frame-ancestors"] = ["'none'"]
    wrong += [
        f"{said}: {name} is {rules.get(name)}"
        for name, sources in expected.items()
        if rules.get(name) != sources
    ]
    wrong += [
        f"{said}: {name} allows {source}"
        for name, sources in rules.items()
        for source in sources
        if "unsafe" in source
        or source in ("*", "http:", "https:", "blob:")
        or (source == "data:" and name != "img-src")
    ]
    framers = rules.get("frame-ancestors", [])
    if activity and (not framers or not all(DISCORD.fullmatch(f) for f in framers)):
        wrong.append(f"{said}: framed by {framers}")
    return wrong


DISCORD = re.compile(r"'self'|https://([a-z0-9-]+\.|\*\.)?(discord|discordsays)\.com")


@pytest.mark.parametrize("activity", [False, True], ids=["plain", "as-a-discord-activity"])
async def test_every_response_carries_the_strict_policy_and_no_cookie(
    activity: bool, store: Store, site: Site, clock: Clock, redis_url: str
) -> None:
    chosen = every_setting(redis_url, discord_activity=activity)
    service = GameService(store, chosen, seeds=fixed_seeds(), clock=clock)
    try:
        at = await tables(service, site)
        auth = {"Authorization": f"Bearer {at.token}"}
        async with aiohttp.ClientSession() as http:
            seen = await public_responses(http, at)
            async with http.get(at.address + at.live + "/seat", headers=auth) as answer:
                mine = await answer.json()
                seen.append(Seen("seat", answer.status, _pairs(answer), b""))
            spot = mine["messages"][0]["choices"][0]["data"]
            json_type = {**auth, "Content-Type": "application/json"}
            for what, sent, headers in (
                ("press", json.dumps({"data": spot}).encode(), json_type),
                ("press, not JSON", b"{not json", json_type),
                ("press, as a form", b"data=x", {**auth, "Content-Type": "text/plain"}),
                ("press, oversized", b"{}" + b" " * 2_000_000, json_type),
            ):
                async with http.post(
                    at.address + at.live + "/press", data=sent, headers=headers
                ) as answer:
                    seen.append(Seen(what, answer.status, _pairs(answer), await answer.read()))
        for target in TRAVERSALS[::5]:
            refused = await raw_request(at.address, target)
            seen.append(Seen(target, refused.status, refused.headers, refused.body))
    finally:
        service.computer.close()
    assert {s.status for s in seen} >= {200, 400, 403, 404, 405, 413}
    assert [problem for response in seen for problem in _unsafe(response, activity)] == []


async def test_a_request_the_http_parser_refuses_is_answered_with_the_policy_too(
    service: GameService, site: Site
) -> None:
    """A request too long or malformed to route is answered by aiohttp's parser itself; the
    answer echoes the request, so it is a page like any other and needs the same headers."""
    address = await site(service)
    seen: list[Seen] = []
    for target in ("/t/" + "a" * 9000, "/static/\xe9", "/top/\x7f"):
        answer = await raw_request(address, target)
        seen.append(Seen(target[:20], answer.status, answer.headers, answer.body))
    assert {s.status for s in seen} == {400}
    assert [problem for response in seen for problem in _unsafe(response, False)] == []
