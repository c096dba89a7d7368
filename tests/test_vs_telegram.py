"""Die Verbotene Stadt through Telegram updates: the real application, service, store and images.

Only Telegram's servers are faked (tests/fake_telegram.py). Players open the table with
`/fc new stadt`, join and start by the lobby's buttons, and then act only by pressing the
buttons their private chat received: bribes, officials, directions, Confirm/Pass,
Believe/Doubt, takes. A fast chooser (`hasty`) decides which of the offered buttons to press.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest

from bot.config import Settings
from bot.games.verbotene_stadt.paths import pack
from bot.records.table import Table
from bot.service import GameService
from bot.store import Channel, Store
from engine.verbotene_stadt import Game
from tests.conftest import fixed_seeds
from tests.fake_telegram import Call, FakeBotApi, Harness, TgUser, edited_in
from tests.tables import load_game
from tests.test_telegram_games import (
    ANN,
    BEN,
    CAT,
    GROUP,
    alerts,
    button,
    group_posts,
    is_png,
    private_to,
)
from tests.vs_driver import REVEAL, hasty, presses, tells_a_bribe
from tests.vs_table import position, store_position

CHANNEL = Channel.of("telegram", str(GROUP))


@pytest.fixture
async def bot(api: FakeBotApi, store: Store) -> AsyncIterator[Harness]:
    config = Settings(_env_file=None)  # type: ignore[call-arg]
    service = GameService(store, config, seeds=fixed_seeds())
    api.allow(chat=500, group=2000, overall=1000)  # whole games at the machine's speed
    async with Harness.running(api, service) as harness:
        yield harness


class Stadt:
    """A group at a Die Verbotene Stadt table, pressing only what it was sent."""

    def __init__(self, bot: Harness, store: Store, players: list[TgUser]) -> None:
        self.bot, self.store, self.players = bot, store, players

    async def say(self, user: TgUser, text: str) -> list[Call]:
        return await self.bot.feed(self.bot.api.command(GROUP, user, text))

    async def press(self, user: TgUser, on: Call, data: str) -> list[Call]:
        return await self.bot.feed(self.bot.api.press(user, on, data))

    async def table(self) -> Table | None:
        record = await self.store.load(CHANNEL)
        return None if record is None else Table.model_validate_json(record.data)

    async def length(self) -> tuple[int, str] | None:
        """The stored game's record length and the record: unchanged when a press is refused."""
        record = await self.store.load(CHANNEL)
        if record is None:
            return None
        return len(load_game(Table.model_validate_json(record.data)).log), record.data

    def user(self, table: Table, seat: str) -> TgUser:
        user_id = int(table.user_of(seat).user_id)
        return next(p for p in self.players if p.id == user_id)

    def received(self, user: TgUser, kind: str, payload: str) -> tuple[Call, str]:
        """The newest message in `user`'s private chat with a `kind` button for `payload`."""
        for call in reversed(private_to(self.bot.api.calls, user)):
            for b in call.buttons:
                parts = str(b["callback_data"]).split(":")
                if parts[1] == kind and parts[-1] == payload:
                    return call, str(b["callback_data"])
        raise AssertionError(f"{user.full_name} was sent no {kind} button {payload}")

    async def open(self) -> list[Call]:
        ann, *others = self.players
        [lobby] = group_posts(await self.say(ann, "/fc new stadt"))
        for user in others:  # each press shows the seat taken on the lobby pressed
            calls = await self.press(user, lobby, button(lobby, "fc:j:"))
            assert group_posts(calls) == []
            [lobby] = edited_in(calls, GROUP)
        return await self.press(ann, lobby, button(lobby, "fc:st:"))

    async def act(self, user: TgUser, kind: str, payload: str) -> list[Call]:
        on, data = self.received(user, kind, payload)
        calls = await self.press(user, on, data)
        assert alerts(calls) == [], (kind, payload, alerts(calls))
        return calls

    async def play(self, game: Game, seat: str, rng: random.Random) -> list[Call]:
        table = await self.table()
        assert table is not None
        user, calls = self.user(table, seat), []
        for kind, payload in presses(hasty(game, seat, rng)):
            calls += await self.act(user, kind, payload)
        return calls


def assert_no_bribe_told(posts: list[Call], bribes: set[str]) -> None:
    """Outside a reveal, the group never reads a held bribe the way a reveal words it."""
    for post in posts:
        assert not tells_a_bribe(post.text, bribes), post.text
        assert not any(b["text"].startswith("Keep") for b in post.buttons)


