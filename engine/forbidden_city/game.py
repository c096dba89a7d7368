"""A game of Forbidden City: state, legal moves, play, and the end.

The state is the dealt stacks plus the moves played; everything else (table, rooms, coins)
follows from them, which is what makes a seed and a move log replay a game exactly.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from typing import overload

from engine.core.errors import CorruptRecord
from engine.core.errors import IllegalMove as IllegalMove
from engine.core.record import parse, replay
from engine.core.shape import ToAct

from .board import Board, IllegalPlacement, legal_rotations, legality_table
from .catalogue import COLOURS, TWO_PLAYER_COLOURS, stack_for
from .events import (
    GameEnded,
    MoveResult,
    RoomClosed,
    TileDiscarded,
    TilePlaced,
)
from .moves import DISCARD, Discard, Move, Place, parse_move
from .record import GameRecord, check_deal
from .scoring import bonus, closed_room
from .tiles import Tile, distinct_rotations
from .view import ClosedRoom, SeatView, TableCell

TILES_LEFT_AT_END = 2


class GameOverError(IllegalMove):
    """A move after the end."""


def deal(players: Sequence[str], seed: int) -> list[list[str]]:
    """Each seat's shuffled stack, first tile to draw first."""
    rng = random.Random(seed)
    stacks = []
    for colour in players:
        stack = stack_for(colour, len(players))
        rng.shuffle(stack)
        stacks.append(stack)
    return stacks


def check_seats(players: Sequence[str]) -> None:
    if not 2 <= len(players) <= 4:
        raise ValueError("Forbidden City is played by 2, 3 or 4 players")
    for colour in players:
        if colour not in COLOURS:
            raise ValueError(f"unknown seat colour {colour!r}: one of {', '.join(COLOURS)}")
    if len(set(players)) != len(players):
        raise ValueError("each seat needs its own colour")
    if len(players) == 2 and set(players) != set(TWO_PLAYER_COLOURS):
        raise ValueError("a 2-player game is played with purple and yellow")


