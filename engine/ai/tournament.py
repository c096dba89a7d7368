"""A rated tournament between computer levels: the players' rating code (`engine.ratings`)
measured on players whose order of strength is known.

Every combination of the levels plays at every table size (2, 3 and 4 players by default), once
per seat rotation on one deal, so each level meets each deal from every seat; a cycle is one
such round, and the games are rated one by one in schedule order, exactly as the bot rates
people's games. The levels search their iteration budgets without the bot's wall-clock cap
(`capped=False`), so a seed gives the same tournament on any machine, however busy.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from itertools import combinations, pairwise
from typing import Any

from engine.ratings import NEWCOMER, Rating, Team, leaderboard, rate

from .arena import GameOutcome, play_one

LEVELS_RATED = ("random", "easy", "normal", "hard")
SEPARATED_Z = 2.0  # mean skills this many combined sigmas apart count as told apart


@dataclass(frozen=True, slots=True)
class Fixture:
    """One game of the schedule: the levels by slot, the seat rotation, the deal's seed."""

    kinds: tuple[str, ...]
    rotation: int
    seed: int


@dataclass(frozen=True, slots=True)
class Standing:
    level: str
    rating: Rating
    games: int
    wins: float  # a shared victory counts as a share


@dataclass(frozen=True, slots=True)
class Gap:
    """Two levels next to each other in the expected order, and whether the ratings agree."""

    weaker: str
    stronger: str
    mu_gap: float  # stronger's mean minus weaker's
    z: float  # the gap in combined standard deviations
    head_to_head: float  # the stronger's share of their meetings (finishing higher; ties half)
    meetings: int

    @property
    def separated(self) -> bool:
        return self.z >= SEPARATED_Z


@dataclass(frozen=True, slots=True)
class TournamentResult:
    game: str
    games: int
    seed: int
    standings: list[Standing]  # best first
    gaps: list[Gap]  # between the levels as listed, weakest first

    @property
    def ordered(self) -> bool:
        """Whether every level is rated above the one listed before it, and told apart."""
        return all(gap.mu_gap > 0 and gap.separated for gap in self.gaps)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "games": self.games,
            "seed": self.seed,
            "ordered": self.ordered,
            "standings": [
                {
                    "level": s.level,
                    "shown": s.rating.shown,
                    "uncertainty": s.rating.uncertainty,
                    "mu": round(s.rating.mu, 3),
                    "sigma": round(s.rating.sigma, 3),
                    "games": s.games,
                    "wins": round(s.wins, 2),
                }
                for s in self.standings
            ],
            "gaps": [
                {
                    "pair": f"{g.weaker}<{g.stronger}",
                    "mu_gap": round(g.mu_gap, 3),
                    "z": round(g.z, 2),
                    "separated": g.separated,
                    "head_to_head": round(g.head_to_head, 3),
                    "meetings": g.meetings,
                }
                for g in self.gaps
            ],
        }


def schedule(levels: Sequence[str], sizes: Sequence[int], cycles: int, seed: int) -> list[Fixture]:
    """Every combination of `levels` at each table size, each seat rotation, `cycles` times."""
    fixtures: list[Fixture] = []
    deal = 0
    for _ in range(cycles):
        for size in sizes:
            for kinds in combinations(levels, size):
                deal += 1
                for rotation in range(size):
                    fixtures.append(Fixture(kinds, rotation, seed * 100_003 + deal))
    return fixtures


def _play(game: str, fixture: Fixture, capped: bool) -> GameOutcome:
    return play_one(game, fixture.kinds, fixture.rotation, fixture.seed, capped=capped)


def rate_games(fixtures: Sequence[Fixture], outcomes: Sequence[GameOutcome]) -> dict[str, Rating]:
    """Every level's rating after rating the games in order, each level its own player."""
    ratings: dict[str, Rating] = {}
    for fixture, outcome in zip(fixtures, outcomes, strict=True):
        scores = zip(fixture.kinds, outcome.scores, strict=True)
        teams = [Team((kind,), score) for kind, score in scores]
        ratings.update(rate(ratings, teams))
    return ratings


def tournament(
    game: str,
    levels: Sequence[str] = LEVELS_RATED,
    sizes: Sequence[int] = (2, 3, 4),
    cycles: int = 1,
    seed: int = 0,
    jobs: int = 1,
    capped: bool = False,
) -> TournamentResult:
    """Play and rate the schedule; `levels` weakest first, as their order is expected."""
    fixtures = schedule(levels, sizes, cycles, seed)
    names = [game] * len(fixtures)
    caps = [capped] * len(fixtures)
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            outcomes = list(pool.map(_play, names, fixtures, caps))
    else:
        outcomes = [_play(game, f, capped) for f in fixtures]
    ratings = rate_games(fixtures, outcomes)
    played = {level: 0 for level in levels}
    wins = {level: 0.0 for level in levels}
    for fixture, outcome in zip(fixtures, outcomes, strict=True):
        for kind, won in zip(fixture.kinds, outcome.wins, strict=True):
            played[kind] += 1
            wins[kind] += won
    standings = [
        Standing(level, rating, played[level], wins[level])
        for level, rating in leaderboard({lv: ratings.get(lv, NEWCOMER) for lv in levels})
    ]
    gaps = [
        _gap(weaker, stronger, ratings, fixtures, outcomes) for weaker, stronger in pairwise(levels)
    ]
    return TournamentResult(game, len(fixtures), seed, standings, gaps)


def _gap(
    weaker: str,
    stronger: str,
    ratings: dict[str, Rating],
    fixtures: Sequence[Fixture],
    outcomes: Sequence[GameOutcome],
) -> Gap:
    low, high = ratings.get(weaker, NEWCOMER), ratings.get(stronger, NEWCOMER)
    mu_gap = high.mu - low.mu
    z = mu_gap / math.hypot(low.sigma, high.sigma)
    met, share = 0, 0.0
    for fixture, outcome in zip(fixtures, outcomes, strict=True):
        if weaker in fixture.kinds and stronger in fixture.kinds:
            met += 1
            a = outcome.scores[fixture.kinds.index(stronger)]
            b = outcome.scores[fixture.kinds.index(weaker)]
            share += 1.0 if a > b else 0.5 if a == b else 0.0
    return Gap(weaker, stronger, mu_gap, z, share / met if met else 0.0, met)
