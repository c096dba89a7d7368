"""What a load run shows while it goes: a progress line every few seconds on standard error, and
the memory curve of a long run (each bot process's resident memory, Redis's memory per table).

A run of half an hour must say early that it is failing, and a slow leak only shows as a curve:
the figures compare the end with a sample taken once the processes are warm (after the first
five minutes, or the first sixth of a shorter run).
"""

from __future__ import annotations

import asyncio
import os
import time
from dataclasses import dataclass, field
from typing import Any

from ..store import Channel, Store
from .moves import PLATFORM

PAGE = os.sysconf("SC_PAGE_SIZE")
WARM_AFTER = 300.0  # seconds before the memory baseline, in a run long enough
_BATCH = 100  # tables whose memory is asked at once


def rss_bytes(pid: int) -> int:
    with open(f"/proc/{pid}/statm") as statm:
        return int(statm.read().split()[1]) * PAGE


@dataclass(frozen=True, slots=True)
class Sample:
    at: float  # seconds into the run
    rss: tuple[int, ...]  # each bot process's resident bytes
    redis_used: int  # Redis's used_memory
    per_table: int  # bytes of a live table's key, on average
    finished: int  # games ended so far (their results kept)
    caches: tuple[dict[str, int], ...] = ()  # each bot process's image caches: bytes by name


@dataclass
class Watch:
    """Samples taken every `every` seconds, the progress line printed at each."""

    every: float
    started: float = field(default_factory=time.perf_counter)
    samples: list[Sample] = field(default_factory=list)

    def baseline(self, seconds: float) -> Sample:
        warm = min(WARM_AFTER, seconds / 6)
        return next((s for s in self.samples if s.at >= warm), self.samples[-1])

    def curve(self, points: int = 7) -> list[list[float]]:
        """About `points` samples spread over the run, each [seconds, MB of every process]:
        enough to tell a cache filling up (a curve that flattens) from a leak (one that does
        not)."""
        step = max(1, len(self.samples) // (points - 1))
        picked = self.samples[::step]
        if picked[-1] is not self.samples[-1]:
            picked.append(self.samples[-1])
        return [[round(s.at), *(round(r / 2**20, 1) for r in s.rss)] for s in picked]

    def figures(self, seconds: float) -> dict[str, Any]:
        """The curve's warm start and its end, and the growth between them in per cent."""
        if not self.samples:
            return {}
        start, end = self.baseline(seconds), self.samples[-1]

        def growth(before: float, after: float) -> float:
            return round(100 * (after - before) / before, 1) if before else 0.0

        return {
            "memory_from_s": round(start.at),
            "memory_to_s": round(end.at),
            "rss_mb": [
                [round(a / 2**20, 1), round(b / 2**20, 1)]
                for a, b in zip(start.rss, end.rss, strict=False)
            ],
            "rss_growth_pct": max(  # a process killed on purpose (`--kill`) left out
                (growth(a, b) for a, b in zip(start.rss, end.rss, strict=False) if a and b),
                default=0.0,
            ),
            "rss_mb_curve": self.curve(),
            "cache_mb": [
                [_megabytes(a), _megabytes(b)]
                for a, b in zip(start.caches, end.caches, strict=False)
            ],
            "rss_less_caches_growth_pct": max(
                (
                    growth(a - sum(ca.values()), b - sum(cb.values()))
                    for a, b, ca, cb in zip(
                        start.rss, end.rss, start.caches, end.caches, strict=False
                    )
                    if a and b
                ),
                default=0.0,
            ),
            "redis_mb": [round(start.redis_used / 2**20, 1), round(end.redis_used / 2**20, 1)],
            "table_bytes": [start.per_table, end.per_table],
            "table_bytes_growth_pct": growth(start.per_table, end.per_table),
        }


async def live_table_bytes(store: Store, tables: list[str]) -> int:
    """The mean memory of every live table's key (what one more table costs). Every one: the
    first few hundred in `tables` (ordered by their first move) are those alive longest, the
    games furthest along, and a table's key grows with its game."""
    sizes: list[int] = []
    for start in range(0, len(tables), _BATCH):
        batch = tables[start : start + _BATCH]
        asked = [
            store.client.memory_usage(Channel.of(PLATFORM, table).game_key, samples=0)
            for table in batch
        ]
        sizes.extend(int(used) for used in await asyncio.gather(*asked) if used)
    return sum(sizes) // len(sizes) if sizes else 0


def _megabytes(caches: dict[str, int]) -> dict[str, float]:
    return {name: round(held / 2**20, 1) for name, held in caches.items()}


def progress_line(at: float, moves: int, recent: float, p99_ms: float, errors: int) -> str:
    return (
        f"load: {at:5.0f} s, {moves} moves, {recent:.1f} moves/s lately, "
        f"p99 so far {p99_ms:.0f} ms, {errors} errors"
    )


async def sample(
    store: Store,
    pids: list[int],
    tables: list[str],
    at: float,
    ended: int,
    caches: tuple[dict[str, int], ...] = (),
) -> Sample:
    info = await store.client.info("memory")
    rss = []
    for pid in pids:
        try:
            rss.append(rss_bytes(pid))
        except OSError:  # killed on purpose (`--kill`)
            rss.append(0)
    return Sample(
        at,
        tuple(rss),
        int(info["used_memory"]),
        await live_table_bytes(store, tables),
        ended,
        caches,
    )
