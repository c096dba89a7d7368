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

import random
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core.errors import CorruptRecord, IllegalMove
from engine.core.record import parse, replay
from engine.core.shape import ToAct

from . import dice
from .actions import (
    BELIEVE,
    DOUBT,
    KEEP,
    OFFICIALS,
    PASS,
    Action,
    Believe,
    Bribe,
    Doubt,
    Keep,
    MoveOfficial,
    Pass,
    Take,
    parse_action,
    parse_official,
)
from .board import Board, Square
from .cards import ALL_CARDS, PAVILIONS, best_points, card_order, parse_card, sort_cards
from .events import (
    ActionResult,
    Answered,
    BluffSettled,
    BribeSet,
    BribesRevealed,
    CardTaken,
    Event,
    FateRolled,
    FirstPlayerChosen,
    GameEnded,
    NothingTaken,
    OfficialExiled,
    OfficialMoved,
    PavilionOpened,
    TurnPassed,
    TurnStarted,
)
from .movement import follow, moves
from .record import GameRecord
from .view import LastMove, SeatView

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


class Game:
    """One table; seats in table order (clockwise), the fate dice rolled by the next seat."""

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
        at = {parse_official(code): (int(x), int(y)) for code, (x, y) in officials.items()}
        out = [parse_official(code) for code in exiled]
        if set(at) & set(out) or len(set(out)) != len(out) or len(at) + len(out) > 25:
            raise ValueError("an official is either on the board or exiled, once")
        if len(set(at.values())) != len(at):
            raise ValueError("two officials on one square")
        for sq in at.values():
            kind = game.board.kind(sq)
            if kind == "#" or kind.isdigit():
                raise ValueError(f"an official cannot stand on {sq[0]},{sq[1]} ({kind})")
        held = [tuple(parse_card(c) for c in hand) for hand in hands] or [() for _ in range(n)]
        if len(held) != n or len(bribes) != n or not 0 <= mover < n:
            raise ValueError("one hand and one bribe per seat, and a mover among the seats")
        given = piles or {}
        taken = {c for hand in held for c in hand}
        pile_cards = {
            p: tuple(parse_card(c) for c in given[p])
            if p in given
            else tuple(c for c in ALL_CARDS if c[0] == str(p) and c not in taken)
            for p in PAVILIONS
        }
        every = [c for hand in held for c in hand] + [
            c for pile in pile_cards.values() for c in pile
        ]
        if sorted(every, key=card_order) != list(ALL_CARDS):
            raise ValueError("the 24 cards must each be in exactly one hand or pile")
        if any(c[0] != str(p) for p, pile in pile_cards.items() for c in pile):
            raise ValueError("a pavilion holds only its own cards")
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

    # ------------------------------------------------------------ reading
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

    # ------------------------------------------------------------ playing
    @staticmethod
    def parse_action(text: str) -> Action:
        return parse_action(text)

    def play(self, seat: str, action: Action | str) -> ActionResult:
        """Apply `action` for `seat`; raise IllegalMove (state unchanged) if it may not."""
        if isinstance(action, str):
            action = parse_action(action)
        if self.is_over:
            raise IllegalMove("the game is over")
        index = self.seat_index(seat)
        if not self._waits_for(index):
            who = ", ".join(f"{t.seat} ({t.kind})" for t in self.to_act)
            raise IllegalMove(f"it is not {seat}'s decision now: waiting for {who}")
        events: list[Event] = []
        if self.phase == "bribe":
            self._bribe(index, action, events)
        elif self.phase == "move":
            self._move(action, events)
        elif self.phase == "answer":
            self._answer(index, action, events)
        else:
            self._take(index, action, events)
        text = str(action)
        result = ActionResult(seat, text, events)
        self.log.append((seat, text))
        self.results.append(result)
        return result

    def _roll(self) -> int:
        self.rolls += 1
        return self.rolls - 1

    def _open_pavilion(self, by: int, events: list[Event]) -> None:
        self.open = dice.blue(self.seed, self._roll())
        events.append(PavilionOpened(self.players[by], self.open))

    def _bribe(self, index: int, action: Action, events: list[Event]) -> None:
        if isinstance(action, Keep):
            if self.deciding[index]:
                raise IllegalMove("you must choose an official to bribe now")
            del self.deciding[index]
            events.append(BribeSet(self.players[index], kept=True))
        elif isinstance(action, Bribe):
            if action.official not in self.at:
                raise IllegalMove(f"{action.official} is not on the board: bribe one who is")
            del self.deciding[index]
            self.bribes[index] = action.official
            self.revealed.pop(index, None)
            events.append(BribeSet(self.players[index], kept=False))
        else:
            raise IllegalMove(f"choose an official to bribe (bribe XY), not {action}")
        if self.deciding:
            return
        self.revealed.clear()
        if self.entered is None:  # the start: the first player rolls the blue die
            if not self.first_known:
                self._choose_first(events)
            if self.open is None:
                self._open_pavilion(self.mover, events)
            self._start_turn(self.mover, False, events)
            return
        self._open_pavilion(self.mover, events)
        again, self.again = self.again, False
        nxt = self.mover if again else (self.mover + 1) % len(self.players)
        self._start_turn(nxt, again, events)

    def _choose_first(self, events: list[Event]) -> None:
        """The seats roll the large fate die in turn, from the first seat: the first red face
        (a dragon or a pavilion is red too) plays first."""
        rolls: list[tuple[str, str]] = []
        seat = 0
        while True:
            face = dice.fate(self.seed, self._roll(), 2)
            rolls.append((self.players[seat], face))
            if face != "black":
                break
            seat = (seat + 1) % len(self.players)
        self.first = self.mover = seat
        self.first_known = True
        events.append(FirstPlayerChosen(self.players[seat], tuple(rolls)))

    def _start_turn(self, index: int, again: bool, events: list[Event]) -> None:
        self.phase = "move"
        self.mover = index
        self.moves_made = 0
        self.entered = None
        events.append(TurnStarted(self.players[index], again))

    def _end_turn(self, reason: str, events: list[Event]) -> None:
        events.append(TurnPassed(self.players[self.mover], reason))
        self._start_turn((self.mover + 1) % len(self.players), False, events)

    def _move(self, action: Action, events: list[Event]) -> None:
        if isinstance(action, Pass):
            if not self.moves_made and self.move_actions() != [PASS]:
                raise IllegalMove("the first move of a turn is compulsory")
            self._end_turn("pass", events)
            return
        if not isinstance(action, MoveOfficial):
            raise IllegalMove(f"move an official (move XY:N,E) or pass, not {action}")
        code = action.official
        if code not in self.at:
            raise IllegalMove(f"{code} is not on the board")
        start = self.at[code]
        trail: list[Square] = []
        end = follow(self.board, self.at, code, action.slides, self.open, trail)
        if end is None and not self.may_enter(code):
            raise IllegalMove(
                "until you and another player hold a card, only the official you bribed "
                "may enter a pavilion"
            )
        mover = self.players[self.mover]
        moved = OfficialMoved(mover, code, action.slides, start, end, tuple(trail))
        events.append(moved)
        self.last_move = (moved, self.open if end is None else None)
        if not self.moves_made:
            self.turn_rolls = ()
        self.moves_made += 1
        if end is None:
            self._enter(code, events)
            return
        self.at[code] = end
        if self.moves_made >= MAX_MOVES:
            self._end_turn("four-moves", events)
            return
        roller = (self.mover + 1) % len(self.players)
        die = self.moves_made - 1
        face = dice.fate(self.seed, self._roll(), die)
        rolled = FateRolled(self.players[roller], dice.FATE_NAMES[die], face)
        events.append(rolled)
        self.turn_rolls += (rolled,)
        if face == "black":
            self._end_turn("black", events)
        elif face == "pavilion":
            self._open_pavilion(self.mover, events)
        elif face == "dragon":
            sources = tuple(i for i, h in enumerate(self.hands) if h and i != roller)
            if sources:
                self.takes.append(PendingTake(roller, "dragon", sources, optional=True))
                self.phase = "take"
            else:
                events.append(NothingTaken(self.players[roller], "dragon"))

    def _enter(self, code: str, events: list[Event]) -> None:
        assert self.open is not None
        pavilion = self.open
        ten_rule = len(self.exiled) >= TEN_RULE
        del self.at[code]
        self.entered = code
        self.exiled.append(code)
        events.append(OfficialExiled(code, pavilion, len(self.exiled)))
        events.append(TurnPassed(self.players[self.mover], "entered"))
        asking: tuple[int, ...] = ()
        if self.bluff_in_play():
            n = len(self.players)
            order = [(self.mover + k) % n for k in range(1, n)]
            partner = self.partner(self.mover) if self.rules == 1 else None
            asking = tuple(i for i in order if self.hands[i] and i != partner)
            entry = Entry(code, pavilion, ten_rule, asking)
            if asking:
                self.entry = entry
                self.phase = "answer"
                return
            self._settle(entry, True, events)
        else:
            self._settle(Entry(code, pavilion, ten_rule, ()), False, events)

    def _answer(self, index: int, action: Action, events: list[Event]) -> None:
        entry = self.entry
        assert entry is not None
        if isinstance(action, Doubt):
            if not self.hands[index]:
                raise IllegalMove("only a player holding a card may doubt")
            doubters = (*entry.doubters, index)
        elif isinstance(action, Believe):
            doubters = entry.doubters
        else:
            raise IllegalMove(f"answer believe or doubt, not {action}")
        events.append(Answered(self.players[index], isinstance(action, Believe)))
        entry = Entry(entry.official, entry.pavilion, entry.ten_rule, entry.asking[1:], doubters)
        if entry.asking:
            self.entry = entry
            return
        self.entry = None
        self._settle(entry, True, events)

    def _settle(self, entry: Entry, put_to_table: bool, events: list[Event]) -> None:
        """Reveal, give the pavilion's card(s), queue the takes, then go on (rules-notes)."""
        n = len(self.players)
        mover = self.mover
        bribers = [i for i in range(n) if self.bribes[i] == entry.official]
        shown = {mover: self.bribes[mover], **{i: entry.official for i in bribers}}
        self.revealed = dict(shown)
        events.append(BribesRevealed({self.players[i]: b for i, b in sorted(shown.items())}))
        bluffed = self.bribes[mover] != entry.official
        doubter = entry.doubters[0] if entry.doubters else None
        if put_to_table:
            name = None if doubter is None else self.players[doubter]
            events.append(BluffSettled(self.players[mover], bluffed, name))
        if doubter is None:
            if bluffed:
                receiver = mover
                self.again = True
            else:
                receiver = max(bribers, key=lambda i: (i - mover) % n)
        else:
            receiver = doubter if bluffed else mover
        self._give_pavilion(receiver, entry, events)
        if doubter is not None:
            if bluffed:
                self.takes.append(PendingTake(doubter, "penalty", (mover,)))
            else:
                self.takes.append(PendingTake(mover, "reward", (doubter,)))
        self._next_take(events)

    def _give_pavilion(self, receiver: int, entry: Entry, events: list[Event]) -> None:
        name = self.players[receiver]
        pile = self.piles[entry.pavilion]
        if pile:
            taken = pile if entry.ten_rule else pile[:1]
            self.piles[entry.pavilion] = pile[len(taken) :]
            self.hands[receiver] = sort_cards((*self.hands[receiver], *taken))
            events.extend(CardTaken(name, card, None, "entry") for card in taken)
            return
        partner = self.partner(receiver) if self.rules > 1 else None  # opponents only
        others = tuple(i for i in range(len(self.players)) if i not in (receiver, partner))
        if not entry.ten_rule:
            optional = self.rules > 1  # "peut prendre": the entrant may take a card
            self.takes.append(PendingTake(receiver, "empty", others, entry.pavilion, optional))
            return
        colour = str(entry.pavilion)
        found = [(s, c) for s in others for c in self.hands[s] if c[0] == colour]
        for source, card in found:
            self._transfer(source, receiver, card, "empty", events)
        if not found:
            events.append(NothingTaken(name, "empty"))

    def _transfer(self, source: int, to: int, card: str, reason: str, events: list[Event]) -> None:
        self.hands[source] = tuple(c for c in self.hands[source] if c != card)
        self.hands[to] = sort_cards((*self.hands[to], card))
        events.append(CardTaken(self.players[to], card, self.players[source], reason))

    def _take(self, index: int, action: Action, events: list[Event]) -> None:
        take = self.takes[0]
        if isinstance(action, Pass):
            if not take.optional:
                raise IllegalMove("this card must be taken: choose one (take SEAT CARD)")
            events.append(NothingTaken(self.players[index], take.reason))
        elif isinstance(action, Take):
            source = action.seat - 1
            if (source, action.card) not in self._take_options(take):
                raise IllegalMove(f"{action} is not among the cards you may take now")
            self._transfer(source, index, action.card, take.reason, events)
        else:
            raise IllegalMove(f"take a card (take SEAT CARD), not {action}")
        self.takes.pop(0)
        self._next_take(events)

    def _next_take(self, events: list[Event]) -> None:
        """Skip takes with nothing to take; once none is left, go on with the turn."""
        while self.takes:
            take = self.takes[0]
            if self._take_options(take):
                self.phase = "take"
                return
            events.append(NothingTaken(self.players[take.chooser], take.reason))
            self.takes.pop(0)
        if self.entered is None:
            self.phase = "move"  # back from a dragon: the mover goes on
            return
        self._after_entry(self.entered, events)

    def _after_entry(self, exiled: str, events: list[Event]) -> None:
        if len(self.exiled) >= LAST_EXILE or not self.at:  # (none left: a small test position)
            self._finish(events)
            return
        self.phase = "bribe"
        self.deciding = {
            i: i == self.mover or self.bribes[i] == exiled for i in range(len(self.players))
        }

    def _finish(self, events: list[Event]) -> None:
        self.phase = "over"
        self.again = False
        scores = self.scores
        best = max(scores.values())
        winners = [s for s in self.players if scores[s] == best]
        self.ended = GameEnded(self.points(), scores, winners)
        events.append(self.ended)

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
