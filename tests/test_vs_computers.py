"""Die Verbotene Stadt with computer players through the service: they bribe, move, answer and
take like a person would, after their pause, from worker processes that see only their seat."""

from __future__ import annotations

import io
import logging
import random
from collections.abc import Iterator

import pytest
from PIL import Image

from bot.config import Settings
from bot.exchange.actor import Actor
from bot.exchange.replies import Reply, mention
from bot.records.table import Table
from bot.runtime.computer_pool import Computer, decide
from bot.service import GameService
from bot.store import Channel, Store
from engine.ai import game_ai
from engine.verbotene_stadt import Game
from engine.verbotene_stadt.actions import Bribe
from tests.conftest import fixed_seeds
from tests.tables import load_game
from tests.vs_driver import hasty

CHANNEL = "room1"
WHERE = Channel.of("console", CHANNEL)


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def who(user: str, private: bool = False) -> Actor:
    return Actor("console", CHANNEL, user, user.capitalize(), private=private)


@pytest.fixture(scope="module")
def computer() -> Iterator[Computer]:
    made = Computer(1, 5.0, 6)  # six search iterations: decisions in milliseconds
    yield made
    made.close()


async def table_of(store: Store) -> Table | None:
    record = await store.load(WHERE)
    return None if record is None else Table.model_validate_json(record.data)


def is_png(data: bytes | None) -> bool:
    if data is None:
        return False
    with Image.open(io.BytesIO(data)) as image:
        return image.format == "PNG" and image.width > 100


async def test_a_whole_game_of_one_person_and_a_computer(
    store: Store, computer: Computer, caplog: pytest.LogCaptureFixture
) -> None:
    clock = Clock()
    config = Settings(_env_file=None, bot_pause=2)  # type: ignore[call-arg, arg-type]
    service = GameService(store, config, clock=clock, seeds=fixed_seeds(), computer=computer)
    opened = await service.command(who("ann"), "new stadt bots:1:easy")
    assert opened.ok, opened.private
    assert "Computer (easy)" in opened.public[0].text
    assert (await service.command(who("ann"), "start")).ok
    rng = random.Random(3)
    computer_acts = person_acts = 0
    last: Reply | None = None
    kinds: set[str] = set()
    while (table := await table_of(store)) is not None:
        game: Game = load_game(table)
        bot_seat = next(p for p in game.players if table.user_of(p).bot is not None)
        mine = [t for t in game.to_act if table.user_of(t.seat).bot is None]
        if mine:
            action = hasty(game, mine[0].seat, rng)
            secret = isinstance(action, Bribe)
            reply = await service.command(who("ann", private=secret), f"play {action}")
            assert reply.ok, (str(action), [m.text for m in reply.private])
            person_acts += 1
        else:
            assert [t.seat for t in game.to_act] == [bot_seat]
            kinds.add(game.to_act[0].kind)
            assert await service.fire_due() == []  # it waits for its pause
            clock.now += 2
            fired = [r for p, c, r in await service.fire_due() if Channel.of(p, c) == WHERE]
            assert len(fired) == 1, "the computer acts once its pause is over"
            [reply] = fired
            computer_acts += 1
            assert reply.private == []
            assert {d.user_id for d in reply.direct} <= {"ann"}  # nothing privately to it
            after = await table_of(store)
            if after is not None:  # its decision is in the record, replayable
                assert len(load_game(after).log) > len(game.log)
            if reply.public:
                assert mention(table.user_of(bot_seat).user_id) not in reply.public[0].text
        last = reply
    assert last is not None and last.public and is_png(last.public[-1].image)
    assert person_acts > 5 and computer_acts > 5
    assert "move" in kinds and "bribe" in kinds
    assert await store.due(clock.now + 10**9) == []
    refused = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert refused == []  # every decision was the search's own, none a stand-in


def test_a_computer_decision_is_legal_and_the_same_for_a_seed() -> None:
    game = Game(["north", "south"], seed=11)
    for seat in ("north", "south"):
        game.play(seat, Bribe("RR" if seat == "north" else "KK"))
    seat = game.to_act[0].seat
    view = game_ai("verbotene_stadt").view(game, seat)  # what the service hands a worker
    first = decide("verbotene_stadt", "easy", view, seat, 5, 5.0, 6).action
    assert first in game.legal_actions(seat)
    assert decide("verbotene_stadt", "easy", view, seat, 5, 5.0, 6).action == first


async def test_a_persons_secret_choice_is_told_with_the_computers_choices_that_follow(
    store: Store, computer: Computer
) -> None:
    """Ann bribes first; the two computers bribe after their pause. The group hears of the
    three secret choices once, in the computers' post, Ann's first: nothing is lost and
    nothing reordered, and the group gets one message where it got two."""
    clock = Clock()
    config = Settings(_env_file=None, bot_pause=2)  # type: ignore[call-arg, arg-type]
    service = GameService(store, config, clock=clock, seeds=fixed_seeds(), computer=computer)
    assert (await service.command(who("ann"), "new stadt bots:2")).ok
    assert (await service.command(who("ann"), "start")).ok
    table = await table_of(store)
    assert table is not None
    game: Game = load_game(table)
    seat = table.engine_seat("ann")
    assert seat is not None and {t.kind for t in game.to_act} == {"bribe"}
    action = hasty(game, seat, random.Random(1))
    bribed = await service.command(who("ann", private=True), f"play {action}")
    assert bribed.ok and bribed.public == []  # told with the computers' choices
    assert any("secret" in m.text for m in bribed.private)  # Ann herself knows at once
    clock.now += 2
    [reply] = [r for p, c, r in await service.fire_due() if Channel.of(p, c) == WHERE]
    [post] = reply.public
    text = post.text
    assert text.count("has made a secret choice") == 3
    assert text.index("Ann has made a secret choice") < text.index("Computer")
    assert is_png(post.image)
    assert await service.fire_due() == []
