"""A Telegram group's game played from the page opened as the bot's Mini App: the real
python-telegram-bot application against the fake Bot API, the real web server, and
`initData` signed as Telegram signs it (tests/fake_telegram.py). The private turn message's
button opens the page; Telegram's signed launch data tells the server who the player is; the
move made there is posted in the group by the application's own deadline poller. Launch data
with a wrong hash, for another bot or a day old is refused."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from urllib.parse import parse_qsl, quote, urlencode, urlsplit

import aiohttp
import pytest
from playwright.async_api import expect
from pydantic import SecretStr

from bot.config import Settings
from bot.service import GameService
from bot.store import Store
from bot.telegram import build_application
from tests.browser import chromium
from tests.conftest import Site, fixed_seeds
from tests.fake_telegram import TOKEN, Call, FakeBotApi, Harness, TgUser, init_data, settings_for
from tests.test_telegram_games import ANN, BEN, EVE, MENTION, Group, group_posts, private_to

PAGES = "https://fc.example"
MINI_APP = "https://t.me/fcbot/table"


def settings(api: FakeBotApi) -> Settings:
    return Settings(
        _env_file=None,  # type: ignore[call-arg]
        telegram_token=SecretStr(TOKEN),
        telegram_base_url=api.base_url,
        web_url=PAGES,
        web_secret=SecretStr("telegram-web-test"),
        telegram_mini_app=MINI_APP,
    )


@pytest.fixture
async def service(api: FakeBotApi, store: Store) -> AsyncIterator[GameService]:
    made = GameService(store, settings(api), seeds=fixed_seeds())
    yield made
    made.computer.close()


def mini_app_button(notice: Call) -> str:
    """The page a private turn message's Mini App button opens (Telegram adds the rest)."""
    [opening] = [b for b in notice.buttons if "web_app" in b]
    assert opening["text"] == "Play on the board"
    return str(opening["web_app"]["url"])


@dataclass
class Dealt:
    """A Telegram table dealt, with its pages served: who plays first and second, the
    deal's post in the group and the first player's private turn message."""

    group: Group
    address: str
    current: TgUser
    other: TgUser
    begin: Call
    notice: Call


@pytest.fixture
async def dealt(
    api: FakeBotApi, store: Store, site: Site, service: GameService
) -> AsyncIterator[Dealt]:
    address = await site(service)
    async with Harness.running(api, service) as harness:
        group = Group(harness, store, [ANN, BEN], random.Random(5))
        calls = await group.open()
        [begin] = [p for p in group_posts(calls) if p.photo]
        current = group.by_id(int(MENTION.findall(begin.text)[-1]))
        [notice] = private_to(calls, current)
        yield Dealt(group, address, current, ANN if current is BEN else BEN, begin, notice)


