"""Telegram's flood limits (429 with retry_after) on one chat, with the bot's own rate limiter.

The real application, service and store; the fake Bot API floods one player's private chat.
Other chats must not wait for it, and the turn notice must arrive once the flood is over,
however long it lasts, unless a newer notice for the same game replaced it.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
from telegram import Update

from bot.metrics import REGISTRY
from bot.store import Store
from bot.table import Table
from tests.fake_telegram import Call, FakeBotApi, Harness
from tests.tables import load_game
from tests.test_telegram_unreachable import (
    ANN,
    BEN,
    CHANNEL,
    GROUP,
    message_id,
    open_table,
    say,
    service_for,
    typed_move,
    whose_turn,
)

RETRY_AFTER = 1.0  # seconds, as Telegram may ask for
# Refusals to wait for: more than the three retries python-telegram-bot would make.
LONG_FLOOD = 5
PATIENCE = 30.0  # seconds a wait for a state gives the bot before the test fails


@pytest.fixture
async def bot(api: FakeBotApi, store: Store) -> AsyncIterator[Harness]:
    async with Harness.running(api, service_for(store), production_limits=True) as harness:
        yield harness


def turn_notices(calls: list[Call], chat_id: int) -> list[Call]:
    return [
        c
        for c in calls
        if c.chat_id == chat_id
        and c.delivered
        and any(b["callback_data"].startswith("fc:sp:") for b in c.buttons)
    ]


def queued() -> float | None:
    """Parcels the Telegram adapter holds back (the `fc_outgoing_queued` gauge)."""
    return REGISTRY.get_sample_value("fc_outgoing_queued", {"platform": "telegram"})


async def wait_for(check: Any, what: str) -> None:
    deadline = time.monotonic() + PATIENCE
    while not check():
        assert time.monotonic() < deadline, f"still waiting for {what}"
        await asyncio.sleep(0.05)


async def moves_played(store: Store) -> int:
    record = await store.load(CHANNEL)
    assert record is not None
    return len(load_game(Table.model_validate_json(record.data)).moves)


def start(bot: Harness, update: dict[str, Any]) -> asyncio.Task[None]:
    """Dispatch an update without waiting for it, as the running bot does."""
    return asyncio.create_task(bot.app.process_update(Update.de_json(update, bot.app.bot)))


async def test_a_flooded_private_chat_delays_no_other_chat_and_its_notice_arrives(
    bot: Harness, store: Store
) -> None:
    """The flood lasts until the test ends it, so what must happen during it is seen to
    happen during it, however slow the machine."""
    players = [ANN, BEN]
    await open_table(bot, players)
    mover = await whose_turn(store, players)
    assert mover is not None
    waiting = BEN if mover == ANN else ANN
    bot.api.flood(waiting.id, None, RETRY_AFTER)
    moved = start(bot, bot.api.command(GROUP, mover, await typed_move(store, random.Random(1))))
    await wait_for(lambda: bot.api.refused(waiting.id) > 0, "the 429")

    # While the notice waits, the group keeps getting its photos.
    for _ in range(3):
        photos = len([c for c in bot.api.sent(GROUP) if c.photo])
        board = start(bot, bot.api.command(GROUP, mover, "/fc board"))
        await wait_for(
            lambda n=photos: len([c for c in bot.api.sent(GROUP) if c.photo]) > n,
            "the board",
        )
        await board
    # The handler of the move is not held up by the flooded chat either.
    await asyncio.wait_for(moved, PATIENCE)

    # The turn notice is retried as long as the flood lasts, then arrives once.
    await wait_for(lambda: bot.api.refused(waiting.id) >= LONG_FLOOD, "retries past the flood")
    assert not turn_notices(bot.api.calls, waiting.id)
    bot.api.end_flood(waiting.id)
    await wait_for(lambda: turn_notices(bot.api.calls, waiting.id), "the turn notice")
    await wait_for(lambda: queued() == 0, "nothing left to send")
    assert len(turn_notices(bot.api.calls, waiting.id)) == 1


async def test_a_newer_turn_notice_replaces_one_still_waiting(bot: Harness, store: Store) -> None:
    players = [ANN, BEN]
    await open_table(bot, players)
    rng = random.Random(2)
    first = await whose_turn(store, players)
    assert first is not None
    second = BEN if first == ANN else ANN
    bot.api.flood(second.id, None, RETRY_AFTER)
    # Three moves while the second player's chat is flooded: two turn notices for them.
    for user in (first, second, first):
        assert await whose_turn(store, players) == user
        await asyncio.wait_for(say(bot, user, await typed_move(store, rng)), PATIENCE)
    moves = str(await moves_played(store))

    bot.api.end_flood(second.id)
    await wait_for(lambda: turn_notices(bot.api.calls, second.id), "the turn notice")
    await wait_for(lambda: queued() == 0, "nothing left to send")
    [notice] = turn_notices(bot.api.calls, second.id)
    # It is the notice for the turn under way (its buttons carry the move count).
    counts = {b["callback_data"].split(":")[3] for b in notice.buttons}
    assert counts == {moves}
    # The mover's new tile, sent in between, was not replaced.
    tiles = [c for c in bot.api.sent(second.id) if "Your new tile" in c.visible]
    assert len(tiles) == 1


async def test_board_photos_reply_to_the_command(bot: Harness, store: Store) -> None:
    players = [ANN, BEN]
    await open_table(bot, players)
    mover = await whose_turn(store, players)
    assert mover is not None
    update = bot.api.command(GROUP, mover, await typed_move(store, random.Random(3)))
    calls = await bot.feed(update)
    [table] = [c for c in calls if c.chat_id == GROUP and c.photo]
    assert table.reply_to == message_id(update)
    assert table.params["reply_parameters"]["allow_sending_without_reply"] is True
    command, calls = await say(bot, ANN, "/fc board")
    [board] = [c for c in calls if c.chat_id == GROUP and c.photo]
    assert board.reply_to == command
    # A move typed in the private chat is shown in the group, not as a reply there.
    other = await whose_turn(store, players)
    assert other is not None
    calls = await bot.feed(
        bot.api.command(other.id, other, await typed_move(store, random.Random(4)))
    )
    [table] = [c for c in calls if c.chat_id == GROUP and c.photo]
    assert table.reply_to is None


async def test_a_notice_held_back_by_a_flood_is_counted_in_the_metrics(
    bot: Harness, store: Store
) -> None:
    players = [ANN, BEN]
    await open_table(bot, players)
    await wait_for(lambda: queued() == 0, "the opening messages to leave")
    mover = await whose_turn(store, players)
    assert mover is not None
    waiting = BEN if mover == ANN else ANN
    bot.api.flood(waiting.id, None, RETRY_AFTER)
    moved = start(bot, bot.api.command(GROUP, mover, await typed_move(store, random.Random(5))))
    await wait_for(lambda: any(c.chat_id == waiting.id for c in bot.api.calls), "the 429")
    await asyncio.wait_for(moved, PATIENCE)
    # The group's messages leave at once; the turn notice waits for the flood to end.
    await wait_for(lambda: queued() == 1, "only the turn notice to wait")
    assert not turn_notices(bot.api.calls, waiting.id)
    bot.api.end_flood(waiting.id)
    await wait_for(lambda: turn_notices(bot.api.calls, waiting.id), "the turn notice")
    await wait_for(lambda: queued() == 0, "the queue to empty")
