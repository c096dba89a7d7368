"""Die Verbotene Stadt properties over many random games: cards and officials accounted for,
secrets kept, and records that replay to the same game."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.verbotene_stadt.actions import OFFICIALS, Action
from engine.verbotene_stadt.cards import ALL_CARDS, card_order
from engine.verbotene_stadt.game import Game
from engine.verbotene_stadt.players import choose_simple


def choose(game: Game, seat: str, rng: random.Random) -> Action:
    """Mostly the simple player, often any legal action (bluffs, doubts, passes, bribes)."""
    kind = next(t.kind for t in game.to_act if t.seat == seat)
    if kind != "move" or rng.random() < 0.2:
        return rng.choice(game.legal_actions(seat))
    return choose_simple(game, seat, rng)


def check_invariants(game: Game) -> None:
    cards = [c for h in game.hands for c in h] + [c for p in game.piles.values() for c in p]
    assert sorted(cards, key=card_order) == list(ALL_CARDS)
    assert len(game.exiled) <= 15
    assert len(set(game.exiled)) == len(game.exiled)
    assert not set(game.exiled) & set(game.at)
    assert sorted([*game.exiled, *game.at]) == sorted(OFFICIALS)
    assert len(set(game.at.values())) == len(game.at)
    for t in game.to_act:
        assert game.legal_actions(t.seat), t
    for index, seat in enumerate(game.players):
        view = game.view(seat)
        assert view.bribe == game.bribes[index]
        partner = game.partner(index)
        assert view.partner_bribe == (None if partner is None else game.bribes[partner])
        for other, official in view.revealed.items():
            assert game.bribes[game.players.index(other)] == official
        for other, known in view.bribes.items():
            j = game.players.index(other)
            if j in (index, partner) or j in game.revealed:
                assert known == game.bribes[j]
            else:
                assert known is None
        friends = {seat} | ({game.players[partner]} if partner is not None else set())
        for who, text in view.actions:
            if text.startswith("bribe") and who not in friends:
                assert text == "bribe ?"


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 4),
    teams=st.booleans(),
)
def test_random_games_keep_every_invariant_and_replay(seed: int, players: int, teams: bool) -> None:
    teams = teams and players == 4
    rng = random.Random(seed)
    game = Game(players, seed=seed, teams=teams)
    steps = 0
    while not game.is_over:
        seat = rng.choice(game.to_act).seat
        game.play(seat, choose(game, seat, rng))
        steps += 1
        if steps % 25 == 0:
            check_invariants(game)
    check_invariants(game)
    assert len(game.exiled) == 15 and game.to_act == []
    assert set(game.winners) <= set(game.players) and game.winners
    again = Game.from_json(game.to_json())
    assert again.log == game.log
    assert again.hands == game.hands and again.exiled == game.exiled
    assert again.scores == game.scores and again.winners == game.winners


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), cut=st.integers(0, 200))
def test_a_copy_plays_on_like_the_original(seed: int, cut: int) -> None:
    rng = random.Random(seed)
    game = Game(3, seed=seed)
    for _ in range(cut):
        if game.is_over:
            break
        seat = game.to_act[0].seat
        game.play(seat, choose(game, seat, rng))
    copy = game.copy()
    for target in (game, copy):  # the original first: a shared part would derail the copy
        steps = 0
        while not target.is_over and steps < 50:
            seat = target.to_act[0].seat
            target.play(seat, choose(target, seat, random.Random(steps)))
            steps += 1
    assert copy.log == game.log and copy.hands == game.hands and copy.at == game.at
