"""The record commands through Telegram: users named by a text mention or by replying to them,
the community of a command, and the files a reply may carry (a GIF replay, a JSON record).

python-telegram-bot runs for real against `FakeBotApi`; the service is the real
`GameService` on a real redis-server, wrapped (`Recording`) so the test sees the text each
command became, and scripted where a test needs a reply with a file.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.config import Settings
from bot.exchange.replies import Button, Message, Reply
from bot.service import GameService
from bot.store import Store
from bot.telegram.delivery import file_kind
from bot.telegram.markup import plain_text
from tests.conftest import fixed_seeds
from tests.fake_telegram import BOT_ID, Call, FakeBotApi, Harness, TgUser
from tests.test_discord_records import GAME_ID, Recording, gif, png, record

GROUP = -100_900
ANN = TgUser(301, "Ann")
BEN = TgUser(302, "Ben", "Berg")  # no username: named by picking him, a text mention
MEI = TgUser(303, "Mei 🐉")  # a name longer in UTF-16 than in characters
PATIENCE = 10.0  # seconds a wait for a retried delivery may last


@pytest.fixture
def service(store: Store) -> Recording:
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    return Recording(GameService(store, settings, seeds=fixed_seeds()))


@pytest.fixture
async def bot(api: FakeBotApi, service: Recording) -> AsyncIterator[Harness]:
    async with Harness.running(api, service) as harness:
        yield harness


def assert_answered(calls: list[Call], service: Recording, user: TgUser, chat: int) -> None:
    """What the service answered reached the user: the public part in the chat the command
    was typed in, the private part in their private chat."""
    reply = service.replies[-1]
    sent = [c for c in calls if c.method.startswith("send")]
    assert all(c.delivered for c in sent), [c.failed for c in sent]
    for where, messages in ((chat, reply.public), (user.id, reply.private)):
        shown = " ".join(c.visible for c in sent if c.chat_id == where)
        for message in messages:
            assert plain_text(message).splitlines()[0] in shown


# ---------------------------------------------------------------------- commands
@pytest.mark.parametrize(
    "text", ["stats", "top", "top stadt global", "history", f"replay {GAME_ID}", "forget me"]
)
async def test_a_command_reaches_the_service_and_is_answered(
    bot: Harness, service: Recording, text: str
) -> None:
    calls = await bot.feed(bot.api.command(GROUP, ANN, f"/fc {text}"))
    assert service.texts == [text]
    assert_answered(calls, service, ANN, GROUP)


@pytest.mark.parametrize(
    ("typed", "mentions", "text"),
    [
        ("/fc stats Ben Berg", {"Ben Berg": BEN}, f"stats <@{BEN.id}>"),
        ("/fc history Mei 🐉", {"Mei 🐉": MEI}, f"history <@{MEI.id}>"),
        # Offsets count UTF-16 units: a dragon before the name moves it by two.
        ("/fc stats 🐉 Ben", {"Ben": BEN}, f"stats 🐉 <@{BEN.id}>"),
        ("/fc stats @ann_k", {}, "stats @ann_k"),  # a username: as typed
        # Two in one command: each replaced where it stands (the service then refuses).
        (
            "/fc stats Ben Berg Mei 🐉",
            {"Ben Berg": BEN, "Mei 🐉": MEI},
            f"stats <@{BEN.id}> <@{MEI.id}>",
        ),
    ],
)
async def test_a_text_mention_becomes_the_users_id(
    bot: Harness, service: Recording, typed: str, mentions: dict[str, TgUser], text: str
) -> None:
    calls = await bot.feed(bot.api.command(GROUP, ANN, typed, mentions=mentions))
    assert service.texts == [text]
    assert_answered(calls, service, ANN, GROUP)


@pytest.mark.parametrize(
    ("typed", "text"),
    [
        ("/fc stats", f"stats <@{BEN.id}>"),
        ("/fc HISTORY", f"HISTORY <@{BEN.id}>"),
        ("/fc top", "top"),  # takes no user
        (f"/fc stats <@{ANN.id}>", f"stats <@{ANN.id}>"),  # a user given: kept
    ],
)
async def test_a_reply_to_someone_is_about_them(
    bot: Harness, service: Recording, typed: str, text: str
) -> None:
    calls = await bot.feed(bot.api.command(GROUP, ANN, typed, reply_to=BEN))
    assert service.texts == [text]
    assert_answered(calls, service, ANN, GROUP)


async def test_a_mention_in_a_reply_wins_over_the_replied_user(
    bot: Harness, service: Recording
) -> None:
    update = bot.api.command(GROUP, ANN, "/fc stats Mei 🐉", mentions={"Mei 🐉": MEI}, reply_to=BEN)
    await bot.feed(update)
    assert service.texts == [f"stats <@{MEI.id}>"]


def replying(update: dict[str, Any], **changes: Any) -> dict[str, Any]:
    update["message"]["reply_to_message"].update(changes)
    return update


async def test_replies_that_name_nobody(bot: Harness, service: Recording) -> None:
    """A reply to the bot's own post, to a channel's post, or the implicit reply of a message
    in a forum topic to the topic's first message: about the one who typed it."""
    bot_user = {"id": BOT_ID, "is_bot": True, "first_name": "Forbidden City"}
    to_bot = replying(bot.api.command(GROUP, ANN, "/fc stats", reply_to=BEN), **{"from": bot_user})
    channel = {"id": -100_123, "type": "channel", "title": "news"}
    to_channel = replying(
        bot.api.command(GROUP, ANN, "/fc stats", reply_to=BEN), sender_chat=channel
    )
    topic = bot.api.command(GROUP, ANN, "/fc history", reply_to=BEN)
    topic["message"]["is_topic_message"] = True
    topic["message"]["message_thread_id"] = topic["message"]["reply_to_message"]["message_id"]
    replying(topic, forum_topic_created={"name": "Games", "icon_color": 7322096})
    for update in (to_bot, to_channel, topic):
        await bot.feed(update)
    assert service.texts == ["stats", "stats", "history"]


