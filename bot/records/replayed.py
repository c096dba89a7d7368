"""Games already replayed, kept per process by their record, so a command starts from a copy.

Loading a table's game replays its whole record from the seed (`GameModule.load`): 3 ms for a
late tile game, 9 ms for a Die Verbotene Stadt game of 400 actions, on every command, so the
work of a whole game grows with the square of its length. The process that stores a move
keeps the game after it, by the record it stored (`kept`); the table's next command here, the
common case (a Discord shard serves its guilds, and a load run or a sticky proxy sends a table
to one process), starts from a copy of it. A miss replays. Redis holds the only truth: a record
another process stored is another key, and losing this cache loses nothing.

A game not asked for in `IDLE` seconds is let go. Without that, the games other processes
finish stayed here until 512 others pushed them out (every process loads a table when it fires
its reminder): in a half-hour run each process held about 80 games for the 20 tables it
served, and its memory grew with every game finished elsewhere. A table idle that long replays
its record once when it wakes, a few milliseconds against turns that take minutes or days.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections import OrderedDict
from typing import Any, Final, TypeVar

from ..games import GameModule, Playing, Record

G = TypeVar("G", bound=Playing)
V = TypeVar("V")
A = TypeVar("A")

GAMES: Final = 512  # games kept a process: 10-100 KB each, by length
IDLE: Final = 300.0  # seconds a kept game stays unasked for before it is let go

Ident = tuple[str, int]  # a game: its module's key and its seed
# record digest -> its game and when it was last kept or asked for, least recently first
_games: OrderedDict[bytes, tuple[Ident, Any, float]] = OrderedDict()
_latest: dict[Ident, bytes] = {}  # each game's latest record here: older ones are dropped
_lock = threading.Lock()
clock = time.monotonic  # replaced by tests


def _key(game_module: GameModule[Any, Any, Any], data: Record) -> bytes:
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.blake2b(f"{game_module.key}\n{text}".encode(), digest_size=16).digest()


def load(game_module: GameModule[G, V, A], data: Record) -> G:
    """The game `data` replays to: a copy of the one kept, else replayed (and kept)."""
    key = _key(game_module, data)
    with _lock:
        _let_go_idle()
        found = _games.get(key)
        if found is not None:
            _games[key] = (found[0], found[1], clock())
            _games.move_to_end(key)
    if found is not None:
        copied: G = found[1].copy()
        return copied
    game = game_module.load(data)
    _keep(game_module, key, game.copy())
    return game


def kept(game_module: GameModule[G, V, A], data: Record, game: G) -> None:
    """`game` was just stored as `data`: keep a copy, for the table's next command, in place
    of the game's older record."""
    _keep(game_module, _key(game_module, data), game.copy())


def _keep(game_module: GameModule[Any, Any, Any], key: bytes, game: Playing) -> None:
    """Keep `game` as the one its record `key` replays to, in place of its older record; a
    game that is over is archived, and has no next command: nothing of it is kept."""
    ident = (game_module.key, game.seed)
    with _lock:
        older = _latest.pop(ident, None)
        if older is not None:
            _games.pop(older, None)
        if game.is_over:
            return
        _latest[ident] = key
        _games[key] = (ident, game, clock())
        _games.move_to_end(key)
        while len(_games) > GAMES:
            _drop_oldest()
        _let_go_idle()


def _drop_oldest() -> None:
    _, (dropped, _, _) = _games.popitem(last=False)
    _latest.pop(dropped, None)


def _let_go_idle() -> None:
    """Drop the games not asked for in `IDLE` seconds (the oldest first; under the lock)."""
    limit = clock() - IDLE
    while _games and next(iter(_games.values()))[2] < limit:
        _drop_oldest()


def held() -> int:
    """How many games are kept now."""
    return len(_games)


def forget() -> None:
    """Drop every kept game (tests)."""
    with _lock:
        _games.clear()
        _latest.clear()
