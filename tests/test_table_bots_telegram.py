"""A whole Telegram game of one person and three computer players: the real application, its
deadline poller, the service, the store, worker processes; only Telegram's servers are faked."""

from __future__ import annotations

import asyncio
import io
import random
import re

from PIL import Image
from telegram import Update
from telegram.ext import AIORateLimiter

import render.forbidden_city as render
from bot.config import Settings
from bot.records.table import Table
from bot.runtime.computer_pool import Computer
from bot.service import GameService
from bot.store import Channel, Store
from bot.telegram import build_application
from tests.conftest import fixed_seeds
from tests.fake_telegram import Call, FakeBotApi, TgUser, settings_for
from tests.tables import load_game
from tests.views import to_play

GROUP = -100_555
CHANNEL = Channel.of("telegram", str(GROUP))
ANN = TgUser(301, "Ann")
MENTION = re.compile(r'<a href="tg://user\?id=(\d+)">')


def is_png(data: bytes | None) -> bool:
    if data is None:
        return False
    with Image.open(io.BytesIO(data)) as image:
        return image.format == "PNG"


def sent(calls: list[Call]) -> list[Call]:
    return [c for c in calls if c.method in ("sendMessage", "sendPhoto") and c.delivered]


async def table_of(store: Store) -> Table | None:
    record = await store.load(CHANNEL)
    return None if record is None else Table.model_validate_json(record.data)


async def person_to_play(store: Store) -> Table | None:
    """Waits while the computers play (the poller fires them); the table once Ann must play,
    None once the game is over."""
    for _ in range(1500):
        table = await table_of(store)
        if table is None:
            return None
        if table.user_of(load_game(table).current).bot is None:
            return table
        await asyncio.sleep(0.02)
    raise AssertionError("the computer players never played")


async def test_one_person_and_three_computers_play_a_whole_game_on_telegram(
    api: FakeBotApi, store: Store
) -> None:
    config = Settings(_env_file=None, bot_pause=0)  # type: ignore[call-arg, arg-type]
    computer = Computer(1, 5.0, iterations=6)
    service = GameService(store, config, seeds=fixed_seeds(), computer=computer)
    app = build_application(
        settings_for(api),
        service,
        rate_limiter=AIORateLimiter(overall_max_rate=0, group_max_rate=0),
        deadline_interval=0.02,
    )
    # A whole game with no pause between computers' moves
    api.allow(chat=500, group=2000, overall=1000)

    async def say(text: str) -> None:
        await app.process_update(Update.de_json(api.command(GROUP, ANN, text), app.bot))

    rng = random.Random(2)
    try:
        async with app:
            assert app.post_init is not None and app.post_stop is not None
            await app.post_init(app)
            try:
                await say("/fc new bots:3")
                [lobby] = sent(api.calls)
                assert "Computer (normal) 3" in lobby.text
                await say("/fc start")
                moves = 0
                while (table := await person_to_play(store)) is not None:
                    spot = rng.choice(render.spots(to_play(load_game(table))))
                    await say(f"/fc play {spot.number} {spot.rotations[0]}")
                    moves += 1
                for _ in range(200):  # the last post may still be on its way
                    if any("Game over" in c.text for c in sent(api.calls)):
                        break
                    await asyncio.sleep(0.02)
            finally:  # a failing check must not leave the poller running
                await app.post_stop(app)
    finally:
        computer.close()
    posts = sent(api.calls)
    assert {c.chat_id for c in posts} <= {GROUP, ANN.id}  # nobody else is written to
    group = [c for c in posts if c.chat_id == GROUP]
    placed = re.compile(r"Computer \(normal\)( \d)? places a tile")
    computer_moves = [c for c in group if c.photo and placed.search(c.text)]
    assert all(is_png(c.photo) for c in computer_moves)
    # The computers who move in turn after Ann are told in one post, with one picture.
    told = sum(len(list(placed.finditer(c.text))) for c in computer_moves)
    assert moves > 5 and told >= 2 * moves and len(computer_moves) <= moves + 1
    assert "Game over" in group[-1].text and is_png(group[-1].photo)
    for post in group:  # only Ann is ever mentioned: computers have no Telegram user
        assert set(MENTION.findall(post.text)) <= {str(ANN.id)}


async def test_a_group_opened_in_french_hears_the_computers_in_french(
    api: FakeBotApi, store: Store
) -> None:
    """Nobody typed /fc lang: the group speaks its table's creator's language, in the answers
    to commands and in what the deadline poller posts (the computers' moves, the turn they
    hand on), in whatever process fires it."""
    amelie = TgUser(302, "Amélie", language_code="fr")
    config = Settings(_env_file=None, bot_pause=0)  # type: ignore[call-arg, arg-type]
    computer = Computer(1, 5.0, iterations=6)
    service = GameService(store, config, seeds=fixed_seeds(), computer=computer)
    app = build_application(
        settings_for(api),
        service,
        rate_limiter=AIORateLimiter(overall_max_rate=0, group_max_rate=0),
        deadline_interval=0.02,
    )

    async def say(text: str) -> None:
        await app.process_update(Update.de_json(api.command(GROUP, amelie, text), app.bot))

    placed = re.compile(r"Ordinateur \(normal\)( \d)? pose une tuile")
    try:
        async with app:
            assert app.post_init is not None and app.post_stop is not None
            await app.post_init(app)
            try:
                await say("/fc new bots:3")
                await say("/fc start")
                table = await person_to_play(store)
                assert table is not None
                if not any(placed.search(c.text) for c in sent(api.calls)):  # Amélie first
                    spot = render.spots(to_play(load_game(table)))[0]
                    await say(f"/fc play {spot.number} {spot.rotations[0]}")
                    await person_to_play(store)
            finally:
                await app.post_stop(app)
    finally:
        computer.close()
    group = [c for c in sent(api.calls) if c.chat_id == GROUP]
    assert "La partie commence" in group[1].text
    computer_moves = [c for c in group if placed.search(c.text)]
    assert computer_moves
    for post in computer_moves:
        assert "À " in post.text and "places a tile" not in post.text and "Next:" not in post.text
