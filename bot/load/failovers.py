"""`python -m bot load --failovers N`: play on a local Redis Cluster while its masters are
killed and restored N times in a row, and count what players would have seen go wrong.

Each cycle waits until as many moves as a quarter of the tables were acknowledged since the
last one, kills one master (SIGKILL, the three in turn), waits until its replica serves its
slots, starts the dead node again (empty: it must rejoin as a replica and copy its new
master) and waits until every master has a replica in sync. Moves are offered all along.
The counts: existing tables read as absent (`no_table_answers`, `tables_read_absent`),
acknowledged moves a later read no longer found, split by whether a replica had
acknowledged them (`moves_lost_copied`, which must be 0) or not (`moves_lost_uncopied`: the
wait timed out or was paused, see docs/operations.md), and deadlines missed or fired twice.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from ..store import CLAIM_LEASE, Channel, Store
from .cluster import LocalCluster
from .driver import pace, start_worker
from .moves import PLATFORM
from .run import Run, Worker
from .worker import fired_counts

# The cluster's node timeout: a dead master is replaced after about this long.
NODE_TIMEOUT_MS = 2000
# What the service answers when a table is read as absent: never for a table that exists.
NO_TABLE = "There is no table here."
TRY_AGAIN = "The game storage is unavailable right now."


@dataclass
class FailoverRun(Run):
    """What a failover run counts on top of a load run."""

    copied: dict[str, int] = field(default_factory=dict)  # table -> version a replica has
    no_table: set[str] = field(default_factory=set)
    no_table_answers: int = 0
    unavailable: int = 0
    lost_copied: int = 0
    lost_uncopied: int = 0
    uncopied: int = 0  # moves acknowledged though no replica had them

    def lost(self, table: str, stored: int) -> None:
        """A read found the table older than the last version acknowledged to its player."""
        if stored >= self.acked.get(table, 0):
            return
        if self.copied.get(table, 0) > stored:
            self.lost_copied += 1
        else:
            self.lost_uncopied += 1
        self.acked[table] = self.copied[table] = stored  # play goes on from there

    async def step(self, table: str, due: float) -> None:
        worker = self.worker_for(table)
        try:
            answer = await self.post(worker, "/step", {"channel": table})
        except (TimeoutError, aiohttp.ClientError):
            self.errors += 1
            self.idle.append(table)
            return
        self.idle.append(table)  # an ended table is replaced below
        if answer.get("unavailable") or TRY_AGAIN in answer.get("said", ""):
            self.unavailable += 1
        elif answer.get("missing") or NO_TABLE in answer.get("said", ""):
            self.no_table.add(table)
            self.no_table_answers += 1
        elif answer.get("over"):
            self.idle.remove(table)
            self.ended.add(table)
            self.acked.pop(table, None)
            await self.replace(table)
        elif not answer.get("ok"):
            self.errors += 1
        else:
            self.latencies.append(time.perf_counter() - due)
            self.lost(table, int(answer["before"]))
            self.acked[table] = int(answer["version"])
            if answer.get("copied"):
                self.copied[table] = int(answer["version"])
            else:
                self.uncopied += 1


def fail_over(cluster: LocalCluster, cycle: int, timeout: float = 120.0) -> float:
    """Kill a master, wait for its replica to take over, restore the node as a replica.
    Returns the seconds its slots were not served."""
    masters = sorted(cluster.masters(), key=lambda server: server.port)
    victim = masters[cycle % len(masters)]
    assert victim.pid is not None
    os.kill(victim.pid, signal.SIGKILL)
    killed = time.monotonic()
    deadline = killed + timeout
    while not cluster.promoted(victim):
        if time.monotonic() > deadline:
            raise RuntimeError(f"no replica took over from {victim.port}")
        time.sleep(0.05)
    outage = time.monotonic() - killed
    cluster.restart(victim)
    cluster.wait_ready(timeout)
    return outage


async def played(run: FailoverRun, moves: int, timeout: float = 60.0) -> bool:
    """Until `moves` more moves are acknowledged (play goes on between failovers); False if
    they were not within `timeout` seconds."""
    target = len(run.latencies) + moves
    deadline = time.monotonic() + timeout
    while len(run.latencies) < target:
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.05)
    return True


async def offer_while(run: FailoverRun, rate: float, going: asyncio.Event) -> None:
    """Offer `rate` moves a second until `going` is cleared, then wait for the answers."""
    await pace(run, rate, lambda index: going.is_set(), lambda index: None)


async def final_losses(store: Store, run: FailoverRun) -> None:
    """Every table still live read once more, after the last failover."""
    for table in list(run.acked):
        record = await store.load(Channel.of(PLATFORM, table))
        if record is not None:
            run.lost(table, record.version)
        elif await store.last_archived(Channel.of(PLATFORM, table)) is None:
            run.no_table.add(table)


async def deadlines(store: Store) -> tuple[int, int]:
    """Deadlines still overdue once every lease taken before has run out (missed), and
    deadlines whose work was done twice."""
    cutoff = time.time()
    await asyncio.sleep(CLAIM_LEASE + 5)
    missed = len(await store.due(cutoff, limit=1000))
    fired = await fired_counts(store)
    return missed, sum(1 for n in fired.values() if n > 1)


async def measure_failovers(
    processes: int, tables: int, rate: float, failovers: int
) -> dict[str, Any]:
    cluster = LocalCluster(node_timeout_ms=NODE_TIMEOUT_MS)
    await asyncio.to_thread(cluster.start)
    workers: list[Worker] = []
    store = Store.from_url(cluster.url)
    try:
        workers = [await start_worker(cluster.url) for _ in range(processes)]
        await store.ping()
        timeout = aiohttp.ClientTimeout(total=60)
        async with aiohttp.ClientSession(timeout=timeout) as session:
            run = FailoverRun(workers, session, store, tables=tables)
            await asyncio.gather(*(run.open(i) for i in range(tables)))
            going = asyncio.Event()
            going.set()
            offering = asyncio.create_task(offer_while(run, rate, going))
            outages, stalled = [], 0
            for cycle in range(failovers):
                stalled += not await played(run, max(1, tables // 4))
                outages.append(await asyncio.to_thread(fail_over, cluster, cycle))
            going.clear()
            await offering
            await final_losses(store, run)
            missed, twice = await deadlines(store)
        return {
            "failovers": failovers,
            "processes": processes,
            "tables": tables,
            "offered": run.offered,
            "skipped": run.skipped,
            "moves": len(run.latencies),
            "outage_s_max": round(max(outages, default=0.0), 1),
            "answered_try_again": run.unavailable,
            "no_table_answers": run.no_table_answers,
            "tables_read_absent": len(run.no_table),
            "moves_lost_copied": run.lost_copied,
            "moves_lost_uncopied": run.lost_uncopied,
            "moves_uncopied": run.uncopied,
            "deadlines_fired": sum((await fired_counts(store)).values()),
            "deadlines_missed": missed,
            "deadlines_twice": twice,
            "errors": run.errors,
            "cycles_without_play": stalled,
            "games_finished": len(run.ended),
        }
    finally:
        await store.close()
        for worker in workers:
            if worker.process.returncode is None:
                worker.process.kill()
            await worker.process.wait()
        await asyncio.to_thread(cluster.stop)
