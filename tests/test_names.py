"""Display names and typed text from users: one clean line, never a crash, never a mention."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest

import render.forbidden_city as render
from bot.discord.markup import _mention as discord_mention
from bot.exchange.actor import Actor
from bot.exchange.replies import Message, Reply, mention
from bot.records.table import Seat
from bot.service import GameService
from bot.store import Store
from bot.telegram.markup import to_html
from bot.text.names import FALLBACK, MAX_NAME, clean_name
from tests.tables import load_game
from tests.test_service import CHANNEL, Clock, current_user, is_png, settings, table_of, who
from tests.views import to_play


@pytest.fixture
async def service(store: Store) -> AsyncIterator[GameService]:
    deals = iter(range(1, 1_000_000))
    yield GameService(store, settings(), clock=Clock(), seeds=lambda: next(deals))


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("Ann\nLee", "Ann Lee"),
        ("Ann\r\nLee", "Ann Lee"),
        ("Ann\x85Lee", "Ann Lee"),
        ("Ann\u2028Lee\u2029", "Ann Lee"),
        ("  Ann \t\t Lee  ", "Ann Lee"),
        ("\u202eAnn\u202c Lee\u2066", "Ann Lee"),  # bidi override, pop, isolate
        ("A\u200bn\u2060n\x00\x1b[31m", "Ann[31m"),  # zero-width, word joiner, controls
        ("\ue000Ann", "Ann"),  # private use: no font draws it
        ("👩\u200d💻 Mei", "👩\u200d💻 Mei"),  # the joiner of an emoji sequence stays
        ("Δημήτρης 李 محمد", "Δημήτρης 李 محمد"),
    ],
)
def test_clean_name_keeps_one_visible_line(raw: str, clean: str) -> None:
    assert clean_name(raw) == clean


@pytest.mark.parametrize("raw", ["", "   ", "\n\r\x85", "\u202e\u200b\u2028", "\u0301\u200d"])
def test_a_name_with_nothing_visible_gets_a_neutral_one(raw: str) -> None:
    assert clean_name(raw) == FALLBACK


def test_a_long_name_is_cut_with_an_ellipsis() -> None:
    name = clean_name("W" * 500)
    assert len(name) == MAX_NAME and name.endswith("…")


def test_every_name_entering_is_cleaned() -> None:
    assert Actor("console", "c", "u1", "Ann\nLee").name == "Ann Lee"
    seat = Seat.model_validate_json('{"user_id": "u1", "name": "Bob\\r\\n\\u202e"}')
    assert seat.name == "Bob"


def _everything_said(reply: Reply) -> list[Message]:
    return [*reply.public, *reply.private, *(d.message for d in reply.direct)]


def _no_mention_of(user_id: str, reply: Reply) -> None:
    for message in _everything_said(reply):
        discord = message.format(discord_mention, lambda s: s)
        telegram = to_html(message)
        assert f"<@{user_id}>" not in discord, discord
        assert f"tg://user?id={user_id}" not in telegram, telegram


def test_typed_mention_markup_is_plain_text() -> None:
    message = Message(f"{mention('42')} beats {{u:999}}", names={"42": "Ann"})
    assert message.format(discord_mention, lambda s: s) == "<@42> beats {u:999}"


async def test_a_player_named_like_a_mention_pings_nobody(service: GameService) -> None:
    sneaky = Actor("console", CHANNEL, "mallory", "{u:999} \x02u:999\x03")
    assert (await service.command(who("ann"), "new")).ok
    joined = await service.command(sneaky, "join")
    assert joined.ok
    _no_mention_of("999", joined)
    started = await service.command(who("ann"), "start")
    assert started.ok
    _no_mention_of("999", started)
    for command in ("status", "board", "hand", "games"):
        _no_mention_of("999", await service.command(sneaky, command))
    _no_mention_of("999", await service.command(sneaky, "{u:999}"))  # an unknown command
    _no_mention_of("999", await service.command(sneaky, "play \x02u:999\x03 {u:999}"))


async def test_names_with_line_breaks_start_and_play_a_game(
    service: GameService, store: Store
) -> None:
    names = {"ann": "Ann\nLee", "bob": "Bob\r\nRay", "cid": "Cid\x85Kay", "dan": "\u2028\u2029"}
    assert (await service.command(Actor("console", CHANNEL, "ann", names["ann"]), "new")).ok
    for user in ("bob", "cid", "dan"):
        assert (await service.command(Actor("console", CHANNEL, user, names[user]), "join")).ok
    started = await service.command(Actor("console", CHANNEL, "ann", names["ann"]), "start")
    assert started.ok and is_png(started.public[0].image)
    rng = random.Random(1)
    for _ in range(6):
        table = await table_of(store)
        assert table is not None
        assert {s.name for s in table.seats} == {"Ann Lee", "Bob Ray", "Cid Kay", FALLBACK}
        user = current_user(table)
        spot = rng.choice(render.spots(to_play(load_game(table))))
        actor = Actor("console", CHANNEL, user, names[user])
        played = await service.command(actor, f"play {spot.number} {spot.rotations[0]}")
        assert played.ok, played.private
        assert is_png(played.public[0].image)
