"""Die Verbotene Stadt action notation, dice data and the common engine shape."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalMove
from engine.core.shape import Engine
from engine.verbotene_stadt import dice
from engine.verbotene_stadt.actions import (
    OFFICIALS,
    Action,
    ActionSyntaxError,
    Believe,
    Bribe,
    Doubt,
    Keep,
    MoveOfficial,
    Pass,
    Take,
    parse_action,
)
from engine.verbotene_stadt.game import Game


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("bribe RB", Bribe("RB")),
        ("keep", Keep()),
        ("move RB:N,E", MoveOfficial("RB", ("N", "E"))),
        ("move KK:S", MoveOfficial("KK", ("S",))),
        ("pass", Pass()),
        ("believe", Believe()),
        ("doubt", Doubt()),
        ("take 2 5C", Take(2, "5C")),
    ],
)
def test_notation_round_trips(text: str, action: Action) -> None:
    assert parse_action(text) == action
    assert str(action) == text
    assert Game.parse_action(text) == action


def test_input_is_forgiving_about_case_and_blanks() -> None:
    assert parse_action("  Bribe rb ") == Bribe("RB")
    assert parse_action("MOVE gy:n,w") == MoveOfficial("GY", ("N", "W"))
    assert parse_action("take 4 8t") == Take(4, "8T")


@pytest.mark.parametrize(
    "text",
    [
        "",
        "bribe",
        "bribe RX",
        "bribe RBB",
        "move RB",
        "move RB:",
        "move RB:N,Q",
        "move XX:N",
        "take 5C",
        "take 0 5C",
        "take 5 5C",
        "take two 5C",
        "take 2 9C",
        "keep it",
        "jump",
    ],
)
def test_bad_notation_is_an_illegal_move_with_a_reason(text: str) -> None:
    with pytest.raises(ActionSyntaxError) as caught:
        parse_action(text)
    assert isinstance(caught.value, IllegalMove) and caught.value.reason


def test_25_officials_hat_then_robe() -> None:
    assert len(set(OFFICIALS)) == 25
    assert "RB" in OFFICIALS and all(len(c) == 2 and set(c) <= set("RYBGK") for c in OFFICIALS)


def test_fate_dice_have_1_2_5_black_faces_and_the_blue_die_8() -> None:
    assert dice.FATE_NAMES == ("small", "medium", "large")
    assert [faces.count("black") for faces in dice.FATE_FACES] == [1, 2, 5]
    assert all(len(faces) == 6 for faces in dice.FATE_FACES)
    assert sorted(dice.BLUE_FACES) == list(range(1, 9))


def test_rolls_are_a_function_of_seed_and_index_and_look_fair() -> None:
    assert dice.roll(7, 3, 6) == dice.roll(7, 3, 6)
    counts = [0] * 8
    for index in range(8000):
        counts[dice.roll(12345, index, 8)] += 1
    assert all(900 < n < 1100 for n in counts)
    assert len({dice.roll(seed, 0, 6) for seed in range(50)}) == 6


def test_the_game_has_the_common_engine_shape() -> None:
    def as_engine(game: Game) -> Engine[Action]:
        return game  # mypy checks Game against the protocol

    engine = as_engine(Game(2, seed=1))
    assert engine.players == ("north", "east") and engine.seed == 1
    assert [t.kind for t in engine.to_act] == ["bribe", "bribe"]
