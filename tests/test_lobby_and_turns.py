"""The lobby and the turns as players see them, through the service and a real redis-server:
the lobby's button that switches the game, seats of people and computer players, leaving and
aborting (races included), refusals word for word, commands in a private chat, decisions made
at the time limit or by a vote, computer players' turns (a failed search, lost races), the
autocomplete's cache and outages, and the service's plumbing for the adapters (updates seen
once, job leases, closed DMs, metrics)."""

from __future__ import annotations

import asyncio
import itertools
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from types import SimpleNamespace
from typing import Any

import pytest

import render.forbidden_city as render
from bot.exchange.actor import Actor
from bot.exchange.replies import Button, Reply, mention
from bot.games import At
from bot.games.forbidden_city import ForbiddenCity
from bot.records.table import Table
from bot.runtime.computer_pool import Computer, decide
from bot.runtime.metrics import REGISTRY
from bot.service import GameService
from bot.store import Channel, GameRecord, Store, StoreUnavailable
from engine.forbidden_city import Game
from engine.verbotene_stadt.actions import PASS
from tests.conftest import fixed_seeds
from tests.tables import load_game, module_of
from tests.test_service import (
    CHANNEL,
    Clock,
    current_user,
    is_png,
    seated,
    settings,
    snapshot,
    table_of,
    who,
)
from tests.views import to_play
from tests.vs_driver import Chat, press
from tests.vs_table import open_stadt, position, store_position, user_of

ROOM = Channel.of("console", CHANNEL)
TINY = 6  # search iterations: computer players decide in milliseconds here
ANN, BOB, CID = mention("ann"), mention("bob"), mention("cid")
TO_STADT = f"fc:gm:{CHANNEL}:0:1"  # the lobby's "Play Die Verbotene Stadt instead"
TO_CITY = f"fc:gm:{CHANNEL}:0:0"  # and back: "Play Forbidden City instead"
CONFLICT = "Someone was quicker: that was already played. Nothing was changed."


class Blinking(Store):
    """A store whose next `outages` reads of a table fail as if Redis were away a moment."""

    outages = 0

    async def load(self, channel: Channel) -> GameRecord | None:
        if self.outages > 0:
            self.outages -= 1
            raise StoreUnavailable("a blip")
        return await super().load(channel)


class Jostled(Store):
    """A store where, before each of the next `jostles` saves, someone else saves the table
    first (unchanged), so that save finds a newer version than it read."""

    jostles = 0

    async def save(self, channel: Channel, data: str, expected_version: int, **kw: Any) -> int:
        if self.jostles > 0:
            self.jostles -= 1
            record = await super().load(channel)
            assert record is not None
            await super().save(channel, record.data, record.version)
        return await super().save(channel, data, expected_version, **kw)


class InProcess(Computer):
    """Computer players that search in this process with a tiny budget: no worker starts."""

    def __init__(self) -> None:
        super().__init__(1, 5.0, TINY)

    async def decide(self, game_key: str, level: str, view: Any, seat: str, seed: int) -> Any:
        return decide(game_key, level, view, seat, seed, self.limit, self.iterations).action


class Failing(Computer):
    """Computer players whose search always fails (a broken worker, say)."""

    def __init__(self) -> None:
        super().__init__(1, 5.0, TINY)

    async def decide(self, game_key: str, level: str, view: Any, seat: str, seed: int) -> Any:
        raise RuntimeError("no search today")


class Wrong(Computer):
    """Computer players whose decision the game refuses (a pass while they must bribe)."""

    def __init__(self) -> None:
        super().__init__(1, 5.0, TINY)

    async def decide(self, game_key: str, level: str, view: Any, seat: str, seed: int) -> Any:
        return PASS


class Racing(Store):
    """A store that runs `before_archive` (or `before_save`), once, just before its next
    `archive` (or `save`): another command that lands between a command's read of the table
    and its write."""

    before_archive: Callable[[], Awaitable[object]] | None = None
    before_save: Callable[[], Awaitable[object]] | None = None

    async def save(self, *args: Any, **kwargs: Any) -> int:
        hook, self.before_save = self.before_save, None
        if hook is not None:
            await hook()
        return await super().save(*args, **kwargs)

    async def archive(self, *args: Any, **kwargs: Any) -> str:
        hook, self.before_archive = self.before_archive, None
        if hook is not None:
            await hook()
        return await super().archive(*args, **kwargs)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def service(store: Store, clock: Clock) -> AsyncIterator[GameService]:
    yield GameService(store, settings(), clock=clock, seeds=fixed_seeds())


@pytest.fixture
async def blinking(redis_url: str) -> AsyncIterator[Blinking]:
    made = Blinking.from_url(redis_url)
    yield made
    await made.close()


@pytest.fixture
async def jostled(redis_url: str) -> AsyncIterator[Jostled]:
    made = Jostled.from_url(redis_url)
    yield made
    await made.close()


@pytest.fixture
async def racing(redis_url: str) -> AsyncIterator[Racing]:
    made = Racing.from_url(redis_url)
    yield made
    await made.close()


def buttons(reply: Reply) -> list[list[tuple[str, str]]]:
    """The rows of buttons of the reply's one public message, as (label, data)."""
    [message] = reply.public
    return [[(b.label, b.data) for b in row] for row in message.buttons]


def button(reply: Reply, label: str) -> Button:
    found = [b for m in reply.public for row in m.buttons for b in row if b.label == label]
    assert len(found) == 1, (label, buttons(reply))
    return found[0]


def refusal(reply: Reply) -> str:
    """The reason of a refused command, shown only to whoever typed it."""
    assert not reply.ok and not reply.public and not reply.direct
    [message] = reply.private
    return message.text


def public_text(reply: Reply) -> str:
    assert reply.ok, [m.text for m in reply.private]
    [message] = reply.public
    return message.text


async def live(store: Store, channel: str = CHANNEL) -> Table:
    table = await table_of(store, channel)
    assert table is not None
    return table


def actions(game: str, by: str) -> float:
    """Actions played in `game` by a person, a computer player or a stand-in, as `/metrics`
    counts them."""
    return REGISTRY.get_sample_value("fc_actions_total", {"game": game, "by": by}) or 0.0


