"""Whole games through Telegram updates: the real application, service, store and images.

Only Telegram's servers are faked (tests/fake_telegram.py). Players act as users do: they
type `/fc ...` in the group and press the buttons of the messages they received, and choose
their moves from their private turn messages. A player who never opened the bot cannot see
their tile, so the test reads their legal spots from the table instead.
"""

from __future__ import annotations

import asyncio
import io
import random
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import timedelta

import pytest
from PIL import Image
from telegram import Update

import render.forbidden_city as render
from bot.config import Settings
from bot.records.table import Table
from bot.service import GameService
from bot.store import Channel, Store
from bot.telegram import build_application
from tests.conftest import fixed_seeds
from tests.fake_telegram import (
    BOT_USERNAME,
    Call,
    FakeBotApi,
    Harness,
    TgUser,
    edited_in,
    settings_for,
)
from tests.late_table import advance
from tests.tables import load_game
from tests.views import to_play

GROUP = -100_777
CHANNEL = Channel.of("telegram", str(GROUP))
ANN, BEN, CAT, DAN = (
    TgUser(201, "Ann"),
    TgUser(202, "Ben"),
    TgUser(203, "Cat"),
    TgUser(204, "Dan"),
)
EVE = TgUser(299, "Eve")  # in the group, not at the table
MENTION = re.compile(r'<a href="tg://user\?id=(\d+)">')
TILE_CODE = re.compile(r"[.#a]{4}[A-Z](\+\d?[AD])?")  # a tile as the engine writes it
MOVE_DATA = re.compile(r"^fc:(sp|pv|ok):")
HINT_ONCE = "I cannot write to you privately"  # the service's dm_failed text


@pytest.fixture
async def bot(api: FakeBotApi, store: Store) -> AsyncIterator[Harness]:
    config = Settings(_env_file=None)  # type: ignore[call-arg]
    service = GameService(store, config, seeds=fixed_seeds())
    # Whole games at the machine's speed: a move a few milliseconds, not seconds.
    api.allow(chat=500, group=2000, overall=1000)
    async with Harness.running(api, service) as harness:
        yield harness


def is_png(data: bytes | None) -> bool:
    if data is None:
        return False
    with Image.open(io.BytesIO(data)) as image:
        image.verify()
        return image.format == "PNG"


def delivered(calls: list[Call], chat_id: int) -> list[Call]:
    return [
        c
        for c in calls
        if c.method in ("sendMessage", "sendPhoto") and c.delivered and c.chat_id == chat_id
    ]


def group_posts(calls: list[Call]) -> list[Call]:
    return delivered(calls, GROUP)


def private_to(calls: list[Call], user: TgUser) -> list[Call]:
    return delivered(calls, user.id)


def button(call: Call, prefix: str) -> str:
    return next(
        str(b["callback_data"]) for b in call.buttons if b["callback_data"].startswith(prefix)
    )


def alerts(calls: list[Call]) -> list[str]:
    return [
        c.params.get("text", "")
        for c in calls
        if c.method == "answerCallbackQuery" and c.params.get("show_alert") == "true"
    ]


