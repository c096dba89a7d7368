"""Die Verbotene Stadt through Discord: the real client, the real service, a real redis-server.

Players open the table with `/fc new game:stadt`, join and start by the lobby's buttons, and
then act only with the components the bot sent them (in DMs or ephemeral answers): the bribe
menu, officials, directions, Confirm/Pass, Believe/Doubt, takes. A fast chooser (`hasty`)
decides which of the offered components to use.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest

from bot.config import Settings
from bot.discord import FcClient
from bot.games.verbotene_stadt.paths import pack
from bot.records.table import Table
from bot.service import GameService
from bot.store import Store
from engine.verbotene_stadt import Game as Stadt
from tests.conftest import fixed_seeds
from tests.fake_discord import FakeDiscord, Person, Sent, dispatch, fake_discord, logged_in
from tests.tables import load_game
from tests.test_discord_games import PLAYERS, Game, assert_settled, refused
from tests.vs_driver import REVEAL, hasty, presses, tells_a_bribe
from tests.vs_table import position, store_position

Json = dict[str, object]


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with fake_discord() as server:
        server.allow(channel=1000)  # whole games at the machine's speed
        yield server


@pytest.fixture
async def client(fake: FakeDiscord, store: Store) -> AsyncIterator[FcClient]:
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    service = GameService(store, settings, seeds=fixed_seeds())
    async with logged_in(FcClient(service, deadline_seconds=None)) as ready:
        yield ready


def private(fake: FakeDiscord, user: Person) -> list[Sent]:
    """What only `user` sees: their DMs and ephemeral answers."""
    return [m for m in fake.sent if m.where != "channel" and m.audience == user.id]


@dataclass(frozen=True)
class Component:
    """A button, or a choice of a select menu, that the bot sent to one user."""

    user: Person
    message: Sent
    custom_id: str
    value: str | None = None

    def press(self, fake: FakeDiscord, value: str | None = None) -> Json:
        """The interaction Discord sends when the user uses it (`value`: an edited choice)."""
        chosen = value or self.value
        values = None if chosen is None else [chosen]
        return fake.press_payload(self.user, self.message, self.custom_id, values=values)


def received(fake: FakeDiscord, user: Person, kind: str, payload: str) -> Component:
    """The newest component sent to `user` for `kind` and `payload`."""
    for message in reversed(private(fake, user)):
        for component in message.walk():
            if component.get("type") == 2:
                parts = component["custom_id"].split(":")
                if parts[1] == kind and parts[-1] == payload:
                    return Component(user, message, component["custom_id"])
            for option in component.get("options", []):
                parts = option["value"].split(":")
                if parts[1] == kind and parts[-1] == payload:
                    return Component(user, message, component["custom_id"], option["value"])
    raise AssertionError(f"{user.name} was sent no {kind} component {payload}")


def person(table: Table, seat: str) -> Person:
    user_id = int(table.user_of(seat).user_id)
    return next(p for p in PLAYERS if p.id == user_id)


async def act(fake: FakeDiscord, client: FcClient, user: Person, kind: str, payload: str) -> None:
    await dispatch(client, received(fake, user, kind, payload).press(fake))
    answers = fake.last_interaction().seen_by_user()
    assert not any("not valid" in a.content or "out of date" in a.content for a in answers)


async def open_stadt(fake: FakeDiscord, client: FcClient, players: list[Person]) -> None:
    await dispatch(client, fake.command_payload(players[0], "new", game="stadt"))
    [lobby] = fake.channel_messages()
    assert "Verbotene Stadt" in lobby.content
    for player in players[1:]:
        await dispatch(client, fake.press_payload(player, lobby, f"fc:j:{fake.channel_id}"))
        lobby = fake.channel_messages()[-1]
    await dispatch(client, fake.press_payload(players[0], lobby, f"fc:st:{fake.channel_id}"))


async def play(fake: FakeDiscord, client: FcClient, table: Table, rng: random.Random) -> None:
    game = load_game(table)
    seat = game.to_act[0].seat
    for kind, payload in presses(hasty(game, seat, rng)):
        await act(fake, client, person(table, seat), kind, payload)


def assert_no_bribe_told(posts: list[Sent], bribes: set[str]) -> None:
    """Outside a reveal, the channel never reads a held bribe the way a reveal words it."""
    for post in posts:
        assert not tells_a_bribe(post.content, bribes), post.content
        assert not [c for c in post.custom_ids() if c.split(":")[1].startswith("v")]


async def test_a_whole_game_by_components(
    fake: FakeDiscord, client: FcClient, store: Store
) -> None:
    players = PLAYERS[:2]
    game = Game(fake, store)
    await open_stadt(fake, client, players)
    assert fake.channel_messages()[-1].images()[0].format == "PNG"
    # Each player got the bribe menu of the 25 officials privately.
    for player in players:
        menus = [m.menu() for m in private(fake, player) if m.menu() is not None]
        assert menus and len(menus[-1]["options"]) == 25  # type: ignore[index]
    rng, actions, images = random.Random(25), 0, 0
    while (table := await game.table()) is not None:
        stadt: Stadt = load_game(table)
        held = {code for code in stadt.bribes if code}
        before = len(fake.channel_messages())
        await play(fake, client, table, rng)
        posts = fake.channel_messages()[before:]
        assert_no_bribe_told(posts, held)
        if stadt.to_act[0].kind == "move":
            assert posts and posts[0].images()[0].format == "PNG"
            images += 1
        actions += 1
        assert actions < 600
    final = fake.channel_messages()[-1]
    assert "Game over!" in final.content and "Winner:" in final.content
    assert final.images()[0].format == "PNG"
    assert images > 0
    assert_settled(fake)


async def test_a_doubted_bluff_is_revealed_in_the_channel(
    fake: FakeDiscord, client: FcClient, store: Store
) -> None:
    game = Game(fake, store)
    await open_stadt(fake, client, PLAYERS[:3])
    prepared = position(3, ["KK", "RR", "GG"], hands=[["2H"], ["3H"], ["4H"]], seed=2)
    await store_position(store, prepared, game.channel)
    table = await game.table()
    assert table is not None
    north = person(table, "north")
    others = [person(table, "east"), person(table, "south")]
    await dispatch(client, fake.command_payload(north, "hand"))
    for kind, payload in [("vo", "RR"), ("vs", pack("RR", ("W",))), ("vm", pack("RR", ("W",)))]:
        await act(fake, client, north, kind, payload)
    assert "The bluff is in play" in fake.channel_messages()[-1].content
    answered: list[Person] = []
    for answer in ("doubt", "believe"):
        asked = [
            p
            for p in others
            if p not in answered
            and any("fc:va:" in c for m in private(fake, p) for c in m.custom_ids())
        ]
        [user] = asked  # one at a time
        question = next(m for m in reversed(private(fake, user)) if m.custom_ids())
        assert [c.rsplit(":", 1)[1] for c in question.custom_ids()] == ["believe", "doubt"]
        before = len(fake.channel_messages())
        await act(fake, client, user, "va", answer)
        answered.append(user)
        posts = [m.content for m in fake.channel_messages()[before:]]
        if answer == "doubt":
            assert any("doubts it!" in p for p in posts) and not any(REVEAL in p for p in posts)
    [reveal] = [p for p in posts if REVEAL in p]
    assert ": KK (black hat, black robe)" in reveal and "bluffed" in reveal
    assert_settled(fake)


async def test_stale_and_forged_presses_are_refused_and_change_nothing(
    fake: FakeDiscord, client: FcClient, store: Store
) -> None:
    game = Game(fake, store)
    await open_stadt(fake, client, PLAYERS[:2])
    prepared = position(2, ["RR", "KK"], hands=[["2H"], ["3H"]], seed=5)
    await store_position(store, prepared, game.channel)
    table = await game.table()
    assert table is not None
    north = person(table, "north")
    east = person(table, "east")
    opening = received(fake, east, "vb", "KK")  # east's bribe menu of the first round
    await dispatch(client, fake.command_payload(north, "hand"))
    for kind, payload in [("vo", "GG"), ("vs", pack("GG", ("E",))), ("vm", pack("GG", ("E",)))]:
        await act(fake, client, north, kind, payload)
    table = await game.table()
    assert table is not None
    assert load_game(table).to_act[0].seat == "north"  # a red face: north may move again
    stale_turn = received(fake, north, "vo", "KK")
    await act(fake, client, north, "va", "pass")
    assert "not yours" in await refused(fake, game, client, stale_turn.press(fake))
    assert "out of date" in await refused(fake, game, client, opening.press(fake))
    mover = east
    await dispatch(client, fake.command_payload(mover, "hand"))
    # The same menu with its value edited to an official that is not there, or a take from
    # a seat that does not exist.
    forged = received(fake, mover, "vo", "KK")
    assert forged.value is not None
    official = forged.value
    for edit in (official[: -len("KK")] + "ZZ", official.replace(":vo:", ":vt:")[:-2] + "9.1H"):
        assert "not valid" in await refused(fake, game, client, forged.press(fake, edit))
    assert_settled(fake)
