"""Figures that calibrate the tile catalogue: how often rooms close, what they are worth, and
whether a whole game's payouts fit the 752 coins in the box."""

from __future__ import annotations

import random
import statistics
from typing import Any

from .game import Game
from .players import choose_greedy, choose_random

BOX_COINS = 14 * 1 + 29 * 2 + 14 * 10 + 27 * 20  # 752


def run(games: int, players: int, start: str, policy: str) -> dict[str, Any]:
    choose = choose_greedy if policy == "greedy" else choose_random
    seats = ["purple", "yellow", "red", "blue"][:players]
    values: list[int] = []
    paid_values: list[int] = []
    closes_per_game: list[int] = []
    payouts: list[int] = []
    unpaid = discards = 0
    for seed in range(games):
        rng = random.Random(seed)
        game = Game(seats, start, seed=seed)
        while not game.is_over:
            game.play(choose(game, rng))
        closed = [e for r in game.results for e in r.closed]
        discards += sum(1 for r in game.results for e in r.events if e.kind == "discarded")
        closes_per_game.append(len(closed))
        for event in closed:
            values.append(event.value)
            if event.paid:
                paid_values.append(event.value)
            else:
                unpaid += 1
        payouts.append(sum(game.coins))
    moves = len(game.moves)
    q = statistics.quantiles(paid_values, n=10) if len(paid_values) > 10 else [0] * 9
    return {
        "games": games,
        "players": players,
        "start": start,
        "policy": policy,
        "rooms_closed_per_game": round(statistics.mean(closes_per_game), 1),
        "moves_per_game": moves,
        "closing_rate": round(statistics.mean(closes_per_game) / moves, 3),
        "unpaid_share": round(unpaid / max(1, len(values)), 3),
        "paid_value_median": statistics.median(paid_values) if paid_values else 0,
        "paid_value_p10_p90": [q[0], q[-1]],
        "share_paid_values_6_to_15": round(
            sum(1 for v in paid_values if 6 <= v <= 15) / max(1, len(paid_values)), 3
        ),
        "payout_mean": round(statistics.mean(payouts), 1),
        "payout_max": max(payouts),
        "games_over_box": sum(1 for p in payouts if p > BOX_COINS),
        "discards_per_game": round(discards / games, 3),
    }
