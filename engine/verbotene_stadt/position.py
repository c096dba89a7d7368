"""Position files (the positions spec): a board, officials on it, the open pavilion, the exiled.

Bug reports, the rulebook's closing puzzle, tests and the command line share this format, so every
error names the file's line and says what is wrong.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .actions import OFFICIALS
from .board import Board, BoardError, Square

_SQUARE = re.compile(r"^(\d+),(\d+)$")
OFFICIAL_COUNT = len(OFFICIALS)


class PositionError(ValueError):
    """A position file that does not parse; `line` counts from 1."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason


@dataclass
class Position:
    board: Board
    at: dict[str, Square] = field(default_factory=dict)
    open: int | None = None
    exiled: int = 0


def parse_position(text: str) -> Position:
    """Read a position file; PositionError names the first line at fault."""
    lines = text.split("\n")
    board: Board | None = None
    board_line = 0
    officials: list[tuple[int, str, str]] = []
    seen: dict[str, int] = {}
    open_pavilion: int | None = None
    exiled = 0
    n = 0
    while n < len(lines):
        number, line = n + 1, lines[n].rstrip("\r")
        n += 1
        words = line.split()
        if not words or words[0].startswith(";"):
            continue
        keyword, args = words[0], words[1:]
        if keyword in seen and keyword in ("board:", "open", "exiled"):
            raise PositionError(
                number, f"a second {keyword} line (the first is line {seen[keyword]})"
            )
        seen.setdefault(keyword, number)
        if keyword == "board:":
            board_line = number
            if args == ["default"]:
                board = Board.default()
                continue
            if args:
                raise PositionError(number, "expected `board:` alone or `board: default`")
            board, n = _board(lines, n, number)
        elif keyword == "official":
            if len(args) != 2:
                raise PositionError(number, "expected `official CODE X,Y`")
            officials.append((number, args[0], args[1]))
        elif keyword == "open":
            open_pavilion = _number(number, args, "open P", 1, 8)
        elif keyword == "exiled":
            exiled = _number(number, args, "exiled N", 0, OFFICIAL_COUNT)
        else:
            raise PositionError(number, f"unknown statement {keyword!r}")
    if board is None:
        raise PositionError(max(1, len(lines)), "no `board:` line")
    at = _placed(board, officials)
    if len(at) + exiled > OFFICIAL_COUNT:
        raise PositionError(
            seen.get("exiled", board_line),
            f"{len(at)} officials on the board and {exiled} exiled: there are only 25",
        )
    return Position(board, at, open_pavilion, exiled)


def _board(lines: list[str], n: int, number: int) -> tuple[Board, int]:
    """The board text from line index `n` to its line `end` (`board:` on line `number`), and
    the index of the line after it."""
    body: list[str] = []
    while n < len(lines) and lines[n].strip() != "end":
        body.append(lines[n].rstrip("\r"))
        n += 1
    if n == len(lines):
        raise PositionError(number, "the board text is not closed by a line `end`")
    n += 1
    try:
        return Board.parse("\n".join(body)), n
    except BoardError as err:
        raise PositionError(number + err.line, err.reason) from None


def _placed(board: Board, officials: list[tuple[int, str, str]]) -> dict[str, Square]:
    """The `official` lines (line number, code, square) on `board`, each checked."""
    at: dict[str, Square] = {}
    taken: dict[Square, str] = {}
    for number, code, where in officials:
        if code not in OFFICIALS:
            raise PositionError(
                number, f"{code!r} is not an official: hat then robe, each of R Y B G K"
            )
        if code in at:
            raise PositionError(number, f"{code} is already on the board")
        match = _SQUARE.match(where)
        if match is None:
            raise PositionError(number, f"{where!r} is not a square x,y")
        sq = (int(match[1]), int(match[2]))
        if not board.contains(sq):
            raise PositionError(number, f"{where} is off the {board.width} x {board.height} board")
        if not board.can_stand(sq):
            what = "a roof" if board.kind(sq) == "#" else f"pavilion {board.kind(sq)}"
            raise PositionError(number, f"{where} is {what}: an official cannot stand there")
        if sq in taken:
            raise PositionError(number, f"{where} already holds {taken[sq]}")
        at[code] = sq
        taken[sq] = code
    return at


def _number(line: int, args: list[str], usage: str, low: int, high: int) -> int:
    if len(args) != 1 or not args[0].isdigit() or not low <= int(args[0]) <= high:
        raise PositionError(line, f"expected `{usage}`, {usage[-1]} from {low} to {high}")
    return int(args[0])
