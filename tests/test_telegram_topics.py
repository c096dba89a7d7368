"""Forum supergroups: every topic is a place of its own, with its own table, and everything of
a table (replies, images, reminders, votes) goes to its topic; the General topic is a place
too. The real application, service, store and images; only Telegram is faked."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest

from bot.config import Settings
from bot.records.table import Table
from bot.service import GameService
from bot.store import Channel, Store
from bot.telegram import build_application
from tests.conftest import fixed_seeds
from tests.fake_telegram import Call, FakeBotApi, Harness, TgUser, Topic, settings_for
from tests.tables import load_game
from tests.test_telegram_unreachable import typed_move, whose_turn

# On a Redis Cluster too: each place's keys lie in one slot, its steps stay atomic.
BACKENDS = ("single", "cluster")
FORUM = -100_4242
ANN, BEN, CAT = TgUser(401, "Ann"), TgUser(402, "Ben"), TgUser(403, "Cat")


def place(topic: Topic | None) -> Channel:
    return Channel.of("telegram", str(FORUM) if topic is None else f"{FORUM}_{topic.thread_id}")


@pytest.fixture
def topics(api: FakeBotApi) -> tuple[Topic, Topic]:
    api.forums.add(FORUM)
    return api.create_topic(FORUM, "Strategy"), api.create_topic(FORUM, "Beginners")


@pytest.fixture
async def bot(api: FakeBotApi, store: Store) -> AsyncIterator[Harness]:
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    async with Harness.running(api, GameService(store, settings, seeds=fixed_seeds())) as h:
        yield h


def sends(calls: list[Call]) -> list[Call]:
    return [c for c in calls if c.method in ("sendMessage", "sendPhoto") and c.delivered]


def where(calls: list[Call]) -> set[tuple[int | None, int | None]]:
    """The chats and topics the calls' messages went to."""
    return {(c.chat_id, c.topic) for c in sends(calls)}


def button(call: Call, prefix: str) -> str:
    return next(
        str(b["callback_data"]) for b in call.buttons if b["callback_data"].startswith(prefix)
    )


async def say(bot: Harness, user: TgUser, text: str, topic: Topic | None) -> list[Call]:
    return await bot.feed(bot.api.command(FORUM, user, text, topic=topic))


async def open_game(bot: Harness, topic: Topic | None, first: TgUser, second: TgUser) -> None:
    """`first` opens a table in `topic` (General if None), `second` joins by its button, and
    `first` starts: every answer stays in that topic."""
    [lobby] = sends(await say(bot, first, "/fc new", topic))
    assert lobby.topic == (topic.thread_id if topic else None)
    joined = await bot.feed(bot.api.press(second, lobby, button(lobby, "fc:j:")))
    assert not [c for c in sends(joined) if c.chat_id == FORUM]  # the lobby is edited
    [seated] = [c for c in joined if c.method == "editMessageText" and c.delivered]
    assert seated.result is not None and seated.result.get("message_thread_id") == lobby.topic
    assert "joins the table (2/4)" in seated.text
    began = await bot.feed(bot.api.press(first, seated, button(seated, "fc:st:")))
    assert any("The game begins!" in c.text for c in sends(began))
    thread = topic.thread_id if topic else None
    assert {t for chat, t in where(began) if chat == FORUM} == {thread}


async def test_each_topic_and_general_keep_a_table_of_their_own(
    bot: Harness, store: Store, topics: tuple[Topic, Topic]
) -> None:
    strategy, beginners = topics
    await open_game(bot, strategy, ANN, BEN)
    await open_game(bot, beginners, BEN, CAT)
    [lobby] = sends(await say(bot, CAT, "/fc new", None))  # General: a place of its own
    assert (lobby.chat_id, lobby.topic) == (FORUM, None)
    for topic in (strategy, beginners, None):
        assert await store.load(place(topic)) is not None

    # A move typed in one topic plays that topic's game and is shown there alone.
    rng = random.Random(3)
    for topic, players in ((strategy, [ANN, BEN]), (beginners, [BEN, CAT])):
        others = {p: await store.load(place(p)) for p in topics if p is not topic}
        user = await whose_turn(store, players, place(topic))
        assert user is not None
        calls = await say(bot, user, await typed_move(store, rng, place(topic)), topic)
        assert any(c.photo for c in sends(calls) if c.topic == topic.thread_id)
        assert {t for chat, t in where(calls) if chat == FORUM} == {topic.thread_id}
        assert {p: await store.load(place(p)) for p in others} == others  # untouched

    # The same `/fc status` gets each topic's own table.
    status = await say(bot, CAT, "/fc status", beginners)
    assert all(c.topic == beginners.thread_id for c in sends(status) if c.chat_id == FORUM)


