"""What a busy chat gets instead of what waited for it: the outbox's coalescing rules.

The parcels are what `delivery.plan` makes of the service's messages, coalesced as the outbox
coalesces a flooded chat's queue, then sent by an outbox that is not busy to the fake Bot API,
which shows what a member of the chat reads.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator
from functools import partial

import pytest
from PIL import Image
from telegram import Bot

from bot.exchange.replies import Button, Message, mention
from bot.telegram.delivery import plan, undeliverable
from bot.telegram.outbox import Outbox
from bot.telegram.parcels import TEXT_LIMIT, Parcel, coalesce
from tests.fake_telegram import TOKEN, Call, FakeBotApi

GROUP, USER = -100_910, 911
BEN = "912"
PATIENCE = 30.0  # seconds before a wait for a state gives up


@pytest.fixture
async def bot(api: FakeBotApi) -> AsyncIterator[Bot]:
    async with Bot(TOKEN, base_url=api.base_url) as instance:
        api.clear()
        yield instance


def png(shade: int) -> bytes:
    out = io.BytesIO()
    Image.new("L", (8, 8), shade % 256).save(out, format="PNG")
    return out.getvalue()


def move(n: int) -> Message:
    """A move as the service posts it in the group: the table's picture, its words."""
    text = f"Ann places a tile at {n},0. Next: {mention(BEN)}."
    return Message(text, image=png(n), names={BEN: "Ben"})


def parcels(bot: Bot, *messages: Message, reply_to: int | None = None) -> list[Parcel]:
    """One parcel per message posted in the group, as `Delivery.public` makes them."""
    return [Parcel(GROUP, [plan(bot, message, reply_to)]) for message in messages]


async def seen(api: FakeBotApi, waiting: list[Parcel], chat: int = GROUP) -> list[Call]:
    """What the chat gets of `waiting`, coalesced; every parcel must arrive."""
    outbox = Outbox(undeliverable)
    for parcel in coalesce(waiting).parcels:
        outbox.put(parcel)

    async def settled() -> None:
        while any(p.outcome is None for p in waiting):
            await asyncio.sleep(0.02)

    await asyncio.wait_for(settled(), PATIENCE)
    assert {p.outcome for p in waiting} == {"delivered"}
    return api.sent(chat)


def utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


async def test_texts_waiting_together_arrive_as_one_message(api: FakeBotApi, bot: Bot) -> None:
    texts = ["Ben has not played for 12 h.", "Ann & Cat <3 this table", "Ben is back."]
    [message] = await seen(api, parcels(bot, *(Message(t) for t in texts)))
    assert message.visible == "\n".join(texts)
    assert message.buttons == []


async def test_joined_texts_keep_within_telegrams_limit_in_utf16_units_and_as_html(
    api: FakeBotApi, bot: Bot
) -> None:
    texts = [
        "🀄" * 1500,  # 3000 UTF-16 units in 1500 characters: two are too long for one message
        "🀄" * 1500,
        "<" * 700,  # 700 characters read, 2800 sent as HTML (&lt;)
        "<" * 700,
        "x" * 2000,
        "y" * (TEXT_LIMIT - 2001),  # with the line between them, exactly the limit
    ]
    messages = await seen(api, parcels(bot, *(Message(t) for t in texts)))
    assert [m.visible for m in messages] == [*texts[:4], texts[4] + "\n" + texts[5]]
    assert all(utf16(m.visible) <= TEXT_LIMIT and utf16(m.text) <= TEXT_LIMIT for m in messages)


async def test_a_message_with_buttons_goes_as_it_is_and_ends_the_joined_text(
    api: FakeBotApi, bot: Bot
) -> None:
    vote = Message("Ben's time is up.", buttons=[[Button("Skip the turn", "fc:vote:skip")]])
    waiting = parcels(bot, Message("one"), Message("two"), vote, Message("three"), Message("four"))
    messages = await seen(api, waiting)
    assert [m.visible for m in messages] == ["one\ntwo", "Ben's time is up.", "three\nfour"]
    assert [[b["text"] for b in m.buttons] for m in messages] == [[], ["Skip the turn"], []]