@dataclass
class Group:
    """A group playing: who sits there, and how each turn is chosen."""

    bot: Harness
    store: Store
    players: list[TgUser]
    rng: random.Random

    @property
    def api(self) -> FakeBotApi:
        return self.bot.api

    async def say(self, user: TgUser, text: str, chat: int = GROUP) -> list[Call]:
        return await self.bot.feed(self.api.command(chat, user, text))

    async def press(self, user: TgUser, on: Call, data: str) -> list[Call]:
        return await self.bot.feed(self.api.press(user, on, data))

    async def state(self) -> str | None:
        record = await self.store.load(CHANNEL)
        return None if record is None else f"{record.version}:{record.data}"

    async def open(self) -> list[Call]:
        """Ann opens the table; the others join by button or command; Ann starts by button."""
        ann, *others = self.players
        [lobby] = group_posts(await self.say(ann, "/fc new advanced"))
        assert "opens a Forbidden City table" in lobby.text
        for index, user in enumerate(others):
            if index % 2 == 0:  # pressed: the lobby pressed shows the seat taken
                calls = await self.press(user, lobby, button(lobby, "fc:j:"))
                [joined] = edited_in(calls, GROUP)
                assert group_posts(calls) == [] and joined.result is not None
                assert joined.result["message_id"] == lobby.result["message_id"]
            else:  # typed: the lobby is posted again, under the command
                [joined] = group_posts(await self.say(user, "/fc join"))
            assert f"joins the table ({index + 2}/4)" in joined.text
            lobby = joined
        calls = await self.press(ann, lobby, button(lobby, "fc:st:"))
        [begin] = [p for p in group_posts(calls) if "The game begins!" in p.text]
        assert is_png(begin.photo)
        return calls

    def by_id(self, user_id: int) -> TgUser:
        return next(p for p in self.players if p.id == user_id)

    async def turn(self, user: TgUser, notice: Call | None, via_buttons: bool) -> list[Call]:
        """One move by `user`: from the turn notice's spots if they got it, else from the
        table (they cannot see their tile)."""
        if notice is None:
            record = await self.store.load(CHANNEL)
            assert record is not None
            game = load_game(Table.model_validate_json(record.data))
            spot = self.rng.choice(render.spots(to_play(game)))
            where = f"{spot.x},{spot.y} {self.rng.choice(spot.rotations)}"
            return await self.say(user, f"/fc play {where}")
        spot = self.rng.choice(
            [b["callback_data"] for b in notice.buttons if b["callback_data"].startswith("fc:sp:")]
        )
        [rotations] = private_to(await self.press(user, notice, spot), user)
        rotation = self.rng.choice([b["callback_data"] for b in rotations.buttons])
        assert rotation.startswith("fc:pv:")
        if not via_buttons:
            where = rotation.rsplit(":", 1)[1].replace("@", " ")
            return await self.say(user, f"/fc play {where}")
        [preview] = private_to(await self.press(user, rotations, rotation), user)
        assert "Preview" in preview.text and is_png(preview.photo)
        return await self.press(user, preview, button(preview, "fc:ok:"))

    async def play_to_the_end(self, unreachable: frozenset[int] = frozenset()) -> list[Call]:
        """Open, play every turn, and return every call; checks each step as a user would."""
        calls = await self.open()
        turns = 0
        while True:
            posts = group_posts(calls)
            assert posts, "every move is shown in the group"
            table_post = next(p for p in posts if p.photo is not None)
            assert is_png(table_post.photo)
            if "Game over!" in table_post.text:
                return list(self.api.calls)
            # Whose turn: the last mention of the move's message ("Next: @X").
            current = self.by_id(int(MENTION.findall(table_post.text)[-1]))
            notices = [
                c
                for p in self.players
                for c in private_to(calls, p)
                if any(MOVE_DATA.match(b["callback_data"]) for b in c.buttons)
            ]
            if current.id in unreachable:
                assert notices == []
                notice = None
            else:
                # The turn notice reaches the player to move, and nobody else.
                [notice] = notices
                assert notice.chat_id == current.id and is_png(notice.photo)
                assert "Your turn in Forbidden City" in notice.text
            before = await self.state()
            calls = await self.turn(current, notice, via_buttons=turns % 3 == 0)
            assert alerts(calls) == [], alerts(calls)
            assert await self.state() != before
            turns += 1
            assert turns < 200


def assert_nothing_hidden_in_the_group(calls: list[Call], players: list[TgUser]) -> None:
    sent = [c for c in calls if c.method in ("sendMessage", "sendPhoto") and c.delivered]
    group = [c for c in sent if c.chat_id == GROUP]
    private = [c for c in sent if c.chat_id != GROUP and c.photo]
    assert any(c.buttons and c.buttons[0]["callback_data"].startswith("fc:sp:") for c in private)
    # A preview shows the table after the player's own move: once confirmed, the group gets
    # that very image. Every other private image (the tile in hand) must never appear there.
    previews = {c.photo for c in private if any(":ok:" in b["callback_data"] for b in c.buttons)}
    hidden = {c.photo for c in private} - previews
    for post in group:
        assert post.photo not in hidden
        assert not TILE_CODE.search(post.text), post.text
        assert not any(MOVE_DATA.match(b["callback_data"]) for b in post.buttons)
    # Private messages only ever went to the players.
    assert {c.chat_id for c in sent} <= {GROUP} | {p.id for p in players}


async def test_two_player_game_with_a_player_who_never_opened_the_bot(
    bot: Harness, store: Store
) -> None:
    bot.api.unreachable.add(BEN.id)
    table = Group(bot, store, [ANN, BEN], random.Random(2))
    calls = await table.play_to_the_end(unreachable=frozenset({BEN.id}))
    final = group_posts(calls)[-1]
    assert "Game over!" in final.text and is_png(final.photo)
    assert await store.load(CHANNEL) is None  # archived
    # Ben's turn notices never arrived: the group was told once, with a mention.
    hints = [c for c in group_posts(calls) if HINT_ONCE in c.text]
    assert len(hints) == 1 and f"tg://user?id={BEN.id}" in hints[0].text
    assert not [c for c in calls if c.chat_id == BEN.id and c.delivered]
    assert_nothing_hidden_in_the_group(calls, [ANN, BEN])


