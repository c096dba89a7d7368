"""Die Verbotene Stadt game flow: setup, bribes, moves and fate dice, entries, shared bribes,
empty pavilions, the 10-exile rule, the end, teams, records."""

from __future__ import annotations

import json

import pytest

from engine.core.errors import CorruptRecord, IllegalMove
from engine.core.shape import ToAct
from engine.verbotene_stadt import dice
from engine.verbotene_stadt.actions import Bribe, Pass
from engine.verbotene_stadt.board import Board
from engine.verbotene_stadt.cards import ALL_CARDS
from engine.verbotene_stadt.events import (
    CardTaken,
    FateRolled,
    FirstPlayerChosen,
    GameEnded,
    NothingTaken,
    OfficialExiled,
    PavilionOpened,
    TurnPassed,
    TurnStarted,
)
from engine.verbotene_stadt.game import Game
from engine.verbotene_stadt.movement import can_enter
from tests.vs_positions import SMALL_BOARD, TEN_GONE, seed_for, small_game


def kinds(game: Game) -> list[tuple[str, str]]:
    return [(t.seat, t.kind) for t in game.to_act]


# ----------------------------------------------------------------- setup and bribes
def test_setup_places_25_officials_on_the_start_squares_and_3_cards_per_pavilion() -> None:
    game = Game(4, seed=3)
    board = Board.default()
    assert sorted(game.at.values()) == sorted(board.start_squares)
    assert len(game.at) == 25
    assert not set(game.at.values()) & set(board.grey_squares)
    for p in range(1, 9):
        assert sorted(game.piles[p]) == sorted(f"{p}{x}" for x in "HCT")
    assert game.open is None
    assert kinds(game) == [(s, "bribe") for s in ("north", "east", "south", "west")]


def test_setup_differs_by_seed_and_repeats_with_the_same() -> None:
    assert Game(3, seed=1).at == Game(3, seed=1).at
    assert Game(3, seed=1).at != Game(3, seed=2).at


@pytest.mark.parametrize("players", [1, 5])
def test_two_to_four_players(players: int) -> None:
    with pytest.raises(ValueError):
        Game(["a", "b", "c", "d", "e"][:players])


def test_bribes_are_simultaneous_then_the_first_player_rolls_the_blue_die() -> None:
    game = Game(3, seed=5, rules=1)  # the first edition: the first player known from the deal
    first = game.players[game.first]
    assert game.play("south", "bribe RB").events[0].kind == "bribe"
    assert kinds(game) == [("north", "bribe"), ("east", "bribe")]
    with pytest.raises(IllegalMove):
        game.play("south", "bribe KK")  # chosen already
    with pytest.raises(IllegalMove):
        game.play("north", "keep")  # nothing to keep at the start
    game.play("north", "bribe RB")
    events = game.play("east", "bribe GY").events
    opened = [e for e in events if isinstance(e, PavilionOpened)]
    assert [e.seat for e in opened] == [first]
    assert game.open == opened[0].pavilion
    assert isinstance(events[-1], TurnStarted)
    assert kinds(game) == [(first, "move")]
    assert game.bribes == ["RB", "GY", "RB"]


def test_a_bribe_names_an_official_on_the_board() -> None:
    game = small_game([None, "KK"])
    with pytest.raises(IllegalMove, match="not on the board"):
        game.play("north", "bribe BB")
    assert kinds(game) == [("north", "bribe")]


def test_other_seats_never_see_a_secret_bribe() -> None:
    game = Game(3, seed=5)
    game.play("north", "bribe RB")
    other = game.view("east")
    assert other.bribe is None
    public = other.model_dump(exclude={"officials", "legal_actions"})  # every official's name
    assert "RB" not in json.dumps(public)
    assert game.view("north").bribe == "RB"
    assert game.view("east").bribes == {"north": None, "east": None, "south": None}
    assert game.view("north").bribes == {"north": "RB", "east": None, "south": None}
    assert game.view(None).actions == [("north", "bribe ?")]


# ----------------------------------------------------------------- moves and fate dice
def test_the_first_move_is_compulsory_and_the_next_seat_rolls_the_small_die() -> None:
    seed = seed_for(["red"])
    game = small_game(["KK", "GG", "RR"], seed=seed)
    with pytest.raises(IllegalMove, match="compulsory"):
        game.play("north", "pass")
    events = game.play("north", "move KK:N").events
    assert FateRolled("east", "small", "red") in events
    assert game.at["KK"] == (2, 0)
    assert kinds(game) == [("north", "move")]
    result = game.play("north", "pass")
    assert TurnPassed("north", "pass") in result.events
    assert kinds(game) == [("east", "move")]


