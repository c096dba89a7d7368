"""Service speed: single `play` latency and throughput with many concurrent games, measured
through the real service, a real redis-server and real rendering."""

from __future__ import annotations

import asyncio
import random
import statistics
import time
from typing import Any

from engine.forbidden_city import DISCARD, Game, Place

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


async def run(games: int = 200, moves: int = 300) -> dict[str, Any]:
    with temporary_redis_server() as server:
        return await _session(server.url, games, moves)
