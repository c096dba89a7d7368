"""What the computer players know of Forbidden City (see `engine/ai/protocol.py`).

Hidden from a seat: every other seat's tile in hand and the order of every stack. Each stack's
composition is printed in the rules, and every tile played so far lies face up on the table, so a
determinization deals each seat its played tiles in order, then the rest of its stack shuffled
(the seat's own hand kept where it is).
"""

from __future__ import annotations

import math
import random
from collections import Counter

from engine.ai.players import LEVELS
from engine.ai.protocol import Budget

from .catalogue import default_seats, stack_for
from .game import Game
from .moves import Move, Place
from .players import advantage, choose_greedy
from .tiles import Tile
from .view import SeatView

SCALE = 12.0  # coins: a lead of this much is worth about three to one
CLOSING_TRIES = 4
ROOT_BEST = 8  # paying moves searched at the root
ROOT_QUIET = 6  # and quiet ones, drawn at random


class ForbiddenCityAI:
    name = "forbidden-city"
    playout_depth = 10

    def new_game(self, players: int, seed: int) -> Game:
        return Game(default_seats(players), seed=seed)

    def view(self, game: Game, seat: str) -> SeatView:
        return game.view(seat)

    def determinize(self, view: SeatView, seat: str, rng: random.Random) -> Game:
        n = len(view.players)
        played: list[list[str]] = [[] for _ in range(n)]
        for index, code in enumerate(view.played):
            played[index % n].append(code)
        stacks = []
        for index, colour in enumerate(view.players):
            left = Counter(stack_for(colour, n))
            left.subtract(played[index])
            kept = []
            if colour == seat and view.hand is not None:
                kept.append(view.hand)
                left[view.hand] -= 1
            rest = sorted(left.elements())
            rng.shuffle(rest)
            stacks.append(played[index] + kept + rest)
        game = Game(view.players, view.start, seed=0, stacks=stacks)
        for move in view.moves:
            game.play(move)
        return game

    def copy(self, game: Game) -> Game:
        return game.copy()

    def policy(self, game: Game, seat: str, rng: random.Random) -> Move:
        """A random placement, leaning toward ones that close a room (a few tries, for speed)."""
        moves = game.legal_moves()
        pick = moves[int(rng.random() * len(moves))]
        if not isinstance(pick, Place):
            return pick
        hand = game.hand(game.turn)
        assert hand is not None
        tile = Tile.parse(hand)
        for _ in range(CLOSING_TRIES):
            move = moves[int(rng.random() * len(moves))]
            assert isinstance(move, Place)
            if game.board.may_close((move.x, move.y), tile.rotated(move.rotation)):
                return move
        return pick

    def levels(self) -> dict[str, Budget]:
        return LEVELS

    def searched(self, game: Game, actor: str, seat: str) -> bool:
        """Every seat's placements grow the tree: a tile in hand barely changes a placement."""
        return True

    def candidates(self, game: Game, seat: str, rng: random.Random) -> list[Move]:
        """The moves worth searching: the best-paying ones and a sample of quiet ones."""
        moves = game.legal_moves()
        if len(moves) <= ROOT_BEST + ROOT_QUIET:
            return moves
        scored = [(advantage(game, move), move) for move in moves]
        rng.shuffle(scored)
        scored.sort(key=lambda sm: -sm[0])
        best = [m for v, m in scored[:ROOT_BEST] if v > 0]
        quiet = [m for v, m in scored if v == 0][:ROOT_QUIET]
        return best + quiet or moves

    def greedy(self, game: Game, seat: str, rng: random.Random) -> Move:
        return choose_greedy(game, rng)

    def evaluate(self, game: Game) -> dict[str, float]:
        coins = game.scores
        values = {}
        for seat, mine in coins.items():
            others = max(v for s, v in coins.items() if s != seat)
            values[seat] = 1 / (1 + math.exp(-(mine - others) / SCALE))
        return values


AI = ForbiddenCityAI()
