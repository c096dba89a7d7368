"""The table: placed tiles, legality, and rooms kept up to date as tiles arrive.

Rooms are a union-find over tile parts. Each placement touches at most four neighbours, so the
work per move is constant: a room's open-edge count tells when it closes, and archway links are
kept as part pairs and resolved to rooms only when a closed room is valued. Legality is looked up
in a cache keyed by the tile and a small integer that encodes what the four neighbours show.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from .catalogue import start_tile
from .tiles import ARCH, DELTAS, OPEN, WALL, Tile, distinct_rotations

Cell = tuple[int, int]

TEMPLE: Final = "T"  # colour letter of the Imperial Temple's grey room
_COLOUR_CODE: Final = {"G": 2, "P": 3, "W": 4}
# Per-side neighbour code in a frontier key: 0 empty, 1 walled edge, 2-4 an open edge's colour.
_POW: Final = (1, 5, 25, 125)


class IllegalPlacement(ValueError):
    """A tile that may not go where it was put; the message says why."""


@dataclass(frozen=True, slots=True)
class Placed:
    """What stands on one cell."""

    kind: str  # "tile", "start", "temple" or "garden"
    edges: str
    tile: Tile | None = None  # oriented; None for the temple and gardens
    owner: int | None = None  # seat index of a player's tile
    parts: tuple[int, ...] = ()  # global part ids, in the tile's part order

    def part_at(self, side: int) -> int:
        """Global part id owning `side`, or -1 for a cell without rooms (a garden)."""
        if not self.parts:
            return -1
        if self.tile is None:
            return self.parts[0]
        return self.parts[self.tile.owners[side]]


@dataclass(slots=True)
class RoomInfo:
    """A room as the outside world sees it."""

    root: int
    colour: str  # "G", "P", "W" or "T"
    parts: list[tuple[Cell, int]]
    tiles: int
    dragons: int
    advisors: list[int]
    open_edges: int
    adjacent: list[int] = field(default_factory=list)  # roots of rooms through archways

    @property
    def closed(self) -> bool:
        return self.open_edges == 0


def _legal_for(tile: Tile, key: int) -> bool:
    """Whether oriented `tile` may stand on an empty cell whose neighbours encode to `key`."""
    if key == 0:
        return False
    for side in range(4):
        code = key // _POW[side] % 5
        if code >= 2 and tile.edges[side] == OPEN and _COLOUR_CODE[tile.colour_at(side)] != code:
            return False
    return True


_LEGAL_CACHE: dict[Tile, dict[int, tuple[int, ...]]] = {}


def legality_table(tile: Tile) -> dict[int, tuple[int, ...]]:
    """Memo of `legal_rotations` for one tile, keyed by neighbourhood; fills as it is used."""
    table = _LEGAL_CACHE.get(tile)
    if table is None:
        table = _LEGAL_CACHE[tile] = {}
    return table


def legal_rotations(tile: Tile, key: int) -> tuple[int, ...]:
    """Distinct clockwise quarter turns of unrotated `tile` that are legal for `key`."""
    table = legality_table(tile)
    cached = table.get(key)
    if cached is None:
        cached = table[key] = tuple(
            turns for turns in distinct_rotations(tile) if _legal_for(tile.rotated(turns), key)
        )
    return cached


class Board:
    """Tiles on the table and the rooms they form."""

    __slots__ = (
        "_adv",
        "_arch",
        "_cells",
        "_colour",
        "_diag",
        "_dragons",
        "_frontier",
        "_open",
        "_parent",
        "_part_cell",
        "_seats",
        "_tiles",
    )

    def __init__(self, seats: int) -> None:
        self._seats = seats
        self._cells: dict[Cell, Placed] = {}
        self._frontier: dict[Cell, int] = {}
        self._parent: list[int] = []
        self._part_cell: list[tuple[Cell, int]] = []
        self._colour: list[str] = []
        self._tiles: list[int] = []
        self._dragons: list[int] = []
        self._adv: list[list[int]] = []
        self._open: list[int] = []
        self._arch: list[list[int]] = []
        self._diag: list[list[Cell]] = []

    # ----------------------------------------------------------------- reading
    @property
    def cells(self) -> dict[Cell, Placed]:
        return self._cells

    def __contains__(self, cell: object) -> bool:
        return cell in self._cells

    def __len__(self) -> int:
        return len(self._cells)

    def frontier(self) -> dict[Cell, int]:
        """Empty cells next to a tile, with their neighbourhood keys."""
        return self._frontier

    def find(self, part: int) -> int:
        parent = self._parent
        root = part
        while parent[root] != root:
            root = parent[root]
        while parent[part] != root:
            parent[part], part = root, parent[part]
        return root

    def room(self, root: int) -> RoomInfo:
        root = self.find(root)
        parts = [self._part_cell[p] for p in range(len(self._parent)) if self.find(p) == root]
        return RoomInfo(
            root=root,
            colour=self._colour[root],
            parts=parts,
            tiles=self._tiles[root],
            dragons=self._dragons[root],
            advisors=list(self._adv[root]),
            open_edges=self._open[root],
            adjacent=self.adjacent_rooms(root),
        )

    def rooms(self) -> list[RoomInfo]:
        roots = sorted({self.find(p) for p in range(len(self._parent))})
        return [self.room(r) for r in roots]

    def adjacent_rooms(self, root: int) -> list[int]:
        root = self.find(root)
        found = {self.find(p) for p in self._arch[root]}
        found.discard(root)
        return sorted(found)

    def room_value(self, root: int) -> tuple[int, list[int]]:
        """Value of a room and the rooms through its archways that add to it."""
        root = self.find(root)
        adjacent = self.adjacent_rooms(root)
        value = self._tiles[root] + 3 * self._dragons[root]
        for other in adjacent:
            value += self._tiles[other] + 3 * self._dragons[other]
        return value, adjacent

    def room_stats(self, root: int) -> tuple[str, int, int, list[int]]:
        root = self.find(root)
        return self._colour[root], self._tiles[root], self._dragons[root], list(self._adv[root])

    def check(self, cell: Cell, tile: Tile) -> None:
        """Raise IllegalPlacement, with the reason, unless oriented `tile` may go on `cell`."""
        if cell in self._cells:
            raise IllegalPlacement(f"cell {cell[0]},{cell[1]} is already taken")
        key = self._frontier.get(cell, 0)
        if key == 0 and self._cells:
            raise IllegalPlacement(f"cell {cell[0]},{cell[1]} touches no tile")
        for side in range(4):
            code = key // _POW[side] % 5
            if (
                code >= 2
                and tile.edges[side] == OPEN
                and _COLOUR_CODE[tile.colour_at(side)] != code
            ):
                raise IllegalPlacement(
                    f"the {_SIDE[side]} edge joins rooms of different colours without a wall"
                )

    def copy(self) -> Board:
        """An independent copy, for trying a move without playing it."""
        other = Board.__new__(Board)
        other._seats = self._seats
        other._cells = dict(self._cells)
        other._frontier = dict(self._frontier)
        other._parent = list(self._parent)
        other._part_cell = list(self._part_cell)
        other._colour = list(self._colour)
        other._tiles = list(self._tiles)
        other._dragons = list(self._dragons)
        other._adv = [list(a) for a in self._adv]
        other._open = list(self._open)
        other._arch = [list(a) for a in self._arch]
        other._diag = [list(d) for d in self._diag]
        return other

    def may_close(self, cell: Cell, tile: Tile) -> bool:
        """Cheap test: False means placing oriented `tile` on `cell` cannot close any room."""
        x, y = cell
        consumed: dict[int, int] = {}
        empty_open = [0] * len(tile.colours)
        owners = tile.owners
        for side in range(4):
            dx, dy = DELTAS[side]
            neighbour = self._cells.get((x + dx, y + dy))
            if neighbour is None:
                if tile.edges[side] == OPEN:
                    empty_open[owners[side]] += 1
                continue
            back = (side + 2) % 4
            if neighbour.edges[back] == OPEN:
                root = self.find(neighbour.part_at(back))
                consumed[root] = consumed.get(root, 0) + 1
        if 0 in empty_open:
            return True
        return any(self._open[root] == n for root, n in consumed.items())

    # ----------------------------------------------------------------- writing
    def _new_part(self, cell: Cell, index: int, colour: str, tiles: int = 1) -> int:
        pid = len(self._parent)
        self._parent.append(pid)
        self._part_cell.append((cell, index))
        self._colour.append(colour)
        self._tiles.append(tiles)
        self._dragons.append(0)
        self._adv.append([0] * self._seats)
        self._open.append(0)
        self._arch.append([])
        self._diag.append([])
        return pid

    def _union(self, a: int, b: int) -> int:
        a, b = self.find(a), self.find(b)
        if a == b:
            return a
        if len(self._arch[a]) + len(self._diag[a]) < len(self._arch[b]) + len(self._diag[b]):
            a, b = b, a
        self._parent[b] = a
        self._tiles[a] += self._tiles[b]
        self._dragons[a] += self._dragons[b]
        adv_a, adv_b = self._adv[a], self._adv[b]
        for seat in range(self._seats):
            adv_a[seat] += adv_b[seat]
        self._open[a] += self._open[b]
        self._arch[a].extend(self._arch[b])
        if self._diag[b]:
            if self._diag[a]:
                shared = set(self._diag[a]) & set(self._diag[b])
                self._tiles[a] -= len(shared)
                merged = [c for c in self._diag[a] + self._diag[b] if c not in shared]
                self._diag[a] = merged
            else:
                self._diag[a] = self._diag[b]
        return a

    def _link(self, a: int, b: int) -> None:
        self._arch[self.find(a)].append(b)
        self._arch[self.find(b)].append(a)

    def lay_start(self, side: str) -> None:
        """Put one side of the start tile (beginner or advanced) on the nine centre cells."""
        for cell, (kind, text) in start_tile(side).items():
            if kind == "start":
                self.put(cell, Tile.parse(text), None, kind="start")
            else:
                self.put_special(cell, kind, text)

    def put_special(self, cell: Cell, kind: str, edges: str) -> None:
        """Place the temple (a grey one-tile room) or a garden (a dead, walled cell)."""
        if kind == "temple":
            part = self._new_part(cell, 0, TEMPLE)
            placed = Placed("temple", edges, None, None, (part,))
        elif kind == "garden":
            placed = Placed("garden", edges)
        else:
            raise ValueError(f"unknown special cell {kind!r}")
        self._attach(cell, placed)

    def put(self, cell: Cell, tile: Tile, owner: int | None, kind: str = "tile") -> list[int]:
        """Place oriented `tile` without checking; return the roots of the rooms it closed."""
        parts = []
        for index, colour in enumerate(tile.colours):
            pid = self._new_part(cell, index, colour)
            if len(tile.colours) == 2 and tile.colours[0] == tile.colours[1]:
                self._diag[pid].append(cell)
            parts.append(pid)
        if tile.dragon:
            self._dragons[parts[tile.content_part]] += 1
        if tile.advisors and owner is not None:
            self._adv[parts[tile.content_part]][owner] += tile.advisors
        if tile.diagonal_arch:
            self._link(parts[0], parts[1])
        return self._attach(cell, Placed(kind, tile.edges, tile, owner, tuple(parts)))

    def _attach(self, cell: Cell, placed: Placed) -> list[int]:
        if cell in self._cells:
            raise IllegalPlacement(f"cell {cell[0]},{cell[1]} is already taken")
        self._cells[cell] = placed
        self._frontier.pop(cell, None)
        touched = list(placed.parts)
        x, y = cell
        edges = placed.edges
        for side in range(4):
            dx, dy = DELTAS[side]
            other = (x + dx, y + dy)
            mine = edges[side]
            part = placed.part_at(side)
            neighbour = self._cells.get(other)
            if neighbour is None:
                if mine == OPEN:
                    self._open[self.find(part)] += 1
                    code = _COLOUR_CODE[self._colour[part]]
                else:
                    code = 1
                self._frontier[other] = self._frontier.get(other, 0) + code * _POW[(side + 2) % 4]
                continue
            back = (side + 2) % 4
            theirs = neighbour.edges[back]
            their_part = neighbour.part_at(back)
            if theirs == OPEN:
                root = self._union(part, their_part) if mine == OPEN else self.find(their_part)
                self._open[root] -= 1
                touched.append(root)
            if WALL not in (mine, theirs) and ARCH in (mine, theirs):
                self._link(part, their_part)
        closed: list[int] = []
        for part in touched:
            root = self.find(part)
            if self._open[root] == 0 and root not in closed:
                closed.append(root)
        return closed

    # ----------------------------------------------------------------- checking
    def recomputed_rooms(self) -> list[frozenset[tuple[Cell, int]]]:
        """Rooms found again by flood fill from the cells alone, to check the union-find."""
        seen: set[tuple[Cell, int]] = set()
        rooms = []
        for cell, placed in self._cells.items():
            for index in range(len(placed.parts)):
                if (cell, index) in seen:
                    continue
                room = set()
                todo = [(cell, index)]
                while todo:
                    node = todo.pop()
                    if node in room:
                        continue
                    room.add(node)
                    (cx, cy), ci = node
                    here = self._cells[(cx, cy)]
                    for side in range(4):
                        if _local(here, side) != ci or here.edges[side] != OPEN:
                            continue
                        dx, dy = DELTAS[side]
                        there = self._cells.get((cx + dx, cy + dy))
                        back = (side + 2) % 4
                        if there is not None and there.edges[back] == OPEN:
                            todo.append(((cx + dx, cy + dy), _local(there, back)))
                seen |= room
                rooms.append(frozenset(room))
        return rooms


def _local(placed: Placed, side: int) -> int:
    return placed.tile.owners[side] if placed.tile is not None else 0


_SIDE: Final = ("north", "east", "south", "west")
