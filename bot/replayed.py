"""Games already replayed, kept per process by their record, so a command starts from a copy.

Loading a table's game replays its whole record from the seed (`GameModule.load`): 3 ms for a
late tile game, 9 ms for a Die Verbotene Stadt game of 400 actions, on every command, so the
work of a whole game grows with the square of its length. The process that stores a move
keeps the game after it, by the record it stored (`kept`); the table's next command here, the
common case (a Discord shard serves its guilds, and a load run or a sticky proxy sends a table
to one process), starts from a copy of it. A miss replays. Redis holds the only truth: a record
another process stored is another key, and losing this cache loses nothing.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from typing import Any, Final, TypeVar

from .games import GameModule, Playing, Record

G = TypeVar("G", bound=Playing)
V = TypeVar("V")
A = TypeVar("A")

GAMES: Final = 512  # games kept a process: 10-100 KB each, by length

Ident = tuple[str, int]  # a game: its module's key and its seed
_games: OrderedDict[bytes, tuple[Ident, Any]] = OrderedDict()  # record digest -> its game
_latest: dict[Ident, bytes] = {}  # each game's latest record here: older ones are dropped
_lock = threading.Lock()


def _key(game_module: GameModule[Any, Any, Any], data: Record) -> bytes:
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.blake2b(f"{game_module.key}\n{text}".encode(), digest_size=16).digest()


def load(game_module: GameModule[G, V, A], data: Record) -> G:
    """The game `data` replays to: a copy of the one kept, else replayed (and kept)."""
    key = _key(game_module, data)
    with _lock:
        found = _games.get(key)
        if found is not None:
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
        _games[key] = (ident, game)
        _games.move_to_end(key)
        while len(_games) > GAMES:
            _, (dropped, _) = _games.popitem(last=False)
            _latest.pop(dropped, None)


def held() -> int:
    """How many games are kept now."""
    return len(_games)


def forget() -> None:
    """Drop every kept game (tests)."""
    with _lock:
        _games.clear()
        _latest.clear()
