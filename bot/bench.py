"""Service speed: single `play` latency and throughput with many concurrent games, measured
through the real service, a real redis-server and real rendering, for both games."""

from __future__ import annotations

import asyncio
import random
import statistics
import time
from typing import Any

from engine.forbidden_city import DISCARD, Game, Place
from engine.verbotene_stadt import Game as StadtGame
from engine.verbotene_stadt import MoveOfficial
from engine.verbotene_stadt.actions import Bribe
from engine.verbotene_stadt.players import choose_simple

from .actor import Actor
from .config import Settings
from .redis_server import temporary_redis_server
from .service import GameService
from .store import Channel, Store
from .table import Table

PLAYERS = ("a", "b", "c", "d")


async def _open(service: GameService, channel: str) -> tuple[Game, dict[str, str]]:
    """A started 4-player table, and who sits in each colour (seats are dealt at random)."""
    for user in PLAYERS:
        actor = Actor("bench", channel, user, user.upper())
        reply = await service.command(actor, "new" if user == "a" else "join")
        assert reply.ok, reply.private
    reply = await service.command(Actor("bench", channel, "a", "A"), "start")
    assert reply.ok, reply.private
    record = await service.store.load(Channel.of("bench", channel))
    assert record is not None
    table = Table.model_validate_json(record.data)
    game = table.load_game()
    return game, {c: table.user_of(c).user_id for c in game.players}


async def _move(
    service: GameService, channel: str, seated: tuple[Game, dict[str, str]], rng: random.Random
) -> float:
    """Play one random legal move through the service; the seconds it took."""
    game, users = seated
    move = rng.choice(game.legal_moves())
    assert isinstance(move, Place)
    user = users[game.current]
    actor = Actor("bench", channel, user, user.upper())
    start = time.perf_counter()
    reply = await service.command(actor, f"play {move.x},{move.y} {move.rotation}")
    took = time.perf_counter() - start
    assert reply.ok, reply.private
    game.play(move)
    while not game.is_over and game.legal_moves() == [DISCARD]:
        game.play(DISCARD)  # the service sets aside tiles that fit nowhere by itself
    return took


async def _session(url: str, games: int, moves: int) -> dict[str, Any]:
    store = Store.from_url(url)
    service = GameService(store, Settings(_env_file=None))  # type: ignore[call-arg]
    rng = random.Random(1)
    tables = {f"g{i}": await _open(service, f"g{i}") for i in range(games)}
    order = list(tables)
    for table in order[-3:]:
        await _move(service, table, tables[table], rng)  # warm caches
    # Latency over whole games (early and late tables alike), one table after the other.
    latencies: list[float] = []
    for name in order:
        while len(latencies) < moves and not tables[name][0].is_over:
            latencies.append(await _move(service, name, tables[name], rng))
        if len(latencies) >= moves:
            break
    latencies.sort()

    async def play_on(name: str, count: int) -> int:
        done = 0
        local = random.Random(name)
        while done < count and not tables[name][0].is_over:
            await _move(service, name, tables[name], local)
            done += 1
        return done

    start = time.perf_counter()
    played = sum(await asyncio.gather(*(play_on(name, 3) for name in order)))
    elapsed = time.perf_counter() - start
    info = await store.client.info("memory")
    sizes = []
    for name in order:
        record = await store.load(Channel.of("bench", name))
        if record is not None:
            sizes.append(len(record.data))
    await store.close()
    return {
        "play_median_ms": round(statistics.median(latencies) * 1000, 2),
        "play_p99_ms": round(latencies[int(len(latencies) * 0.99) - 1] * 1000, 2),
        "timed_plays": len(latencies),
        "concurrent_games": games,
        "moves_per_second": round(played / elapsed, 1),
        "concurrent_moves": played,
        "stored_game_bytes_median": int(statistics.median(sizes)),
        "stored_game_bytes_max": max(sizes),
        "redis_used_memory_bytes": int(info["used_memory"]),
    }


async def _stadt_table(service: GameService, channel: str) -> None:
    """Players of their own (a bribe typed privately must find its one table)."""
    for user in PLAYERS:
        actor = Actor("bench", channel, channel + user, user.upper())
        reply = await service.command(actor, "new stadt" if user == "a" else "join")
        assert reply.ok, reply.private
    reply = await service.command(Actor("bench", channel, channel + "a", "A"), "start")
    assert reply.ok, reply.private


async def _stadt_step(
    service: GameService, channel: str, rng: random.Random
) -> tuple[float | None, bool]:
    """One decision of Die Verbotene Stadt typed through the service (a simple player's); the
    seconds it took if it was a move, and whether the game goes on."""
    record = await service.store.load(Channel.of("bench", channel))
    if record is None:
        return None, False
    table = Table.model_validate_json(record.data)
    game: StadtGame = table.load_game()
    turn = game.to_act[0]
    action = choose_simple(game, turn.seat, rng)
    user = table.user_of(turn.seat).user_id
    secret = isinstance(action, Bribe)  # a bribe is typed in a private chat only
    actor = Actor("bench", channel, user, user.upper(), private=secret)
    start = time.perf_counter()
    reply = await service.command(actor, f"play {action}")
    took = time.perf_counter() - start
    assert reply.ok, reply.private
    return (took if isinstance(action, MoveOfficial) else None), True


async def _stadt_session(url: str, games: int, moves: int) -> dict[str, Any]:
    """Die Verbotene Stadt: moves through the service, Redis and the table image."""
    store = Store.from_url(url)
    service = GameService(store, Settings(_env_file=None))  # type: ignore[call-arg]
    rng = random.Random(2)
    latencies: list[float] = []
    sizes: list[int] = []
    for index in range(games):
        name = f"s{index}"
        await _stadt_table(service, name)
        going = True
        while going and len(latencies) < moves:
            took, going = await _stadt_step(service, name, rng)
            if took is not None:
                latencies.append(took)
            record = await store.load(Channel.of("bench", name))
            if record is not None:
                sizes.append(len(record.data))
        if len(latencies) >= moves:
            break
    await store.close()
    latencies.sort()
    return {
        "stadt_move_median_ms": round(statistics.median(latencies) * 1000, 2),
        "stadt_move_p99_ms": round(latencies[int(len(latencies) * 0.99) - 1] * 1000, 2),
        "stadt_timed_moves": len(latencies),
        "stadt_move_goal_ms": 50.0,
        "stadt_stored_game_bytes_max": max(sizes),
    }


async def run(games: int = 200, moves: int = 300) -> dict[str, Any]:
    with temporary_redis_server() as server:
        figures = await _session(server.url, games, moves)
        figures |= await _stadt_session(server.url, max(1, games // 20), moves)
        return figures
