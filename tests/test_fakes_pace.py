"""The fakes pace every test as the platforms pace a bot, by default: a request past a
published limit is answered as the platform answers it, and the real libraries wait as they
do with the real platforms. A test may raise a limit for its own fake, never lower it."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest

from tests.fake_discord import FakeDiscord, fake_discord
from tests.fake_telegram import TOKEN, FakeBotApi
from tests.vendor import schemas

GROUP = -100777
PRIVATE = 4242


@pytest.fixture
async def api() -> AsyncIterator[FakeBotApi]:
    made = FakeBotApi()
    await made.start()
    yield made
    await made.stop()


async def _send(
    session: aiohttp.ClientSession, api: FakeBotApi, chat: int, n: int
) -> dict[str, Any]:
    url = f"http://127.0.0.1:{api.port}/bot{TOKEN}/sendMessage"
    async with session.post(url, data={"chat_id": str(chat), "text": f"message {n}"}) as answer:
        body: dict[str, Any] = await answer.json()
        return {"status": answer.status, **body}


async def test_a_group_takes_twenty_messages_a_minute_then_is_told_to_wait(
    api: FakeBotApi,
) -> None:
    async with aiohttp.ClientSession() as session:
        answers = [await _send(session, api, GROUP, n) for n in range(21)]
    assert [a["status"] for a in answers] == [200] * 20 + [429]
    refused = answers[-1]
    wait = refused["parameters"]["retry_after"]
    assert wait == int(wait) and 55 <= wait <= 60  # whole seconds, till the first leaves
    assert refused["description"] == f"Too Many Requests: retry after {int(wait)}"
    assert [c.text for c in api.sent(GROUP)] == [f"message {n}" for n in range(20)]


async def test_a_private_chat_takes_a_short_burst_then_one_a_second(api: FakeBotApi) -> None:
    async with aiohttp.ClientSession() as session:
        answers = [await _send(session, api, PRIVATE, n) for n in range(6)]
        assert [a["status"] for a in answers] == [200] * 5 + [429]
        assert answers[-1]["parameters"]["retry_after"] >= 1
        # Another chat is not held up by this one.
        assert (await _send(session, api, PRIVATE + 1, 0))["status"] == 200


async def test_the_bot_takes_thirty_messages_a_second_in_all(api: FakeBotApi) -> None:
    async with aiohttp.ClientSession() as session:
        started = time.monotonic()
        answers = [await _send(session, api, 10_000 + n, n) for n in range(31)]
    if time.monotonic() - started < 1.0:  # else the window moved on: nothing to see
        assert [a["status"] for a in answers] == [200] * 30 + [429]


async def test_a_test_may_raise_a_limit_and_never_lower_it(api: FakeBotApi) -> None:
    api.allow(group=25)
    async with aiohttp.ClientSession() as session:
        answers = [await _send(session, api, GROUP, n) for n in range(26)]
    assert [a["status"] for a in answers] == [200] * 25 + [429]
    with pytest.raises(AssertionError):
        api.allow(group=5)


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with fake_discord() as made:
        yield made


async def test_discord_tells_a_channels_bucket_and_discord_py_waits_for_it(
    fake: FakeDiscord,
) -> None:
    """Seven messages into one channel: discord.py reads the bucket's headers, waits for
    the bucket to refill past the fifth, and so is never refused."""
    client = discord.Client(intents=discord.Intents.none())
    await client.login("test-token")
    try:
        started = time.monotonic()
        for n in range(7):
            await client.http.send_message(fake.channel_id, params=_params(f"message {n}"))
        took = time.monotonic() - started
    finally:
        await client.close()
    assert [m.payload["content"] for m in fake.channel_messages()] == [
        f"message {n}" for n in range(7)
    ]
    assert fake.limited == []  # waited before, never refused
    assert took >= 4.5  # the sixth waited for the first to leave the 5 s window


async def test_discord_refuses_a_channels_sixth_message_in_five_seconds(
    fake: FakeDiscord,
) -> None:
    async with aiohttp.ClientSession() as session:
        url = f"{fake.base}/channels/{fake.channel_id}/messages"
        headers = {"Authorization": "Bot test-token"}
        answers = []
        for n in range(6):
            async with session.post(url, json={"content": f"m{n}"}, headers=headers) as answer:
                answers.append((answer.status, dict(answer.headers), await answer.json()))
    assert [status for status, _, _ in answers] == [200] * 5 + [429]
    assert [h["X-RateLimit-Remaining"] for _, h, _ in answers[:5]] == ["4", "3", "2", "1", "0"]
    assert all(h["X-RateLimit-Limit"] == "5" for _, h, _ in answers)
    _, headers, body = answers[-1]
    assert body["global"] is False and 0 < body["retry_after"] <= 5
    assert headers["X-RateLimit-Scope"] == "user" and int(headers["Retry-After"]) >= 1
    assert fake.limited == [("user", f"/channels/{fake.channel_id}/messages")]


async def test_discord_forgets_an_interaction_not_answered_within_three_seconds(
    fake: FakeDiscord,
) -> None:
    """Discord's "This interaction failed": the callback of an interaction older than 3 s
    is refused, and the test that made the bot so slow fails (a violation)."""
    from tests.fake_discord import Person

    fake.answer_within = 0.0
    payload = fake.command_payload(Person(9001, "Ann"), "help")
    async with aiohttp.ClientSession() as session:
        url = f"{fake.base}/interactions/{payload['id']}/{payload['token']}/callback"
        body = {"type": 4, "data": {"content": "late"}}
        async with session.post(url, json=body) as answer:
            assert answer.status == 404
            assert (await answer.json())["code"] == 10062
    [late] = schemas.take()
    assert late.request == "interaction callback"


def _params(content: str) -> discord.http.MultipartParameters:
    return discord.http.handle_message_parameters(content=content)
