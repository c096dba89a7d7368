"""Simple automatic players: for self-play, simulation and benchmarks.

- `random`: any legal action.
- `simple`: enter with its own official when it can, else a random move of a random official
  (never a bluff); bribes at random an official off the start squares (one on them moves a
  single square), keeps its bribe when allowed, always believes, takes the card that helps its
  score most.
- `greedy`: `simple`, but bribes an official that can reach the open pavilion at once, bluffs
  when its own official cannot enter and another can, and doubts an entry now and then.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .actions import (
    BELIEVE,
    DOUBT,
    KEEP,
    PASS,
    Action,
    Bribe,
    MoveOfficial,
    Take,
)
from .cards import best_points
from .game import Game
from .movement import can_enter, moves

Chooser = Callable[[Game, str, random.Random], Action]


def choose_random(game: Game, seat: str, rng: random.Random) -> Action:
    return rng.choice(game.legal_actions(seat))


def best_take(game: Game, seat: str) -> Action:
    """The take that raises this seat's points most (the first such in legal order)."""
    me = game.seat_index(seat)
    best: Action = PASS
    gain = -1
    for action in game.legal_actions(seat):
        if isinstance(action, Take):
            points = best_points((*game.hands[me], action.card))
            if points > gain:
                best, gain = action, points
    return best


def random_move(game: Game, rng: random.Random) -> Action:
    """A move of a random official that does not enter, or, failing that, any legal action."""
    codes = list(game.at)
    for _ in range(len(codes)):
        code = codes[int(rng.random() * len(codes))]
        options = [m for m in moves(game.board, game.at, code, game.open) if m.end is not None]
        if options:
            return MoveOfficial(code, options[int(rng.random() * len(options))].slides)
    return rng.choice(game.legal_actions(game.players[game.mover]))


def free_officials(game: Game) -> list[str]:
    """Officials off the start squares (they slide far), or all of them if none is."""
    free = [code for code, sq in game.at.items() if not game.board.is_start(sq)]
    return sorted(free or game.at)


def choose_simple(game: Game, seat: str, rng: random.Random) -> Action:
    kind = next(t.kind for t in game.to_act if t.seat == seat)
    if kind == "rebribe":
        return KEEP
    if kind == "bribe":
        return Bribe(rng.choice(free_officials(game)))
    if kind == "answer":
        return BELIEVE
    if kind == "take":
        return best_take(game, seat)
    own = game.bribes[game.mover]
    if own is not None and own in game.at and game.open is not None:
        entering = can_enter(game.board, game.at, own, game.open)
        if entering is not None:
            return MoveOfficial(own, entering.slides)
    return random_move(game, rng)


def reaching(game: Game) -> list[str]:
    """Officials that can enter the open pavilion in one move now."""
    if game.open is None:
        return []
    return [c for c in sorted(game.at) if can_enter(game.board, game.at, c, game.open)]


def choose_greedy(game: Game, seat: str, rng: random.Random) -> Action:
    kind = next(t.kind for t in game.to_act if t.seat == seat)
    if kind in ("bribe", "rebribe"):
        near = reaching(game)
        if near:
            return Bribe(rng.choice(near))
        return KEEP if kind == "rebribe" else Bribe(rng.choice(free_officials(game)))
    if kind == "answer":
        return DOUBT if DOUBT in game.legal_actions(seat) and rng.random() < 0.2 else BELIEVE
    open_pavilion = game.open
    if kind == "move" and open_pavilion is not None and game.bluff_in_play():
        own = game.bribes[game.mover]
        if (
            own is None
            or own not in game.at
            or not can_enter(game.board, game.at, own, open_pavilion)
        ):
            for code in rng.sample(sorted(game.at), len(game.at)):
                entering = can_enter(game.board, game.at, code, open_pavilion)
                if entering is not None:  # a bluff
                    return MoveOfficial(code, entering.slides)
    return choose_simple(game, seat, rng)


POLICIES: dict[str, Chooser] = {
    "random": choose_random,
    "simple": choose_simple,
    "greedy": choose_greedy,
}


def play_out(game: Game, policy: Chooser | list[Chooser], rng: random.Random) -> Game:
    """Play `game` to the end, each seat by its policy (one for all, or one per seat)."""
    policies = policy if isinstance(policy, list) else [policy] * len(game.players)
    while not game.is_over:
        waiting = game.to_act[0].seat
        game.play(waiting, policies[game.players.index(waiting)](game, waiting, rng))
    return game
