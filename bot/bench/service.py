"""Service speed: moves typed through the real service, a real redis-server and real images,
for every game, each driven through its module (its own stand-in plays for every seat).

Players have tables of their own and type every decision in their private chat, where a
secret (a Verbotene Stadt bribe) may be typed too; what is timed is a decision that redraws
the table image, as most moves do.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from ..config import Settings
from ..exchange.actor import Actor
from ..games import DEFAULT, MODULES, GameInfo, module
from ..load.moves import choose, open_table
from ..local_redis.server import temporary_redis_server
from ..records.table import Table
from ..service import GameService
from ..store import Channel, Store
from . import messages


@dataclass(slots=True)
class Figures:
    latencies: list[float] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)


async def _step(service: GameService, channel: str, rng: random.Random) -> float | None:
    """One decision typed through the service: the seconds it took if it redrew the table.
    `LookupError` once the game is over (its table archived)."""
    record = await service.store.load(Channel.of("bench", channel))
    if record is None:
        raise LookupError(channel)
    table = Table.model_validate_json(record.data)
    seat, text = table.module.visit(choose, table, rng)
    user = table.user_of(seat).user_id
    actor = Actor("bench", channel, user, user.upper(), private=True)
    start = time.perf_counter()
    reply = await service.command(actor, f"play {text}")
    took = time.perf_counter() - start
    assert reply.ok, reply.private
    return took if any(m.image for m in reply.public) else None


async def _timed(service: GameService, names: list[str], moves: int) -> Figures:
    """Latency over whole games (early and late tables alike), one table after the other."""
    figures = Figures()
    rng = random.Random(1)
    for name in names:
        try:
            while len(figures.latencies) < moves:
                took = await _step(service, name, rng)
                if took is not None:
                    figures.latencies.append(took)
                record = await service.store.load(Channel.of("bench", name))
                if record is not None:
                    figures.sizes.append(len(record.data))
        except LookupError:
            continue
        if len(figures.latencies) >= moves:
            break
    figures.latencies.sort()
    return figures


async def _concurrent(service: GameService, names: list[str]) -> tuple[int, float]:
    """Three decisions on every table at once: how many were played, and in how long."""

    async def play_on(name: str) -> int:
        rng = random.Random(name)
        done = 0
        try:
            for _ in range(3):
                await _step(service, name, rng)
                done += 1
        except LookupError:
            pass
        return done

    start = time.perf_counter()
    played = sum(await asyncio.gather(*(play_on(name) for name in names)))
    return played, time.perf_counter() - start


async def _session(url: str, game: GameInfo, tables: int, moves: int) -> dict[str, Any]:
    """One game's figures; the default game's keep their first names (`play_*`), the others
    are prefixed with the game's first word (`stadt_move_*`)."""
    store = Store.from_url(url)
    service = GameService(store, Settings(_env_file=None))  # type: ignore[call-arg]
    names = [f"{game.words[0]}{i}" for i in range(tables)]
    for name in names:
        await open_table(service, game.key, name, "bench")
    played, elapsed = await _concurrent(service, names)
    figures = await _timed(service, names, moves)
    info = await store.client.info("memory")
    await store.close()
    latencies, sizes = figures.latencies, figures.sizes
    median = round(statistics.median(latencies) * 1000, 2)
    p99 = round(latencies[max(0, int(len(latencies) * 0.99) - 1)] * 1000, 2)
    if game.key == DEFAULT:
        return {
            "play_median_ms": median,
            "play_p99_ms": p99,
            "timed_plays": len(latencies),
            "concurrent_games": tables,
            "moves_per_second": round(played / elapsed, 1),
            "concurrent_moves": played,
            "stored_game_bytes_median": int(statistics.median(sizes)),
            "stored_game_bytes_max": max(sizes),
            "redis_used_memory_bytes": int(info["used_memory"]),
        }
    prefix = game.words[0]
    return {
        f"{prefix}_move_median_ms": median,
        f"{prefix}_move_p99_ms": p99,
        f"{prefix}_timed_moves": len(latencies),
        f"{prefix}_concurrent_games": tables,
        f"{prefix}_moves_per_second": round(played / elapsed, 1),
        f"{prefix}_stored_game_bytes_max": max(sizes),
    }


async def run(games: int = 200, moves: int = 300) -> dict[str, Any]:
    """Every game's figures; the default game on `games` tables, the others on a twentieth;
    and the message budget of a game of one person against computers (`messages`)."""
    figures: dict[str, Any] = {}
    with temporary_redis_server() as server:
        for key in MODULES:
            tables = games if key == DEFAULT else max(1, games // 20)
            figures |= await _session(server.url, module(key), tables, moves)
        figures["messages"] = await messages.figures(server.url)
    return figures