async def test_the_community_is_the_group_and_none_in_private(
    bot: Harness, service: Recording
) -> None:
    await bot.feed(bot.api.command(GROUP, ANN, "/fc top"))
    await bot.feed(bot.api.command(ANN.id, ANN, "/fc top"))
    (in_group, _), (in_private, _) = service.commands
    assert in_group.community == str(GROUP) and not in_group.private
    assert in_private.community is None and in_private.private


# ---------------------------------------------------------------------- files
def test_file_kinds_by_name() -> None:
    assert [file_kind(n) for n in ("table.png", "a.JPG", "b.jpeg", "c.webp")] == ["photo"] * 4
    assert [file_kind(n) for n in ("replay-0a1b2c3d.gif", "R.GIF")] == ["animation"] * 2
    assert [file_kind(n) for n in ("game.json", "notes.txt", "noname")] == ["document"] * 3


async def test_a_gif_is_an_animation_with_its_caption_and_keyboard(
    bot: Harness, service: Recording
) -> None:
    replay = gif()
    service.canned = Reply(
        public=[
            Message(
                f"Replay of <{GAME_ID}>",
                image=replay,
                image_name=f"replay-{GAME_ID}.gif",
                buttons=[[Button("Again", f"fc:rp:{GROUP}")]],
            )
        ]
    )
    await bot.feed(bot.api.command(GROUP, ANN, f"/fc replay {GAME_ID}"))
    [post] = bot.api.sent()
    assert (post.method, post.chat_id) == ("sendAnimation", GROUP)
    assert post.animation == replay and post.file == (f"replay-{GAME_ID}.gif", replay)
    assert post.visible == f"Replay of <{GAME_ID}>" and post.params["parse_mode"] == "HTML"
    assert post.buttons == [{"text": "Again", "callback_data": f"fc:rp:{GROUP}"}]
    assert post.reply_to is not None  # under the command, as a board is
    assert post.result["animation"]["file_name"] == f"replay-{GAME_ID}.gif"


async def test_a_json_is_a_document_sent_privately(bot: Harness, service: Recording) -> None:
    exported = record()
    service.canned = Reply(
        private=[Message("Your record", image=exported, image_name=f"game-{GAME_ID}.json")]
    )
    await bot.feed(bot.api.command(GROUP, ANN, f"/fc export {GAME_ID}"))
    [post] = bot.api.sent()
    assert (post.method, post.chat_id) == ("sendDocument", ANN.id)
    assert post.file == (f"game-{GAME_ID}.json", exported)
    assert json.loads(post.document or b"")["seed"] == 7
    assert post.visible == "Your record"
    assert bot.api.sent(GROUP) == []


async def test_a_png_is_still_a_photo(bot: Harness, service: Recording) -> None:
    board = png()
    service.canned = Reply(public=[Message("The board", image=board)])
    await bot.feed(bot.api.command(GROUP, ANN, "/fc top"))
    [post] = bot.api.sent()
    assert post.method == "sendPhoto" and post.file == ("table.png", board)


async def test_a_long_text_goes_after_the_animation(bot: Harness, service: Recording) -> None:
    replay = gif()
    text = "\n".join(f"move {n:03d}: " + "x" * 30 for n in range(60))  # past a caption's 1024
    service.canned = Reply(
        public=[Message(text, image=replay, image_name="replay.gif", buttons=[[Button("Ok", "x")]])]
    )
    await bot.feed(bot.api.command(GROUP, ANN, f"/fc replay {GAME_ID}"))
    animation, words = bot.api.sent()
    assert animation.method == "sendAnimation" and animation.text == "" and not animation.buttons
    assert words.method == "sendMessage" and words.visible == text and words.buttons


async def test_a_flooded_group_gets_the_animation_once_the_flood_ends(
    bot: Harness, service: Recording
) -> None:
    """Files go through the same per-chat queue as texts and photos: a 429 is waited out."""
    replay = gif()
    service.canned = Reply(public=[Message("Replay", image=replay, image_name="replay.gif")])
    bot.api.flood(GROUP, seconds=None, retry_after=0.4)  # until the first try is refused
    await bot.feed(bot.api.command(GROUP, ANN, f"/fc replay {GAME_ID}"))
    deadline = time.monotonic() + PATIENCE
    while not bot.api.refused(GROUP):
        assert time.monotonic() < deadline, "the animation was never tried"
        await asyncio.sleep(0.05)
    bot.api.end_flood(GROUP)
    while not bot.api.sent(GROUP):
        assert time.monotonic() < deadline, "the animation never arrived"
        await asyncio.sleep(0.05)
    tries = [c for c in bot.api.calls if c.method == "sendAnimation"]
    assert [c.delivered for c in tries] == [False, True]
    assert tries[-1].animation == replay