async def test_a_whole_game_by_buttons(bot: Harness, store: Store) -> None:
    stadt = Stadt(bot, store, [ANN, BEN])
    calls = await stadt.open()
    begin = group_posts(calls)
    assert begin and any(is_png(p.photo) for p in begin)
    # Every player is asked privately for a bribe, with the 25 officials as buttons.
    for user in stadt.players:
        menus = [
            c
            for c in private_to(calls, user)
            if any(":vb:" in b["callback_data"] for b in c.buttons)
        ]
        assert menus and len([b for b in menus[-1].buttons if ":vb:" in b["callback_data"]]) == 25
    rng, actions, images = random.Random(25), 0, 0
    while (table := await stadt.table()) is not None:
        game = load_game(table)
        held = {code for code in game.bribes if code}
        seat = game.to_act[0].seat
        calls = await stadt.play(game, seat, rng)
        posts = group_posts(calls)
        assert_no_bribe_told(posts, held)
        if game.to_act[0].kind == "move":
            images += any(is_png(p.photo) for p in posts)
        actions += 1
        assert actions < 600
    final = group_posts(bot.api.calls)[-1]
    assert "Game over!" in final.text and "Winner:" in final.text and is_png(final.photo)
    assert images > 0
    # Moves, bribes and answers were only ever offered privately.
    offered = [b["callback_data"] for p in group_posts(bot.api.calls) for b in p.buttons]
    assert not [data for data in offered if data.split(":")[1].startswith("v")], offered


async def test_a_doubted_bluff_is_revealed_in_the_group(bot: Harness, store: Store) -> None:
    stadt = Stadt(bot, store, [ANN, BEN, CAT])
    await stadt.open()
    game = position(3, ["KK", "RR", "GG"], hands=[["2H"], ["3H"], ["4H"]], seed=2)
    await store_position(store, game, CHANNEL)
    table = await stadt.table()
    assert table is not None
    north, east, south = (stadt.user(table, s) for s in ("north", "east", "south"))
    await stadt.say(north, "/fc hand")
    calls: list[Call] = []
    for kind, payload in [("vo", "RR"), ("vs", pack("RR", ("W",))), ("vm", pack("RR", ("W",)))]:
        calls = await stadt.act(north, kind, payload)
    [asked] = group_posts(calls)
    assert "The bluff is in play" in asked.text and REVEAL not in asked.text
    # Believe/Doubt reach the other holders privately, one at a time, never the group.
    answered: list[TgUser] = []
    for answer in ("doubt", "believe"):
        [question] = [c for c in calls if c.chat_id != GROUP and c.buttons]
        assert question.delivered and "Did" in question.text
        assert [b["callback_data"].rsplit(":", 1)[1] for b in question.buttons] == [
            "believe",
            "doubt",
        ]
        user = next(p for p in (east, south) if p.id == question.chat_id)
        assert user not in answered
        calls = await stadt.act(user, "va", answer)
        answered.append(user)
        if answer == "doubt":
            assert any("doubts it!" in p.text for p in group_posts(calls))
            assert not any(REVEAL in p.text for p in group_posts(calls))
    [reveal] = [p for p in group_posts(calls) if REVEAL in p.text]
    assert ": KK (black hat, black robe)" in reveal.text and "bluffed" in reveal.text


async def test_stale_and_forged_presses_are_refused_and_change_nothing(
    bot: Harness, store: Store
) -> None:
    stadt = Stadt(bot, store, [ANN, BEN])
    await stadt.open()
    game = position(2, ["RR", "KK"], hands=[["2H"], ["3H"]], seed=5)
    await store_position(store, game, CHANNEL)
    table = await stadt.table()
    assert table is not None
    north = stadt.user(table, "north")
    east = stadt.user(table, "east")
    opening = stadt.received(east, "vb", "KK")  # east's bribe menu of the first round
    await stadt.say(north, "/fc hand")
    await stadt.act(north, "vo", "GG")
    await stadt.act(north, "vs", pack("GG", ("E",)))
    await stadt.act(north, "vm", pack("GG", ("E",)))
    table = await stadt.table()
    assert table is not None
    assert load_game(table).to_act[0].seat == "north"  # a red face: north may move again
    stale_on, stale = stadt.received(north, "vo", "KK")
    await stadt.act(north, "va", "pass")
    before = await stadt.length()
    assert before is not None
    await stadt.say(east, "/fc hand")
    on, official = stadt.received(east, "vo", "KK")
    checks = [
        (north, stale_on, stale, "turn, not yours"),  # north's turn is over
        (east, *opening, "out of date"),  # a bribe of an earlier round
        (east, on, official[: -len("KK")] + "ZZ", "not valid"),  # another official, forged
        (east, on, official.replace(":vo:", ":vt:")[: -len("KK")] + "9.1H", "not valid"),
        (east, on, official.replace(str(GROUP), "-100999"), "no table here"),  # another chat
    ]
    for user, message, data, error in checks:
        calls = await stadt.press(user, message, data)
        assert [c for c in calls if c.method != "answerCallbackQuery"] == [], data
        [alert] = alerts(calls)
        assert error in alert, (data, alert)
        assert await stadt.length() == before, data