def test_a_black_face_ends_the_turn() -> None:
    game = small_game(["KK", "GG"], seed=seed_for(["black"]))
    events = game.play("north", "move KK:N").events
    assert FateRolled("east", "small", "black") in events
    assert kinds(game) == [("east", "move")]


def test_small_medium_large_then_at_most_four_moves() -> None:
    seed = seed_for(["red", "red", "dragon"])  # the large die's only red face
    game = small_game(["KK", "GG"], seed=seed)
    game.play("north", "move KK:N")
    game.play("north", "move KK:E")
    game.play("north", "move KK:S")
    dragon = game.results[-1].events
    assert [e.die for e in dragon if isinstance(e, FateRolled)] == ["large"]
    assert any(isinstance(e, NothingTaken) for e in dragon)  # nobody holds a card
    events = game.play("north", "move KK:W").events
    assert not any(isinstance(e, FateRolled) for e in events)
    assert TurnPassed("north", "four-moves") in events
    assert kinds(game) == [("east", "move")]


def test_a_pavilion_face_makes_the_mover_roll_the_blue_die() -> None:
    seed = seed_for(["pavilion"])
    game = small_game(["KK", "GG"], seed=seed)
    events = game.play("north", "move KK:N").events
    opened = [e for e in events if isinstance(e, PavilionOpened)]
    assert opened == [PavilionOpened("north", dice.blue(seed, 1))]
    assert game.open == opened[0].pavilion
    assert kinds(game) == [("north", "move")]


def test_a_dragon_lets_the_roller_take_any_card_or_pass() -> None:
    seed = seed_for(["dragon"])
    game = small_game(["KK", "GG", "RR"], seed=seed, hands=[["3H"], [], ["5C", "6T"]])
    game.play("north", "move KK:N")
    assert kinds(game) == [("east", "take")]
    assert [str(a) for a in game.legal_actions("east")] == [
        "take 1 3H",
        "take 3 5C",
        "take 3 6T",
        "pass",
    ]
    with pytest.raises(IllegalMove):
        game.play("east", "take 3 3H")
    events = game.play("east", "take 3 6T").events
    assert events == [CardTaken("east", "6T", "south", "dragon")]
    assert game.hands == [("3H",), ("6T",), ("5C",)]
    assert kinds(game) == [("north", "move")]


def test_moves_are_checked_by_the_movement_rules() -> None:
    game = small_game(["KK", "GG"])
    with pytest.raises(IllegalMove):
        game.play("north", "move GG:N")  # a wall
    with pytest.raises(IllegalMove):
        game.play("east", "move KK:N")  # not east's turn
    assert game.at["GG"] == (0, 1) and game.log == []


# ----------------------------------------------------------------- entering
def test_entering_with_ones_own_official() -> None:
    game = small_game(["RR", "KK", "GG"], piles={1: ["1T", "1H", "1C"]})
    events = game.play("north", "move RR:W").events
    assert OfficialExiled("RR", 1, 1) in events
    assert CardTaken("north", "1T", None, "entry") in events
    assert game.hands[0] == ("1T",)
    assert game.piles[1] == ("1H", "1C")
    assert "RR" not in game.at and game.exiled == ["RR"]
    assert kinds(game) == [("north", "bribe"), ("east", "rebribe"), ("south", "rebribe")]
    assert game.view("east").revealed == {"north": "RR"}
    with pytest.raises(IllegalMove):
        game.play("north", "keep")
    with pytest.raises(IllegalMove, match="not on the board"):
        game.play("east", "bribe RR")  # exiled
    game.play("east", "keep")
    game.play("north", "bribe GG")
    events = game.play("south", "keep").events
    assert [type(e) for e in events[-2:]] == [PavilionOpened, TurnStarted]
    assert events[-2] == PavilionOpened("north", game.open or 0)  # the mover rolls it
    assert kinds(game) == [("east", "move")]
    assert game.view("east").revealed == {}


def test_before_the_bluff_only_ones_own_official_may_enter() -> None:
    game = small_game(["KK", "GG"], hands=[["3H"], []])  # only north holds a card
    assert "move RR:W" not in [str(a) for a in game.legal_actions("north")]
    with pytest.raises(IllegalMove, match="only the official you bribed"):
        game.play("north", "move RR:W")
    assert "RR" in game.at


