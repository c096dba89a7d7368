"""What one seat may know: the board, the cards face up, counts of the piles, whose decision it
is, its own bribe, its partner's in the team game, and the bribes the rules revealed; never
another seat's secret bribe.

Bots send these views, never the game itself, to anything outside the service.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from .game import Game


class LastMove(BaseModel):
    """The latest move, for drawing its path: where it began, where each slide stopped, and
    the pavilion it entered through its door (the last square of `path`), if it did."""

    model_config = ConfigDict(frozen=True)

    official: str
    seat: str
    path: list[tuple[int, int]]  # the start, then each stop
    entered: int | None


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
    last_move: LastMove | None
    last_rolls: list[tuple[str, str]]  # the latest turn's fate dice: die, face
    bribe: str | None  # this seat's own
    partner_bribe: str | None  # the partner's, in the team game
    revealed: dict[str, str | None]  # bribes the rules made public and still standing
    bribes: dict[str, str | None]  # every bribe this seat knows (own, partner's, revealed)
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
        last_move=_last_move(game),
        last_rolls=[(r.die, r.face) for r in game.turn_rolls],
        bribe=game.bribes[index] if index is not None else None,
        partner_bribe=game.bribes[partner] if partner is not None else None,
        revealed={game.players[i]: b for i, b in sorted(game.revealed.items())},
        bribes={
            n: game.bribes[i] if i in (index, partner) or i in game.revealed else None
            for i, n in enumerate(game.players)
        },
        legal_actions=[str(a) for a in game.legal_actions(seat)] if seat is not None else [],
        actions=actions,
        points=game.points(),
        scores=game.scores,
        over=game.is_over,
        winners=game.winners,
    )


def _last_move(game: Game) -> LastMove | None:
    if game.last_move is None:
        return None
    moved, entered = game.last_move
    return LastMove(
        official=moved.official,
        seat=moved.seat,
        path=[moved.start, *moved.path],
        entered=entered,
    )
