"""Players who never opened the private chat with the bot, with the real service and store.

Telegram refuses every private message to them (403). The group must learn it once per
player and game, not after every message that could not arrive; what they type is still
answered, in the group, as a reply to their command.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from typing import Any

import pytest

import render.forbidden_city as render
from bot.config import Settings
from bot.records.table import Table
from bot.service import GameService
from bot.store import Channel, Store
from tests.conftest import fixed_seeds
from tests.fake_telegram import BOT_USERNAME, Call, FakeBotApi, Harness, TgUser
from tests.tables import load_game
from tests.views import to_play

GROUP = -100_321
CHANNEL = Channel.of("telegram", str(GROUP))
ANN, BEN, CAT = TgUser(301, "Ann"), TgUser(302, "Ben"), TgUser(303, "Cat")
LINK = f"t.me/{BOT_USERNAME}?start=fc"


def service_for(store: Store) -> GameService:
    return GameService(store, Settings(_env_file=None), seeds=fixed_seeds())  # type: ignore[call-arg]


@pytest.fixture
async def bot(api: FakeBotApi, store: Store) -> AsyncIterator[Harness]:
    async with Harness.running(api, service_for(store)) as harness:
        yield harness


def group_posts(calls: list[Call]) -> list[Call]:
    return [c for c in calls if c.chat_id == GROUP and c.delivered and c.method != "getChatMember"]


def hints_for(calls: list[Call], user: TgUser) -> list[Call]:
    """Group posts telling `user` to open the private chat."""
    return [c for c in group_posts(calls) if LINK in c.text and f"id={user.id}" in c.text]


def message_id(update: dict[str, Any]) -> int:
    return int(update["message"]["message_id"])


async def say(bot: Harness, user: TgUser, text: str) -> tuple[int, list[Call]]:
    update = bot.api.command(GROUP, user, text)
    return message_id(update), await bot.feed(update)


async def open_table(bot: Harness, players: list[TgUser]) -> None:
    first, *others = players
    await say(bot, first, "/fc new")
    for user in others:
        await say(bot, user, "/fc join")
    await say(bot, first, "/fc start")


async def whose_turn(
    store: Store, players: list[TgUser], channel: Channel = CHANNEL
) -> TgUser | None:
    """The player to move, or None once the game is over (archived)."""
    record = await store.load(channel)
    if record is None:
        return None
    table = Table.model_validate_json(record.data)
    game = load_game(table)
    user_id = table.user_of(game.current).user_id
    return next(p for p in players if str(p.id) == user_id)


async def typed_move(store: Store, rng: random.Random, channel: Channel = CHANNEL) -> str:
    """A legal `/fc play x,y r`, read from the table as a player without private chat must."""
    record = await store.load(channel)
    assert record is not None
    game = load_game(Table.model_validate_json(record.data))
    spot = rng.choice(render.spots(to_play(game)))
    return f"/fc play {spot.x},{spot.y} {rng.choice(spot.rotations)}"


async def play_typed(bot: Harness, store: Store, players: list[TgUser], turns: int) -> int:
    """Up to `turns` moves, each typed in the group by the player to move; moves played."""
    rng = random.Random(turns)
    for played in range(turns):
        user = await whose_turn(store, players)
        if user is None:
            return played
        before = await store.load(CHANNEL)
        await say(bot, user, await typed_move(store, rng))
        assert await store.load(CHANNEL) != before
    return turns


async def test_a_whole_game_hints_each_unreachable_player_once(bot: Harness, store: Store) -> None:
    bot.api.unreachable.update({BEN.id, CAT.id})
    players = [ANN, BEN, CAT]
    await open_table(bot, players)
    played = await play_typed(bot, store, players, 200)
    assert await whose_turn(store, players) is None, "the game ran to its end"
    calls = bot.api.calls
    assert len(hints_for(calls, BEN)) == 1
    assert len(hints_for(calls, CAT)) == 1
    assert hints_for(calls, ANN) == []
    # The group sees the moves (a photo each) and little else.
    posts = group_posts(calls)
    photos = [c for c in posts if c.photo is not None]
    assert len(photos) >= played
    assert len(posts) - len(photos) <= 2 + 4  # lobby texts and the two hints


async def test_the_hint_is_remembered_across_a_restart(api: FakeBotApi, store: Store) -> None:
    api.unreachable.add(BEN.id)
    players = [ANN, BEN]
    async with Harness.running(api, service_for(store)) as first:
        await open_table(first, players)
        await play_typed(first, store, players, 6)
        assert len(hints_for(api.calls, BEN)) == 1
    async with Harness.running(api, service_for(store)) as second:  # a new process
        assert await play_typed(second, store, players, 6) == 6
        assert hints_for(api.calls, BEN) == []  # the calls since the restart
    # A new game in the same group tells Ben again.
    async with Harness.running(api, service_for(store)) as third:
        await say(third, ANN, "/fc abort")
        await open_table(third, players)
        await play_typed(third, store, players, 4)
        assert len(hints_for(api.calls, BEN)) == 1


async def test_a_refused_command_is_answered_in_the_group_as_a_reply(
    bot: Harness, store: Store
) -> None:
    bot.api.unreachable.add(BEN.id)
    players = [ANN, BEN]
    await open_table(bot, players)
    mover = await whose_turn(store, players)
    if mover == ANN:
        await play_typed(bot, store, players, 1)
    assert await whose_turn(store, players) == BEN
    before = await store.load(CHANNEL)
    for text, reason in [
        ("/fc play 99 0", "There is no spot 99"),
        ("/fc play banana", "is not a spot number"),
        ("/fc join", "already started"),
    ]:
        command, calls = await say(bot, BEN, text)
        [answer] = group_posts(calls)
        assert reason in answer.visible, (text, answer.visible)
        assert answer.reply_to == command
        assert LINK not in answer.text and answer.photo is None
        assert await store.load(CHANNEL) == before


async def test_a_refused_press_is_a_popup_for_the_presser_only(bot: Harness, store: Store) -> None:
    bot.api.unreachable.add(BEN.id)
    await say(bot, ANN, "/fc new")
    _, calls = await say(bot, BEN, "/fc join")
    [lobby] = group_posts(calls)
    join = next(b["callback_data"] for b in lobby.buttons if b["callback_data"].startswith("fc:j:"))
    calls = await bot.feed(bot.api.press(BEN, lobby, join))
    [answer] = [c for c in calls if c.method == "answerCallbackQuery"]
    assert "already at the table" in answer.params["text"]
    assert answer.params["show_alert"] == "true"
    assert group_posts(calls) == []


async def test_a_private_answer_is_replaced_by_a_hint_replying_to_the_command(
    bot: Harness, store: Store
) -> None:
    bot.api.unreachable.add(BEN.id)
    await open_table(bot, [ANN, BEN])
    for _ in range(2):  # asked twice, answered twice: the user is waiting for an answer
        command, calls = await say(bot, BEN, "/fc hand")
        [hint] = group_posts(calls)
        assert LINK in hint.text and hint.reply_to == command
        assert hint.photo is None
