"""Simple automatic players: for self-play, benchmarks and calibrating the tile catalogue."""

from __future__ import annotations

import random

from .game import Game
from .moves import Discard, Move, Place
from .scoring import closed_room
from .tiles import Tile


def choose_random(game: Game, rng: random.Random) -> Move:
    return rng.choice(game.legal_moves())


def gains(game: Game, move: Place) -> dict[str, int]:
    """Coins each seat would be paid if `move` were played now (the game is left untouched)."""
    hand = game.hand(game.turn)
    assert hand is not None
    tile = Tile.parse(hand).rotated(move.rotation)
    cell = (move.x, move.y)
    if not game.board.may_close(cell, tile):
        return {}
    board = game.board.copy()
    paid: dict[str, int] = {}
    for root in board.put(cell, tile, game.turn):
        for colour, amount in closed_room(board, root, game.players, game.current).paid.items():
            paid[colour] = paid.get(colour, 0) + amount
    return paid


def advantage(game: Game, move: Move) -> float:
    """What `move` pays the seat to play, less half of what it pays the others."""
    if not isinstance(move, Place):
        return 0.0
    me = game.current
    paid = gains(game, move)
    return paid.get(me, 0) - 0.5 * sum(n for c, n in paid.items() if c != me)


def choose_greedy(game: Game, rng: random.Random) -> Move:
    """Take the move that pays this seat most against the others; otherwise any quiet move."""
    moves = game.legal_moves()
    if isinstance(moves[0], Discard):
        return moves[0]
    best: list[Move] = []
    best_score = 0.0
    quiet: list[Move] = []
    for move in moves:
        score = advantage(game, move)
        if score > best_score:
            best, best_score = [move], score
        elif score == best_score and score > 0:
            best.append(move)
        elif score == 0:
            quiet.append(move)
    if best:
        return rng.choice(best)
    return rng.choice(quiet or moves)