def test_a_shared_bribe_gives_the_card_to_the_briber_farthest_from_the_mover() -> None:
    game = small_game(["RR", "RR", "KK", "RR"], mover=0)  # the rulebook's picture
    game.play("north", "move RR:W")
    assert game.hands == [(), (), (), ("1H",)]
    assert game.view("south").revealed == {"north": "RR", "east": "RR", "west": "RR"}
    game = small_game(["RR", "KK", "KK", "RR"], mover=3)
    game.play("west", "move RR:W")
    assert game.hands == [("1H",), (), (), ()]  # north plays after west: farther than west


def test_an_empty_pavilion_gives_a_card_of_its_colour_from_another_seat() -> None:
    piles: dict[int, list[str]] = {1: []}
    hands = [[], ["1H", "1C", "2C"], ["1T"]]
    game = small_game(["RR", "KK", "GG"], hands=hands, piles=piles, rules=1)  # compulsory then
    game.play("north", "move RR:W")
    assert kinds(game) == [("north", "take")]
    legal = [str(a) for a in game.legal_actions("north")]
    assert legal == ["take 2 1H", "take 2 1C", "take 3 1T"]
    with pytest.raises(IllegalMove):
        game.play("north", "pass")
    with pytest.raises(IllegalMove):
        game.play("north", "take 2 2C")  # not the pavilion's colour
    game.play("north", "take 3 1T")
    assert game.hands == [("1T",), ("1H", "1C", "2C"), ()]
    assert kinds(game)[0] == ("north", "bribe")


def test_an_empty_pavilion_with_nothing_of_its_colour_gives_nothing() -> None:
    hands = [["1H", "1C", "1T"], ["2C"]]  # the mover holds them all
    game = small_game(["RR", "KK"], hands=hands, piles={1: []})
    game.play("north", "move RR:W")
    events = game.play("east", "believe").events
    assert NothingTaken("north", "empty") in events
    assert kinds(game)[0] == ("north", "bribe")


def test_from_ten_exiled_an_entry_takes_every_card_left() -> None:
    game = small_game(["RR", "KK"], exiled=TEN_GONE, hands=[[], ["1H"]], piles={1: ["1C", "1T"]})
    events = game.play("north", "move RR:W").events
    assert [e.card for e in events if isinstance(e, CardTaken)] == ["1C", "1T"]
    assert game.piles[1] == ()


def test_the_tenth_entry_itself_still_takes_one_card() -> None:
    game = small_game(["RR", "KK"], exiled=TEN_GONE[:9])
    game.play("north", "move RR:W")
    assert game.hands[0] == ("1H",)


def test_from_ten_exiled_an_empty_pavilion_gives_all_its_colour_from_the_others() -> None:
    hands = [["1H"], ["1C", "2C"], ["1T"]]
    game = small_game(["RR", "KK", "GG"], exiled=TEN_GONE, hands=hands, piles={1: []})
    game.play("north", "move RR:W")
    # north holds a card, so the bluff is in play: east and south are asked
    game.play("east", "believe")
    game.play("south", "believe")
    assert game.hands == [("1H", "1C", "1T"), ("2C",), ()]


# ----------------------------------------------------------------- the end
def test_the_fifteenth_exile_ends_the_game() -> None:
    fourteen = (*TEN_GONE, "KR", "KY", "KB", "KG")
    game = small_game(["RR", "KK"], exiled=fourteen, hands=[[], ["2C", "2H"]])
    events = game.play("north", "move RR:W").events
    assert game.is_over and game.to_act == []
    ended = events[-1]
    assert isinstance(ended, GameEnded)
    assert ended.points == {"north": 10, "east": 4}  # 1H 1C 1T taken by the 10-exile rule
    assert game.hands[0] == ("1H", "1C", "1T")
    assert game.scores == {"north": 10, "east": 4}
    assert game.winners == ["north"]
    with pytest.raises(IllegalMove, match="over"):
        game.play("east", "move KK:N")


def test_a_tie_shares_the_victory() -> None:
    fourteen = (*TEN_GONE, "KR", "KY", "KB", "KG")
    game = small_game(["RR", "KK"], exiled=fourteen, hands=[[], ["2C", "2H", "2T"]])
    game.play("north", "move RR:W")
    assert game.scores == {"north": 10, "east": 10}
    assert game.winners == ["north", "east"]


def test_team_scores_add_partners() -> None:
    fourteen = (*TEN_GONE, "KR", "KY", "KB", "KG")
    hands = [[], ["2C"], ["3H", "3C"], ["4T"]]
    game = small_game(["RR", "KK", "GG", "KK"], exiled=fourteen, hands=hands, teams=True)
    # north holds no card: no bluff, plain entry
    game.play("north", "move RR:W")
    assert game.points() == {"north": 10, "east": 1, "south": 4, "west": 1}
    assert game.scores == {"north": 14, "east": 2, "south": 14, "west": 2}
    assert game.winners == ["north", "south"]


