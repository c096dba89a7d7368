"""What one seat may know: the board, the cards face up, counts of the piles, whose decision it
is, its own bribe, its partner's in the team game, and the bribes the rules revealed; never
another seat's secret bribe.

Bots send these views, never the game itself, to anything outside the service.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from .game import Game


class SeatView(BaseModel):
    model_config = ConfigDict(frozen=True)

    players: list[str]
    teams: bool
    seat: str | None  # whose view this is; None for a spectator
    to_act: list[tuple[str, str]]  # seat, kind of decision
    mover: str | None
    moves_made: int  # moves in the mover's turn so far
    officials: dict[str, tuple[int, int]]
    open_pavilion: int | None
    pile_sizes: dict[int, int]  # cards left in each pavilion (not their order)
    hands: dict[str, list[str]]  # cards face up in front of each seat
    exiled: list[str]
    bribe: str | None  # this seat's own
    partner_bribe: str | None  # the partner's, in the team game
    revealed: dict[str, str | None]  # bribes the rules made public and still standing
    legal_actions: list[str]
    actions: list[tuple[str, str]]  # the log, others' bribes written `bribe ?`
    points: dict[str, int]
    scores: dict[str, int]
    over: bool
    winners: list[str]


def view(game: Game, seat: str | None = None) -> SeatView:
    index = game.seat_index(seat) if seat is not None else None
    partner = game.partner(index) if index is not None else None
    allowed = {n for i, n in enumerate(game.players) if i in (index, partner)}
    actions = [
        (s, "bribe ?" if text.startswith("bribe") and s not in allowed else text)
        for s, text in game.log
    ]
    return SeatView(
        players=list(game.players),
        teams=game.teams,
        seat=seat,
        to_act=[(t.seat, t.kind) for t in game.to_act],
        mover=None if game.is_over else game.players[game.mover],
        moves_made=game.moves_made,
        officials=dict(sorted(game.at.items())),
        open_pavilion=game.open,
        pile_sizes={p: len(pile) for p, pile in sorted(game.piles.items())},
        hands={n: list(h) for n, h in zip(game.players, game.hands, strict=True)},
        exiled=list(game.exiled),
        bribe=game.bribes[index] if index is not None else None,
        partner_bribe=game.bribes[partner] if partner is not None else None,
        revealed={game.players[i]: b for i, b in sorted(game.revealed.items())},
        legal_actions=[str(a) for a in game.legal_actions(seat)] if seat is not None else [],
        actions=actions,
        points=game.points(),
        scores=game.scores,
        over=game.is_over,
        winners=game.winners,
    )
