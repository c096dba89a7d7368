"""A whole game: seats, stacks, turns, illegal moves, the end and its bonus, views, records."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.forbidden_city import (
    DISCARD,
    Game,
    GameOverError,
    IllegalMove,
    Place,
    RoomClosed,
    Tile,
    TileDiscarded,
    catalogue,
)
from engine.forbidden_city.record import CorruptRecord


def play_out(game: Game, seed: int = 0) -> Game:
    rng = random.Random(seed)
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    return game


def test_stacks_by_player_count() -> None:
    two, three, four = catalogue(2), catalogue(3), catalogue(4)
    assert list(two) == ["purple", "yellow"]
    assert all(len(s) == 30 for s in two.values())
    assert list(four) == ["purple", "yellow", "red", "blue"]
    assert all(len(s) == 24 for s in [*three.values(), *four.values()])
    # Every stack has the same composition; the 2-player one adds the six tiles marked 2.
    assert len({tuple(s) for s in four.values()}) == 1
    extra = Counter(two["purple"]) - Counter(four["purple"])
    assert sum(extra.values()) == 6


def test_tile_contents_are_what_the_box_has() -> None:
    for code in catalogue(2)["purple"]:
        tile = Tile.parse(code)
        assert tile.advisors in (0, 1, 2)
        assert not (tile.advisors and tile.dragon)


@pytest.mark.parametrize(
    "seats",
    [["purple"], ["purple", "red"], ["red", "blue"], ["purple", "purple", "red"], ["green", "red"]],
)
def test_bad_seats_are_refused(seats: list[str]) -> None:
    with pytest.raises(ValueError):
        Game(seats)


def test_each_seat_plays_all_but_two_tiles_in_turn() -> None:
    for players, per_seat in ((2, 28), (3, 22), (4, 22)):
        game = Game(players, seed=players)
        order = []
        rng = random.Random(1)
        while not game.is_over:
            order.append(game.current)
            game.play(rng.choice(game.legal_moves()))
        assert len(game.moves) == players * per_seat
        assert order == list(game.players) * per_seat
        assert all(game.tiles_left(c) == 2 for c in game.players)


def test_end_bonus_pays_2_per_advisor_and_3_per_dragon_on_the_last_two_tiles() -> None:
    game = play_out(Game(4, seed=11))
    assert game.ended is not None
    paid_in_play = Counter[str]()
    for result in game.results:
        for event in result.closed:
            paid_in_play.update(event.paid)
    for colour in game.players:
        revealed = game.ended.revealed[colour]
        assert len(revealed) == 2
        expected = sum(2 * Tile.parse(c).advisors + 3 * Tile.parse(c).dragon for c in revealed)
        assert game.ended.bonus[colour] == expected
        assert game.scores[colour] == paid_in_play[colour] + expected
    assert game.results[-1].events[-1] == game.ended


def test_shared_victory() -> None:
    stacks = [["....G", "a...P+1A", "#...G+D"]] * 2
    game = Game(["purple", "yellow"], stacks=stacks)
    game.play(Place(2, 0, 0))  # green, joins the green east arm, closes nothing
    game.play(Place(-2, 0, 0))
    assert game.is_over
    assert game.scores == {"purple": 5, "yellow": 5}
    assert game.winners == ["purple", "yellow"]


def test_single_winner() -> None:
    stacks = [["....G", "a...P+1A", "#...G+D"], ["....G", "a...P", "#...G"]]
    game = Game(["yellow", "purple"], stacks=stacks)
    game.play(Place(2, 0, 0))
    game.play(Place(-2, 0, 0))
    assert game.winners == ["yellow"]


def test_illegal_moves_say_why_and_change_nothing() -> None:
    game = Game(4, seed=5)
    before = game.to_json()
    cases = {
        Place(0, 0, 0): "already taken",
        Place(9, 9, 0): "touches no tile",
        Place(2, 0, 7): "rotation",
    }
    for move, reason in cases.items():
        with pytest.raises(IllegalMove, match=reason):
            game.play(move)
    with pytest.raises(IllegalMove, match="must be placed"):
        game.play(DISCARD)
    with pytest.raises(ValueError, match="not a move"):
        game.play("sideways")
    assert game.to_json() == before
    assert game.current == "purple"


def test_colour_clash_is_illegal() -> None:
    # East arm of the beginner side is green and open to the east: a pink open tile cannot meet it.
    game = Game(["purple", "yellow"], stacks=[["....P", "....G", "....G"], ["....G"] * 3])
    with pytest.raises(IllegalMove, match="different colours"):
        game.play(Place(2, 0, 0))
    assert Place(2, 0, 0) not in game.legal_moves()


def test_legal_moves_are_exactly_the_moves_play_accepts() -> None:
    game = Game(3, seed=8)
    rng = random.Random(2)
    for _ in range(12):
        game.play(rng.choice(game.legal_moves()))
    legal = set(game.legal_moves())
    xs = [x for x, _ in game.board.cells]
    ys = [y for _, y in game.board.cells]
    for x in range(min(xs) - 1, max(xs) + 2):
        for y in range(min(ys) - 1, max(ys) + 2):
            for r in range(4):
                trial = Game.from_json(game.to_json())
                try:
                    trial.play(Place(x, y, r))
                    accepted = True
                except IllegalMove:
                    accepted = False
                hand = Tile.parse(game.hand(game.turn) or "")
                same = [
                    m
                    for m in legal
                    if isinstance(m, Place)
                    and (m.x, m.y) == (x, y)
                    and hand.rotated(m.rotation) == hand.rotated(r)
                ]
                assert accepted == bool(same), (x, y, r)


def test_a_tile_that_fits_nowhere_is_discarded_and_the_turn_passes() -> None:
    # On an empty table the first tile goes at 0,0; an all-open green tile leaves only green open
    # edges, so an all-open pink tile has nowhere to go.
    stacks = [["....G", "....G", "....G"], ["....P", "....W+1A", "....G"]]
    game = Game(["purple", "yellow"], start="none", stacks=stacks)
    assert game.legal_moves() == [Place(0, 0, 0)]
    game.play(Place(0, 0, 0))
    assert game.legal_moves() == [DISCARD]
    with pytest.raises(IllegalMove):
        game.play(Place(1, 0, 0))
    result = game.play(DISCARD)
    assert result.events[0] == TileDiscarded("yellow", "....P")
    assert game.is_over
    assert game.ended is not None
    assert game.ended.revealed["yellow"] == ["....W+1A", "....G"]
    assert game.scores == {"purple": 0, "yellow": 2}


def test_no_move_after_the_end() -> None:
    game = play_out(Game(2, seed=3))
    assert game.legal_moves() == []
    with pytest.raises(GameOverError):
        game.play(Place(0, 0, 0))


def test_events_tell_what_closed_and_who_was_paid() -> None:
    game = play_out(Game(4, seed=21), seed=4)
    events = [e for r in game.results for e in r.closed]
    assert events
    total = Counter[str]()
    for event in events:
        assert isinstance(event, RoomClosed)
        assert event.value >= event.tiles + 3 * event.dragons
        assert event.value == event.tiles + 3 * event.dragons + sum(
            a.tiles + 3 * a.dragons for a in event.adjacent
        )
        assert set(event.paid) <= set(event.advisors)
        total.update(event.paid)
    assert game.ended is not None
    for colour in game.players:
        assert game.scores[colour] == total[colour] + game.ended.bonus[colour]


def test_view_hides_other_hands_and_stacks() -> None:
    purple = ["....G", "#...P+1A", "##..W+2A", "#.#.G"]
    yellow = ["....W", "a.a.G+D", "#a#.P+1A", "aa..W"]
    game = Game(["purple", "yellow"], stacks=[purple, yellow])
    game.play(Place(2, 0, 0))
    mine = game.view("yellow")
    assert mine.hand == "....W"
    assert mine.legal_moves  # yellow is to play
    assert mine.tiles_left == {"purple": 3, "yellow": 4}
    text = mine.model_dump_json()
    for secret in ["#...P+1A", "##..W+2A", "#.#.G", "a.a.G+D", "#a#.P+1A", "aa..W"]:
        assert secret not in text
    theirs = game.view("purple")
    assert theirs.hand == "#...P+1A"
    assert theirs.legal_moves == []
    assert "....W" not in theirs.model_dump_json()
    assert game.view().hand is None
    with pytest.raises(ValueError):
        game.view("red")


def test_record_round_trips_and_replays() -> None:
    game = play_out(Game(3, seed=99), seed=7)
    text = game.to_json()
    again = Game.from_json(text)
    assert again.to_json() == text
    assert again.scores == game.scores
    assert again.winners == game.winners
    assert len(text) < 4000


def test_corrupt_records_are_refused() -> None:
    game = Game(2, seed=4)
    game.play(game.legal_moves()[0])
    good = game.to_json()
    for bad in (
        good.replace('"coins":[0,0]', '"coins":[5,0]'),
        good.replace('"moves":["', '"moves":["99,99@0","'),
        "{}",
        "not json",
    ):
        with pytest.raises(CorruptRecord):
            Game.from_json(bad)