def errors(kind: str) -> float:
    """Commands refused or failed, by kind of reason, as `/metrics` counts them."""
    return REGISTRY.get_sample_value("fc_errors_total", {"kind": kind}) or 0.0


def answered(kind: str) -> float:
    """Commands, presses and autocompletes answered, as `/metrics` times them."""
    return REGISTRY.get_sample_value("fc_command_seconds_count", {"kind": kind}) or 0.0


def stand_ins(game: str) -> float:
    """Decisions made for seats at the limit or by a vote."""
    return actions(game, "stand-in")


# --- The lobby's game switch --------------------------------------------------------------


async def test_the_creator_switches_the_lobby_to_the_other_game_and_back(
    service: GameService, store: Store
) -> None:
    opened = await service.command(who("ann"), "new")
    assert buttons(opened) == [
        [("Join", f"fc:j:{CHANNEL}"), ("Start", f"fc:st:{CHANNEL}")],
        [
            ("Add a computer player", f"fc:ab:{CHANNEL}"),
            ("Play Die Verbotene Stadt instead", TO_STADT),
        ],
    ]
    assert (await service.command(who("bob"), "join")).ok
    switched = await service.press(
        who("ann"), button(opened, "Play Die Verbotene Stadt instead").data
    )
    assert switched.channel_id == CHANNEL
    assert public_text(switched) == (
        f"{ANN} opens a Die Verbotene Stadt table. Join with /fc join: 2 to 4 players. "
        f"{ANN} starts the game with /fc start."
    )
    assert buttons(switched) == [
        [("Join", f"fc:j:{CHANNEL}"), ("Start", f"fc:st:{CHANNEL}")],
        [("Add a computer player", f"fc:ab:{CHANNEL}"), ("Play Forbidden City instead", TO_CITY)],
    ]
    assert switched.public[0].names == {"ann": "Ann", "bob": "Bob"}
    table = await live(store)
    assert (table.kind, table.options, table.creator) == ("verbotene_stadt", {}, "ann")
    assert [s.user_id for s in table.seats] == ["ann", "bob"] and table.game is None

    back = await service.press(who("ann"), button(switched, "Play Forbidden City instead").data)
    assert public_text(back) == (
        f"{ANN} opens a Forbidden City table (beginner side). Join with /fc join: 2 to 4 "
        f"players. {ANN} starts the game with /fc start."
    )
    table = await live(store)
    assert (table.kind, table.options) == ("forbidden_city", {"side": "beginner"})

    assert (await service.press(who("ann"), TO_STADT)).ok
    started = await service.press(who("ann"), f"fc:st:{CHANNEL}")
    assert started.ok and started.public
    table = await live(store)
    assert table.kind == "verbotene_stadt" and table.game is not None
    assert sorted(t.kind for t in load_game(table).to_act) == ["bribe", "bribe"]


async def test_only_the_creator_or_an_admin_chooses_the_game(
    service: GameService, store: Store
) -> None:
    await service.command(who("ann"), "new")
    await service.command(who("bob"), "join")
    before = await snapshot(store)
    assert refusal(await service.press(who("bob"), TO_STADT)) == "Only Ann can choose the game."
    assert await snapshot(store) == before
    by_admin = await service.press(who("bob", is_admin=True), TO_STADT)
    assert by_admin.ok and (await live(store)).kind == "verbotene_stadt"
    assert (await service.press(who("ann"), TO_CITY)).ok  # the creator, no admin
    assert (await live(store)).kind == "forbidden_city"


async def test_a_forged_or_late_switch_button_changes_nothing(
    service: GameService, store: Store
) -> None:
    await service.command(who("ann"), "new")
    before = await snapshot(store)
    for data in (
        f"fc:gm:{CHANNEL}:0:2",  # one past the last game
        f"fc:gm:{CHANNEL}:0:7",
        f"fc:gm:{CHANNEL}:0:x",
        f"fc:gm:{CHANNEL}",  # no game at all
    ):
        reply = await service.press(who("ann"), data)
        assert refusal(reply) == "This button is not valid.", data
        assert reply.channel_id == CHANNEL
    assert await snapshot(store) == before
    await service.command(who("bob"), "join")
    assert (await service.command(who("ann"), "start")).ok
    before = await snapshot(store)
    late = await service.press(who("ann"), TO_STADT)
    assert refusal(late) == "The game has already started."
    assert await snapshot(store) == before
    assert (await live(store)).kind == "forbidden_city"


async def test_a_full_table_with_a_computer_player_switches_with_everyone_seated(
    service: GameService, store: Store
) -> None:
    await service.command(who("ann"), "new")
    for user in ("bob", "cid"):
        await service.command(who(user), "join")
    full = await service.command(who("ann"), "addbot")
    assert "(4/4)" in public_text(full)
    switched = await service.press(who("ann"), TO_STADT)
    assert public_text(switched) == (
        f"{ANN} opens a Die Verbotene Stadt table. Join with /fc join: 2 to 4 players. "
        f"{ANN} starts the game with /fc start."
    )
    # A full table offers neither a seat nor a computer player, only the start and the switch.
    assert buttons(switched) == [
        [("Start", f"fc:st:{CHANNEL}")],
        [("Play Forbidden City instead", TO_CITY)],
    ]
    table = await live(store)
    assert table.kind == "verbotene_stadt"
    assert [s.name for s in table.seats] == ["Ann", "Bob", "Cid", "Computer (normal)"]
    assert (await service.command(who("ann"), "start")).ok
    assert len(load_game(await live(store)).players) == 4


