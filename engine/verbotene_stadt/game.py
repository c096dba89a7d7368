"""A game of Die Verbotene Stadt: the state, whose decision it is, legal actions, and the flow.

The state is small plain data (officials' squares, the piles, the hands, the bribes, a roll
counter) so that `copy()` is cheap for search players; every die is drawn from the seed and the
roll's index (dice.py), so a seed and the action log replay a game exactly. The rule decisions
where the rulebook is silent are in docs/rules-notes.md.

Phases, and who `to_act` lists:
- `bribe`: every seat still to choose ("bribe": must choose; "rebribe": may also `keep`);
- `move`: the mover ("move");
- `answer`: the next seat asked whether an entry is a bluff ("answer");
- `take`: the seat that takes a card now ("take");
- `over`: nobody.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.core.errors import CorruptRecord
from engine.core.record import parse, replay

from .actions import parse_official
from .board import Board, Square
from .cards import ALL_CARDS, PAVILIONS, card_order, parse_card, sort_cards
from .flow import Flow
from .record import GameRecord
from .state import LAST_EXILE, RULES, TEN_RULE, Entry, PendingTake
from .view import LastMove, SeatView

__all__ = [
    "LAST_EXILE",
    "RULES",
    "TEN_RULE",
    "Entry",
    "Game",
    "PendingTake",
    "fresh",
    "snapshot",
    "to_record",
]


class Game(Flow):
    """One table; seats in table order (clockwise), the fate dice rolled by the next seat.
    Its state and what it reads are in state.py, the flow of play in flow.py."""

    # ------------------------------------------------------------ positions
    @classmethod
    def from_position(
        cls,
        players: Sequence[str] | int,
        *,
        officials: Mapping[str, Square],
        open_pavilion: int,
        bribes: Sequence[str | None],
        hands: Sequence[Sequence[str]] = (),
        piles: Mapping[int, Sequence[str]] | None = None,
        exiled: Sequence[str] = (),
        mover: int = 0,
        seed: int = 0,
        teams: bool = False,
        board: Board | None = None,
        rules: int = RULES,
    ) -> Game:
        """A game at the start of `mover`'s turn (seat index), for tests, puzzles and analysis.

        `officials` maps codes to squares; `bribes` one official (or None: still to choose) per
        seat; `hands` the cards face up per seat; `piles` each pavilion's cards, top first (a
        pavilion left out: its cards not in a hand, in card order); `exiled` the officials on
        the exile terrace. If a bribe is missing, the game first waits for the bribes, then
        `mover` plays.
        """
        game = cls(players, seed=seed, teams=teams, board=board, rules=rules)
        n = len(game.players)
        at, out = _placed(game.board, officials, exiled)
        held = [tuple(parse_card(c) for c in hand) for hand in hands] or [() for _ in range(n)]
        if len(held) != n or len(bribes) != n or not 0 <= mover < n:
            raise ValueError("one hand and one bribe per seat, and a mover among the seats")
        pile_cards = _dealt(held, piles or {})
        if open_pavilion not in PAVILIONS:
            raise ValueError("the open pavilion is 1 to 8")
        chosen = [None if b is None else parse_official(b) for b in bribes]
        if any(b is not None and b not in at for b in chosen):
            raise ValueError("a bribe names an official on the board")
        game.at, game.exiled = at, out
        game.hands = [sort_cards(h) for h in held]
        game.piles = pile_cards
        game.bribes = list(chosen)
        game.open = open_pavilion
        game.first = game.mover = mover
        game.first_known = True
        game.deciding = {i: True for i, b in enumerate(chosen) if b is None}
        game.phase = "bribe" if game.deciding else "move"
        game.position = {
            "officials": {code: list(sq) for code, sq in at.items()},
            "open_pavilion": open_pavilion,
            "bribes": chosen,
            "hands": [list(h) for h in game.hands],
            "piles": {str(p): list(pile) for p, pile in pile_cards.items()},
            "exiled": list(out),
            "mover": mover,
        }
        return game

    # ------------------------------------------------------------ copies
    def copy(self) -> Game:
        """An independent copy for search: it shares only immutable parts (board, tuples, the
        start position), keeps the action log and starts with no `results`."""
        other = object.__new__(Game)
        other.__dict__.update(self.__dict__)
        other.at = dict(self.at)
        other.piles = dict(self.piles)
        other.hands = list(self.hands)
        other.bribes = list(self.bribes)
        other.exiled = list(self.exiled)
        other.deciding = dict(self.deciding)
        other.revealed = dict(self.revealed)
        other.takes = list(self.takes)
        other.log = list(self.log)
        other.results = []
        return other

    def to_json(self) -> str:
        """The record: seats, options, seed, start position if any, the actions, a snapshot."""
        return to_record(self).model_dump_json()

    @staticmethod
    def from_json(text: str | bytes) -> Game:
        """Rebuild a game from `to_json`, replaying and checking every action."""
        record = parse(GameRecord, text)
        return replay(fresh(record), record.actions, record.snapshot, snapshot)

    def view(self, seat: str | None = None) -> SeatView:
        """What `seat` may know (None: a spectator); never another seat's secret bribe."""
        index = self.seat_index(seat) if seat is not None else None
        partner = self.partner(index) if index is not None else None
        allowed = {n for i, n in enumerate(self.players) if i in (index, partner)}
        actions = [
            (s, "bribe ?" if text.startswith("bribe") and s not in allowed else text)
            for s, text in self.log
        ]
        return SeatView(
            players=list(self.players),
            teams=self.teams,
            partnerships=self.partnerships,
            rules=self.rules,
            seat=seat,
            to_act=[(t.seat, t.kind) for t in self.to_act],
            mover=None if self.is_over or not self.first_known else self.players[self.mover],
            moves_made=self.moves_made,
            officials=dict(sorted(self.at.items())),
            open_pavilion=self.open,
            pile_sizes={p: len(pile) for p, pile in sorted(self.piles.items())},
            hands={n: list(h) for n, h in zip(self.players, self.hands, strict=True)},
            exiled=list(self.exiled),
            last_move=self._last_view(),
            last_rolls=[(r.die, r.face) for r in self.turn_rolls],
            bribe=self.bribes[index] if index is not None else None,
            partner_bribe=self.bribes[partner] if partner is not None else None,
            revealed={self.players[i]: b for i, b in sorted(self.revealed.items())},
            bribes={
                n: self.bribes[i] if i in (index, partner) or i in self.revealed else None
                for i, n in enumerate(self.players)
            },
            legal_actions=[str(a) for a in self.legal_actions(seat)] if seat is not None else [],
            actions=actions,
            points=self.points(),
            scores=self.scores,
            over=self.is_over,
            winners=self.winners,
        )

    def _last_view(self) -> LastMove | None:
        if self.last_move is None:
            return None
        moved, entered = self.last_move
        return LastMove(
            official=moved.official,
            seat=moved.seat,
            path=[moved.start, *moved.path],
            entered=entered,
        )

    def __repr__(self) -> str:
        waiting = ", ".join(f"{t.seat} {t.kind}" for t in self.to_act) or "over"
        return f"<Game {'/'.join(self.players)} exiled {len(self.exiled)}, {waiting}>"


