"""The state of a game of Die Verbotene Stadt, and reading it: whose decision it is, the legal
actions, the points (`State`, which `Game` is); flow.py applies the actions to it.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.core.errors import IllegalMove
from engine.core.shape import ToAct

from .actions import BELIEVE, DOUBT, KEEP, OFFICIALS, PASS, Action, Bribe, MoveOfficial, Take
from .board import Board, Square
from .cards import PAVILIONS, best_points
from .events import ActionResult, FateRolled, GameEnded, OfficialMoved
from .movement import moves

SEAT_NAMES = ("north", "east", "south", "west")
# The edition of the rules a game follows (kept in its record, so a game keeps its rules).
# 1: the first player known from the deal; an empty pavilion's card compulsory, from any seat;
#    the mover's partner never asked to believe or doubt.
# 2: the French rulebook's text (docs/rules-notes.md): the first player rolled for once every
#    opening bribe is in; an empty pavilion's card optional, from the opponents only in the
#    team game; every seat holding a card asked, partners included.
RULES = 2
MAX_MOVES = 4
TEN_RULE = 10  # officials already exiled from which an entry takes every card
LAST_EXILE = 15


@dataclass(frozen=True, slots=True)
class PendingTake:
    """A card `chooser` takes from one of `sources` (of pavilion `colour`'s colour if set)."""

    chooser: int
    reason: str  # dragon, reward, penalty, empty
    sources: tuple[int, ...]
    colour: int | None = None
    optional: bool = False


@dataclass(frozen=True, slots=True)
class Entry:
    """An entry put to the table: the official, the seats still to answer, who doubted."""

    official: str
    pavilion: int
    ten_rule: bool
    asking: tuple[int, ...]
    doubters: tuple[int, ...] = ()


class State:
    """One table's state; seats in table order (clockwise), the fate dice rolled by the next
    seat."""

    def __init__(
        self,
        players: Sequence[str] | int = 4,
        seed: int | None = None,
        teams: bool = False,
        board: Board | None = None,
        rules: int = RULES,
    ) -> None:
        seats = tuple(SEAT_NAMES[:players]) if isinstance(players, int) else tuple(players)
        if rules not in (1, 2):
            raise ValueError(f"no edition {rules} of the rules: 1 or 2")
        if not 2 <= len(seats) <= 4:
            raise ValueError("Die Verbotene Stadt is played by 2, 3 or 4 players")
        if len(set(seats)) != len(seats) or not all(seats):
            raise ValueError("each seat needs its own non-empty name")
        if teams and len(seats) != 4:
            raise ValueError("the team game is for 4 players")
        self.players: tuple[str, ...] = seats
        self.seed: int = secrets.randbits(63) if seed is None else seed
        self.teams = teams
        self.board = board if board is not None else Board.default()
        rng = random.Random(self.seed)
        starts = sorted(self.board.start_squares, key=lambda sq: (sq[1], sq[0]))
        placed = list(OFFICIALS)
        rng.shuffle(placed)
        self.at: dict[str, Square] = dict(zip(placed, starts, strict=False))
        self.piles: dict[int, tuple[str, ...]] = {}
        for p in PAVILIONS:
            pile = [f"{p}{piece}" for piece in "HCT"]
            rng.shuffle(pile)
            self.piles[p] = tuple(pile)
        self.first = rng.randrange(len(seats))  # edition 1's first player, from the deal
        self.rules = rules
        self.first_known = rules == 1  # edition 2 rolls for the first player after the bribes
        self.hands: list[tuple[str, ...]] = [() for _ in seats]
        self.bribes: list[str | None] = [None] * len(seats)
        self.exiled: list[str] = []
        self.open: int | None = None
        self.mover = self.first
        self.moves_made = 0
        self.rolls = 0
        self.phase = "bribe"
        self.deciding: dict[int, bool] = dict.fromkeys(range(len(seats)), True)  # seat -> must
        self.revealed: dict[int, str | None] = {}
        self.entry: Entry | None = None
        self.takes: list[PendingTake] = []
        self.again = False
        self.entered: str | None = None  # the official that entered the pavilion this turn
        self.log: list[tuple[str, str]] = []
        self.results: list[ActionResult] = []
        self.ended: GameEnded | None = None
        self.position: dict[str, Any] | None = None  # set by from_position, kept in the record
        # what the table shows of the latest turn: its last move and the fate dice it rolled
        self.last_move: tuple[OfficialMoved, int | None] | None = None  # and the pavilion entered
        self.turn_rolls: tuple[FateRolled, ...] = ()

    @property
    def is_over(self) -> bool:
        return self.ended is not None

    def seat_index(self, seat: str) -> int:
        try:
            return self.players.index(seat)
        except ValueError:
            raise IllegalMove(f"no seat {seat!r} at this table") from None

    def partner(self, index: int) -> int | None:
        return (index + 2) % 4 if self.teams else None

    @property
    def partnerships(self) -> list[tuple[str, str]]:
        """The teams, first seat first (none outside the team game)."""
        pairs = ((i, self.partner(i)) for i in range(len(self.players)))
        return [(self.players[i], self.players[p]) for i, p in pairs if p is not None and i < p]

    @property
    def to_act(self) -> list[ToAct]:
        names = self.players
        if self.phase == "bribe":
            return [
                ToAct(names[i], "bribe" if must else "rebribe")
                for i, must in sorted(self.deciding.items())
            ]
        if self.phase == "move":
            return [ToAct(names[self.mover], "move")]
        if self.phase == "answer":
            assert self.entry is not None
            return [ToAct(names[self.entry.asking[0]], "answer")]
        if self.phase == "take":
            return [ToAct(names[self.takes[0].chooser], "take")]
        return []

    def _waits_for(self, index: int) -> bool:
        """Whether seat `index` is in `to_act` (without building it)."""
        if self.phase == "move":
            return index == self.mover
        if self.phase == "bribe":
            return index in self.deciding
        if self.phase == "answer":
            return self.entry is not None and index == self.entry.asking[0]
        return self.phase == "take" and index == self.takes[0].chooser

    def bluff_in_play(self) -> bool:
        """The mover holds a card and so does another seat: any official may enter."""
        if not self.hands[self.mover]:
            return False
        return any(hand for i, hand in enumerate(self.hands) if i != self.mover)

    def may_enter(self, official: str) -> bool:
        return self.bribes[self.mover] == official or self.bluff_in_play()

    def legal_actions(self, seat: str) -> list[Action]:
        index = self.seat_index(seat)
        if self.phase == "bribe" and index in self.deciding:
            options: list[Action] = [Bribe(code) for code in OFFICIALS if code in self.at]
            if not self.deciding[index]:
                options.append(KEEP)
            return options
        if self.phase == "move" and index == self.mover:
            return self.move_actions()
        if self.phase == "answer" and self.entry is not None and index == self.entry.asking[0]:
            return [BELIEVE, DOUBT] if self.hands[index] else [BELIEVE]
        if self.phase == "take" and index == self.takes[0].chooser:
            take = self.takes[0]
            found: list[Action] = [
                Take(source + 1, card) for source, card in self._take_options(take)
            ]
            if take.optional:
                found.append(PASS)
            return found
        return []

    def move_actions(self) -> list[Action]:
        """Every legal move of the mover (each distinct outcome once), then `pass` if allowed:
        after a first move, or when no official can move at all (a turn is never stuck)."""
        found: list[Action] = []
        bluff = self.bluff_in_play()
        own = self.bribes[self.mover]
        board, at, open_pavilion = self.board, self.at, self.open
        new = tuple.__new__  # MoveOfficial(code, slides) without the keyword handling: hot path
        for code in OFFICIALS:
            if code not in at:
                continue
            for move in moves(board, at, code, open_pavilion):
                if move.end is not None or bluff or code == own:
                    found.append(new(MoveOfficial, (code, move.slides)))
        if self.moves_made or not found:  # a first move is compulsory, if there is one
            found.append(PASS)
        return found

    def _take_options(self, take: PendingTake) -> list[tuple[int, str]]:
        colour = None if take.colour is None else str(take.colour)
        return [
            (source, card)
            for source in take.sources
            for card in self.hands[source]
            if colour is None or card[0] == colour
        ]

    def points(self) -> dict[str, int]:
        """Each seat's own best grouping now."""
        return {
            name: best_points(hand) for name, hand in zip(self.players, self.hands, strict=True)
        }

    @property
    def scores(self) -> dict[str, int]:
        """What decides the game: own points, or the team's total in the team game."""
        own = list(self.points().values())
        if self.teams:
            own = [own[i] + own[(i + 2) % 4] for i in range(4)]
        return dict(zip(self.players, own, strict=True))

    @property
    def winners(self) -> list[str]:
        return list(self.ended.winners) if self.ended else []
