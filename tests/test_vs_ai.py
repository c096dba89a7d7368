"""Die Verbotene Stadt computer players: legal in every decision, deterministic per seed, blind to
what their seat cannot see, and judging an entry on the evidence of the moves seen."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from engine.ai import Player, game_ai
from engine.ai.__main__ import main
from engine.ai.protocol import Budget
from engine.ai.search import search
from engine.verbotene_stadt import ai as vs_ai
from engine.verbotene_stadt.actions import PASS, Action, MoveOfficial
from engine.verbotene_stadt.events import Answered, BluffSettled
from engine.verbotene_stadt.game import Game
from engine.verbotene_stadt.movement import can_enter
from engine.verbotene_stadt.players import random_move
from tests.vs_positions import seed_for, small_game

VS = game_ai("verbotene_stadt")
TINY = Budget(iterations=6, determinizations=3)


def _decide(kind: str, game: Game, seat: str, rng: random.Random) -> Action:
    """A decision from the seat's view only: a tiny search, or a baseline."""
    view = VS.view(game, seat)
    if kind == "search":
        action: Action = search(view, seat, VS, TINY, rng).action
        return action
    chosen: Action = Player(kind, VS).decide(view, seat, rng)
    return chosen


@pytest.mark.parametrize(
    ("kinds", "seed"),
    [(["search", "greedy"], 1), (["search", "random", "search"], 2), (["search"] * 4, 3)],
)
def test_every_decision_is_legal_over_whole_games(kinds: list[str], seed: int) -> None:
    game = VS.new_game(len(kinds), seed)
    rng = random.Random(seed)
    by_seat = dict(zip(game.players, kinds, strict=True))
    asked: Counter[str] = Counter()
    while not game.is_over:
        turn = game.to_act[0]
        action = _decide(by_seat[turn.seat], game, turn.seat, rng)
        assert str(action) in {str(a) for a in game.legal_actions(turn.seat)}
        if by_seat[turn.seat] == "search":
            asked[turn.kind] += 1
        game.play(turn.seat, action)
    assert len(game.exiled) == 15 and game.winners
    assert {"bribe", "move"} <= set(asked)


def test_over_games_against_greedy_it_bluffs_believes_and_doubts() -> None:
    bluffs: Counter[bool] = Counter()
    answers: Counter[bool] = Counter()
    for seed in range(4):
        game = VS.new_game(2, seed)
        rng = random.Random(seed)
        me = game.players[seed % 2]
        while not game.is_over:
            seat = game.to_act[0].seat
            action = _decide("search" if seat == me else "greedy", game, seat, rng)
            for event in game.play(seat, action).events:
                if isinstance(event, BluffSettled) and event.mover == me:
                    bluffs[event.bluffed] += 1
                if isinstance(event, Answered) and event.seat == me:
                    answers[event.believes] += 1
    assert bluffs[True] >= 1 and bluffs[False] >= 1  # some entries bluffs, some true
    assert answers[True] >= 1 and answers[False] >= 1  # some entries believed, some doubted


def test_the_same_seed_gives_the_same_decisions() -> None:
    def first_actions(seed: int) -> list[tuple[str, str]]:
        game: Game = VS.new_game(3, 9)
        rng = random.Random(seed)
        for _ in range(40):
            seat = game.to_act[0].seat
            game.play(seat, _decide("search", game, seat, rng))
        return game.log

    assert first_actions(5) == first_actions(5)


def _twins(entering: bool) -> tuple[Game, Game]:
    """Two tables alike in all north sees, unlike in east's bribe and the piles' order.

    Both hold a card, so any official may enter. East moves first: the same two quiet moves,
    then (if `entering`) an official into the open pavilion, put to the table: east's own in
    one game, a bluff in the other; else east passes and north is to move.
    """
    start = Game(2, seed=11)
    hands = [[start.piles[1][0]], [start.piles[2][0]]]
    rest = {
        p: [c for c in pile if c not in (hands[0][0], hands[1][0])]
        for p, pile in start.piles.items()
    }

    def table(east_bribe: str, flipped: bool) -> Game:
        return Game.from_position(
            2,
            officials=start.at,
            open_pavilion=5,
            bribes=["RR", east_bribe],
            hands=hands,
            piles={p: pile[::-1] if flipped else pile for p, pile in rest.items()},
            mover=1,
            seed=seed_for(["red", "red"]),
        )

    probe = table("RR", False)
    rng = random.Random(0)
    played = []
    for _ in range(2):
        played.append(random_move(probe, rng))
        probe.play("east", played[-1])
    assert probe.open is not None
    entrant = next(c for c in sorted(probe.at) if can_enter(probe.board, probe.at, c, probe.open))
    other = next(c for c in sorted(probe.at) if c != entrant)
    entry = can_enter(probe.board, probe.at, entrant, probe.open)
    assert entry is not None
    games = (table(entrant, False), table(other, True))
    for game in games:
        for action in played:
            game.play("east", action)
        game.play("east", MoveOfficial(entrant, entry.slides) if entering else PASS)
    return games