def _placed(
    board: Board, officials: Mapping[str, Square], exiled: Sequence[str]
) -> tuple[dict[str, Square], list[str]]:
    """A position's officials on the board and on the exile terrace, checked."""
    at = {parse_official(code): (int(x), int(y)) for code, (x, y) in officials.items()}
    out = [parse_official(code) for code in exiled]
    if set(at) & set(out) or len(set(out)) != len(out) or len(at) + len(out) > 25:
        raise ValueError("an official is either on the board or exiled, once")
    if len(set(at.values())) != len(at):
        raise ValueError("two officials on one square")
    for sq in at.values():
        kind = board.kind(sq)
        if kind == "#" or kind.isdigit():
            raise ValueError(f"an official cannot stand on {sq[0]},{sq[1]} ({kind})")
    return at, out


def _dealt(
    held: list[tuple[str, ...]], given: Mapping[int, Sequence[str]]
) -> dict[int, tuple[str, ...]]:
    """A position's piles, top first (a pavilion not `given`: its cards in no hand, in card
    order), checked against the hands: every card once, each pile its pavilion's."""
    taken = {c for hand in held for c in hand}
    pile_cards = {
        p: tuple(parse_card(c) for c in given[p])
        if p in given
        else tuple(c for c in ALL_CARDS if c[0] == str(p) and c not in taken)
        for p in PAVILIONS
    }
    every = [c for hand in held for c in hand] + [c for pile in pile_cards.values() for c in pile]
    if sorted(every, key=card_order) != list(ALL_CARDS):
        raise ValueError("the 24 cards must each be in exactly one hand or pile")
    if any(c[0] != str(p) for p, pile in pile_cards.items() for c in pile):
        raise ValueError("a pavilion holds only its own cards")
    return pile_cards


def snapshot(game: Game) -> dict[str, object]:
    return {"hands": [list(h) for h in game.hands], "exiled": list(game.exiled)}


def to_record(game: Game) -> GameRecord:
    return GameRecord(
        players=list(game.players),
        teams=game.teams,
        seed=game.seed,
        position=game.position,
        board=None if game.board == Board.default() else game.board.to_text(),
        actions=list(game.log),
        snapshot=snapshot(game),
        rules=game.rules,
    )


def fresh(record: GameRecord) -> Game:
    """The game as it began, before any action."""
    try:
        board = None if record.board is None else Board.parse(record.board)
        if record.position is None:
            return Game(
                record.players,
                seed=record.seed,
                teams=record.teams,
                board=board,
                rules=record.rules,
            )
        p = record.position
        return Game.from_position(
            record.players,
            officials={code: (sq[0], sq[1]) for code, sq in p["officials"].items()},
            open_pavilion=p["open_pavilion"],
            bribes=p["bribes"],
            hands=p["hands"],
            piles={int(k): v for k, v in p["piles"].items()},
            exiled=p["exiled"],
            mover=p["mover"],
            seed=record.seed,
            teams=record.teams,
            board=board,
            rules=record.rules,
        )
    except (ValueError, KeyError, TypeError, IndexError) as err:
        raise CorruptRecord(f"bad start: {err}") from None
