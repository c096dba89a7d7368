"""Players' ratings: a thin, typed layer over openskill's Plackett-Luce model.

Plackett-Luce rates a whole finishing order at once, so one call covers 2, 3 or 4 players and the
4-player team game (partners rated as one team) alike. The bot and the arena's tournament both
rate games here, so a computer level's rating and a person's mean the same thing. Keep one rating
per player and game: skill at one game says little about the other.

A rating is a belief about a skill: `mu` (the mean) and `sigma` (how unsure it still is). What
players are shown is the conservative estimate `mu - 3 sigma`, scaled to a familiar range
(`Rating.shown`: 1000 for a newcomer, about 1550 for an established average player), with one
`sigma` scaled the same way as the "±". The conservative number ranks the leaderboard: a few
lucky wins do not put a newcomer above a player who has proven a skill over many games.

Pure and deterministic: no I/O, no clock, no randomness; `rate` orders the teams canonically
before the model sees them, so the order they are given in changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple

from openskill.models import PlackettLuce, PlackettLuceRating

MU: Final = 25.0  # openskill's defaults: a newcomer's mean and uncertainty
SIGMA: Final = MU / 3
Z: Final = 3.0  # sigmas below the mean for the conservative estimate
SHOWN_BASE: Final = 1000  # the shown rating of a newcomer (conservative estimate 0)
SHOWN_SCALE: Final = 25  # shown points per unit of skill
MIN_PLAYERS, MAX_PLAYERS = 2, 4

_MODEL: Final = PlackettLuce(mu=MU, sigma=SIGMA)


@dataclass(frozen=True, slots=True)
class Rating:
    """A belief about one player's skill at one game; `Rating()` is a newcomer's."""

    mu: float = MU
    sigma: float = SIGMA

    @property
    def ordinal(self) -> float:
        """The conservative estimate, `mu - 3 sigma`: what ranks players."""
        return self.mu - Z * self.sigma

    @property
    def shown(self) -> int:
        """The rating players see: the conservative estimate on a 1000-based scale."""
        return round(SHOWN_BASE + SHOWN_SCALE * self.ordinal)

    @property
    def uncertainty(self) -> int:
        """The "±" shown beside it: one `sigma` on the same scale (shrinks as games are rated)."""
        return round(SHOWN_SCALE * self.sigma)

    def __str__(self) -> str:
        return f"{self.shown} ± {self.uncertainty}"


NEWCOMER: Final = Rating()


class Team(NamedTuple):
    """One side of a finished game: its players (partners share a side) and its score."""

    players: tuple[str, ...]
    score: float


def standings(scores: Mapping[str, float], partners: Iterable[Sequence[str]] = ()) -> list[Team]:
    """The teams of a finished game from each player's score (an engine's `scores`, keyed by
    player): every player alone, except the groups in `partners`, who must share one score (the
    team game scores a team's total for both partners)."""
    teams: list[Team] = []
    grouped: set[str] = set()
    for group in partners:
        players = tuple(group)
        missing = [p for p in players if p not in scores]
        if missing:
            raise ValueError(f"no score for {', '.join(missing)}")
        if len({scores[p] for p in players}) != 1:
            raise ValueError(f"partners {', '.join(players)} have different scores")
        teams.append(Team(players, scores[players[0]]))
        grouped.update(players)
    teams.extend(Team((key,), score) for key, score in scores.items() if key not in grouped)
    return teams


def ranks(teams: Sequence[Team]) -> list[int]:
    """Each team's place, 1 first; equal scores share the better place (1, 1, 3)."""
    return [1 + sum(other.score > team.score for other in teams) for team in teams]


def rate(ratings: Mapping[str, Rating], teams: Sequence[Team]) -> dict[str, Rating]:
    """The new rating of every player of one finished game.

    `ratings` holds the players' ratings before the game (a player missing from it is a
    newcomer); `teams` the sides with their scores, higher better, equal scores a tie. Two to four
    players in all, at least two sides, each player once. The same ratings and result always give
    the same numbers, whatever order the sides and partners are listed in.
    """
    players = [p for team in teams for p in team.players]
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise ValueError(f"{len(players)} players: a game has 2 to 4")
    if len(set(players)) != len(players):
        raise ValueError("a player appears twice in one game")
    if len(teams) < 2 or any(not team.players for team in teams):
        raise ValueError("a game needs at least two sides, each with a player")
    # Canonical order (best score first, then by players' keys), so input order cannot matter.
    canonical = (Team(tuple(sorted(t.players)), float(t.score)) for t in teams)
    ordered = sorted(canonical, key=lambda t: (-t.score, t.players))
    model_teams = [
        [_model_rating(key, ratings.get(key, NEWCOMER)) for key in team.players] for team in ordered
    ]
    places = [float(place) for place in ranks(ordered)]
    rated = _MODEL.rate(model_teams, ranks=places)
    return {
        key: Rating(player.mu, player.sigma)
        for team, new in zip(ordered, rated, strict=True)
        for key, player in zip(team.players, new, strict=True)
    }


def _model_rating(key: str, rating: Rating) -> PlackettLuceRating:
    return _MODEL.create_rating([rating.mu, rating.sigma], name=key)


def leaderboard(ratings: Mapping[str, Rating]) -> list[tuple[str, Rating]]:
    """Players best first: by conservative estimate, then by key (a stable order for ties)."""
    return sorted(ratings.items(), key=lambda item: (-item[1].ordinal, item[0]))
