"""The shape both engines share: errors, who is to act, seat-checked play, record replay."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import CorruptRecord, Engine, IllegalMove, ToAct, replay
from engine.forbidden_city import Game
from engine.forbidden_city import IllegalMove as FcIllegalMove
from engine.forbidden_city.record import CorruptRecord as FcCorruptRecord
from engine.verbotene_stadt.game import Game as VsGame


def test_forbidden_city_raises_the_shared_errors() -> None:
    assert FcIllegalMove is IllegalMove
    assert FcCorruptRecord is CorruptRecord
    err = IllegalMove("no room there")
    assert err.reason == "no room there"
    assert isinstance(err, ValueError)


def test_to_act_names_the_seat_to_play_then_nobody() -> None:
    game = Game(["purple", "yellow"], seed=3)
    assert game.to_act == [ToAct("purple", "place")]
    game.play(game.legal_moves()[0])
    assert game.to_act == [ToAct("yellow", "place")]
    while not game.is_over:
        game.play(game.legal_moves()[0])
    assert game.to_act == []
    assert game.legal_actions("purple") == []


def test_legal_actions_only_for_the_seat_to_play() -> None:
    game = Game(["purple", "yellow"], seed=3)
    assert game.legal_actions("purple") == game.legal_moves()
    assert game.legal_actions("purple")
    assert game.legal_actions("yellow") == []


def test_play_with_a_seat_checks_it_and_accepts_notation() -> None:
    game = Game(["purple", "yellow"], seed=3)
    move = game.legal_moves()[0]
    with pytest.raises(IllegalMove, match="purple's turn"):
        game.play("yellow", move)
    assert game.moves == []
    game.play("purple", str(move))
    assert game.moves == [move]
    assert Game.parse_action(str(move)) == move


def test_replay_plays_actions_and_checks_the_snapshot() -> None:
    game = Game(["purple", "yellow"], seed=5)
    actions = []
    for _ in range(4):
        move = game.legal_moves()[0]
        actions.append((game.current, str(move)))
        game.play(move)
    again = replay(Game(["purple", "yellow"], seed=5), actions)
    assert again.moves == game.moves
    with pytest.raises(CorruptRecord, match="coins"):
        replay(
            Game(["purple", "yellow"], seed=5),
            actions,
            {"coins": [1, 2]},
            lambda g: {"coins": g.coins},
        )


def test_replay_names_the_refused_action() -> None:
    game = Game(["purple", "yellow"], seed=5)
    first = str(game.legal_moves()[0])
    with pytest.raises(CorruptRecord, match=r"^action 2 \(purple "):
        replay(Game(["purple", "yellow"], seed=5), [("purple", first), ("purple", first)])


def test_both_engines_have_the_shape() -> None:
    """One loop drives either game through the shared API (mypy checks the Protocol)."""
    games: list[Engine[Any]] = [Game(["purple", "yellow"], seed=3), VsGame(4, seed=3)]
    for game in games:
        for _ in range(6):
            waiting = game.to_act[0]
            options = game.legal_actions(waiting.seat)
            assert options, waiting
            action = options[-1]
            assert game.parse_action(str(action)) == action
            result = game.play(waiting.seat, str(action))
            assert result.events
        again = type(game).from_json(game.to_json())
        assert again.scores == game.scores
        assert again.to_act == game.to_act
