"""What a seat of Die Verbotene Stadt knows of a game (ai.py says how the computer players use
it): its view, the public facts of the phase under way, and the moves it saw since the others
last bribed.
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import Board, Square
from .events import Answered, BluffSettled, OfficialMoved, PavilionOpened
from .game import Entry, Game, PendingTake
from .movement import can_enter
from .view import SeatView


@dataclass(frozen=True, slots=True)
class Seen:
    """A move made in public: by whom, which official, from where to where (None: entered),
    while which pavilion was open and which officials could have entered it."""

    index: int  # in the action log
    seat: str
    official: str
    start: Square
    end: Square | None
    open_pavilion: int | None
    reachers: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Bribed:
    """Where the officials stood when a seat last bribed, and which pavilion was open."""

    at: tuple[tuple[str, Square], ...]
    open_pavilion: int | None


@dataclass(frozen=True, slots=True)
class Observation:
    """All a seat knows: its view and the public facts the view does not spell out."""

    view: SeatView
    board: Board
    phase: str
    deciding: tuple[tuple[int, bool], ...]  # seat index, must choose
    entry: Entry | None
    takes: tuple[PendingTake, ...]
    again: bool
    entered: str | None
    last_bribe: tuple[int, ...]  # per seat, the log index of its last bribe (-1: none)
    bribed: tuple[Bribed | None, ...]  # per seat, the table when it last bribed (None: unseen)
    moves: tuple[Seen, ...]  # every other seat's move since the earliest of those bribes
    entries: tuple[tuple[str, bool], ...]  # (mover, bluffed) for each entry put to the table
    answers: tuple[tuple[str, bool], ...]  # (seat, believed) for each answer given


def observe(game: Game, seat: str) -> Observation:
    """The seat's observation of a real game, built from public facts only."""
    names = game.players
    last = [-1] * len(names)
    for i, (who, text) in enumerate(game.log):
        if text.startswith("bribe"):
            last[names.index(who)] = i
    others = [last[i] for i, name in enumerate(names) if name != seat]
    since = min(others, default=len(game.log))
    offset = len(game.log) - len(game.results)  # a copy keeps the log, not the results
    at = dict(game.at)
    seen: list[Seen] = []
    entries: list[tuple[str, bool]] = []
    answers: list[tuple[str, bool]] = []
    bribed: list[Bribed | None] = [None] * len(names)
    opens = _open_history(game, offset)
    for k in range(len(game.results) - 1, -1, -1):
        result = game.results[k]
        index = k + offset
        for event in reversed(result.events):
            if isinstance(event, BluffSettled):
                entries.append((event.mover, event.bluffed))
            if isinstance(event, Answered):
                answers.append((event.seat, event.believes))
            if index <= since or not isinstance(event, OfficialMoved):
                continue
            at[event.official] = event.start
            if event.seat != seat:
                open_p = opens[k]
                near = tuple(
                    c for c in sorted(at) if open_p and can_enter(game.board, at, c, open_p)
                )
                seen.append(
                    Seen(index, event.seat, event.official, event.start, event.end, open_p, near)
                )
        actor = names.index(result.seat)
        if index >= since and index == last[actor] and result.seat != seat:
            bribed[actor] = Bribed(tuple(sorted(at.items())), opens[k])
    return Observation(
        view=game.view(seat),
        board=game.board,
        phase=game.phase,
        deciding=tuple(sorted(game.deciding.items())) if game.phase == "bribe" else (),
        entry=game.entry,
        takes=tuple(game.takes),
        again=game.again,
        entered=game.entered,
        last_bribe=tuple(last),
        bribed=tuple(bribed),
        moves=tuple(reversed(seen)),
        entries=tuple(reversed(entries)),
        answers=tuple(reversed(answers)),
    )


def _open_history(game: Game, offset: int) -> list[int | None]:
    """The open pavilion before each recorded action, walking the dice forward."""
    current: int | None = None
    if game.position is not None and offset == 0:
        current = int(game.position["open_pavilion"])
    if offset:
        current = game.open  # no record of the past: the present is the best guess
    found: list[int | None] = []
    for result in game.results:
        found.append(current)
        for event in result.events:
            if isinstance(event, PavilionOpened):
                current = event.pavilion
    return found
