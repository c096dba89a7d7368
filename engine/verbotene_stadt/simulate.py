"""Figures from many games between simple players: length, cards, entries, bluffs, doubts,
dragons, and how often the 10-exile rule changed what an entry took."""

from __future__ import annotations

import random
import statistics
from collections import Counter
from typing import Any

from .events import BluffSettled, CardTaken, FateRolled, OfficialExiled, TurnStarted
from .game import TEN_RULE, Game
from .players import POLICIES, play_out


def run(
    games: int, players: int = 4, policy: str = "greedy", teams: bool = False
) -> dict[str, Any]:
    turns: list[int] = []
    actions: list[int] = []
    cards_held: list[int] = []
    points: list[int] = []
    outcomes: Counter[str] = Counter()
    faces: Counter[str] = Counter()
    takes: Counter[str] = Counter()
    ten_rule_entries = ten_rule_mattered = 0
    for seed in range(games):
        game = play_out(
            Game(players, seed=seed, teams=teams), POLICIES[policy], random.Random(seed)
        )
        turns.append(sum(1 for r in game.results for e in r.events if isinstance(e, TurnStarted)))
        actions.append(len(game.log))
        cards_held.extend(len(h) for h in game.hands)
        points.extend(game.points().values())
        for result in game.results:
            exiled = [e for e in result.events if isinstance(e, OfficialExiled)]
            taken = [e for e in result.events if isinstance(e, CardTaken)]
            for event in result.events:
                if isinstance(event, BluffSettled):
                    truth = "bluff" if event.bluffed else "truth"
                    outcomes[f"{truth}_{'doubted' if event.doubter else 'believed'}"] += 1
                elif isinstance(event, FateRolled):
                    faces[event.face] += 1
            takes.update(e.reason for e in taken)
            if exiled and exiled[0].exiled > TEN_RULE:
                ten_rule_entries += 1
                if sum(1 for e in taken if e.reason in ("entry", "empty")) > 1:
                    ten_rule_mattered += 1
    return {
        "games": games,
        "players": players,
        "policy": policy,
        "teams": teams,
        "turns_median": statistics.median(turns),
        "turns_min_max": [min(turns), max(turns)],
        "actions_median": statistics.median(actions),
        "cards_per_player_mean": round(statistics.mean(cards_held), 2),
        "points_per_player_mean": round(statistics.mean(points), 2),
        "entries_put_to_table_per_game": round(sum(outcomes.values()) / games, 2),
        "bluff_outcomes": dict(sorted(outcomes.items())),
        "fate_faces": dict(sorted(faces.items())),
        "cards_taken_by_reason": dict(sorted(takes.items())),
        "ten_rule_entries": ten_rule_entries,
        "ten_rule_took_more_than_one_card": ten_rule_mattered,
    }