def test_partners_see_each_others_bribe_only_in_the_team_game() -> None:
    game = small_game(["RR", "KK", "GG", "KK"], teams=True)
    assert game.view("south").partner_bribe == "RR"
    assert game.view("east").partner_bribe == "KK"
    plain = small_game(["RR", "KK", "GG", "KK"])
    assert plain.view("south").partner_bribe is None


# ----------------------------------------------------------------- the rulebook's example turn
def test_the_rulebook_example_turn_three_moves_the_third_enters() -> None:
    """The mover bribed C. A moves, red; B moves, red; C enters, and no large die is rolled."""
    board = Board.parse(
        """\
+-+-+-+-+-+-+
|. . . . . .|
+ + + + + + +
|. . . . . .|
+ + + + + + +
|. . . . . .|
+ + + + + +-+
|. . . . . 3|
+-+-+-+-+-+-+"""
    )
    # C (GG) at 0,3 has A (RR) and B (KK) in its row on the way to pavilion 3 at 5,3.
    game = Game.from_position(
        2,
        officials={"RR": (2, 3), "KK": (4, 3), "GG": (0, 3)},
        open_pavilion=3,
        bribes=["GG", "KK"],
        seed=seed_for(["red", "red"]),
        board=board,
    )
    assert can_enter(board, game.at, "GG", 3) is None
    game.play("north", "move RR:N")
    game.play("north", "move KK:N")
    events = game.play("north", "move GG:E").events
    assert OfficialExiled("GG", 3, 1) in events
    dice_rolled = [e.die for r in game.results for e in r.events if isinstance(e, FateRolled)]
    assert dice_rolled == ["small", "medium"]
    assert len(game.hands[0]) == 1 and game.hands[0][0][0] == "3"
    assert len(game.piles[3]) == 2


# ----------------------------------------------------------------- records
def test_a_record_replays_the_whole_game() -> None:
    game = small_game(["RR", "KK", "GG"], seed=seed_for(["red"]))
    game.play("north", "move KK:N")
    game.play("north", "move RR:W")
    again = Game.from_json(game.to_json())
    assert again.log == game.log
    assert again.hands == game.hands and again.at == game.at and again.to_act == game.to_act


def test_a_corrupt_record_is_refused() -> None:
    game = small_game(["RR", "KK"])
    game.play("north", "move RR:W")
    record = json.loads(game.to_json())
    record["snapshot"]["hands"] = [[], ["1H"]]
    with pytest.raises(CorruptRecord, match="hands"):
        Game.from_json(json.dumps(record))
    record = json.loads(game.to_json())
    record["actions"][0][1] = "move RR:N"
    with pytest.raises(CorruptRecord, match="action 1"):
        Game.from_json(json.dumps(record))
    with pytest.raises(CorruptRecord):
        Game.from_json("{}")


def test_actions_from_any_seat_not_waited_for_are_refused_and_change_nothing() -> None:
    game = small_game(["RR", "KK"])
    before = game.to_json()
    for seat, text in [("east", "move KK:N"), ("nobody", "pass"), ("north", "believe")]:
        with pytest.raises(IllegalMove):
            game.play(seat, text)
    with pytest.raises(IllegalMove):
        game.play("north", "fly away")
    assert game.to_json() == before
    assert game.to_act == [ToAct("north", "move")]
    assert Bribe("RR") not in game.legal_actions("east")
    assert len(ALL_CARDS) == 24


# ----------------------------------------------------------------- positions
@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"officials": {"RR": (1, 1), "KK": (1, 1)}}, "two officials"),
        ({"officials": {"RR": (0, 0)}}, "cannot stand"),
        ({"exiled": ["RR"]}, "once"),
        ({"hands": [["1H"], ["1H"]]}, "24 cards"),
        ({"piles": {1: ["2H"]}}, "24 cards"),
        ({"bribes": ["BB", "KK"]}, "on the board"),
        ({"open_pavilion": 9}, "1 to 8"),
        ({"mover": 2}, "mover"),
    ],
)
def test_a_bad_position_is_refused(change: dict[str, object], reason: str) -> None:
    options: dict[str, object] = {
        "officials": {"RR": (4, 0), "KK": (2, 2)},
        "open_pavilion": 1,
        "bribes": ["RR", "KK"],
        "board": SMALL_BOARD,
    }
    options.update(change)
    with pytest.raises(ValueError, match=reason):
        Game.from_position(2, **options)  # type: ignore[arg-type]


