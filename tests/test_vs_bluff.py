"""Die Verbotene Stadt bluff: when it comes into play, the question round, the four outcomes."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalMove
from engine.verbotene_stadt.events import Answered, BluffSettled, CardTaken, TurnStarted
from engine.verbotene_stadt.game import Game
from tests.vs_positions import small_game

# North holds 2H, east 3C, south 4T, west nothing: the bluff is in play for north.
HANDS = [["2H"], ["3C"], ["4T"], []]


def kinds(game: Game) -> list[tuple[str, str]]:
    return [(t.seat, t.kind) for t in game.to_act]


def bluff_game(north_bribe: str) -> Game:
    return small_game([north_bribe, "KK", "GG", "KK"], hands=HANDS)


def test_no_bluff_until_the_mover_and_another_hold_a_card() -> None:
    alone = small_game(["KK", "GG"], hands=[[], ["3C"]])
    assert "move RR:W" not in [str(a) for a in alone.legal_actions("north")]
    game = bluff_game("KK")
    assert "move RR:W" in [str(a) for a in game.legal_actions("north")]


def test_an_entry_is_put_to_every_seat_with_a_card_in_table_order() -> None:
    game = bluff_game("RR")
    game.play("north", "move RR:W")
    assert kinds(game) == [("east", "answer")]  # west holds no card: not asked
    assert game.hands[0] == ("2H",)  # nothing given before the answers
    with pytest.raises(IllegalMove):
        game.play("south", "believe")  # not south's turn to answer
    game.play("east", "believe")
    assert kinds(game) == [("south", "answer")]


def test_a_seat_without_a_card_is_not_asked() -> None:
    game = small_game(["RR", "KK", "GG"], hands=[["2H"], [], ["4T"]])
    game.play("north", "move RR:W")
    assert kinds(game) == [("south", "answer")]
    assert [str(a) for a in game.legal_actions("south")] == ["believe", "doubt"]


def test_truth_believed_gives_the_card_by_the_normal_rules() -> None:
    game = bluff_game("RR")
    game.play("north", "move RR:W")
    game.play("east", "believe")
    events = game.play("south", "believe").events
    assert BluffSettled("north", False, None) in events
    assert CardTaken("north", "1H", None, "entry") in events
    assert kinds(game)[0] == ("north", "bribe")
    for seat in ("north", "east", "south", "west"):
        game.play(seat, "keep" if seat != "north" else "bribe KK")
    assert kinds(game) == [("east", "move")]


def test_truth_believed_with_a_shared_bribe_gives_the_farthest_briber_the_card() -> None:
    game = small_game(["RR", "KK", "RR"], hands=[["2H"], ["3C"], []])
    game.play("north", "move RR:W")
    game.play("east", "believe")
    assert game.hands[2] == ("1H",)


def test_bluff_believed_gives_the_bluffer_the_card_and_a_new_turn() -> None:
    game = bluff_game("KK")
    game.play("north", "move RR:W")
    game.play("east", "believe")
    events = game.play("south", "believe").events
    assert BluffSettled("north", True, None) in events
    assert game.hands[0] == ("1H", "2H")
    assert game.view("east").revealed == {"north": "KK"}
    for seat, text in [("north", "bribe GG"), ("east", "keep"), ("south", "keep")]:
        game.play(seat, text)
    events = game.play("west", "keep").events
    assert events[-1] == TurnStarted("north", True)
    assert kinds(game) == [("north", "move")]


def test_truth_doubted_punishes_the_nearest_doubter() -> None:
    game = bluff_game("RR")
    game.play("north", "move RR:W")
    game.play("east", "doubt")
    events = game.play("south", "doubt").events
    assert Answered("south", False) in events
    assert BluffSettled("north", False, "east") in events  # east is nearest after north
    assert CardTaken("north", "1H", None, "entry") in events
    assert kinds(game) == [("north", "take")]
    assert [str(a) for a in game.legal_actions("north")] == ["take 2 3C"]  # east's only
    with pytest.raises(IllegalMove):
        game.play("north", "take 3 4T")  # south doubted too, but is not the nearest
    with pytest.raises(IllegalMove):
        game.play("north", "pass")
    events = game.play("north", "take 2 3C").events
    assert events[0] == CardTaken("north", "3C", "east", "reward")
    assert game.hands == [("1H", "2H", "3C"), (), ("4T",), ()]
    assert kinds(game)[0] == ("north", "bribe")


def test_truth_doubted_with_a_shared_bribe_still_rewards_the_mover() -> None:
    game = small_game(["RR", "KK", "RR"], hands=[["2H"], ["3C"], []])
    game.play("north", "move RR:W")
    game.play("east", "doubt")
    assert game.hands[0] == ("1H", "2H")  # the text: the mover takes the top card
    game.play("north", "take 2 3C")
    assert game.hands == [("1H", "2H", "3C"), (), ()]


def test_bluff_doubted_rewards_the_nearest_doubter() -> None:
    game = bluff_game("KK")
    game.play("north", "move RR:W")
    game.play("east", "believe")
    events = game.play("south", "doubt").events
    assert BluffSettled("north", True, "south") in events
    assert CardTaken("south", "1H", None, "entry") in events
    assert kinds(game) == [("south", "take")]
    assert [str(a) for a in game.legal_actions("south")] == ["take 1 2H"]
    events = game.play("south", "take 1 2H").events
    assert events[0] == CardTaken("south", "2H", "north", "penalty")
    assert game.hands == [(), ("3C",), ("1H", "2H", "4T"), ()]
    # no extra turn for a caught bluffer: after the bribes, east plays
    game.play("north", "bribe GG")
    game.play("east", "keep")
    game.play("south", "keep")
    game.play("west", "keep")
    assert kinds(game) == [("east", "move")]


def test_partners_are_not_asked_in_the_team_game_of_the_first_edition() -> None:
    """Games begun before the rules followed the text keep their rules (edition 1)."""
    game = small_game(
        ["RR", "KK", "GG", "KK"], hands=[["2H"], [], ["4T"], ["5C"]], teams=True, rules=1
    )
    game.play("north", "move RR:W")
    assert kinds(game) == [("west", "answer")]  # south is north's partner


def test_partners_are_asked_like_everyone_in_the_team_game() -> None:
    """ "il demande à tous les joueurs autour de la table, et dans l'ordre de jeu normal"."""
    game = small_game(["RR", "KK", "GG", "KK"], hands=[["2H"], [], ["4T"], ["5C"]], teams=True)
    game.play("north", "move RR:W")
    assert kinds(game) == [("south", "answer")]  # east holds no card; south, the partner, next
    game.play("south", "doubt")  # a partner may doubt: north told the truth, south pays
    assert kinds(game) == [("west", "answer")]


def test_a_successful_bluff_on_the_last_exile_plays_no_extra_turn() -> None:
    fourteen = ("YR", "YY", "YB", "YG", "YK", "BR", "BY", "BB", "BG", "BK", "KR", "KY", "KB", "KG")
    game = small_game(["KK", "GG"], hands=[["2H"], ["3C"]], exiled=fourteen)
    game.play("north", "move RR:W")
    game.play("east", "believe")
    assert game.is_over and game.to_act == []
    assert game.hands[0] == ("1H", "1C", "1T", "2H")
    assert game.winners == ["north"]


def test_a_believed_bluff_with_another_seats_official_leaves_that_seat_nothing() -> None:
    game = small_game(["KK", "RR", "GG"], hands=[["2H"], ["3C"], []])
    game.play("north", "move RR:W")  # east bribed RR, north bribed KK
    game.play("east", "believe")
    assert game.hands == [("1H", "2H"), ("3C",), ()]
    assert game.view("south").revealed == {"north": "KK", "east": "RR"}
    assert kinds(game) == [("north", "bribe"), ("east", "bribe"), ("south", "rebribe")]
