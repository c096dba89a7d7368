"""A process keeps the games it replayed or stored, by their record: a command starts from a
copy instead of replaying the whole record again, and the copy plays on exactly as the replay
would."""

from __future__ import annotations

import random
from typing import Any

import pytest

import render.forbidden_city as render
from bot.games import module
from bot.games.forbidden_city import ForbiddenCity
from bot.records import replayed
from bot.service import GameService
from bot.store import Store
from tests.conftest import fixed_seeds
from tests.tables import load_game
from tests.test_service import current_user, seated, settings, table_of, who
from tests.views import to_play


@pytest.fixture
def service(store: Store) -> GameService:
    return GameService(store, settings(), seeds=fixed_seeds())


@pytest.mark.parametrize(("name", "steps"), [("forbidden_city", 60), ("verbotene_stadt", 160)])
def test_a_kept_game_plays_on_exactly_as_its_record_replays(name: str, steps: int) -> None:
    game_module: Any = module(name)
    rng = random.Random(7)
    game = game_module.new_game(4, {}, 21)
    for _ in range(steps):
        if game.is_over:
            break
        data = game_module.dump(game)
        replayed.kept(game_module, data, game)  # as the service does once it stored `data`
        copy = replayed.load(game_module, data)
        fresh = game_module.load(data)
        assert copy is not game and game_module.dump(copy) == data
        for seat in (None, *game.players):
            assert copy.view(seat) == fresh.view(seat)
        turn = game.to_act[0]
        action = rng.choice(game.legal_actions(turn.seat))
        copy.play(turn.seat, action)
        fresh.play(turn.seat, action)
        assert game_module.dump(copy) == game_module.dump(fresh)
        # Playing on the copy moved nothing kept: the next copy is at the record again.
        assert game_module.dump(replayed.load(game_module, data)) == data
        game.play(turn.seat, action)


def test_a_game_is_kept_once_at_its_latest_record() -> None:
    """A process keeps one game per table: each stored move replaces the game's older record."""
    game_module: Any = module("verbotene_stadt")
    rng = random.Random(2)
    games = [game_module.new_game(3, {}, seed) for seed in (31, 32)]
    for _ in range(20):
        for game in games:
            turn = game.to_act[0]
            game.play(turn.seat, rng.choice(game.legal_actions(turn.seat)))
            replayed.kept(game_module, game_module.dump(game), game)
    assert replayed.held() == 2
    for game in games:
        data = game_module.dump(game)
        assert game_module.dump(replayed.load(game_module, data)) == data


def test_a_game_that_is_over_is_not_kept() -> None:
    """A finished game is archived: nothing of it stays in the process."""
    game_module: Any = module("forbidden_city")
    rng = random.Random(4)
    game = game_module.new_game(2, {}, 8)
    while not game.is_over:
        turn = game.to_act[0]
        game.play(turn.seat, rng.choice(game.legal_actions(turn.seat)))
        replayed.kept(game_module, game_module.dump(game), game)
        assert replayed.held() == (0 if game.is_over else 1)


def test_a_different_record_is_replayed_not_taken_from_the_cache() -> None:
    game_module: Any = module("forbidden_city")
    game = game_module.new_game(2, {}, 5)
    data = game_module.dump(game)
    replayed.kept(game_module, data, game)
    other = game_module.dump(game_module.new_game(2, {}, 6))  # another seed, same length
    assert game_module.dump(replayed.load(game_module, other)) == other


class Replays:
    """Counts the records the service replays (not those this test replays to choose moves)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        self.serving = False
        replay = ForbiddenCity.load

        def counted(module_self: ForbiddenCity, data: Any) -> Any:
            self.count += self.serving
            return replay(module_self, data)

        monkeypatch.setattr(ForbiddenCity, "load", counted)

    async def move(self, service: GameService, store: Store) -> None:
        table = await table_of(store)
        assert table is not None
        spot = render.spots(to_play(load_game(table)))[0]
        actor, text = who(current_user(table)), f"play {spot.number} {spot.rotations[0]}"
        self.serving = True
        try:
            reply = await service.command(actor, text)
        finally:
            self.serving = False
        assert reply.ok, reply.private


async def test_a_process_replays_a_record_once_not_at_every_move(
    service: GameService, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    await seated(service, ["ann", "bob"])
    replays = Replays(monkeypatch)
    for _ in range(8):
        await replays.move(service, store)
    assert replays.count == 0  # every command started from the game this process stored
    replayed.forget()  # as another process would: the stored record is replayed, once
    for _ in range(3):
        await replays.move(service, store)
    assert replays.count == 1


def test_a_game_not_asked_for_a_while_is_let_go(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game another process finished, or a table gone quiet, does not stay in this one: past
    `IDLE` seconds unasked it is let go, and the next command replays its record."""
    now = [1000.0]
    monkeypatch.setattr(replayed, "clock", lambda: now[0])
    game_module: Any = module("forbidden_city")
    quiet, busy = game_module.new_game(2, {}, 41), game_module.new_game(2, {}, 42)
    replays: list[int] = []
    real_load = game_module.load

    def counted(data: Any) -> Any:
        replays.append(data["seed"])
        return real_load(data)

    monkeypatch.setattr(game_module, "load", counted)
    replayed.kept(game_module, game_module.dump(quiet), quiet)
    replayed.kept(game_module, game_module.dump(busy), busy)
    now[0] += replayed.IDLE / 2
    replayed.load(game_module, game_module.dump(busy))  # asked for: its time starts again
    assert replayed.held() == 2
    now[0] += replayed.IDLE / 2 + 1
    replayed.load(game_module, game_module.dump(busy))
    assert replays == [] and replayed.held() == 1  # the busy one was asked in time
    again = replayed.load(game_module, game_module.dump(quiet))
    assert replays == [41] and game_module.dump(again) == game_module.dump(quiet)
    assert replayed.held() == 2  # replayed from its record, and kept again