async def test_the_switch_speaks_the_chats_language(service: GameService, store: Store) -> None:
    assert (await service.command(who("ann"), "lang fr")).ok
    opened = await service.command(who("ann"), "new")
    assert buttons(opened) == [
        [("Rejoindre", f"fc:j:{CHANNEL}"), ("Lancer", f"fc:st:{CHANNEL}")],
        [
            ("Ajouter un joueur ordinateur", f"fc:ab:{CHANNEL}"),
            ("Jouer plutôt à La Cité interdite", TO_STADT),
        ],
    ]
    switched = await service.press(who("ann"), TO_STADT)
    assert public_text(switched) == (
        f"{ANN} ouvre une table de La Cité interdite. Rejoignez-la avec /fc join : 2 à 4 "
        f"joueurs. {ANN} lance la partie avec /fc start."
    )
    assert buttons(switched) == [
        [("Rejoindre", f"fc:j:{CHANNEL}"), ("Lancer", f"fc:st:{CHANNEL}")],
        [
            ("Ajouter un joueur ordinateur", f"fc:ab:{CHANNEL}"),
            ("Jouer plutôt à Forbidden City", TO_CITY),
        ],
    ]
    await service.command(who("bob"), "join")
    assert refusal(await service.press(who("bob"), TO_CITY)) == "Seul·e Ann peut choisir le jeu."
    bad = await service.press(who("ann"), f"fc:gm:{CHANNEL}:0:9")
    assert refusal(bad) == "Ce bouton n'est pas valide."
    assert (await service.command(who("ann"), "start")).ok
    assert refusal(await service.press(who("ann"), TO_CITY)) == "La partie a déjà commencé."
    assert (await service.command(who("ann"), "abort")).ok
    gone = await service.press(who("ann"), TO_CITY)  # the old lobby's button, table closed
    assert refusal(gone) == "Il n'y a pas de table ici. Ouvres-en une avec /fc new."