async def test_private_messages_and_the_list_of_games_name_the_group_and_topic(
    bot: Harness, store: Store, topics: tuple[Topic, Topic]
) -> None:
    strategy, beginners = topics
    await open_game(bot, strategy, ANN, BEN)
    await open_game(bot, beginners, BEN, CAT)
    # Ben plays in both topics: each turn notice says which one it is for.
    user = await whose_turn(store, [ANN, BEN], place(strategy))
    assert user is not None
    calls = await say(
        bot, user, await typed_move(store, random.Random(1), place(strategy)), strategy
    )
    notices = [c for c in sends(calls) if c.chat_id != FORUM and c.buttons]
    assert notices and all(f"group{FORUM} › Strategy" in c.visible for c in notices)

    [listing] = sends(await bot.feed(bot.api.command(BEN.id, BEN, "/fc games")))
    lines = listing.visible.splitlines()
    internal = str(FORUM).removeprefix("-100")
    for topic in topics:
        [line] = [x for x in lines if f"› {topic.name}" in x]
        assert line.endswith(f"https://t.me/c/{internal}/{topic.thread_id}")
        assert "Forbidden City" in line


async def test_a_closed_topic_closes_its_table_and_general_is_told(
    bot: Harness, store: Store, topics: tuple[Topic, Topic]
) -> None:
    strategy, beginners = topics
    await open_game(bot, strategy, ANN, BEN)
    await open_game(bot, beginners, BEN, CAT)
    assert await store.deadline(place(strategy), "remind") is not None
    beginners_before = await store.load(place(beginners))

    calls = await bot.feed(bot.api.topic_closed(strategy, ANN))
    [told] = sends(calls)
    assert (told.chat_id, told.topic) == (FORUM, None)  # General: the topic is closed
    assert "Strategy is closed" in told.visible and "Forbidden City" in told.visible
    assert await store.load(place(strategy)) is None
    for kind in ("remind", "limit", "bot", "news"):
        assert await store.deadline(place(strategy), kind) is None
    assert await store.load(place(beginners)) == beginners_before  # the other topic plays on
    # The table is archived, not lost; nothing is said twice.
    assert await store.last_archived(place(strategy)) is not None
    assert sends(await bot.feed(bot.api.topic_closed(strategy, ANN))) == []


async def test_a_deleted_topic_closes_its_table_at_the_next_post(
    bot: Harness, store: Store, topics: tuple[Topic, Topic]
) -> None:
    """Telegram tells bots of no deletion: the next post there fails, and the table closes."""
    strategy, _ = topics
    await open_game(bot, strategy, ANN, BEN)
    user = await whose_turn(store, [ANN, BEN], place(strategy))
    assert user is not None
    move = await typed_move(store, random.Random(2), place(strategy))
    strategy.state = "deleted"
    # The move typed in the private chat is shown in the game's place: that post fails.
    calls = await bot.feed(bot.api.command(user.id, user, move))
    assert any(c.topic == strategy.thread_id and not c.delivered for c in calls)
    [told] = [c for c in sends(calls) if c.chat_id == FORUM]
    assert told.topic is None and "Strategy is closed" in told.visible
    assert await store.load(place(strategy)) is None
    for kind in ("remind", "limit", "bot", "news"):
        assert await store.deadline(place(strategy), kind) is None


