"""Stored records are checked against the deal the rules allow before they are replayed."""

from __future__ import annotations

import json

import pytest

from engine.forbidden_city import Game
from engine.forbidden_city.record import CorruptRecord


def record(players: int = 3, seed: int = 4, moves: int = 2) -> dict[str, object]:
    game = Game(players, seed=seed)
    for _ in range(moves):
        game.play(game.legal_moves()[0])
    data: dict[str, object] = json.loads(game.to_json())
    return data


def stacks(data: dict[str, object]) -> list[list[str]]:
    value = data["stacks"]
    assert isinstance(value, list)
    return value


def refused(data: dict[str, object]) -> str:
    with pytest.raises(CorruptRecord) as err:
        Game.from_json(json.dumps(data))
    return str(err.value)


def test_a_good_record_loads() -> None:
    data = record()
    assert Game.from_json(json.dumps(data)).to_json() == json.dumps(data, separators=(",", ":"))


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_a_short_stack_is_a_corrupt_record(seat: int) -> None:
    data = record()
    stacks(data)[seat].pop()  # unequal stacks: an IndexError once that seat runs out
    assert "stack" in refused(data)


def test_stacks_of_the_wrong_size_for_the_player_count() -> None:
    data = record(players=3)
    for stack in stacks(data):
        stack.extend(["....W", "a...P+1A"])  # 26 tiles each: neither 24 nor 30
    assert "26 tiles" in refused(data)
    two = record(players=2)
    for stack in stacks(two):
        del stack[24:]  # a 2-player deal without its six tiles marked 2
    assert "24 tiles" in refused(two)


def test_a_tile_swapped_in_one_stack_is_a_corrupt_record() -> None:
    data = record()
    stack = stacks(data)[2]
    stack[-1] = "#a#.P+1A" if stack[-1] != "#a#.P+1A" else "....G"
    assert "tiles" in refused(data)


def test_every_stack_is_checked_before_any_move_is_replayed() -> None:
    data = record(moves=0)
    stacks(data)[1] = stacks(data)[1][:3]
    assert "stack" in refused(data)


@pytest.mark.parametrize("players", [[], ["purple"], ["purple", "green"]])
def test_odd_seats_are_a_corrupt_record(players: list[str]) -> None:
    data = record(players=2)
    data["players"] = players
    data["stacks"] = stacks(data)[: len(players)]
    refused(data)
