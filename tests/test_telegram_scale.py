"""Telegram past one process: a webhook that checks Telegram's secret header and acts once on
an update delivered twice (to the same process or to another), polling by one process only
(a second waits, and takes over when the first stops), and a group whose table follows it
when Telegram upgrades it to a supergroup."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import AsyncIterator, Callable
from datetime import timedelta
from typing import Any

import aiohttp
import pytest
from pydantic import SecretStr

from bot.config import Settings
from bot.local_redis.server import free_port
from bot.service import GameService
from bot.store import Channel, Deadline, Store
from bot.telegram import run
from bot.telegram.webhook import SECRET_HEADER
from tests.conftest import fixed_seeds
from tests.fake_telegram import FakeBotApi, Harness, TgUser, settings_for
from tests.test_telegram_unreachable import typed_move, whose_turn

GROUP = -100_4242
SUPERGROUP = -100_4243
ANN = TgUser(7101, "Ann")
BEN = TgUser(7102, "Ben")
SECRET = "s3cret-Token_1"


def webhook_settings(api: FakeBotApi, port: int) -> Settings:
    return settings_for(api).model_copy(
        update={
            "telegram_webhook_url": f"https://bot.example/tg/{port}",
            "telegram_webhook_secret": SecretStr(SECRET),
            "telegram_webhook_listen": "127.0.0.1",
            "telegram_webhook_port": port,
        }
    )


async def until(check: Callable[[], bool], timeout: float = 15.0) -> None:
    async with asyncio.timeout(timeout):
        while not check():
            await asyncio.sleep(0.05)


class Served:
    """`bot.telegram.run` in the background, stopped at the end."""

    def __init__(self) -> None:
        self.stops: list[tuple[asyncio.Event, asyncio.Task[None]]] = []

    def start(self, settings: Settings, service: GameService) -> asyncio.Event:
        stop = asyncio.Event()
        self.stops.append((stop, asyncio.create_task(run(settings, service, stop=stop))))
        return stop

    async def close(self) -> None:
        for stop, _task in self.stops:
            stop.set()
        for _stop, task in self.stops:
            await asyncio.wait_for(task, 20)


@pytest.fixture
async def served() -> AsyncIterator[Served]:
    made = Served()
    yield made
    await made.close()


def service_on(store: Store) -> GameService:
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    return GameService(store, settings, seeds=fixed_seeds())


async def one_webhook(api: FakeBotApi, store: Store, served: Served) -> str:
    """A process serving the webhook, once Telegram knows it: the URL it listens on."""
    port = free_port()
    served.start(webhook_settings(api, port), service_on(store))
    await until(lambda: api.webhook is not None and _listening(port))
    assert api.webhook == (f"https://bot.example/tg/{port}", SECRET)
    return f"http://127.0.0.1:{port}/tg/{port}"


async def test_the_webhook_refuses_a_request_without_the_secret_and_acts_once(
    api: FakeBotApi, store: Store, served: Served
) -> None:
    url = await one_webhook(api, store, served)
    update = api.command(GROUP, ANN, "/fc new")

    for secret in (None, "wrong"):
        status, _ = await api.post_webhook(url, update, secret)
        assert status == 403
    await asyncio.sleep(0.3)
    assert api.sent(GROUP) == []
    assert await store.load(Channel.of("telegram", str(GROUP))) is None

    status, _ = await api.post_webhook(url, update, SECRET)
    assert status == 200
    # Answered only once handled: a process killed before its 200 leaves Telegram to retry.
    assert len(api.sent(GROUP)) == 1
    assert "opens a Forbidden City table" in api.sent(GROUP)[0].text
    status, _ = await api.post_webhook(url, update, SECRET)  # Telegram retries it
    assert status == 200
    await asyncio.sleep(0.5)
    assert len(api.sent(GROUP)) == 1


async def test_a_delivery_while_another_process_handles_the_update_is_left_for_a_retry(
    api: FakeBotApi, store: Store, served: Served
) -> None:
    url = await one_webhook(api, store, served)
    update = api.command(GROUP, ANN, "/fc new")
    # Another process has claimed it and is handling it now.
    assert await store.claim_delivery("telegram", update["update_id"], lease=60) == "claimed"
    status, _ = await api.post_webhook(url, update, SECRET)
    assert status == 503  # not 200: should that process die, Telegram delivers it again
    assert api.sent(GROUP) == []
    await store.delivered("telegram", update["update_id"], keep=60)  # it is done
    status, _ = await api.post_webhook(url, update, SECRET)
    assert status == 200
    await asyncio.sleep(0.3)
    assert api.sent(GROUP) == []  # handled once, by the other process
    async with (
        aiohttp.ClientSession() as session,
        session.post(url, data=b"{not json", headers={SECRET_HEADER: SECRET}) as response,
    ):
        assert response.status == 400


async def test_an_update_retried_to_another_process_acts_once(
    api: FakeBotApi, redis_url: str, served: Served
) -> None:
    stores = [Store.from_url(redis_url), Store.from_url(redis_url)]
    ports = [free_port(), free_port()]
    for store, port in zip(stores, ports, strict=True):
        served.start(webhook_settings(api, port), service_on(store))
    try:
        joined = api.command(GROUP, ANN, "/fc new")
        for port in ports:
            await until(lambda port=port: _listening(port))  # type: ignore[misc]
            status, _ = await api.post_webhook(f"http://127.0.0.1:{port}/tg/{port}", joined, SECRET)
            assert status == 200
        await until(lambda: len(api.sent(GROUP)) > 0)  # however slow the machine
        await asyncio.sleep(0.5)  # room for a second answer, which must not come
        assert len(api.sent(GROUP)) == 1
    finally:
        await served.close()
        served.stops.clear()
        for store in stores:
            await store.close()


def _listening(port: int) -> bool:
    import socket

    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


async def test_only_one_process_polls_and_another_takes_over(
    api: FakeBotApi,
    store: Store,
    served: Served,
    caplog: pytest.LogCaptureFixture,
) -> None:
    # An hour's lease: only the first process giving it back lets the other one poll.
    settings = settings_for(api).model_copy(update={"telegram_poll_lease": timedelta(hours=1)})
    caplog.set_level(logging.INFO, logger="bot.telegram.updates")
    first = served.start(settings, service_on(store))
    await until(lambda: "polling Telegram for updates" in caplog.text)
    served.start(settings, service_on(store))
    await until(lambda: "another process polls Telegram" in caplog.text)
    assert caplog.text.count("polling Telegram for updates") == 1

    api.serve_update(api.command(GROUP, ANN, "/fc new"))
    await until(lambda: len(api.sent(GROUP)) == 1)
    first.set()  # a clean stop gives the lease back; the other one starts polling
    await until(lambda: caplog.text.count("polling Telegram for updates") == 2)
    api.serve_update(api.command(GROUP, BEN, "/fc join"))
    await until(lambda: any("Ben" in c.text for c in api.sent(GROUP)))


async def test_a_table_follows_its_group_to_the_supergroup(api: FakeBotApi, store: Store) -> None:
    service = service_on(store)
    async with Harness.running(api, service) as harness:
        await harness.feed(api.command(GROUP, ANN, "/fc new"))
        moved: dict[str, Any] = {
            "update_id": 9001,
            "message": {
                "message_id": 77,
                "date": 0,
                "chat": {"id": GROUP, "type": "group", "title": "t"},
                "migrate_to_chat_id": SUPERGROUP,
            },
        }
        await harness.feed(moved)
        here = await store.load(Channel.of("telegram", str(SUPERGROUP)))
        assert here is not None
        followed = await store.load(Channel.of("telegram", str(GROUP)))  # old buttons
        assert followed is not None and followed.channel == here.channel
        calls = await harness.feed(api.command(SUPERGROUP, ANN, "/fc status"))
        assert any("Ann" in c.text for c in calls if c.method == "sendMessage")


async def test_a_game_under_way_follows_its_group_with_its_deadlines_and_players(
    api: FakeBotApi, store: Store
) -> None:
    old, new = Channel.of("telegram", str(GROUP)), Channel.of("telegram", str(SUPERGROUP))
    rng = random.Random(5)

    async def next_move(channel: Channel) -> tuple[TgUser, str]:
        user = await whose_turn(store, [ANN, BEN], channel)
        assert user is not None
        return user, await typed_move(store, rng, channel)

    async with Harness.running(api, service_on(store)) as harness:
        await harness.feed(api.command(GROUP, ANN, "/fc new"))
        await harness.feed(api.command(GROUP, BEN, "/fc join"))
        await harness.feed(api.command(GROUP, ANN, "/fc start"))
        for _ in range(2):
            user, move = await next_move(old)
            await harness.feed(api.command(GROUP, user, move))
        before = await store.load(old)
        reminder = await store.deadline(old, "remind")
        assert before is not None and reminder is not None
        await harness.feed(
            {
                "update_id": 9002,
                "message": {
                    "message_id": 78,
                    "date": 0,
                    "chat": {"id": GROUP, "type": "group", "title": "t"},
                    "migrate_to_chat_id": SUPERGROUP,
                },
            }
        )
        moved = await store.load(new)
        assert moved is not None and moved.data == before.data  # every move made is there
        assert await store.deadline(new, "remind") == Deadline(new, "remind", reminder.due)
        assert await store.deadline(old, "remind") is None
        for user in (ANN, BEN):
            assert await store.user_games("telegram", user.id) == [new]
        # The game goes on in the supergroup: a typed move is played and shown there.
        user, move = await next_move(new)
        calls = await harness.feed(api.command(SUPERGROUP, user, move))
        after = await store.load(new)
        assert after is not None and after.version > before.version
        assert any(c.chat_id == SUPERGROUP and c.photo for c in calls)
        assert not any(c.chat_id == GROUP and c.delivered for c in calls)