async def test_no_switch_to_a_game_the_seated_computer_players_cannot_play(
    service: GameService, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As if computer players knew only the tile game."""
    monkeypatch.setattr("bot.service.context.playable", lambda key: key == "forbidden_city")
    assert (await service.command(who("ann"), "lang fr")).ok
    await service.command(who("ann"), "new")
    assert (await service.command(who("ann"), "addbot")).ok
    before = await snapshot(store)
    refused = await service.press(who("ann"), TO_STADT)
    assert (
        refusal(refused) == "Les joueurs ordinateur ne savent pas encore jouer à La Cité interdite."
    )
    assert await snapshot(store) == before
    assert (await service.command(who("ann"), "removebot")).ok
    assert (await service.press(who("ann"), TO_STADT)).ok  # only people seated now
    assert (await live(store)).kind == "verbotene_stadt"
    # The same refusal in English, at a table of the other game.
    other = who("bob", "room2")
    assert (await service.command(other, "new stadt")).ok
    assert refusal(await service.command(other, "addbot")) == (
        "Computer players cannot play Die Verbotene Stadt yet."
    )


async def test_the_lobby_says_what_it_opened_and_why_it_refuses(
    service: GameService, store: Store
) -> None:
    async def says(user: str, room: str, text: str, **extra: Any) -> str:
        reply = await service.command(who(user, room, **extra), text)
        return public_text(reply) if reply.ok else refusal(reply)

    assert await says("ann", "dm-ann", "new", private=True) == (
        "Open a table in a group or a server channel, not here."
    )
    assert await says("ann", "r1", "new advanced") == (
        f"{ANN} opens a Forbidden City table (advanced side). Join with /fc join: 2 to 4 "
        f"players. {ANN} starts the game with /fc start."
    )
    assert await says("bob", "r1", "new") == (
        "A table is already open in this channel. See it with /fc board."
    )
    assert await says("ann", "r2", "new bots:4") == (
        "Write bots:N with N from 1 to 3, and a level if you like: bots:2:hard (easy, normal "
        "or hard)."
    )
    assert await says("ann", "r2", "new bots:2:hard") == (
        f"{ANN} opens a Forbidden City table (beginner side). Join with /fc join: 2 to 4 "
        f"players. {ANN} starts the game with /fc start. Computer players seated: "
        "Computer (hard), Computer (hard) 2."
    )
    assert await says("ann", "r3", "new stadt teams") == (
        f"{ANN} opens a Die Verbotene Stadt table (team game, partners sitting opposite). "
        f"Join with /fc join: 4 players. {ANN} starts the game with /fc start."
    )
    assert await says("bob", "r3", "join") == (
        f"{BOB} joins the table (2/4). Ann starts the game with /fc start."
    )
    assert await says("bob", "r3", "join") == "You are already at the table."
    assert await says("bob", "r3", "start") == "Only Ann can start this game."
    assert await says("ann", "r4", "new") and await says("ann", "r4", "start") == (
        "At least 2 players are needed to start: wait for someone to /fc join, or seat a "
        "computer player with /fc bot add."
    )
    for user in ("bob", "cid", "dan"):
        await says(user, "r4", "join")
    assert await says("eve", "r4", "join") == "The table is full (4 players)."
    assert await says("ann", "r4", "addbot") == "The table is full (4 players)."
    assert (await service.command(who("ann", "r4"), "start")).ok
    assert await says("eve", "r4", "join") == "The game has already started."
    assert await says("ann", "r4", "start") == "The game has already started."
    assert await says("ann", "r9", "start") == "There is no table here. Open one with /fc new."


# --- Seats: computer players, leaving, aborting ------------------------------------------


async def test_computer_players_are_seated_and_removed_by_their_number(
    service: GameService, store: Store
) -> None:
    await service.command(who("ann"), "new")
    assert refusal(await service.command(who("ann"), "removebot")) == (
        "No computer player sits at this table."
    )
    for wrong in ("addbot expert", "addbot easy hard"):
        assert refusal(await service.command(who("ann"), wrong)) == (
            "Choose a level: /fc bot add easy, normal or hard."
        ), wrong
    seated = await service.command(who("ann"), "addbot")
    assert public_text(seated) == (
        "Computer (normal) takes a seat (2/4): a computer player. Ann starts the game with "
        "/fc start."
    )
    hard = await service.command(who("ann"), "addbot hard")
    assert public_text(hard).startswith("Computer (hard) takes a seat (3/4): ")
    not_creator = (
        "Only Ann, who opened this table, or a channel admin can seat or remove computer players."
    )
    assert refusal(await service.command(who("bob"), "addbot")) == not_creator
    assert refusal(await service.command(who("bob"), "removebot")) == not_creator
    for wrong in ("3", "0", "x"):
        assert refusal(await service.command(who("ann"), f"removebot {wrong}")) == (
            "Name a computer player by its number, 1 to 2."
        ), wrong
    removed = await service.command(who("ann"), "removebot 2")  # the last of two
    assert public_text(removed) == "Computer (hard) leaves the table (2/4)."
    table = await live(store)
    assert [(s.name, s.bot) for s in table.seats] == [
        ("Ann", None),
        ("Computer (normal)", "normal"),
    ]
    await service.command(who("bob"), "join")
    assert (await service.command(who("ann"), "start")).ok
    assert refusal(await service.command(who("ann"), "addbot")) == "The game has already started."
    assert refusal(await service.command(who("ann"), "removebot")) == (
        "The game has already started."
    )


async def test_leaving_the_lobby_hands_it_over_and_the_last_one_closes_it(
    service: GameService, store: Store
) -> None:
    await service.command(who("ann"), "new")
    for user in ("bob", "cid"):
        await service.command(who(user), "join")
    assert refusal(await service.command(who("dan"), "leave")) == "You are not at this table."
    left = await service.command(who("cid"), "leave")
    assert public_text(left) == f"{CID} leaves the table (2/4)."
    assert left.public[0].names == {"ann": "Ann", "bob": "Bob", "cid": "Cid"}  # Cid too
    creator_left = await service.command(who("ann"), "leave")
    assert public_text(creator_left) == (
        f"{ANN} leaves the table (1/4). Bob now runs the table and starts the game."
    )
    table = await live(store)
    assert table.creator == "bob" and [s.user_id for s in table.seats] == ["bob"]
    assert await store.user_games("console", "ann") == []
    closed = await service.command(who("bob"), "leave")
    assert public_text(closed) == "Everybody left: the table is closed."
    assert await table_of(store) is None
    assert await store.user_games("console", "bob") == []
    assert (await service.command(who("cid"), "new")).ok  # the channel is free again


async def test_the_last_person_leaving_closes_the_table_whatever_computers_sit(
    service: GameService, store: Store
) -> None:
    assert (await service.command(who("ann"), "new bots:2")).ok
    closed = await service.command(who("ann"), "leave")
    assert public_text(closed) == "Everybody left: the table is closed."
    assert await table_of(store) is None


async def test_nobody_leaves_a_game_under_way(service: GameService, store: Store) -> None:
    await service.command(who("ann"), "new")
    await service.command(who("bob"), "join")
    await service.command(who("ann"), "start")
    before = await snapshot(store)
    assert refusal(await service.command(who("bob"), "leave")) == (
        "The game is under way: nobody can leave it now. Ann can /fc abort."
    )
    assert await snapshot(store) == before


async def test_a_leave_that_crosses_a_join_keeps_the_table_and_the_new_player(
    racing: Racing, clock: Clock
) -> None:
    service = GameService(racing, settings(), clock=clock, seeds=fixed_seeds())
    await service.command(who("ann"), "new")

    async def bob_joins() -> None:  # after Ann's leave read the table, before it closes it
        assert (await service.command(who("bob"), "join")).ok

    racing.before_archive = bob_joins
    conflicts = errors("conflict")
    assert refusal(await service.command(who("ann"), "leave")) == CONFLICT
    assert errors("conflict") == conflicts + 1
    table = await live(racing)
    assert [s.user_id for s in table.seats] == ["ann", "bob"]
    again = await service.command(who("ann"), "leave")
    assert public_text(again) == (
        f"{ANN} leaves the table (1/4). Bob now runs the table and starts the game."
    )


async def test_an_abort_that_crosses_a_join_changes_nothing(racing: Racing, clock: Clock) -> None:
    service = GameService(racing, settings(), clock=clock, seeds=fixed_seeds())
    await service.command(who("ann"), "new")

    async def bob_joins() -> None:
        assert (await service.command(who("bob"), "join")).ok

    racing.before_archive = bob_joins
    assert refusal(await service.command(who("ann"), "abort")) == CONFLICT
    assert [s.user_id for s in (await live(racing)).seats] == ["ann", "bob"]
    assert (await service.command(who("ann"), "abort")).ok
    assert await table_of(racing) is None


async def test_an_abort_closes_the_game_and_its_deadlines(
    service: GameService, store: Store, clock: Clock
) -> None:
    await service.command(who("ann"), "new")
    await service.command(who("bob"), "join")
    await service.command(who("ann"), "start")
    assert await store.deadline(ROOM, "limit") is not None
    assert refusal(await service.command(who("bob"), "abort")) == (
        "Only Ann, who opened this table, or a channel admin can abort the game."
    )
    aborted = await service.command(who("ann"), "abort")
    assert public_text(aborted) == f"{ANN} aborted the game. The table is closed."
    assert aborted.public[0].names == {"ann": "Ann"}
    assert await table_of(store) is None
    for kind in ("remind", "limit", "news"):
        assert await store.deadline(ROOM, kind) is None, kind
    clock.now += 100 * 3600
    assert await service.fire_due() == []
    # A channel admin may abort someone else's table, in the chat's language.
    await service.command(who("ann"), "new")
    await service.command(who("ann"), "lang fr")
    by_admin = await service.command(who("bob", is_admin=True), "abort")
    assert public_text(by_admin) == f"{BOB} a annulé la partie. La table est fermée."
    assert by_admin.public[0].names == {"bob": "Bob"}


# --- Commands: private chats, refusals, outages, races ------------------------------------


async def test_a_private_chat_needs_exactly_one_game_to_be_about(service: GameService) -> None:
    alone = await service.command(who("zed", "dm-zed", private=True), "status")
    assert refusal(alone) == "You have no game under way."
    await service.command(who("ann"), "new")
    await service.command(who("ann", "room2"), "new")
    several = await service.command(who("ann", "dm-ann", private=True), "board")
    assert refusal(several) == (
        "You play in several chats: type the command in the game's chat, or use the buttons."
    )


async def test_command_words_are_read_loosely_and_an_unknown_one_is_named(
    service: GameService, store: Store
) -> None:
    opened = await service.command(who("ann"), "/NEW  advanced")
    assert public_text(opened).startswith(f"{ANN} opens a Forbidden City table (advanced side).")
    helped = await service.command(who("ann"), "")
    assert helped.ok and helped.private == (await service.command(who("ann"), "help")).private
    assert refusal(await service.command(who("ann"), "juggle 3")) == (
        "Unknown command “juggle”. Try /fc help."
    )
    assert refusal(await service.command(who("ann"), "Z" * 40)) == (
        f"Unknown command “{'z' * 30}”. Try /fc help."
    )
    assert [s.user_id for s in (await live(store)).seats] == ["ann"]


async def test_an_unknown_command_is_counted_as_one(service: GameService) -> None:
    unknown, refused = errors("unknown_command"), errors("refused")
    assert refusal(await service.command(who("ann"), "juggle")) == (
        "Unknown command “juggle”. Try /fc help."
    )
    assert refusal(await service.command(who("ann", "dm-ann", private=True), "juggle")) == (
        "Unknown command “juggle”. Try /fc help."
    )
    assert errors("unknown_command") == unknown + 2
    assert errors("refused") == refused  # its own kind, not a refused move


async def test_a_button_that_is_not_valid_and_a_private_command_without_a_game_are_counted(
    service: GameService,
) -> None:
    await service.command(who("ann"), "new")
    invalid, refused = errors("invalid_button"), errors("refused")
    for data in ("garbage", f"fc:sp:{CHANNEL}", f"fc:st:{CHANNEL}"):
        pressed = await service.press(who("bob", "elsewhere"), data)
        assert refusal(pressed) == "This button is not valid."
    assert errors("invalid_button") == invalid + 3
    alone = await service.command(who("cid", "dm-cid", private=True), "board")
    assert refusal(alone) == "You have no game under way."
    assert errors("refused") == refused + 1


async def test_a_command_typed_in_private_answers_for_the_games_channel(
    service: GameService,
) -> None:
    table = await seated(service, ["ann", "bob"])
    mover = current_user(table)
    status = await service.command(who(mover, "dm-9", private=True), "status")
    assert status.ok and status.channel_id == CHANNEL  # posted where the game is
    helped = await service.command(who(mover, "dm-9", private=True), "help")
    assert helped.ok and helped.channel_id is None  # about no game: answered where typed
    other_chat = await service.press(who("bob", "elsewhere"), f"fc:j:{CHANNEL}")
    assert refusal(other_chat) == "This button is not valid."  # a lobby button, elsewhere
    assert other_chat.channel_id == CHANNEL
    for data in (f"fc:sp:{CHANNEL}", f"fc:sp:{CHANNEL}:3", "garbage"):
        assert refusal(await service.press(who(mover), data)) == "This button is not valid."


async def test_an_outage_changes_nothing_and_says_so(blinking: Blinking, clock: Clock) -> None:
    service = GameService(blinking, settings(), clock=clock, seeds=fixed_seeds())
    await service.command(who("ann"), "new")
    blinking.outages = 1
    outages = errors("store_unavailable")
    assert refusal(await service.command(who("bob"), "join")) == (
        "The game storage is unavailable right now. Nothing was changed; please try again "
        "in a moment."
    )
    assert errors("store_unavailable") == outages + 1
    assert [s.user_id for s in (await live(blinking)).seats] == ["ann"]


async def test_joining_a_table_closed_meanwhile_says_it_is_closed(
    racing: Racing, clock: Clock
) -> None:
    service = GameService(racing, settings(), clock=clock, seeds=fixed_seeds())
    await service.command(who("ann"), "new")

    async def ann_aborts() -> None:  # after Bob's join read the table, before it saves
        assert (await service.command(who("ann"), "abort")).ok

    racing.before_save = ann_aborts
    closed = errors("closed")
    assert refusal(await service.command(who("bob"), "join")) == "This table is closed."
    assert errors("closed") == closed + 1
    assert await table_of(racing) is None
    assert await racing.user_games("console", "bob") == []


async def test_a_move_refused_says_exactly_why(
    service: GameService, store: Store, clock: Clock
) -> None:
    await service.command(who("ann"), "new")
    await service.command(who("bob"), "join")
    refused = errors("refused")
    assert refusal(await service.command(who("ann"), "play 1 0")) == (
        "The game has not started yet."
    )
    assert errors("refused") == refused + 1
    await service.command(who("ann"), "start")
    table = await live(store)
    mover = current_user(table)
    other = "bob" if mover == "ann" else "ann"
    before = await snapshot(store)
    assert refusal(await service.command(who("zed"), "play 1 0")) == (
        "You are not playing at this table."
    )
    assert refusal(await service.command(who(other), "play 1 0")) == (
        f"It is {mover.capitalize()}'s turn, not yours."
    )
    stadt_button = f"fc:vb:{CHANNEL}:0:GY"  # the other game's kind of button
    assert refusal(await service.press(who(mover), stadt_button)) == "This button is not valid."
    assert await snapshot(store) == before
    clock.now += service.settings.turn_limit.total_seconds() + 1
    await service.fire_due()
    assert (await service.command(who(other), "vote bot")).ok  # a computer plays for the mover
    assert refusal(await service.command(who(mover), "play 1 0")) == (
        "A computer player has your seat: /fc back to play it yourself again."
    )


async def test_after_a_game_ended_by_vote_a_late_move_is_told_it_is_over(
    service: GameService, clock: Clock
) -> None:
    table = await seated(service, ["ann", "bob"])
    mover = current_user(table)
    other = "bob" if mover == "ann" else "ann"
    clock.now += service.settings.turn_limit.total_seconds() + 1
    await service.fire_due()
    assert (await service.command(who(other), "vote end")).ok
    assert refusal(await service.command(who(mover), "play 1 0")) == (
        "The game here is over. /fc board shows the final table; /fc new opens a new one."
    )


async def test_commands_and_presses_are_timed_by_kind(service: GameService) -> None:
    commands, presses = answered("command"), answered("press")
    await service.command(who("ann"), "new")
    await service.command(who("bob"), "join")
    await service.press(who("cid"), f"fc:j:{CHANNEL}")
    assert answered("command") == commands + 2
    assert answered("press") == presses + 1


async def test_refusals_speak_the_chats_language(racing: Racing, clock: Clock) -> None:
    service = GameService(racing, settings(), clock=clock, seeds=fixed_seeds())
    for room in (CHANNEL, "room2"):
        assert (await service.command(who("ann", room), "lang fr")).ok
    assert refusal(await service.command(who("ann"), "juggle")) == (
        "Commande « juggle » inconnue. Essaie /fc help."
    )
    assert refusal(await service.press(who("ann"), "garbage")) == "Ce bouton n'est pas valide."
    in_private = who("ann", "dm-ann", private=True, locale="fr")
    assert refusal(await service.command(in_private, "new")) == (
        "Ouvre une table dans un groupe ou un salon de serveur, pas ici."
    )
    await service.command(who("ann"), "new")
    assert refusal(await service.command(who("bob"), "new")) == (
        "Une table est déjà ouverte ici. Affiche-la avec /fc board."
    )
    elsewhere = await service.press(who("bob", "elsewhere"), f"fc:j:{CHANNEL}")
    assert refusal(elsewhere) == "Ce bouton n'est pas valide."
    assert refusal(await service.command(who("ann"), "play 1 0")) == (
        "La partie n'a pas encore commencé."
    )
    for user in ("bob", "cid", "dan"):
        await service.command(who(user), "join")
    assert refusal(await service.command(who("bob"), "join")) == "Tu es déjà à la table."
    assert refusal(await service.command(who("bob"), "start")) == (
        "Seul Ann peut lancer cette partie."
    )
    assert refusal(await service.command(who("eve"), "join")) == (
        "La table est complète (4 joueurs)."
    )

    async def cid_leaves() -> None:  # saved between Dan's read and his save
        assert (await service.command(who("cid"), "leave")).ok

    racing.before_save = cid_leaves
    assert refusal(await service.command(who("dan"), "leave")) == (
        "Quelqu'un a été plus rapide : c'était déjà joué. Rien n'a été modifié."
    )
    await service.command(who("ann"), "start")
    for user, text in (("eve", "join"), ("ann", "start")):
        assert refusal(await service.command(who(user), text)) == "La partie a déjà commencé."
    table = await live(racing)
    mover = current_user(table)
    others = [s.user_id for s in table.seats if s.user_id != mover]
    assert refusal(await service.command(who("zed"), "play 1 0")) == (
        "Tu ne joues pas à cette table."
    )
    assert refusal(await service.command(who(others[0]), "play 1 0")) == (
        f"C'est au tour de {mover.capitalize()}, pas au tien."
    )
    assert refusal(await service.press(who(mover), f"fc:vb:{CHANNEL}:0:GY")) == (
        "Ce bouton n'est pas valide."
    )
    clock.now += service.settings.turn_limit.total_seconds() + 1
    await service.fire_due()
    for user in others:
        assert (await service.command(who(user), "vote bot")).ok
    assert refusal(await service.command(who(mover), "play 1 0")) == (
        "Un joueur ordinateur tient votre place : /fc back pour la reprendre vous-même."
    )
    opened = await service.command(who("ann", "room2"), "new bots:1")
    assert public_text(opened).endswith(" Joueurs ordinateur installés : Ordinateur (normal).")

    async def ann_aborts() -> None:
        assert (await service.command(who("ann", "room2"), "abort")).ok

    racing.before_save = ann_aborts
    assert refusal(await service.command(who("bob", "room2"), "join")) == "Cette table est fermée."


# --- Decisions made for a seat at the time limit ------------------------------------------


async def test_a_silent_answer_at_the_time_limit_counts_as_belief_and_draws_nothing(
    service: GameService, store: Store, clock: Clock
) -> None:
    chat = Chat()
    await open_stadt(service, chat, ["ann", "bob", "cid"])
    hands = [["2H"], ["3H"], ["4H"]]
    await store_position(store, position(3, ["RR", "KK", "GG"], hands=hands, seed=2))
    users = (await live(store)).users()
    north, east, south = users["north"], users["east"], users["south"]
    entered = chat.take(north, await service.command(who(north), "play RR W"))
    assert [d.user_id for d in entered.direct] == [east]  # asked first: believe or doubt
    counted = stand_ins("verbotene_stadt")
    clock.now += service.settings.turn_limit.total_seconds() + 1
    fired = [reply for _, _, reply in await service.fire_due() if reply.public]
    [limit] = fired
    [message] = limit.public
    assert message.text == (
        f"Time ran out for {east.capitalize()}: silence counts as belief. "
        f"{east.capitalize()} believes it. {mention(south)}: believe it or doubt it?"
    )
    assert message.image is None  # an answer alone changes nothing on the table
    [notice] = limit.direct
    assert notice.user_id == south and notice.turn_notice
    assert stand_ins("verbotene_stadt") == counted + 1
    table = await live(store)
    assert table.waiting == ["south answer"]


async def test_bribes_made_at_the_time_limit_follow_the_games_seed(
    service: GameService, store: Store, clock: Clock
) -> None:
    """The bribe drawn for a silent seat depends only on the game's seed and how far it is:
    the same table decides the same, whichever process fires the limit."""
    chat = Chat()
    await open_stadt(service, chat, ["ann", "bob", "cid"])
    await press(service, chat, "ann", chat.button("ann", "vb", "GY").data)
    table = await live(store)
    expected = load_game(table)
    game_module = module_of(table)
    for turn in expected.to_act:  # each seat's draw, with what was played before it
        rng = random.Random(expected.seed + game_module.count(expected))
        expected.play(turn.seat, game_module.stand_in(expected, turn.seat, rng))
    counted = stand_ins("verbotene_stadt")
    clock.now += service.settings.turn_limit.total_seconds() + 1
    fired = [reply for _, _, reply in await service.fire_due() if reply.public]
    assert len(fired) == 1 and is_png(fired[0].public[0].image)  # all chose: the turn begins
    after = load_game(await live(store))
    assert after.bribes == expected.bribes
    assert [str(a) for _, a in after.log] == [str(a) for _, a in expected.log]
    assert stand_ins("verbotene_stadt") == counted + 2


async def test_a_skip_in_the_middle_of_a_late_turn_leaves_that_turn_late(
    service: GameService, store: Store, clock: Clock
) -> None:
    """A turn of Die Verbotene Stadt has several moves: a skip plays one of them for the late
    player, whose turn it still is. That turn stays past its time limit: the others may vote
    again at once, without waiting a whole limit more."""
    chat = Chat()
    await open_stadt(service, chat, ["ann", "bob", "cid"])
    await store_position(store, position(3, ["RR", "KK", "GG"], seed=5))
    late = await user_of(store, "north")
    voters = [user for user in ("ann", "bob", "cid") if user != late]
    started = (await live(store)).turn_started
    clock.now += service.settings.turn_limit.total_seconds() + 1
    [announced] = [reply for _, _, reply in await service.fire_due() if reply.public]
    assert "/fc vote skip" in public_text(announced)
    counted = stand_ins("verbotene_stadt")
    assert (await service.command(who(voters[0]), "vote skip")).ok
    skipped = public_text(await service.command(who(voters[1]), "vote skip"))
    assert skipped.startswith(
        f"The players voted to skip: a move is played for {late.capitalize()}. "
    )
    assert f"{mention(late)} to move (move 2 of " in skipped
    assert stand_ins("verbotene_stadt") == counted + 1
    table = await live(store)
    assert table.waiting == ["north move"] and table.limit_passed
    assert table.turn_started == started
    assert await store.deadline(ROOM, "limit") is None  # no new limit for the same turn
    assert (await service.command(who(voters[0]), "vote skip")).ok  # votes are still open


# --- The service's plumbing for the adapters -----------------------------------------------


async def test_an_update_is_handled_once_per_platform(service: GameService) -> None:
    assert await service.claim_delivery("telegram", 7) == "claimed"
    assert await service.claim_delivery("telegram", 7) == "busy"  # a retry while it is handled
    await service.delivered("telegram", 7)
    assert await service.claim_delivery("telegram", 7) == "handled"  # a retry after
    assert await service.claim_delivery("telegram", 8) == "claimed"
    assert await service.claim_delivery("discord", 7) == "claimed"  # another platform's numbers


async def test_an_update_whose_handler_died_is_handled_by_a_later_delivery(
    store: Store,
) -> None:
    assert await store.claim_delivery("telegram", 9, lease=0.3) == "claimed"
    assert await store.claim_delivery("telegram", 9, lease=0.3) == "busy"
    # Its process never marks it handled: once the claim runs out, a retry takes it.
    async with asyncio.timeout(10):
        while (claim := await store.claim_delivery("telegram", 9, lease=30)) == "busy":
            await asyncio.sleep(0.05)
    assert claim == "claimed"


async def test_an_update_seen_by_a_process_of_the_first_version_stays_handled(
    store: Store,
) -> None:
    client = await store._client()
    await client.set("fc:seen:telegram:10", "1", ex=60)  # what first_delivery wrote
    assert await store.claim_delivery("telegram", 10, lease=30) == "handled"


async def test_one_process_at_a_time_holds_a_job(service: GameService) -> None:
    assert await service.hold("poll", "one", 30)
    assert not await service.hold("poll", "two", 30)
    assert await service.hold("poll", "one", 30)  # renewed by its holder
    assert await service.hold("other-job", "two", 30)
    await service.let_go("poll", "two")  # not its lease: nothing changes
    assert not await service.hold("poll", "two", 30)
    await service.let_go("poll", "one")
    assert await service.hold("poll", "two", 30)


async def test_a_closed_telegram_chat_is_told_where_to_press_start(
    service: GameService, store: Store
) -> None:
    def member(user: str) -> Actor:
        return Actor("telegram", "-100", user, user.capitalize())

    await service.command(member("ann"), "new")
    await service.command(member("bob"), "join")
    await service.command(member("ann"), "start")
    told = await service.dm_failed("telegram", "-100", "bob", "https://t.me/fc_bot?start=go")
    assert public_text(told) == (
        f"{BOB}, I cannot write to you privately. Open https://t.me/fc_bot?start=go and "
        "press Start, so I can send you your tile and tell you when it is your turn."
    )


# --- Autocomplete ---------------------------------------------------------------------------


async def test_autocomplete_waits_out_a_brief_outage_then_answers_nothing(
    blinking: Blinking, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    pauses: list[float] = []

    async def pause(seconds: float) -> None:  # the pauses, without waiting them
        pauses.append(seconds)

    monkeypatch.setattr("bot.service.router.asyncio", SimpleNamespace(sleep=pause))
    service = GameService(blinking, settings(), clock=clock, seeds=fixed_seeds())
    mover = current_user(await seated(service, ["ann", "bob"]))
    timed = {"kind": "complete"}
    answered = REGISTRY.get_sample_value("fc_command_seconds_count", timed) or 0.0
    spots = await service.complete(who(mover), "play")
    assert spots and all(value.isdigit() for _, value in spots)
    assert pauses == []
    assert REGISTRY.get_sample_value("fc_command_seconds_count", timed) == answered + 1
    blinking.outages = 2
    assert await service.complete(who(mover), "play") == spots  # the third try answers
    assert len(pauses) == 2
    pauses.clear()
    blinking.outages = 3
    assert await service.complete(who(mover), "play") == []  # three tries, then nothing
    assert blinking.outages == 0
    assert len(pauses) == 2  # between the tries only: nothing is waited for after the last
    # Each pause longer than the one before, about a second in all: well within the three
    # seconds Discord gives an autocomplete answer.
    assert pauses[0] > 0 and all(a < b for a, b in itertools.pairwise(pauses))
    assert sum(pauses) <= 1.25


async def test_autocomplete_answers_each_table_from_its_own_game(
    service: GameService, store: Store, clock: Clock
) -> None:
    rooms = ("room1", "room2")
    for room in rooms:  # two tables at the same version, dealt differently
        for user, text in (("ann", "new"), ("bob", "join"), ("ann", "start")):
            assert (await service.command(who(user, room), text)).ok
    records = [await store.load(Channel.of("console", room)) for room in rooms]
    assert len({r.version for r in records if r is not None}) == 1
    mover = current_user(await live(store, "room1"))
    asked = {room: await service.complete(who(mover, room), "play") for room in rooms}
    fresh = GameService(store, settings(), clock=clock)  # another process: nothing kept yet
    assert await fresh.complete(who(mover, "room2"), "play") == asked["room2"]
    assert await fresh.complete(who(mover, "room1"), "play") == asked["room1"]
    assert asked["room1"] and asked["room1"] != asked["room2"]


async def test_autocomplete_works_each_answer_out_once_and_keeps_the_newest(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    worked: list[str] = []
    tiles = ForbiddenCity
    original = tiles.complete

    def counted(
        self: ForbiddenCity, at: At, game: Game, seat: str, text: str
    ) -> list[tuple[str, str]]:
        worked.append(text)
        return original(self, at, game, seat, text)

    monkeypatch.setattr(tiles, "complete", counted)
    monkeypatch.setattr("bot.service.router.COMPLETIONS_KEPT", 3)  # a small bound, to reach it
    mover = current_user(await seated(service, ["ann", "bob"]))
    answers = {}
    for text in ("play", "play 1", "play 2", "play"):
        answers[text] = await service.complete(who(mover), text)
    assert worked == ["play", "play 1", "play 2"]  # the repeated question is not worked out
    assert answers["play 1"] and answers["play 1"] != answers["play"]
    answers["play 3"] = await service.complete(who(mover), "play 3")  # one more: the oldest goes
    for text in ("play 3", "play 1", "play 2"):  # the three newest are kept
        assert await service.complete(who(mover), text) == answers[text]
    assert worked == ["play", "play 1", "play 2", "play 3"]
    assert await service.complete(who(mover), "play") == answers["play"]
    assert worked == ["play", "play 1", "play 2", "play 3", "play"]  # worked out again


# --- Computer players' turns ------------------------------------------------------------------


async def computer_turns(
    service: GameService, store: Store, moves: int
) -> list[tuple[int, str, str]]:
    """Ann and a computer player play until `moves` tiles are placed. For each computer move:
    how many moves came before it, what a search from the game's seed plus that count decides
    from its seat's view, and what it played."""
    rng = random.Random(4)
    made: list[tuple[int, str, str]] = []
    while len(load_game(table := await live(store)).moves) < moves:
        game = load_game(table)
        seat = table.user_of(game.current)
        if seat.bot is None:
            spot = rng.choice(render.spots(to_play(game)))
            assert (await service.command(who("ann"), f"play {spot.number} {spot.rotations[0]}")).ok
            continue
        count = len(game.moves)
        view = module_of(table).observe(game, game.current)
        wanted = decide(
            "forbidden_city", seat.bot, view, game.current, game.seed + count, 5.0, TINY
        ).action
        assert [r for _, _, r in await service.fire_due() if r.public]
        made.append((count, str(wanted), str(load_game(await live(store)).moves[count])))
    return made


async def test_a_computer_player_decides_from_the_games_seed_and_how_far_it_is(
    store: Store, clock: Clock
) -> None:
    """The same table at the same point always gets the same decision (a retried or
    restarted turn plays what the first try would have), and each turn gets its own."""
    service = GameService(
        store, settings(bot_pause=0), clock=clock, seeds=fixed_seeds(), computer=InProcess()
    )
    searched = {"game": "forbidden_city", "level": "hard"}
    before = REGISTRY.get_sample_value("fc_computer_search_seconds_count", searched) or 0.0
    by_computers = actions("forbidden_city", "computer")
    assert (await service.command(who("ann"), "new bots:1:hard")).ok
    assert (await service.command(who("ann"), "start")).ok
    made = await computer_turns(service, store, 6)
    assert len(made) == 3 and all(count > 0 for count, _, _ in made[1:])
    for _, wanted, played in made:
        assert played == wanted
    after = REGISTRY.get_sample_value("fc_computer_search_seconds_count", searched)
    assert after == before + len(made)  # each search timed under its game and level
    assert actions("forbidden_city", "computer") == by_computers + len(made)


async def test_a_computer_player_that_keeps_losing_the_race_to_save_tries_again_later(
    jostled: Jostled, clock: Clock
) -> None:
    pause = 20.0  # not the claim lease (30 s), so its own deadline shows
    service = GameService(
        jostled, settings(bot_pause=pause), clock=clock, seeds=fixed_seeds(), computer=InProcess()
    )
    assert (await service.command(who("ann"), "new bots:1")).ok
    assert (await service.command(who("ann"), "start")).ok
    table = await live(jostled)
    if table.user_of(load_game(table).current).bot is None:  # Ann first: she plays
        spot = render.spots(to_play(load_game(table)))[0]
        assert (await service.command(who("ann"), f"play {spot.number} {spot.rotations[0]}")).ok
    moves = len(load_game(await live(jostled)).moves)
    clock.now += pause
    jostled.jostles = 3  # three saves in a row lose: the computer player gives up for now
    assert await service.fire_due() == []
    assert len(load_game(await live(jostled)).moves) == moves
    again = await jostled.deadline(ROOM, "bot")
    assert again is not None and again.due == clock.now + pause
    clock.now += pause
    jostled.jostles = 2  # two lost, the third try saves
    [(_, _, played)] = await service.fire_due()
    assert played.public and len(load_game(await live(jostled)).moves) == moves + 1


@pytest.mark.parametrize("computer", [Failing(), Wrong()], ids=["no-decision", "refused"])
async def test_a_computer_player_without_a_good_decision_plays_the_seeded_stand_in(
    store: Store, clock: Clock, computer: Computer
) -> None:
    """When the search fails, or the game refuses its decision, the table's own stand-in is
    played, drawn from the game's seed and how far it is, as at the time limit: the same on
    every try. The person still choosing is not told again that it is their turn."""
    service = GameService(
        store, settings(bot_pause=0), clock=clock, seeds=fixed_seeds(), computer=computer
    )
    assert (await service.command(who("ann"), "new stadt bots:2")).ok
    assert (await service.command(who("ann"), "start")).ok
    table = await live(store)
    expected = load_game(table)
    game_module = module_of(table)
    computers = set(table.computer_seats())
    while turns := [t for t in expected.to_act if t.seat in computers]:
        rng = random.Random(expected.seed + game_module.count(expected))
        expected.play(turns[0].seat, game_module.stand_in(expected, turns[0].seat, rng))
    # Both computers bribe in one go, told in one message.
    [reply] = [reply for _, _, reply in await service.fire_due() if reply.public]
    assert reply.direct == []  # Ann was asked for her bribe at the start
    assert [reply for _, _, reply in await service.fire_due() if reply.public] == []
    after = load_game(await live(store))
    assert after.bribes == expected.bribes
    assert [t.seat for t in after.to_act] == [table.engine_seat("ann")]  # only Ann to bribe