async def traded(http: aiohttp.ClientSession, url: str, data: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    async with http.post(url, json={"initData": data}) as answer:
        return answer.status, await answer.json()


async def test_the_mini_app_plays_for_the_player_telegram_vouches_for(
    dealt: Dealt, api: FakeBotApi, service: GameService
) -> None:
    group = dealt.group
    address = dealt.address
    current = dealt.current
    other = dealt.other
    notice = dealt.notice
    page = mini_app_button(notice)
    assert page.startswith(f"{PAGES}/t/telegram/-100777/") and "#" not in page
    url = address + urlsplit(page).path
    before = await group.state()
    async with aiohttp.ClientSession() as http:
        status, body = await traded(http, url + "/telegram", init_data(TOKEN, current, time.time()))
        assert status == 200
        auth = {"Authorization": f"Bearer {body['token']}"}
        async with http.get(url + "/seat", headers=auth) as answer:
            mine = (await answer.json())["messages"][0]
        data = mine["choices"][0]["data"]
        for step in ("rotation", "preview", "confirm"):
            async with http.post(url + "/press", headers=auth, json={"data": data}) as answer:
                body = await answer.json()
            assert body["ok"], (step, body)
            if step != "confirm":
                data = body["messages"][0]["buttons"][0][0]["data"]
    assert await group.state() != before  # the page's move is saved
    poller = build_application(settings_for(api), service, deadline_interval=0.05)
    async with poller:
        assert poller.post_init is not None and poller.post_stop is not None
        start = len(api.calls)
        await poller.post_init(poller)
        for _ in range(200):
            if group_posts(api.calls[start:]) and private_to(api.calls[start:], other):
                break
            await asyncio.sleep(0.02)
        await poller.post_stop(poller)
    calls = api.calls[start:]
    [moved] = group_posts(calls)
    assert moved.photo and moved.visible.startswith(f"{current.first_name} places a tile")
    [next_notice] = private_to(calls, other)
    assert next_notice.photo and mini_app_button(next_notice) == page
    assert private_to(calls, current) == []  # the mover saw the rest on the page


async def test_launch_data_that_telegram_did_not_sign_for_this_bot_opens_nothing(
    dealt: Dealt,
) -> None:
    group = dealt.group
    address = dealt.address
    current = dealt.current
    notice = dealt.notice
    url = address + urlsplit(mini_app_button(notice)).path + "/telegram"
    now = time.time()
    good = init_data(TOKEN, current, now)
    fields = dict(parse_qsl(good))
    someone_else = json.dumps({"id": EVE.id, "first_name": "Eve"}, separators=(",", ":"))
    forged = urlencode({**fields, "user": someone_else})  # the hash no longer matches
    before = await group.state()
    async with aiohttp.ClientSession() as http:
        for bad in (
            forged,
            init_data("999:another-bot", current, now),  # signed for another bot
            init_data(TOKEN, current, now - 86400 - 60),  # more than a day old
            good.replace("hash=", "hash=0"),
            "",
        ):
            status, body = await traded(http, url, bad)
            assert status == 403
            assert body["error"].startswith("Telegram did not vouch for this page")
        status, body = await traded(http, url, good)
        assert status == 200 and body["token"]
    assert await group.state() == before


async def test_a_groups_link_opens_the_mini_app_on_its_table(dealt: Dealt) -> None:
    address = dealt.address
    current = dealt.current
    begin = dealt.begin
    notice = dealt.notice
    table = urlsplit(mini_app_button(notice)).path
    [direct] = [w for w in begin.visible.split() if w.startswith(MINI_APP)]
    start = direct.split("?startapp=", 1)[1]
    async with aiohttp.ClientSession() as http:
        async with http.get(address + "/app") as answer:
            assert answer.status == 200 and "opening.js" in await answer.text()
        signed = init_data(TOKEN, current, time.time(), start_param=start)
        status, body = await traded(http, address + "/app/open", signed)
        assert status == 200 and body["path"] == table and body["token"]
        unsigned = init_data(TOKEN, current, time.time()) + f"&start_param={start}"
        assert (await traded(http, address + "/app/open", unsigned))[0] == 403


async def test_the_mini_app_in_chromium_shows_the_players_seat_in_telegrams_colours(
    dealt: Dealt,
) -> None:
    address = dealt.address
    current = dealt.current
    notice = dealt.notice
    path = urlsplit(mini_app_button(notice)).path
    theme = json.dumps({"bg_color": "#17212b", "text_color": "#f5f5f5"})
    launch = urlencode(
        {
            "tgWebAppData": init_data(TOKEN, current, time.time()),
            "tgWebAppVersion": "8.0",
            "tgWebAppPlatform": "tdesktop",
            "tgWebAppThemeParams": theme,
        },
        quote_via=quote,
    )
    async with chromium() as browser:
        page = await browser.new_page(viewport={"width": 390, "height": 844})
        await page.goto(f"{address}{path}#{launch}")
        await expect(page.locator("#mine")).to_be_visible()
        await expect(page.locator("#choices .text").first).to_contain_text("Your turn")
        spots = page.locator("#choices button[data-choice^='fc:sp:']")
        assert await spots.count() > 0
        background = await page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(23, 33, 43)"
        assert "tgWebAppData" not in page.url  # the launch data leaves the address bar


async def test_inside_telegram_the_main_button_places_the_tile_the_board_previews(
    dealt: Dealt,
) -> None:
    """The Mini App's main button is the page's main choice: hidden until a spot is tapped
    on the board, then *Place it here*, which plays when Telegram says it was pressed."""
    path = urlsplit(mini_app_button(dealt.notice)).path
    launch = urlencode(
        {"tgWebAppData": init_data(TOKEN, dealt.current, time.time()), "tgWebAppVersion": "8.0"},
        quote_via=quote,
    )
    async with chromium() as browser:
        page = await browser.new_page(viewport={"width": 390, "height": 844})
        # Telegram's apps hand the page this bridge; it keeps what the page asks of Telegram.
        await page.add_init_script(
            "window.told = []; window.TelegramWebviewProxy = { postEvent(type, data) "
            "{ window.told.push([type, JSON.parse(data)]); } };"
        )
        await page.goto(f"{dealt.address}{path}#{launch}")
        await page.locator("#spots .spot").first.wait_for()
        told = await page.evaluate("window.told")
        assert ["web_app_ready", {}] in told
        main = [data for kind, data in told if kind == "web_app_setup_main_button"]
        assert main and main[-1]["is_visible"] is False  # nothing to confirm yet
        version = await page.locator("#table").get_attribute("data-version")
        await page.locator("#spots .spot").first.click()
        await expect(page.locator("#choices .text").first).to_contain_text("Preview")
        main = await page.evaluate(
            "window.told.filter(([k]) => k === 'web_app_setup_main_button').map(([, d]) => d)"
        )
        assert main[-1] == {"is_visible": True, "is_active": True, "text": "Place it here"}
        await asyncio.sleep(0.3)  # a person's pace: a token's requests are limited
        await page.evaluate("window.Telegram.WebView.receiveEvent('main_button_pressed', {})")
        await expect(page.locator("#table")).not_to_have_attribute(
            "data-version", str(version), timeout=5000
        )
        main = await page.evaluate(
            "window.told.filter(([k]) => k === 'web_app_setup_main_button').map(([, d]) => d)"
        )
        assert main[-1]["is_visible"] is False  # the move made: nothing to confirm