@pytest.mark.parametrize("entering", [False, True])
def test_hidden_things_do_not_change_a_decision(entering: bool) -> None:
    a, b = _twins(entering)
    assert a.bribes[1] != b.bribes[1] and a.piles != b.piles
    assert [(t.seat, t.kind) for t in a.to_act] == [("north", "answer" if entering else "move")]
    assert a.to_act == b.to_act
    assert VS.view(a, "north") == VS.view(b, "north")
    for kind in ("random", "greedy", "easy"):
        mine = Player(kind, VS).decide(VS.view(a, "north"), "north", random.Random(4))
        theirs = Player(kind, VS).decide(VS.view(b, "north"), "north", random.Random(4))
        assert str(mine) == str(theirs)


def _entry(after_a_quiet_move: bool) -> Game:
    """East (bribe KK, hidden; north's too) enters RB into pavilion 1, the only official that
    can; first, if asked, it moves KK while RB could already have entered."""
    game = small_game(
        ["KK", "KK"],
        hands=[["2H"], ["3C"]],
        officials={"RB": (1, 0), "KK": (2, 2)},
        mover=1,
        seed=seed_for(["red"]),
    )
    if after_a_quiet_move:
        game.play("east", "move KK:N")
    game.play("east", "move RB:W")
    assert [t.kind for t in game.to_act] == ["answer"]
    return game


def test_an_entry_is_believed_or_doubted_on_the_evidence() -> None:
    """An entry at once is likely true; the same entry after passing it up is likely a bluff."""
    budget = Budget(iterations=160, determinizations=16)
    at_once, passed_up = _entry(False), _entry(True)
    answers = [
        search(VS.view(game, "north"), "north", VS, budget, random.Random(1)).action
        for game in (at_once, passed_up)
    ]
    assert [str(a) for a in answers] == ["believe", "doubt"]


def test_levels_stay_within_two_seconds_and_grow_with_the_level() -> None:
    levels = VS.levels()
    assert [levels[k].iterations for k in ("easy", "normal", "hard")] == sorted(
        {levels[k].iterations for k in ("easy", "normal", "hard")}
    )
    assert all(budget.max_seconds <= 2.0 for budget in levels.values())


def test_a_slow_clock_stops_the_search_at_the_cap() -> None:
    game = VS.new_game(2, 6)
    while True:  # a decision with more than one action worth searching
        seat = game.to_act[0].seat
        world = VS.determinize(VS.view(game, seat), seat, random.Random(1))
        if len(VS.candidates(world, seat, random.Random(1))) > 1:
            break
        game.play(seat, game.legal_actions(seat)[0])
    ticks = iter(range(10_000))
    decision = search(
        VS.view(game, seat),
        seat,
        VS,
        VS.levels()["hard"],
        random.Random(1),
        clock=lambda: float(next(ticks)) * 0.5,  # every reading half a second later
    )
    assert 0 < decision.iterations <= 4 and decision.capped
    assert str(decision.action) in {str(a) for a in game.legal_actions(seat)}


def test_arena_plays_hard_against_three_greedy_and_prints_one_json_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(vs_ai.LEVELS, "hard", Budget(iterations=4, determinizations=2))
    argv = ["arena", "--game", "verbotene_stadt", "--players", "hard,greedy,greedy,greedy"]
    assert main([*argv, "--games", "2"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    data = json.loads(lines[-1])
    assert data["game"] == "verbotene_stadt" and data["games"] == 2
    assert [p["player"] for p in data["players"]] == ["hard", "greedy", "greedy", "greedy"]
    assert sum(p["win_rate"] for p in data["players"]) == pytest.approx(1.0, abs=0.01)
    assert data["players"][0]["think_ms_max"] > 0 and lines[0].startswith("0:hard")


def test_a_computer_never_passes_up_its_own_officials_entry() -> None:
    """Whenever the mover's own bribed official can reach the open pavilion, which still has
    cards, a search player enters with it; two of them fill the terrace within a game."""
    players = [Player("hard", VS), Player("hard", VS)]
    quick = VS.levels()["easy"]  # the smallest search: it still never passes the entry up
    game = Game(2, seed=7)
    rng = random.Random(7)
    chances = 0
    while not game.is_over:
        act = game.to_act[0]
        player = players[game.players.index(act.seat)]
        action, _ = player.think(VS.view(game, act.seat), act.seat, rng, quick)
        own, open_p = game.bribes[game.mover], game.open
        if act.kind == "move" and open_p is not None and own in game.at and game.piles[open_p]:
            entry = can_enter(game.board, game.at, own, open_p)
            if entry is not None:
                chances += 1
                assert action == MoveOfficial(own, entry.slides), f"passed up {entry}"
        game.play(act.seat, action)
    assert chances >= 5
    assert len(game.exiled) == 15