async def test_four_player_game(bot: Harness, store: Store) -> None:
    table = Group(bot, store, [ANN, BEN, CAT, DAN], random.Random(4))
    calls = await table.play_to_the_end()
    final = group_posts(calls)[-1]
    assert "Game over!" in final.text and is_png(final.photo)
    for user in (ANN, BEN, CAT, DAN):
        assert f"tg://user?id={user.id}" in final.text or user.full_name in final.text
    assert await store.load(CHANNEL) is None
    assert not [c for c in group_posts(calls) if HINT_ONCE in c.text]
    assert_nothing_hidden_in_the_group(calls, [ANN, BEN, CAT, DAN])


async def test_bad_input_is_refused_clearly_and_changes_nothing(bot: Harness, store: Store) -> None:
    table = Group(bot, store, [ANN, BEN], random.Random(7))
    calls = await table.open()
    [begin] = [p for p in group_posts(calls) if p.photo]
    first = table.by_id(int(MENTION.findall(begin.text)[-1]))
    second = BEN if first == ANN else ANN
    [notice] = private_to(calls, first)
    spot = notice.buttons[0]["callback_data"]
    [rotations] = private_to(await table.press(first, notice, spot), first)
    preview_data = rotations.buttons[0]["callback_data"]
    [preview] = private_to(await table.press(first, rotations, preview_data), first)
    ok = button(preview, "fc:ok:")
    before = await table.state()

    typed = [
        (second, "/fc play 1 0", "turn, not yours"),
        (EVE, "/fc play 1 0", "You are not playing at this table"),
        (first, "/fc play 99 0", "There is no spot 99"),
        (first, "/fc play banana", "is not a spot number"),
        (first, "/fc play 1 7", "The rotation is 0, 1, 2 or 3"),
        (first, "/fc play 40,40 0", "touches none"),
        (first, "/fc play", "Say where"),
        (first, "/fc xyzzy", "Unknown command"),
        (first, "/fc new", "already open"),
        (second, "/fc start", "already started"),
        (EVE, "/fc abort", "Only Ann, who opened this table"),
    ]
    for user, text, error in typed:
        calls = await table.say(user, text)
        assert group_posts(calls) == [], text
        [reply] = private_to(calls, user)
        assert error in reply.visible, (text, reply.visible)
        assert await table.state() == before, text

    pressed = [
        (EVE, ok, "You are not playing at this table"),  # someone else's button
        (second, ok, "turn, not yours"),
        (first, "hello", "not valid"),  # garbage
        (first, ok.replace(":ok:", ":zz:"), "not valid"),  # forged kind
        (first, re.sub(r"@\d$", "@7", ok), "not valid"),  # forged rotation
        (first, re.sub(r":\d+:", ":55:", ok, count=1), "out of date"),  # forged count
        (first, ok.replace(str(GROUP), "-100999"), "no table here"),  # forged chat
    ]
    for user, data, error in pressed:
        calls = await table.press(user, preview, data)
        assert [c for c in calls if c.method != "answerCallbackQuery"] == [], data
        [alert] = alerts(calls)
        assert error in alert, (data, alert)
        assert await table.state() == before, data

    # Two presses of the same confirmation at once: one move, one clear refusal.
    first_press = table.api.press(first, preview, ok)
    second_press = table.api.press(first, preview, ok)
    start = len(table.api.calls)
    await asyncio.gather(
        bot.app.process_update(Update.de_json(first_press, bot.app.bot)),
        bot.app.process_update(Update.de_json(second_press, bot.app.bot)),
    )
    calls = table.api.calls[start:]
    assert len([p for p in group_posts(calls) if p.photo]) == 1
    assert len(alerts(calls)) == 1
    moved = await table.state()
    assert moved != before

    # A button from before that move is stale now.
    calls = await table.press(first, notice, spot)
    [alert] = alerts(calls)
    assert "turn, not yours" in alert or "out of date" in alert
    assert await table.state() == moved


