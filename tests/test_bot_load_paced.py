"""`python -m bot load --paced`: the real adapters against stand-ins that pace the bot as
Telegram and Discord do, and how long a move takes to reach its chat as a picture."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from bot.exchange.actor import Actor
from bot.exchange.replies import Message, Reply
from bot.load.paced import Group, percentile
from bot.load.pacing import Bucket
from bot.load.stand_ins import TELEGRAM_TOKEN, PacedDiscord, PacedTelegram
from tests.procs import run_load


def test_a_paced_run_prints_each_platforms_latencies_and_loses_nothing() -> None:
    done = run_load("--paced", "--groups", "2", "--seconds", "20", timeout=900)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr, done.stderr  # no delivery failed, no 429 logged
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [line["platform"] for line in lines] == ["telegram", "discord"]
    for figures in lines:
        assert figures["lost"] == 0 and figures["unexpected_calls"] == [], figures
        for run in ("groups_1", "groups_2"):
            person, computer = figures[run], figures[run]["computer"]
            assert person["moves"] >= 1 and computer["moves"] >= 1, figures
            for moves in (person, computer):
                assert 0 < moves["p50_ms"] <= moves["p99_ms"] <= moves["max_ms"], figures
            assert person["refused_moves"] == 0 and person["lost"] == 0
        busy = figures["busy_neighbour"]
        assert busy["quiet_beside_flooded"]["moves"] >= 1
        assert busy["quiet_alone"]["p50_ms"] == figures["groups_1"]["p50_ms"]
        # A `board` twice a second is past both platforms' limits: the stand-in said so.
        assert busy["refused_429"] > 0
        assert figures["refused_429"] >= busy["refused_429"]


def test_a_bad_group_count_is_refused() -> None:
    done = run_load("--paced", "--groups", "0", timeout=60)
    assert done.returncode == 2 and "--groups must be positive" in done.stderr


def _picture(colour: int) -> bytes:
    return bytes([colour]) * 16


def _table(*colours: int) -> Reply:
    return Reply(public=[Message("moved", image=_picture(c)) for c in colours])


def test_a_move_counts_as_shown_when_a_newer_picture_replaced_its_own() -> None:
    group = Group(Actor("telegram", "-1", "1", "P"), "forbidden_city")
    group.sent(_table(1), since=0.0)
    group.sent(_table(2), since=0.0, kind="computer")
    group.sent(_table(3))
    group.seen(_picture(3))  # the crowded queue left pictures 1 and 2 out
    assert group.shown == 2 and group.waiting == []
    assert len(group.latencies["person"]) == len(group.latencies["computer"]) == 1
    assert [index for _, index in group.expected] == [0, 1]  # never came, never will


def test_pictures_are_matched_in_order_and_the_same_table_twice_is_expected_once() -> None:
    group = Group(Actor("telegram", "-1", "1", "P"), "forbidden_city")
    group.sent(_table(1, 1))  # the same table twice in a row: expected once, as the newer
    group.sent(_table(2), since=0.0)
    assert [index for _, index in group.expected] == [1, 2]
    group.seen(_picture(1))
    assert group.shown == 1 and group.latencies["person"] == []  # not the move's picture yet
    group.seen(_picture(2))
    assert group.shown == 2 and len(group.latencies["person"]) == 1
    assert group.expected == []


def test_a_picture_never_sent_shows_nothing() -> None:
    group = Group(Actor("telegram", "-1", "1", "P"), "forbidden_city")
    group.sent(_table(1), since=0.0)
    group.seen(_picture(9))
    assert group.shown == -1 and len(group.waiting) == 1


def test_percentile_is_the_nearest_rank() -> None:
    values = [float(n) for n in range(1, 101)]
    assert percentile(values, 0.5) == 50.0 and percentile(values, 0.99) == 99.0
    assert percentile([], 0.5) == 0.0


def test_a_discord_bucket_resets_whole_after_its_period() -> None:
    bucket = Bucket(5, 5.0)
    for now in (0.0, 1.0, 2.0, 3.0, 4.0):
        assert bucket.wait("c", now) == 0.0
        bucket.take("c", now)
    assert bucket.wait("c", 4.5) == pytest.approx(0.5)  # the window opened at 0
    assert bucket.remaining("c", 4.5) == 0 and bucket.reset_after("c", 4.5) == pytest.approx(0.5)
    assert bucket.wait("other", 4.5) == 0.0  # per key
    assert bucket.remaining("c", 5.0) == 5  # all of it back at once, as Discord's headers say
    bucket.take("c", 5.0)
    assert bucket.reset_after("c", 6.0) == pytest.approx(4.0)


@pytest.fixture
async def telegram() -> AsyncIterator[PacedTelegram]:
    api = PacedTelegram()
    await api.start()
    yield api
    await api.stop()


async def _telegram_send(api: PacedTelegram, chat: int) -> tuple[int, dict[str, Any]]:
    async with (
        aiohttp.ClientSession() as session,
        session.post(
            f"{api.url}{TELEGRAM_TOKEN}/sendMessage", data={"chat_id": str(chat), "text": "hi"}
        ) as answer,
    ):
        return answer.status, await answer.json()


async def test_the_telegram_stand_in_takes_twenty_a_minute_into_a_group(
    telegram: PacedTelegram,
) -> None:
    seen: list[str] = []
    telegram.seen = lambda place, picture: seen.append(place)
    answers = [await _telegram_send(telegram, -100) for _ in range(21)]
    assert [status for status, _ in answers] == [200] * 20 + [429]
    wait = answers[-1][1]["parameters"]["retry_after"]
    assert isinstance(wait, int) and 55 <= wait <= 60
    assert seen == ["-100"] * 20 and telegram.refused == 1
    assert (await _telegram_send(telegram, -101))[0] == 200  # another group is not held up


async def test_the_telegram_stand_in_takes_a_short_burst_into_a_private_chat(
    telegram: PacedTelegram,
) -> None:
    answers = [await _telegram_send(telegram, 42) for _ in range(6)]
    assert [status for status, _ in answers] == [200] * 5 + [429]


async def test_the_discord_stand_in_paces_a_channel_with_discords_headers() -> None:
    api = PacedDiscord()
    await api.start()
    try:
        async with aiohttp.ClientSession() as session:
            answers = []
            for _ in range(6):
                async with session.post(
                    f"{api.url}/channels/77/messages", json={"content": "hi"}
                ) as answer:
                    answers.append((answer.status, dict(answer.headers), await answer.json()))
    finally:
        await api.stop()
    assert [status for status, _, _ in answers] == [200] * 5 + [429]
    first, last = answers[0][1], answers[-1][1]
    assert first["Content-Type"] == "application/json"  # exactly: discord.py reads no other
    assert first["X-RateLimit-Limit"] == "5" and first["X-RateLimit-Remaining"] == "4"
    assert 4.9 < float(first["X-RateLimit-Reset-After"]) <= 5.0
    assert last["Via"] and last["X-RateLimit-Scope"] == "user" and int(last["Retry-After"]) >= 1
    assert 0 < answers[-1][2]["retry_after"] <= 5.0 and api.refused == 1


@pytest.mark.parametrize(
    ("token", "method", "status", "unexpected"),
    [(TELEGRAM_TOKEN, "banChatMember", 404, ["banChatMember"]), ("0:forged", "getMe", 401, [])],
)
async def test_the_telegram_stand_in_answers_only_its_token_and_the_calls_it_knows(
    telegram: PacedTelegram, token: str, method: str, status: int, unexpected: list[str]
) -> None:
    async with (
        aiohttp.ClientSession() as session,
        session.post(f"{telegram.url}{token}/{method}", data={}) as answer,
    ):
        assert answer.status == status
    assert telegram.unexpected == unexpected