def test_a_spectator_sees_no_bribe_and_no_legal_actions() -> None:
    game = small_game(["RR", "KK"], hands=[["2H"], []])
    seen = game.view(None)
    assert seen.bribe is None and seen.partner_bribe is None and seen.legal_actions == []
    assert seen.hands == {"north": ["2H"], "east": []}
    assert seen.pile_sizes[1] == 3 and seen.pile_sizes[2] == 2
    assert seen.to_act == [("north", "move")]
    assert seen.officials == {"GG": (0, 1), "KK": (2, 2), "RR": (4, 0)}


def test_a_mover_with_no_move_at_all_passes() -> None:
    board = Board.parse("+-+-+\n|. .|\n+-+-+")
    game = Game.from_position(
        2, officials={"RR": (0, 0), "KK": (1, 0)}, open_pavilion=1, bribes=["RR", "KK"], board=board
    )
    assert game.legal_actions("north") == [Pass()]
    game.play("north", "pass")
    assert kinds(game) == [("east", "move")]


def test_a_position_whose_last_official_enters_ends_there() -> None:
    game = small_game(["RR", "RR"], officials={"RR": (4, 0)})
    game.play("north", "move RR:W")
    assert game.is_over and game.winners == ["east"]  # east, after north, took the card


def test_nobody_knows_who_starts_until_every_opening_bribe_is_in() -> None:
    """Bribes in secret, then the first player (the large fate die rolled in turn: the first red
    face starts), then the blue die."""
    for seed in range(12):
        game = Game(4, seed=seed)
        assert all(game.view(seat).mover is None for seat in (None, *game.players))
        for seat in game.players[:-1]:
            events = game.play(seat, "bribe RB").events
            assert not any(e.kind in ("first", "open", "turn") for e in events)
            assert game.view(seat).mover is None
        events = game.play(game.players[-1], "bribe GY").events
        assert [e.kind for e in events] == ["bribe", "first", "open", "turn"]
        first = events[1]
        assert isinstance(first, FirstPlayerChosen)
        faces = [face for _, face in first.rolls]
        assert all(face == "black" for face in faces[:-1]) and faces[-1] != "black"
        rollers = [seat for seat, _ in first.rolls]
        assert rollers == [game.players[i % 4] for i in range(len(rollers))]
        assert first.seat == rollers[-1] == game.view(None).mover
        opened = events[2]
        assert isinstance(opened, PavilionOpened) and opened.seat == first.seat
        assert kinds(game) == [(first.seat, "move")]


def test_an_empty_pavilions_card_may_be_left() -> None:
    """ "le joueur qui amène un fonctionnaire dans le pavillon vide peut prendre une carte"."""
    hands = [[], ["1H", "1C", "2C"], ["1T"]]
    game = small_game(["RR", "KK", "GG"], hands=hands, piles={1: []})
    game.play("north", "move RR:W")
    assert kinds(game) == [("north", "take")]
    legal = [str(a) for a in game.legal_actions("north")]
    assert legal == ["take 2 1H", "take 2 1C", "take 3 1T", "pass"]
    events = game.play("north", "pass").events
    assert NothingTaken("north", "empty") in events
    assert game.hands == [(), ("1H", "1C", "2C"), ("1T",)]


def test_in_the_team_game_an_empty_pavilion_takes_from_the_opponents_only() -> None:
    hands = [[], ["1H"], ["1C"], ["1T"]]  # south is north's partner
    game = small_game(["RR", "KK", "GG", "KK"], hands=hands, piles={1: []}, teams=True)
    game.play("north", "move RR:W")
    legal = [str(a) for a in game.legal_actions("north")]
    assert legal == ["take 2 1H", "take 4 1T", "pass"]


def test_from_the_tenth_exile_an_empty_pavilion_takes_every_card_of_the_opponents() -> None:
    """ "toutes les trois cartes de vêtement qui venaient de ce pavillon chez les adversaires"."""
    ten = ("YR", "YY", "YB", "YG", "YK", "BR", "BY", "BB", "BG", "BK")
    hands = [[], ["1H"], ["1C"], ["1T"]]
    game = small_game(["RR", "KK", "GG", "KK"], hands=hands, piles={1: []}, teams=True, exiled=ten)
    game.play("north", "move RR:W")
    assert sorted(game.hands[0]) == ["1H", "1T"] and game.hands[2] == ("1C",)
