"""The board: squares, walls, roofs and pavilions, read from and written as the spec's board text.

A board never changes during a game, so everything the movement rules ask again and again is
computed once here: for each square and direction the squares a slide passes over until the first
wall, frame, roof or pavilion (a "ray": `ray_bits` as a bit mask, `ray_ends` its last square),
and which pavilion, if any, the step after the ray's last square would enter through a door
(`ray_enters`). Squares are numbered `y * width + x` inside; the public API speaks in `(x, y)`
squares.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

Square = tuple[int, int]
DIRECTIONS = ("N", "E", "S", "W")
DELTA = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
START_KINDS = frozenset("sg")
KINDS = frozenset(".sg#12345678")
_DEFAULT = Path(__file__).parent / "data" / "board.txt"


class BoardError(ValueError):
    """Board text that does not describe a board; `line` counts from 1 within the board text."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason


class Board:
    """An immutable board of `width` x `height` squares (see the positions spec)."""

    __slots__ = (
        "_kinds",
        "_walls",
        "floor",
        "grey_squares",
        "height",
        "one_step",
        "pavilion_of",
        "pavilions",
        "ray_bits",
        "ray_ends",
        "ray_enters",
        "square_bit",
        "squares",
        "start_squares",
        "step_offsets",
        "steps",
        "width",
    )

    def __init__(self, kinds: list[list[str]], walls: set[tuple[int, int]]) -> None:
        """`kinds[y][x]` is a square's character; `walls` holds (square index, direction index)
        for each walled edge, both sides (the frame need not be listed)."""
        self.height = len(kinds)
        self.width = len(kinds[0])
        w, h = self.width, self.height
        self._kinds = tuple(k for row in kinds for k in row)
        self._walls = frozenset(walls)
        self.one_step: tuple[bool, ...] = tuple(k in START_KINDS for k in self._kinds)
        self.floor: tuple[bool, ...] = tuple(k in ".sg" for k in self._kinds)
        self.pavilion_of: tuple[int, ...] = tuple(int(k) if k.isdigit() else 0 for k in self._kinds)
        squares = [(i % w, i // w) for i in range(w * h)]
        self.squares: tuple[Square, ...] = tuple(squares)
        self.square_bit: dict[Square, int] = {sq: 1 << i for i, sq in enumerate(squares)}
        self.start_squares: tuple[Square, ...] = tuple(
            sq for i, sq in enumerate(squares) if self._kinds[i] == "s"
        )
        self.grey_squares: tuple[Square, ...] = tuple(
            sq for i, sq in enumerate(squares) if self._kinds[i] == "g"
        )
        pavilions: dict[int, list[Square]] = {}
        for i, sq in enumerate(squares):
            if self._kinds[i].isdigit():
                pavilions.setdefault(int(self._kinds[i]), []).append(sq)
        self.pavilions: dict[int, tuple[Square, ...]] = {
            p: tuple(pavilions[p]) for p in sorted(pavilions)
        }
        # steps[i * 4 + d]: the neighbour through an open edge, -1 for a wall or the frame
        steps = []
        for i in range(w * h):
            x, y = i % w, i // w
            for d, name in enumerate(DIRECTIONS):
                dx, dy = DELTA[name]
                nx, ny = x + dx, y + dy
                inside = 0 <= nx < w and 0 <= ny < h
                steps.append(ny * w + nx if inside and (i, d) not in self._walls else -1)
        self.steps: tuple[int, ...] = tuple(steps)
        # index change of one step N, E, S, W
        self.step_offsets: tuple[int, ...] = (-w, 1, w, -1)
        rays: list[tuple[int, ...]] = []
        bits: list[int] = []
        enters: list[int] = []
        for i in range(w * h):
            for d in range(4):
                ray: list[int] = []
                at, nxt = i, steps[i * 4 + d]
                while nxt >= 0 and self._kinds[nxt] in ".sg":
                    ray.append(nxt)
                    at, nxt = nxt, steps[nxt * 4 + d]
                door = nxt >= 0 and self._kinds[nxt].isdigit() and self._kinds[at] in ".sg"
                rays.append(tuple(ray))
                bits.append(sum(1 << j for j in ray))
                enters.append(int(self._kinds[nxt]) if door else 0)
        self.ray_bits: tuple[int, ...] = tuple(bits)
        self.ray_enters: tuple[int, ...] = tuple(enters)
        self.ray_ends: tuple[int, ...] = tuple(ray[-1] if ray else -1 for ray in rays)

    def __setattr__(self, name: str, value: object) -> None:
        if hasattr(self, name):
            raise AttributeError(f"a board never changes: {name} is set once")
        object.__setattr__(self, name, value)

    # ------------------------------------------------------------ reading
    def contains(self, sq: Square) -> bool:
        return 0 <= sq[0] < self.width and 0 <= sq[1] < self.height

    def index(self, sq: Square) -> int:
        if not self.contains(sq):
            raise ValueError(f"{sq[0]},{sq[1]} is off the {self.width} x {self.height} board")
        return sq[1] * self.width + sq[0]

    def square(self, index: int) -> Square:
        return index % self.width, index // self.width

    def kind(self, sq: Square) -> str:
        """One of `.` floor, `s` start, `g` grey, `#` roof, `1`-`8` a pavilion's square."""
        return self._kinds[self.index(sq)]

    def pavilion_at(self, sq: Square) -> int | None:
        k = self.kind(sq)
        return int(k) if k.isdigit() else None

    def is_start(self, sq: Square) -> bool:
        """A start or grey square, from which a slide goes one square only."""
        return self.kind(sq) in START_KINDS

    def can_stand(self, sq: Square) -> bool:
        """A square an official may stand on (not a roof, not a pavilion)."""
        return self.kind(sq) in ".sg"

    def wall(self, sq: Square, direction: str) -> bool:
        """Whether the edge of `sq` toward `direction` is a wall or the frame."""
        return self.steps[self.index(sq) * 4 + DIRECTIONS.index(direction)] < 0

    def doors(self, pavilion: int) -> tuple[tuple[Square, str], ...]:
        """The pavilion's doors: (its square, direction) for each open edge toward a square an
        official may stand on (the only doors a move can cross)."""
        found = []
        for sq in self.pavilions.get(pavilion, ()):
            i = self.index(sq)
            for d, name in enumerate(DIRECTIONS):
                nxt = self.steps[i * 4 + d]
                if nxt >= 0 and self._kinds[nxt] in ".sg":
                    found.append((sq, name))
        return tuple(found)

    # ------------------------------------------------------------ text
    @staticmethod
    def parse(text: str) -> Board:
        """Read the spec's board text; BoardError names the line (from 1) and the reason."""
        if text.endswith("\n"):
            text = text[:-1]
        lines = [line.rstrip("\r") for line in text.split("\n")]
        if not text.strip():
            raise BoardError(1, "the board text is empty")
        span = len(lines[0])
        if span < 3 or span % 2 == 0:
            raise BoardError(1, f"the first line has {span} characters: 2W+1 are needed")
        if len(lines) < 3 or len(lines) % 2 == 0:
            raise BoardError(len(lines), f"{len(lines)} lines: 2H+1 are needed")
        w, h = span // 2, len(lines) // 2
        for n, line in enumerate(lines):
            if len(line) > span:
                raise BoardError(n + 1, f"longer than the first line ({len(line)} > {span})")
        padded = [line.ljust(span) for line in lines]
        kinds: list[list[str]] = []
        walls: set[tuple[int, int]] = set()
        for y in range(h):
            row = padded[2 * y + 1]
            kinds.append([])
            for x in range(w):
                ch = row[2 * x + 1]
                if ch == " " and len(lines[2 * y + 1]) <= 2 * x + 1:
                    raise BoardError(2 * y + 2, f"square {x},{y} is missing")
                if ch not in KINDS:
                    raise BoardError(2 * y + 2, f"square {x},{y} is {ch!r}: one of . s g # or 1-8")
                kinds[y].append(ch)
                if x + 1 < w:
                    edge = row[2 * x + 2]
                    if edge not in "| ":
                        raise BoardError(
                            2 * y + 2,
                            f"between {x},{y} and {x + 1},{y}: {edge!r} is not | or blank",
                        )
                    if edge == "|":
                        walls.add((y * w + x, 1))
                        walls.add((y * w + x + 1, 3))
            if y + 1 < h:
                under = padded[2 * y + 2]
                for x in range(w):
                    edge = under[2 * x + 1]
                    if edge not in "- ":
                        raise BoardError(
                            2 * y + 3,
                            f"between {x},{y} and {x},{y + 1}: {edge!r} is not - or blank",
                        )
                    if edge == "-":
                        walls.add((y * w + x, 2))
                        walls.add(((y + 1) * w + x, 0))
        return Board(kinds, walls)

    @staticmethod
    def default() -> Board:
        """The board the bot plays on (`data/board.txt`), read once."""
        return _default()

    def to_text(self) -> str:
        """The board text, frame and every corner drawn, lines joined by newlines (no final one)."""
        w, h = self.width, self.height
        out = ["+-" * w + "+"]
        for y in range(h):
            row = ["|"]
            under = ["+"]
            for x in range(w):
                i = y * w + x
                row.append(self._kinds[i])
                row.append("|" if self.steps[i * 4 + 1] < 0 else " ")
                under.append("-" if self.steps[i * 4 + 2] < 0 else " ")
                under.append("+")
            out.append("".join(row))
            out.append("".join(under))
        return "\n".join(out)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (self.width, self._kinds, self._walls) == (other.width, other._kinds, other._walls)

    def __hash__(self) -> int:
        return hash((self.width, self._kinds, self._walls))

    def __repr__(self) -> str:
        return f"<Board {self.width} x {self.height}, pavilions {sorted(self.pavilions)}>"


@cache
def _default() -> Board:
    return Board.parse(_DEFAULT.read_text(encoding="utf-8"))