async def test_a_reminder_goes_to_the_topic_and_a_time_limit_is_said_there(
    api: FakeBotApi, store: Store, topics: tuple[Topic, Topic]
) -> None:
    strategy, _ = topics
    now = [1_000_000.0]
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        reminder_after=timedelta(hours=1),
        turn_limit=timedelta(hours=2),
    )
    service = GameService(store, settings, clock=lambda: now[0], seeds=fixed_seeds())
    async with Harness.running(api, service) as harness:
        await open_game(harness, strategy, ANN, BEN)
        poller = build_application(settings_for(api), service, deadline_interval=0.05)
        async with poller:
            assert poller.post_init is not None and poller.post_stop is not None
            start = len(api.calls)
            await poller.post_init(poller)
            now[0] += 7201  # the reminder and the time limit are due
            for _ in range(200):
                if any(c.topic == strategy.thread_id for c in sends(api.calls[start:])):
                    break
                await asyncio.sleep(0.02)
            await poller.post_stop(poller)
        calls = api.calls[start:]
        [limit] = [c for c in sends(calls) if c.chat_id == FORUM]
        assert limit.topic == strategy.thread_id and "/fc vote skip" in limit.visible
        [reminder] = [c for c in sends(calls) if c.chat_id != FORUM and c.photo]
        assert "reminder" in reminder.visible and "› Strategy" in reminder.visible


async def test_an_ordinary_groups_reply_threads_share_its_one_table(
    bot: Harness, store: Store
) -> None:
    group = -100_5353
    await bot.feed(bot.api.command(group, ANN, "/fc new"))
    update = bot.api.command(group, BEN, "/fc join", reply_to=ANN)
    update["message"]["message_thread_id"] = update["message"]["reply_to_message"]["message_id"]
    calls = await bot.feed(update)
    assert any("joins the table (2/4)" in c.text for c in sends(calls) if c.chat_id == group)
    assert all(c.topic is None for c in calls)


async def test_a_group_that_becomes_a_forum_keeps_its_table_in_general(
    bot: Harness, store: Store, topics: tuple[Topic, Topic]
) -> None:
    """An ordinary group upgraded to a supergroup gets a new id: its table follows it, and in
    a forum it is the General topic's, beside the topics' own tables."""
    old = -4242
    await bot.feed(bot.api.command(old, ANN, "/fc new"))
    moved = {
        "update_id": 9101,
        "message": {
            "message_id": 9102,
            "date": 0,
            "chat": {"id": old, "type": "group", "title": "t"},
            "migrate_to_chat_id": FORUM,
        },
    }
    await bot.feed(moved)
    assert await store.load(place(None)) is not None
    calls = await say(bot, BEN, "/fc join", None)
    [joined] = [c for c in sends(calls) if c.chat_id == FORUM]
    assert joined.topic is None and "joins the table (2/4)" in joined.text
    strategy, _ = topics
    await open_game(bot, strategy, CAT, ANN)  # a topic's table beside it
    general = await store.load(place(None))
    assert general is not None and "403" not in general.data  # Cat sits in the topic only


async def test_a_table_stored_before_topics_plays_on_in_general(
    bot: Harness, store: Store, topics: tuple[Topic, Topic]
) -> None:
    """A group's table saved by an earlier version, under the key it had then (the chat's id):
    in the forum the group became, it is the General topic's and plays on there."""
    data = (Path(__file__).parent / "stored" / "forbidden_city-table.json").read_text()
    for number, name in enumerate(("ann", "bob", "cid"), start=701):  # Telegram ids
        data = data.replace(f'"{name}"', f'"{number}"')
    table = Table.model_validate_json(data)
    await store.create(
        place(None), data, creator=table.creator, players=table.user_ids(), language="en"
    )
    game = load_game(table)
    user_id = table.user_of(game.current).user_id
    user = TgUser(int(user_id), "Someone")
    move = await typed_move(store, random.Random(4), place(None))
    calls = await say(bot, user, move, None)
    posts = [c for c in sends(calls) if c.chat_id == FORUM]
    assert posts and all(c.topic is None for c in posts)
    assert any(c.photo and "places a tile" in c.text for c in posts)
    record = await store.load(place(None))
    assert record is not None
    assert len(load_game(Table.model_validate_json(record.data)).moves) == len(game.moves) + 1