async def test_an_older_table_picture_gives_way_to_the_newest_and_its_words_stay(
    api: FakeBotApi, bot: Bot
) -> None:
    reminder = Message("Ben has not played for 12 h.")
    waiting = [
        *parcels(bot, move(1), reply_to=11),
        *parcels(bot, move(2), reply_to=12),
        *parcels(bot, reminder),
        *parcels(bot, move(3), reply_to=13),
    ]
    [photo] = await seen(api, waiting)
    assert photo.photo == png(3)
    assert photo.visible.split("\n") == [
        "Ann places a tile at 1,0. Next: Ben.",
        "Ann places a tile at 2,0. Next: Ben.",
        "Ben has not played for 12 h.",
        "Ann places a tile at 3,0. Next: Ben.",
    ]
    assert f"tg://user?id={BEN}" in photo.text  # the mentions still mention
    assert photo.reply_to == 13


async def test_words_too_long_for_the_newest_caption_come_as_a_text_before_it(
    api: FakeBotApi, bot: Bot
) -> None:
    moves = [move(n) for n in range(1, 41)]  # 40 moves' words: more than a caption holds
    text, photo = await seen(api, parcels(bot, *moves))
    assert text.photo is None and photo.photo == png(40)
    assert [*text.visible.split("\n"), photo.visible] == [
        f"Ann places a tile at {n},0. Next: Ben." for n in range(1, 41)
    ]


async def test_an_older_picture_without_news_is_left_out_and_one_with_news_is_not(
    api: FakeBotApi, bot: Bot
) -> None:
    def board(words: str) -> Message:
        return Message(words, image=png(7))

    # The board asked twice: the same picture, the same words.
    [photo] = await seen(api, parcels(bot, board("Ann 3, Ben 2."), board("Ann 3, Ben 2.")))
    assert (photo.photo, photo.visible) == (png(7), "Ann 3, Ben 2.")
    # The same picture with other words: they are news.
    api.clear()
    [photo] = await seen(api, parcels(bot, board("Ben passes."), board("Ann passes.")))
    assert (photo.photo, photo.visible) == (png(7), "Ben passes.\nAnn passes.")


async def test_an_older_picture_is_left_out_across_a_message_it_cannot_join(
    api: FakeBotApi, bot: Bot
) -> None:
    vote = Message("Ben's time is up.", buttons=[[Button("Skip the turn", "fc:vote:skip")]])
    messages = await seen(api, parcels(bot, move(1), vote, move(2)))
    assert [(m.photo is not None, m.visible) for m in messages] == [
        (False, "Ann places a tile at 1,0. Next: Ben."),
        (False, "Ben's time is up."),
        (True, "Ann places a tile at 2,0. Next: Ben."),
    ]


async def test_files_notices_and_private_pictures_are_left_as_they_are(bot: Bot) -> None:
    replay = Message("Game 1a2b3c4d.", image=b"GIF89a", image_name="replay-1a2b3c4d.gif")
    final = Message("Game over!", image=png(1), image_name="final.png")
    final.buttons = [[Button("▶ Replay", "fc:rp:1a2b3c4d")]]
    stats = Message("Ann: 1000", image=png(2), image_name="stats.png")
    board = Message("Your turn.", image=png(3), buttons=[[Button("Play", "fc:sp:x")]])
    notice = Parcel(GROUP, [plan(bot, Message("Your turn, Ben."))], key="turn")
    group = [*parcels(bot, replay, final, stats, board), notice]
    done = coalesce(group)
    assert not done.changed and done.parcels == group
    # A private chat's pictures (a tile, a view of the table) are each their own.
    tile = Message("Your new tile.", image=png(4), image_name="your-tile.png")
    view = Message("Your view.", image=png(5))
    private = [Parcel(USER, [plan(bot, m, private=True)]) for m in (tile, view, tile, view)]
    done = coalesce(private)
    assert not done.changed and done.parcels == private


async def test_a_coalesced_parcel_that_finds_its_chat_gone_reports_for_each_part(
    api: FakeBotApi, bot: Bot
) -> None:
    api.unreachable.add(USER)
    reports: list[str] = []

    async def report(name: str) -> None:
        reports.append(name)

    waiting = [
        Parcel(USER, [plan(bot, Message(t), private=True)], on_unreachable=partial(report, t))
        for t in ("a", "b", "c")
    ]
    [merged] = coalesce(waiting).parcels
    assert await Outbox(undeliverable).send(merged) == "unreachable"
    assert [p.outcome for p in waiting] == ["unreachable"] * 3
    assert reports == ["a", "b", "c"]
    assert len([c for c in api.calls if c.chat_id == USER]) == 1
