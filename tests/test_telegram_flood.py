"""Telegram's flood limits (429 with retry_after) on one chat, with the bot's own rate limiter.

The real application, service and store; the fake Bot API floods one player's private chat.
Other chats must not wait for it, and the turn notice must arrive once the flood is over,
however long it lasts, unless a newer notice for the same game replaced it. A group paced as
Telegram paces one (about 20 messages a minute) while moves come faster gets every move's
words, in order, and the last picture: in fewer messages, nothing dropped.
"""

from __future__ import annotations

import asyncio
import io
import logging
import random
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
from PIL import Image
from telegram import Update
from telegram.ext import AIORateLimiter

from bot.exchange.actor import Actor
from bot.exchange.replies import Button, Message, Reply, mention
from bot.records.table import Table
from bot.runtime.metrics import REGISTRY
from bot.store import Store
from bot.telegram.markup import plain_text
from tests.fake_telegram import TOKEN, Call, FakeBotApi, Harness
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
MINUTE = 1.0  # seconds a minute of a paced group lasts in the fake: minutes in a few seconds
PER_MINUTE = 20  # messages Telegram lets a group have in a minute
MOVES = 180  # one a (paced) second: three times what the group may have, for three minutes


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


def coalesced() -> float:
    """Messages spared by coalescing so far (the `fc_outgoing_coalesced` counter)."""
    value = REGISTRY.get_sample_value("fc_outgoing_coalesced_total", {"platform": "telegram"})
    return value or 0.0


def picture(n: int) -> bytes:
    """The table's picture after move `n`: one of its own for each move."""
    out = io.BytesIO()
    Image.new("RGB", (8, 8), (n % 256, n // 256, 7)).save(out, format="PNG")
    return out.getvalue()


def commands(n: int) -> list[str]:
    """What is typed in the group around move `n`: the move; now and then a command that
    posts a reminder, or a vote with its buttons."""
    return [f"play {n}"] + [f"remind {n}"] * (n % 7 == 0) + [f"vote {n}"] * (n % 50 == 0)


def posted(command: str) -> Message:
    """What the service posts in the group for `command`: after a move, the table's picture
    and the move in words."""
    kind, n = command.split()[-2], int(command.split()[-1])
    if kind == "remind":
        return Message(f"Ben has not played for {n} minutes.")
    if kind == "vote":
        skip = Button("Skip the turn", f"fc:vote:{n}:skip")
        return Message(f"Vote {n}: Ben's time is up.", buttons=[[skip]])
    words = f"{mention(str(ANN.id))} places a tile at {n},{-n}. Next: {mention(str(BEN.id))}."
    names = {str(ANN.id): ANN.first_name, str(BEN.id): BEN.first_name}
    return Message(words, image=picture(n), names=names)


class Moves:
    """A service that answers each command with what it posts in the group (`posted`)."""

    async def command(self, actor: Actor, text: str) -> Reply:
        return Reply(public=[posted(text)])

    async def press(self, actor: Actor, data: str) -> Reply:
        return Reply()

    async def dm_failed(
        self, platform: str, channel_id: str, user_id: str, link: str | None = None
    ) -> Reply:
        return Reply()

    async def fire_due(self, platform: str | None = None) -> list[tuple[str, str, Reply]]:
        return []

    async def chat_moved(self, platform: str, old_id: str, new_id: str) -> bool:
        return False

    async def place_closed(self, platform: str, channel_id: str) -> Reply:
        return Reply()


def on_the_fakes_clock() -> AIORateLimiter:
    """The bot's own limits (`build_application`'s), with the fake's minutes: a group's 20
    messages a minute, 30 a second in all, and no retries of its own."""
    return AIORateLimiter(
        overall_max_rate=30,
        overall_time_period=MINUTE / 60,
        group_max_rate=PER_MINUTE,
        group_time_period=MINUTE,
        max_retries=0,
    )


@pytest.mark.parametrize("limits", ["telegram's", "the bot's too"])
async def test_a_group_flooded_for_minutes_gets_every_moves_words_in_order_and_the_last_picture(
    api: FakeBotApi, limits: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Moves come three times as fast as the group may get messages, for three minutes of
    the fake's clock. Telegram refuses what passes its pace (429); the bot's own limiter, as
    in production, holds back most of that before Telegram sees it, and the queue grows
    the same."""
    caplog.set_level(logging.INFO, "bot.telegram.outbox")
    api.pace(GROUP, PER_MINUTE, MINUTE)
    ours = on_the_fakes_clock() if limits == "the bot's too" else None
    async with Harness.running(api, Moves(), rate_limiter=ours) as bot:
        spared = coalesced()
        handlers: list[asyncio.Task[None]] = []
        typed = [command for n in range(1, MOVES + 1) for command in commands(n)]
        begin = asyncio.get_running_loop().time()
        for n in range(1, MOVES + 1):  # each handled at once, as the bot handles updates
            for command in commands(n):
                handlers.append(start(bot, bot.api.command(GROUP, ANN, f"/fc {command}")))
            late = asyncio.get_running_loop().time() - begin
            await asyncio.sleep(max(0.0, n * MINUTE / 60 - late))  # a move a second
        # Every handler is back: its post delivered, or held up by the flood.
        await asyncio.wait_for(asyncio.gather(*handlers), PATIENCE)
        await wait_for(lambda: queued() == 0, "the group's queue to empty")

        sent = bot.api.sent(GROUP)
        posts = [posted(command) for command in typed]
        # Every word posted, once, in order: nothing lost.
        lines = [line for c in sent for line in c.visible.split("\n")]
        assert lines == [plain_text(post) for post in posts]
        # Pictures only ever newer than the one before, and the last one last.
        pictures = [picture(n) for n in range(1, MOVES + 1)]
        shown = [pictures.index(c.photo) for c in sent if c.photo is not None]
        assert shown == sorted(set(shown)) and sent[-1].photo == picture(MOVES)
        # Each vote with its buttons, on its own.
        votes = [(c.visible, [b["text"] for b in c.buttons]) for c in sent if c.buttons]
        assert votes == [(p.text, ["Skip the turn"]) for p in posts if p.buttons]
        # Telegram held the group back for minutes, and it got far fewer messages than posts.
        refused = [c for c in bot.api.calls if c.chat_id == GROUP and not c.delivered]
        assert refused and sent[-1].at - refused[0].at > 2 * MINUTE
        assert len(sent) < len(posts) * 2 / 3
        assert coalesced() - spared == len(posts) - len(sent)
        # Said in the log, a line each time, without a word of the messages or the token.
        told = [r.getMessage() for r in caplog.records if "coalesced" in r.getMessage()]
        assert told and not [line for line in told if "tile" in line or TOKEN in line]
