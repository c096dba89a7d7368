"""The per-chat queues on their own: a real python-telegram-bot `Bot` against the fake Bot API."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator

import pytest
from telegram import Bot

from bot.exchange.replies import Message
from bot.runtime.metrics import REGISTRY
from bot.telegram.delivery import plan, undeliverable
from bot.telegram.outbox import CROWDED, Outbox
from bot.telegram.parcels import Parcel
from tests.fake_telegram import TOKEN, FakeBotApi

GROUP, USER = -100_900, 901
PATIENCE = 30.0  # seconds before a wait for a state gives up: long, as nothing waits it out


@pytest.fixture
async def bot(api: FakeBotApi) -> AsyncIterator[Bot]:
    async with Bot(TOKEN, base_url=api.base_url) as instance:
        api.clear()
        yield instance


def parcel(bot: Bot, chat_id: int, *texts: str, key: str | None = None) -> Parcel:
    return Parcel(chat_id, [plan(bot, Message(text)) for text in texts], key=key)


def coalesced() -> float:
    """Messages spared by coalescing so far (the `fc_outgoing_coalesced` counter)."""
    value = REGISTRY.get_sample_value("fc_outgoing_coalesced_total", {"platform": "telegram"})
    return value or 0.0


async def settled(*parcels: Parcel) -> None:
    async def done(p: Parcel) -> None:
        while p.outcome is None:
            await asyncio.sleep(0.02)

    await asyncio.wait_for(asyncio.gather(*(done(p) for p in parcels)), PATIENCE)


async def refused(api: FakeBotApi, chat_id: int, times: int) -> None:
    """Until the fake has refused `times` messages to the chat."""

    async def counted() -> None:
        while api.refused(chat_id) < times:
            await asyncio.sleep(0.02)

    await asyncio.wait_for(counted(), PATIENCE)


async def test_a_flooded_group_waits_alone_and_its_caller_does_not(
    api: FakeBotApi, bot: Bot
) -> None:
    outbox = Outbox(undeliverable)
    api.flood(GROUP, None, 0.2)  # until ended below
    board = parcel(bot, GROUP, "board")
    # Both return while the group is still flooded: neither waits for its end.
    assert await asyncio.wait_for(outbox.send(board), PATIENCE) is None  # held up
    hello = outbox.send(parcel(bot, USER, "hello"))
    assert await asyncio.wait_for(hello, PATIENCE) == "delivered"
    await refused(api, GROUP, 3)  # tried again after each retry_after
    assert board.outcome is None
    api.end_flood(GROUP)
    await settled(board)
    assert board.outcome == "delivered"
    assert [c.text for c in api.sent()] == ["hello", "board"]


async def test_waiting_parcels_are_replaced_by_key_and_never_dropped(
    api: FakeBotApi, bot: Bot, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "bot.telegram.outbox")
    outbox = Outbox(undeliverable)
    api.flood(USER, None, 0.2)
    first = outbox.put(parcel(bot, USER, "first"))
    await refused(api, USER, 1)  # under way: refused once, waiting to retry
    old = outbox.put(parcel(bot, USER, "notice 1", key="game"))
    new = outbox.put(parcel(bot, USER, "notice 2", key="game"))
    assert old.outcome == "superseded"
    spared = coalesced()
    # More than `CROWDED` wait: none is dropped, and they arrive as one message after the flood.
    extra = [outbox.put(parcel(bot, USER, f"extra {n}")) for n in range(CROWDED + 10)]
    assert [p.outcome for p in extra] == [None] * len(extra)
    api.end_flood(USER)
    await settled(first, new, *extra)
    assert {p.outcome for p in extra} == {"delivered"}
    joined = "\n".join(f"extra {n}" for n in range(CROWDED + 10))
    assert [c.text for c in api.sent(USER)] == ["first", "notice 2", joined]
    assert outbox.pending() == 0
    assert coalesced() - spared == CROWDED + 9
    # Said in the log, without the texts.
    lines = [r.getMessage() for r in caplog.records if "coalesced" in r.getMessage()]
    assert lines and not any("extra" in line for line in lines)


async def test_a_newer_notice_stops_the_retries_of_the_one_under_way(
    api: FakeBotApi, bot: Bot
) -> None:
    outbox = Outbox(undeliverable)
    api.flood(USER, None, 0.2)
    old = outbox.put(parcel(bot, USER, "notice 1", key="game"))
    await refused(api, USER, 1)  # refused once, waiting to retry
    new = outbox.put(parcel(bot, USER, "notice 2", key="game"))
    api.end_flood(USER)
    await settled(old, new)
    assert (old.outcome, new.outcome) == ("superseded", "delivered")
    assert [c.text for c in api.sent(USER)] == ["notice 2"]


async def test_an_unreachable_user_is_reported_and_not_tried_again(
    api: FakeBotApi, bot: Bot
) -> None:
    outbox = Outbox(undeliverable)
    api.unreachable.add(USER)
    reported: list[str] = []

    async def report() -> None:
        reported.append("unreachable")

    sent = parcel(bot, USER, "tile", "spots")
    sent.on_unreachable = report
    assert await outbox.send(sent) == "unreachable"
    assert reported == ["unreachable"]
    assert len([c for c in api.calls if c.chat_id == USER]) == 1


async def test_a_report_may_write_to_the_same_chat_without_waiting_for_itself(
    api: FakeBotApi, bot: Bot
) -> None:
    outbox = Outbox(undeliverable)
    api.unreachable.add(USER)
    again = parcel(bot, USER, "again")

    async def report() -> None:
        await outbox.send(again)

    first = parcel(bot, USER, "tile")
    first.on_unreachable = report
    assert await asyncio.wait_for(outbox.send(first), PATIENCE) == "unreachable"
    await settled(again)
    assert again.outcome == "unreachable"


async def test_network_failures_are_retried_longer_for_turn_notices(
    api: FakeBotApi, bot: Bot
) -> None:
    outbox = Outbox(undeliverable, backoff=0.01)
    api.failing[USER] = 4
    notice = parcel(bot, USER, "notice", key="game")
    assert await outbox.send(notice) is None  # its caller does not wait for the retries
    await settled(notice)
    assert notice.outcome == "delivered"
    api.failing[USER] = 4  # one more than the retries of a parcel without a key
    menu = outbox.put(parcel(bot, USER, "menu", "preview"))
    await settled(menu)
    api.failing[USER] = 3
    tile = outbox.put(parcel(bot, USER, "tile"))
    await settled(tile)
    assert (menu.outcome, tile.outcome) == ("failed", "delivered")
    assert [c.text for c in api.sent(USER)] == ["notice", "preview", "tile"]


async def test_closing_drops_what_is_left_and_frees_its_callers(api: FakeBotApi, bot: Bot) -> None:
    outbox = Outbox(undeliverable)
    api.flood(USER, 30, 10)
    stuck = outbox.put(parcel(bot, USER, "never"))
    delivered = outbox.put(parcel(bot, GROUP, "board"))
    begin = time.monotonic()
    await outbox.close(0.3)
    assert 0.3 <= time.monotonic() - begin < 10  # the grace, not the flood's retry_after
    assert (stuck.outcome, delivered.outcome) == ("dropped", "delivered")
    assert stuck.released.is_set() and outbox.pending() == 0
    assert [c.text for c in api.sent()] == ["board"]


async def test_a_group_upgraded_to_a_supergroup_is_followed(api: FakeBotApi, bot: Bot) -> None:
    outbox = Outbox(undeliverable)
    api.migrated[GROUP] = GROUP - 1
    assert await outbox.send(parcel(bot, GROUP, "board", "scores")) == "delivered"
    assert [(c.chat_id, c.text) for c in api.sent()] == [
        (GROUP - 1, "board"),
        (GROUP - 1, "scores"),
    ]
    api.migrated[GROUP - 1] = GROUP - 2  # moved again: not followed twice
    assert await outbox.send(parcel(bot, GROUP, "lost")) == "failed"
    assert [c.text for c in api.sent()] == ["board", "scores"]
