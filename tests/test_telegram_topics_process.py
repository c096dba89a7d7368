"""Two games at once in two topics of one forum, played through a real `python -m bot` on the
fake Bot API and a real redis-server, with the bot killed outright in the middle and another
process taking over: every move made is kept, and each topic only ever sees its own game."""

from __future__ import annotations

import asyncio
import os
import random
import signal
from collections.abc import AsyncIterator
from functools import partial
from pathlib import Path

import pytest

from bot.records.table import Table
from bot.store import Channel, Store
from tests.fake_telegram import FakeBotApi, TgUser, Topic
from tests.tables import load_game
from tests.test_telegram_takeover import Bots, until
from tests.test_telegram_unreachable import typed_move, whose_turn

FORUM = -100_6262
ANN, BEN, CAT = TgUser(601, "Ann"), TgUser(602, "Ben"), TgUser(603, "Cat")


def place(topic: Topic) -> Channel:
    return Channel.of("telegram", f"{FORUM}_{topic.thread_id}")


async def moves_made(store: Store, topic: Topic) -> int:
    """The moves the stored game of a topic has played."""
    record = await store.load(place(topic))
    assert record is not None
    return len(load_game(Table.model_validate_json(record.data)).moves)


@pytest.fixture
async def bots(api: FakeBotApi, redis_url: str, tmp_path: Path) -> AsyncIterator[Bots]:
    """Bot processes polling with a short lease, so the second polls soon after a kill."""
    started = Bots(api, redis_url, tmp_path, "2s")
    yield started
    await started.stop()


async def test_two_topics_play_on_through_a_killed_bot(
    api: FakeBotApi, store: Store, bots: Bots
) -> None:
    api.forums.add(FORUM)
    games = {
        api.create_topic(FORUM, "Strategy"): [ANN, BEN],
        api.create_topic(FORUM, "Beginners"): [BEN, CAT],
    }

    def answered_since(topic: Topic, answered: int) -> bool:
        return len(api.sent(topic=topic)) > answered

    first = bots.start()
    await until(lambda: "polling Telegram for updates" in first.log())

    for topic, (opener, joiner) in games.items():
        for user, text in ((opener, "/fc new"), (joiner, "/fc join"), (opener, "/fc start")):
            answered = len(api.sent(topic=topic))  # each answer first: updates run at once
            api.serve_update(api.command(FORUM, user, text, topic=topic))
            await until(partial(answered_since, topic, answered))
        assert any("The game begins!" in c.text for c in api.sent(topic=topic))

    rng = random.Random(6)

    def shown(topic: Topic, typed: str) -> bool:
        """Whether the move `typed` is shown in `topic`, with the table's image."""
        spot = typed.split()[2]
        return any(c.photo and f"places a tile at {spot}." in c.text for c in api.sent(topic=topic))

    async def move_in_each(wait_for_posts: bool = True) -> None:
        """One move typed in each topic by its player to move, both on their way at once;
        back when each is shown in its topic, or only saved."""
        before = {topic: await moves_made(store, topic) for topic in games}
        typed = {}
        for topic, players in games.items():
            user = await whose_turn(store, players, place(topic))
            assert user is not None
            typed[topic] = await typed_move(store, rng, place(topic))
            api.serve_update(api.command(FORUM, user, typed[topic], topic=topic))
        for _ in range(1800):
            made = {t: await moves_made(store, t) for t in games}
            if all(made[t] > before[t] for t in games):
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("a move typed in a topic was not played")
        if wait_for_posts:
            await until(lambda: all(shown(t, typed[t]) for t in games))

    await move_in_each()
    await move_in_each(wait_for_posts=False)  # killed right after the saves
    kept = {topic: await store.load(place(topic)) for topic in games}
    os.kill(first.process.pid, signal.SIGKILL)
    await until(first.exited)

    second = bots.start()
    await until(lambda: "polling Telegram for updates" in second.log())
    for topic in games:  # nothing was lost with the process
        assert await store.load(place(topic)) == kept[topic]
    for _ in range(2):  # and both games go on, each in its topic
        await move_in_each()
    for topic, players in games.items():
        strangers = {ANN, BEN, CAT} - set(players)
        for post in api.sent(topic=topic):
            assert not any(f"tg://user?id={user.id}" in post.text for user in strangers)
    assert api.sent(FORUM) == []  # nothing of either game reached General
