"""A Telegram group's game, one move made on a player's page: the real python-telegram-bot
application against the fake Bot API, and the real web server. The link comes in the
player's private turn message on Telegram; the move made on the page is posted in the group,
with its picture, by the application's own deadline poller, and the next player is told."""

from __future__ import annotations

import asyncio
import random
import re

import aiohttp
from pydantic import SecretStr

from bot.config import Settings
from bot.service import GameService
from bot.store import Store
from bot.telegram import build_application
from tests.conftest import Site, fixed_seeds
from tests.fake_telegram import FakeBotApi, Harness, settings_for
from tests.test_telegram_games import ANN, BEN, MENTION, Group, group_posts, private_to

LINK = re.compile(r"Play on the board: https://fc\.example(/t/telegram/-100777/\w+)#seat=(\S+)")


async def test_a_move_made_on_the_page_is_posted_in_the_group(
    api: FakeBotApi, store: Store, site: Site
) -> None:
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        web_url="https://fc.example",
        web_secret=SecretStr("telegram-web-test"),
    )
    service = GameService(store, settings, seeds=fixed_seeds())
    address = await site(service)
    async with Harness.running(api, service) as harness:
        group = Group(harness, store, [ANN, BEN], random.Random(5))
        calls = await group.open()
        [begin] = [p for p in group_posts(calls) if p.photo]
        current = group.by_id(int(MENTION.findall(begin.text)[-1]))
        other = ANN if current is BEN else BEN
        [notice] = private_to(calls, current)
        found = LINK.search(notice.visible)
        assert found, notice.visible
        url, token = address + found[1], found[2]
        before = await group.state()
        async with aiohttp.ClientSession(headers={"Authorization": f"Bearer {token}"}) as http:
            async with http.get(url + "/seat") as answer:
                mine = (await answer.json())["messages"][0]
            data = mine["choices"][0]["data"]
            for step in ("rotation", "preview", "confirm"):
                async with http.post(url + "/press", json={"data": data}) as answer:
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
        assert moved.photo and "places a tile" in moved.visible
        assert moved.visible.startswith(f"{current.first_name} places a tile")  # as in the chat
        [next_notice] = private_to(calls, other)
        assert next_notice.photo and LINK.search(next_notice.visible)
        assert private_to(calls, current) == []  # the mover saw the rest on the page