class Game:
    """One table. Seats play in the order given, the first seat first."""

    def __init__(
        self,
        players: Sequence[str] | int = 4,
        start: str = "beginner",  # or "advanced"; "none" leaves the table empty (puzzles)
        seed: int | None = None,
        stacks: Sequence[Sequence[str]] | None = None,
    ) -> None:
        seats = tuple(COLOURS[:players]) if isinstance(players, int) else tuple(players)
        check_seats(seats)
        self.players: tuple[str, ...] = seats
        self.start = start
        self.seed = secrets.randbits(63) if seed is None else seed
        if stacks is None:
            dealt = deal(seats, self.seed)
        else:
            if len(stacks) != len(seats):
                raise ValueError("one stack per seat")
            dealt = [[Tile.parse(code).code for code in stack] for stack in stacks]
        self.stacks: tuple[tuple[str, ...], ...] = tuple(tuple(s) for s in dealt)
        self.board = Board(len(seats))
        if start != "none":
            self.board.lay_start(start)
        self.coins = [0] * len(seats)
        self.turn = 0
        self.moves: list[Move] = []
        self.results: list[MoveResult] = []
        self._next = [1] * len(seats)  # index of each seat's next draw; hand is the one before
        self._hand_tiles: dict[str, Tile] = {}
        self.ended: GameEnded | None = None
        self._check_end()

    # --------------------------------------------------------------- reading
    @property
    def is_over(self) -> bool:
        return self.ended is not None

    @property
    def current(self) -> str:
        return self.players[self.turn]

    def seat_of(self, colour: str) -> int:
        return self.players.index(colour)

    def hand(self, seat: int | str) -> str | None:
        """The tile in a seat's hand (unrotated), None once the game is over."""
        index = self.seat_of(seat) if isinstance(seat, str) else seat
        if self.is_over:
            return None
        return self.stacks[index][self._next[index] - 1]

    def tiles_left(self, seat: int | str) -> int:
        """Tiles a seat still holds: the one in hand plus its stack."""
        index = self.seat_of(seat) if isinstance(seat, str) else seat
        return len(self.stacks[index]) - self._next[index] + 1

    @property
    def scores(self) -> dict[str, int]:
        return dict(zip(self.players, self.coins, strict=True))

    @property
    def winners(self) -> list[str]:
        """Seats with the most coins once the game is over (ties share the victory)."""
        if not self.is_over:
            return []
        best = max(self.coins)
        return [c for c, n in zip(self.players, self.coins, strict=True) if n == best]

    def _hand_tile(self) -> Tile:
        code = self.stacks[self.turn][self._next[self.turn] - 1]
        tile = self._hand_tiles.get(code)
        if tile is None:
            tile = self._hand_tiles[code] = Tile.parse(code)
        return tile

    def legal_moves(self) -> list[Move]:
        """Every distinct placement of the tile in hand; only `discard` if it fits nowhere."""
        if self.is_over:
            return []
        tile = self._hand_tile()
        if not len(self.board):
            return [Place(0, 0, r) for r in distinct_rotations(tile)]
        table = legality_table(tile)
        moves: list[Move] = []
        for (x, y), key in self.board.frontier().items():
            turns = table.get(key)
            if turns is None:
                turns = legal_rotations(tile, key)
            for r in turns:
                moves.append(Place(x, y, r))
        return moves or [DISCARD]

    @property
    def to_act(self) -> list[ToAct]:
        """The seat to play (kind "place"); nobody once the game is over."""
        return [] if self.is_over else [ToAct(self.current, "place")]

    def legal_actions(self, seat: str) -> list[Move]:
        """`legal_moves()` for the seat to play, nothing for the others."""
        return self.legal_moves() if not self.is_over and seat == self.current else []

    @staticmethod
    def parse_action(text: str) -> Move:
        return parse_move(text)

    def has_placement(self) -> bool:
        tile = self._hand_tile()
        if not len(self.board):
            return True
        return any(legal_rotations(tile, key) for key in self.board.frontier().values())

    # --------------------------------------------------------------- playing
    @overload
    def play(self, move: Move | str, /) -> MoveResult: ...

    @overload
    def play(self, seat: str, move: Move | str, /) -> MoveResult: ...

    def play(self, first: Move | str, second: Move | str | None = None, /) -> MoveResult:
        """Apply a move for the seat to play (`play(move)`, or `play(seat, move)` which also
        checks the seat); raise IllegalMove (state unchanged) if it may not."""
        move = first if second is None else second
        if isinstance(move, str):
            move = parse_move(move)
        if self.is_over:
            raise GameOverError("the game is over")
        if second is not None and first != self.current:
            raise IllegalMove(f"it is {self.current}'s turn, not {first}'s")
        seat = self.turn
        colour = self.players[seat]
        tile = self._hand_tile()
        result = MoveResult(colour)
        if isinstance(move, Discard):
            if self.has_placement():
                raise IllegalMove("the tile in hand fits somewhere: it must be placed")
            result.events.append(TileDiscarded(colour, tile.code))
        elif isinstance(move, Place):
            if move.rotation not in (0, 1, 2, 3):
                raise IllegalMove("rotation must be 0, 1, 2 or 3 quarter turns")
            oriented = tile.rotated(move.rotation)
            cell = (move.x, move.y)
            if not len(self.board) and cell != (0, 0):
                raise IllegalMove("the first tile on an empty table goes at 0,0")
            try:
                self.board.check(cell, oriented)
            except IllegalPlacement as err:
                raise IllegalMove(str(err)) from None
            closed = self.board.put(cell, oriented, seat)
            result.events.append(TilePlaced(colour, move.x, move.y, oriented.code, move.rotation))
            for root in closed:
                result.events.append(self._close(root, colour))
        else:
            raise IllegalMove(f"not a move: {move!r}")
        self.moves.append(move)
        self._next[seat] += 1
        self.turn = (seat + 1) % len(self.players)
        self._check_end(result)
        self.results.append(result)
        return result

    def _close(self, root: int, by: str) -> RoomClosed:
        event = closed_room(self.board, root, self.players, by)
        for seat_colour, amount in event.paid.items():
            self.coins[self.seat_of(seat_colour)] += amount
        return event

    def _check_end(self, result: MoveResult | None = None) -> None:
        if self.ended is not None:
            return
        if any(self.tiles_left(seat) > TILES_LEFT_AT_END for seat in range(len(self.players))):
            return
        revealed: dict[str, list[str]] = {}
        extra: dict[str, int] = {}
        for seat, colour in enumerate(self.players):
            codes = list(self.stacks[seat][self._next[seat] - 1 :])
            revealed[colour] = codes
            extra[colour] = bonus(codes)
            self.coins[seat] += extra[colour]
        best = max(self.coins)
        winners = [c for c, n in zip(self.players, self.coins, strict=True) if n == best]
        self.ended = GameEnded(revealed, extra, self.scores, winners)
        if result is not None:
            result.events.append(self.ended)

    # --------------------------------------------------------------- copies
    def replay(self) -> Game:
        """A fresh game from the same deal, with the same moves played again."""
        game = Game(self.players, self.start, self.seed, self.stacks)
        for move in self.moves:
            game.play(move)
        return game

    def copy(self) -> Game:
        """An independent game in the same state, without replaying (for search players)."""
        other = Game.__new__(Game)
        other.players, other.start, other.seed = self.players, self.start, self.seed
        other.stacks = self.stacks
        other.board = self.board.copy()
        other.coins = list(self.coins)
        other.turn = self.turn
        other.moves = list(self.moves)
        other.results = list(self.results)
        other._next = list(self._next)
        other._hand_tiles = self._hand_tiles  # a cache of parsed tiles, safe to share
        other.ended = self.ended
        return other

    def to_json(self) -> str:
        """The record: deal, moves and a coin snapshot (see record.py)."""
        return to_record(self).model_dump_json()

    @staticmethod
    def from_json(text: str | bytes) -> Game:
        """Rebuild a game from `to_json`, replaying and checking every move."""
        return from_record(parse(GameRecord, text))

    def view(self, seat: str | None = None) -> SeatView:
        """What `seat` may see (None: a spectator): other hands and all stacks hidden."""
        if seat is not None and seat not in self.players:
            raise ValueError(f"no seat {seat!r} at this table")
        table = []
        for (x, y), placed in sorted(self.board.cells.items(), key=lambda kv: (kv[0][1], kv[0][0])):
            code = placed.tile.code if placed.tile is not None else placed.edges
            owner = self.players[placed.owner] if placed.owner is not None else None
            table.append(TableCell(x=x, y=y, kind=placed.kind, code=code, owner=owner))
        n = len(self.players)
        own_turn = seat is not None and not self.is_over and seat == self.current
        rooms = [
            ClosedRoom(move=index, colour=room.colour, value=room.value, cells=room.cells,
                       paid=room.paid)
            for index, result in enumerate(self.results)
            for room in result.closed
        ]  # fmt: skip
        return SeatView(
            players=list(self.players),
            start=self.start,
            seat=seat,
            to_play=None if self.is_over else self.current,
            coins=self.scores,
            tiles_left={c: self.tiles_left(c) for c in self.players},
            table=table,
            hand=self.hand(seat) if seat is not None else None,
            legal_moves=[str(m) for m in self.legal_moves()] if own_turn else [],
            moves=[str(m) for m in self.moves],
            played=[self.stacks[i % n][i // n] for i in range(len(self.moves))],
            rooms=rooms,
            over=self.is_over,
            winners=self.winners,
            revealed=self.ended.revealed if self.ended else {},
            bonus=self.ended.bonus if self.ended else {},
        )

    def __repr__(self) -> str:
        state = "over" if self.is_over else f"{self.current} to play"
        return f"<Game {'/'.join(self.players)} {self.start} move {len(self.moves)}, {state}>"


def to_record(game: Game) -> GameRecord:
    return GameRecord(
        players=list(game.players),
        start=game.start,  # type: ignore[arg-type]
        seed=game.seed,
        stacks=[list(s) for s in game.stacks],
        moves=[str(m) for m in game.moves],
        coins=list(game.coins),
    )


def dealt(record: GameRecord) -> tuple[Game, list[tuple[str, str]]]:
    """The game of a record as dealt, before any move, and its moves with their seats."""
    check_deal(record)
    try:
        game = Game(record.players, record.start, record.seed, record.stacks)
    except ValueError as err:
        raise CorruptRecord(f"bad deal: {err}") from None
    seats = game.players
    return game, [(seats[i % len(seats)], text) for i, text in enumerate(record.moves)]


def from_record(record: GameRecord) -> Game:
    """The game a record describes, every move replayed and checked."""
    game, actions = dealt(record)
    return replay(game, actions, {"coins": record.coins}, lambda g: {"coins": g.coins})