async def test_hand_in_the_group_for_a_user_without_private_chat(
    bot: Harness, store: Store
) -> None:
    bot.api.unreachable.add(ANN.id)
    table = Group(bot, store, [ANN, BEN], random.Random(1))
    await table.open()
    calls = await table.say(ANN, "/fc hand")
    [hint] = group_posts(calls)
    assert f"https://t.me/{BOT_USERNAME}?start=fc" in hint.text
    assert hint.photo is None and not TILE_CODE.search(hint.text)
    # Once the chat is open, /start there and /fc hand work.
    bot.api.unreachable.clear()
    calls = await table.say(ANN, "/start fc", chat=ANN.id)
    [welcome] = private_to(calls, ANN)
    assert "Forbidden City commands" in welcome.text
    calls = await table.say(ANN, "/fc hand")
    assert group_posts(calls) == []
    [hand] = private_to(calls, ANN)
    assert is_png(hand.photo) and "Your tile" in hand.text


async def test_deadlines_reach_the_player_and_the_group(api: FakeBotApi, store: Store) -> None:
    """The background poller delivers the reminder privately and the time limit publicly."""
    now = [1_000_000.0]
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        reminder_after=timedelta(hours=1),
        turn_limit=timedelta(hours=2),
    )
    service = GameService(store, settings, clock=lambda: now[0], seeds=fixed_seeds())
    async with Harness.running(api, service) as harness:
        group = Group(harness, store, [ANN, BEN], random.Random(3))
        calls = await group.open()
        [begin] = [p for p in group_posts(calls) if p.photo]
        current = group.by_id(int(MENTION.findall(begin.text)[-1]))

        poller = build_application(settings_for(api), service, deadline_interval=0.05)
        async with poller:
            assert poller.post_init is not None and poller.post_stop is not None
            start = len(api.calls)
            await poller.post_init(poller)
            now[0] += 7201  # both the reminder and the time limit are due
            for _ in range(200):
                if group_posts(api.calls[start:]):
                    break
                await asyncio.sleep(0.02)
            await poller.post_stop(poller)
        calls = api.calls[start:]
        [reminder] = [c for c in private_to(calls, current) if c.photo]
        assert "reminder" in reminder.visible and reminder.buttons
        [limit] = group_posts(calls)
        assert "/fc vote skip" in limit.visible and f"id={current.id}" in limit.text
        assert limit.photo is None


async def test_a_move_typed_in_the_private_chat_is_shown_in_the_group(
    bot: Harness, store: Store
) -> None:
    group = Group(bot, store, [ANN, BEN], random.Random(5))
    calls = await group.open()
    [begin] = [p for p in group_posts(calls) if p.photo]
    current = group.by_id(int(MENTION.findall(begin.text)[-1]))
    [notice] = private_to(calls, current)
    [rotations] = private_to(
        await group.press(current, notice, notice.buttons[0]["callback_data"]), current
    )
    where = rotations.buttons[0]["callback_data"].rsplit(":", 1)[1].replace("@", " ")
    before = await group.state()
    calls = await group.say(current, f"/fc play {where}", chat=current.id)
    assert await group.state() != before  # the service played the move
    assert [p for p in group_posts(calls) if p.photo and "places a tile" in p.visible]


async def test_the_spot_menu_offers_every_spot_in_readable_pages(
    bot: Harness, store: Store
) -> None:
    table = Group(bot, store, [ANN, BEN, CAT, DAN], random.Random(5))
    await table.open()
    late = await advance(store, CHANNEL, spots=41)
    total = len(render.spots(to_play(load_game(late))))
    mover = table.by_id(int(late.user_of(load_game(late).current).user_id))
    [page] = private_to(await table.say(mover, "/fc hand"), mover)
    assert is_png(page.photo)
    offered: list[str] = []
    while True:
        spots = [row for row in page.keyboard if row[0]["callback_data"].startswith("fc:sp:")]
        assert len(spots) <= 5 and all(len(row) <= 4 for row in spots)  # readable on a phone
        offered += [b["text"].split(":")[0] for row in spots for b in row]
        # Read from the top: the spots, then the pages (the previous one first).
        kinds = [b["callback_data"].split(":")[1] for b in page.buttons]
        assert kinds == ["sp"] * kinds.count("sp") + ["pg"] * kinds.count("pg"), kinds
        pages = [b["text"][0] for b in page.buttons if b["callback_data"].startswith("fc:pg:")]
        assert pages in (["S"], ["◀"], ["◀", "S"]), pages
        forward = [b for b in page.buttons if "▶" in b["text"]]
        if not forward:
            break
        assert forward[0]["callback_data"].startswith("fc:pg:")
        [page] = private_to(await table.press(mover, page, forward[0]["callback_data"]), mover)
        assert f"of {total}" in page.text
    assert offered == [f"Spot {n}" for n in range(1, total + 1)]
    [rotations] = private_to(await table.press(mover, page, spots[-1][-1]["callback_data"]), mover)
    assert rotations.buttons[0]["callback_data"].startswith("fc:pv:")
