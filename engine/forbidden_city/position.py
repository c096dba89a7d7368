"""Position files (shared/specs/forbidden-city-positions.md): parse, set up, and score the plays."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .board import Board, IllegalPlacement
from .catalogue import COLOURS, START_SIDES
from .events import RoomClosed
from .scoring import closed_room
from .tiles import Tile, TileCodeError


class PositionError(ValueError):
    """A line that does not parse or a play that is illegal; names the line."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason


@dataclass(slots=True)
class Scored:
    players: list[str]
    board: Board
    coins: dict[str, int]
    closed: list[RoomClosed] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "coins": dict(self.coins),
            "closed": [
                {
                    "by": e.by,
                    "colour": e.colour,
                    "tiles": e.tiles,
                    "dragons": e.dragons,
                    "value": e.value,
                    "paid": dict(e.paid),
                }
                for e in self.closed
            ],
        }


def _int(text: str, line: int) -> int:
    try:
        return int(text)
    except ValueError:
        raise PositionError(line, f"{text!r} is not a whole number") from None


def score(text: str) -> Scored:
    """Set up the position and play its `play` lines in order, paying every room they close."""
    players: list[str] | None = None
    board: Board | None = None
    start_seen = False
    result: Scored | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        words = line.split()
        head = words[0]
        if head == "players:":
            if players is not None:
                raise PositionError(number, "players: given twice")
            players = _players(words[1:], number)
            board = Board(len(players))
            result = Scored(players, board, dict.fromkeys(players, 0))
        elif head == "start:":
            if board is None:
                raise PositionError(number, "start: must come after players:")
            if start_seen or len(board):
                raise PositionError(number, "start: must come once, before any tile")
            if len(words) != 2 or words[1] not in ("none", *START_SIDES):
                raise PositionError(number, "start: is none, beginner or advanced")
            start_seen = True
            if words[1] != "none":
                board.lay_start(words[1])
        elif head in ("at", "play"):
            if board is None or players is None or result is None:
                raise PositionError(number, f"{head} needs a players: line before it")
            _play(head, words, number, board, players, result)
        else:
            raise PositionError(number, f"unknown statement {head!r}")
    if result is None:
        raise PositionError(1, "no players: line")
    return result


def _players(players: list[str], number: int) -> list[str]:
    """The seat colours of a `players:` line, checked."""
    if not 1 <= len(players) <= 4:
        raise PositionError(number, "players: needs 1 to 4 seat colours")
    for colour in players:
        if colour not in COLOURS:
            raise PositionError(number, f"unknown colour {colour!r}")
    if len(set(players)) != len(players):
        raise PositionError(number, "a colour is listed twice")
    return players


def _play(
    head: str, words: list[str], number: int, board: Board, players: list[str], result: Scored
) -> None:
    """An `at` line (a tile set down as it is) or a `play` line (a tile played, paying every
    room it closes into `result`)."""
    if len(words) != 5:
        raise PositionError(number, f"expected: {head} X Y OWNER CODE")
    x, y = _int(words[1], number), _int(words[2], number)
    owner = words[3]
    if owner not in players:
        raise PositionError(number, f"{owner!r} is not a seat in players:")
    try:
        tile = Tile.parse(words[4])
    except TileCodeError as err:
        raise PositionError(number, str(err)) from None
    seat = players.index(owner)
    try:
        if head == "at":
            if (x, y) in board:
                raise IllegalPlacement(f"cell {x},{y} is already taken")
            board.put((x, y), tile, seat)
            return
        board.check((x, y), tile)
    except IllegalPlacement as err:
        raise PositionError(number, str(err)) from None
    for root in board.put((x, y), tile, seat):
        event = closed_room(board, root, players, owner)
        result.closed.append(event)
        for colour, amount in event.paid.items():
            result.coins[colour] += amount
