"""A load run's bot processes and what the driver counts of them (`driver`, `spread`,
`failovers`)."""

from __future__ import annotations

import asyncio
import collections
import random
import time
import zlib
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from ..games import MODULES
from ..store import Store


@dataclass
class Worker:
    process: asyncio.subprocess.Process
    port: int
    cpu_at_start: float = 0.0
    cpu_used: float | None = None  # set when it is killed

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@dataclass
class Run:
    """What the driver counts."""

    workers: list[Worker]
    session: aiohttp.ClientSession
    store: Store
    idle: list[str] = field(default_factory=list)  # tables with no move in flight
    rng: random.Random = field(default_factory=lambda: random.Random(1))
    acked: dict[str, int] = field(default_factory=dict)  # table -> version last acknowledged
    ended: set[str] = field(default_factory=set)
    latencies: list[float] = field(default_factory=list)
    offered: int = 0
    skipped: int = 0
    errors: int = 0
    interrupted: int = 0
    waiting: int = 0  # offers to a table whose computer player was to move
    why: collections.Counter[str] = field(default_factory=collections.Counter)  # errors' causes
    killed: Worker | None = None
    killed_at: float = 0.0
    opened: int = 0
    tables: int = 0  # in flight
    games: dict[str, str] = field(default_factory=dict)  # table -> its game's key

    def take(self) -> str:
        """An idle table at random (swapped out of the list: no scan)."""
        index = self.rng.randrange(len(self.idle))
        self.idle[index], self.idle[-1] = self.idle[-1], self.idle[index]
        return self.idle.pop()

    def worker_for(self, table: str) -> Worker:
        alive = [w for w in self.workers if w is not self.killed]
        return alive[zlib.crc32(table.encode()) % len(alive)]  # the same in every run

    async def post(self, worker: Worker, path: str, body: dict[str, Any]) -> dict[str, Any]:
        async with self.session.post(worker.url + path, json=body) as response:
            answer: dict[str, Any] = await response.json()
            return answer

    async def open(self, index: int) -> None:
        """Table `index`, of each game in turn."""
        keys = list(MODULES)
        await self.open_game(f"t{index}", keys[index % len(keys)])

    async def open_game(self, name: str, game: str) -> None:
        self.games[name] = game
        await self.post(self.worker_for(name), "/open", {"game": game, "channel": name})
        self.idle.append(name)

    async def replace(self, ended: str) -> str:
        """A new table in place of one whose game ended, of the same game: a game that ends
        sooner must not give its share of the tables to the other (at 40 tables the mix
        drifted from half to two thirds Die Verbotene Stadt over a soak)."""
        self.opened += 1
        name = f"t{1_000_000 + self.opened}"
        await self.open_game(name, self.games.pop(ended))
        return name

    async def step(self, table: str, due: float) -> None:
        worker = self.worker_for(table)
        try:
            answer = await self.post(worker, "/step", {"channel": table})
        except (TimeoutError, aiohttp.ClientError) as err:
            if worker is self.killed:
                self.interrupted += 1
            else:
                self.errors += 1
                self.why[type(err).__name__] += 1
            self.idle.append(table)
            return
        if answer.get("waiting"):
            self.waiting += 1
        if answer.get("ok"):
            self.latencies.append(time.perf_counter() - due)
        if await self.settle(table, answer) is None:
            self.idle.append(table)

    async def settle(self, table: str, answer: dict[str, Any]) -> str | None:
        """Count a worker's answer to a step on `table`: the version it acknowledged, or its
        error. None while the game goes on; if it ended (archived), the name of the new table
        that replaced it (idle)."""
        if "ok" in answer:
            if answer["ok"]:
                if answer["version"] is not None:
                    self.acked[table] = int(answer["version"])
            else:
                self.errors += 1
                self.why[answer.get("said") or "unavailable"] += 1
        if answer.get("over"):
            self.ended.add(table)
            self.acked.pop(table, None)
            return await self.replace(table)
        return None
