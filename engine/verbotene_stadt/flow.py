"""The flow of a game of Die Verbotene Stadt: an action applied to the state (`Flow.play`),
and everything it sets going, turn by turn (the phases are in game.py).
"""

from __future__ import annotations

from engine.core.errors import IllegalMove

from . import dice
from .actions import (
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
)
from .board import Square
from .cards import sort_cards
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
from .movement import follow
from .state import LAST_EXILE, MAX_MOVES, TEN_RULE, Entry, PendingTake, State


class Flow(State):
    """The state, and the rules that move it on from one decision to the next."""

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
