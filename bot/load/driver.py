"""The load generator's driver: scratch Redis, worker processes, an open-loop offer of moves.

Open loop: a move is offered every 1/R seconds whatever the answers take, to a table that
has no move in flight, and its latency counts from when it was due, so a slow bot cannot
hide its queue. Tables that end are replaced by new ones, so N stay in flight.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import aiohttp

from ..local_redis.server import free_port, temporary_redis_server
from ..runtime.heap import TUNABLES
from ..store import CLAIM_LEASE, Channel, Store
from .moves import PLATFORM
from .progress import Watch, progress_line, sample
from .run import Run, Worker
from .spread import spread
from .worker import fired_counts

# Seconds: short enough that the tables a move skips for a while are reminded during a run
# (tables are picked at random, so some wait several times the mean), so deadlines fire,
# and are counted, all along.
REMINDER_AFTER = 15.0
TICKS = os.sysconf("SC_CLK_TCK")
PROGRESS_EVERY = 5.0  # seconds between progress lines (and memory samples)


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


async def start_worker(redis_url: str, computers: int = 0, level: str = "normal") -> Worker:
    port = free_port()
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "load-worker",
        "--redis",
        redis_url,
        "--port",
        str(port),
        "--reminder",
        str(REMINDER_AFTER),
        "--computers",
        str(computers),
        "--level",
        level,
        stdout=asyncio.subprocess.PIPE,
        env={"GLIBC_TUNABLES": TUNABLES, **os.environ},  # as the units run the bot
    )
    assert process.stdout is not None
    line = await asyncio.wait_for(process.stdout.readline(), 60)
    if line.strip() != b"ready":
        raise RuntimeError("a worker did not start")
    return Worker(process, port)


async def pace(
    run: Run, rate: float, going: Callable[[int], bool], before: Callable[[int], None]
) -> None:
    """Offer move `index` at `index / rate` seconds while `going(index)`, open loop (a slow
    answer never delays the next offer; a table with a move in flight is skipped), then
    wait for the answers. `before(index)` runs as each offer comes due."""
    start = time.perf_counter()
    tasks: set[asyncio.Task[None]] = set()
    index = 0
    while going(index):
        due = start + index / rate
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
        before(index)
        index += 1
        run.offered += 1
        if not run.idle:
            run.skipped += 1
            continue
        task = asyncio.create_task(run.step(run.take(), due))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
    if tasks:
        await asyncio.gather(*tasks)


async def offer(run: Run, rate: float, seconds: float, kill: bool, watch: Watch) -> float:
    """Offer `rate` moves a second for `seconds`, killing a worker halfway if `kill`, while
    `watch` samples the run; returns when the last answer came."""
    start = time.perf_counter()
    total = int(rate * seconds)

    def halfway(index: int) -> None:
        if kill and run.killed is None and index >= total // 2:
            kill_one(run)

    watching = asyncio.create_task(watch_run(run, watch))
    try:
        await pace(run, rate, lambda index: index < total, halfway)
    finally:
        watching.cancel()
    elapsed = time.perf_counter() - start
    await take_sample(run, watch)
    return elapsed


async def worker_stats(run: Run, worker: Worker) -> dict[str, Any]:
    async with run.session.get(worker.url + "/stats") as response:
        stats: dict[str, Any] = await response.json()
        return stats


async def take_sample(run: Run, watch: Watch) -> None:
    at = time.perf_counter() - watch.started
    pids = [w.process.pid for w in run.workers]
    caches = []
    for worker in run.workers:
        try:
            caches.append((await worker_stats(run, worker))["caches"])
        except (TimeoutError, aiohttp.ClientError):  # killed on purpose (`--kill`)
            caches.append({})
    watch.samples.append(
        await sample(run.store, pids, list(run.acked), at, len(run.ended), tuple(caches))
    )


async def watch_run(run: Run, watch: Watch) -> None:
    """A progress line on standard error and a memory sample every `watch.every` seconds."""
    moves, last = 0, 0.0
    while True:
        await asyncio.sleep(watch.every)
        at = time.perf_counter() - watch.started
        done = len(run.latencies)
        recent = (done - moves) / max(1e-9, at - last)
        p99 = percentile(run.latencies, 0.99) if run.latencies else 0.0
        print(progress_line(at, done, recent, p99, run.errors), file=sys.stderr, flush=True)
        moves, last = done, at
        await take_sample(run, watch)


def kill_one(run: Run) -> None:
    victim = run.workers[0]
    victim.cpu_used = cpu_seconds(victim.process.pid) - victim.cpu_at_start
    victim.process.send_signal(signal.SIGKILL)
    run.killed, run.killed_at = victim, time.time()


async def drain(store: Store, run: Run) -> int:
    """Wait for every deadline due by now to be fired (after a kill, until the dead
    process's leases have run out and the others took them over); returns those still
    overdue then: missed."""
    until = time.time() + 3
    if run.killed is not None:
        until = max(until, run.killed_at + CLAIM_LEASE + 5)
    cutoff = time.time()
    while time.time() < until:
        await asyncio.sleep(0.5)
    return len(await store.due(cutoff, limit=1000))


async def lost_moves(store: Store, run: Run) -> int:
    lost = 0
    for table, version in run.acked.items():
        record = await store.load(Channel.of(PLATFORM, table))
        if record is None:
            lost += await store.last_archived(Channel.of(PLATFORM, table)) is None
        elif record.version < version:
            lost += 1
    return lost


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(len(ordered) * share))] * 1000, 1)


async def computer_figures(run: Run) -> dict[str, Any]:
    """Computer players' decisions over the live processes, and the share their cap cut."""
    decisions = cut = 0.0
    for worker in run.workers:
        if worker is not run.killed:
            stats = await worker_stats(run, worker)
            decisions, cut = decisions + stats["decisions"], cut + stats["cut"]
    return {
        "computer_decisions": int(decisions),
        "computer_cut": int(cut),
        "computer_cut_pct": round(100 * cut / decisions, 2) if decisions else 0.0,
    }


def cpu_used(workers: list[Worker]) -> float:
    """CPU seconds the bot processes used since the tables were open (a killed one's until
    its kill)."""
    return sum(
        w.cpu_used if w.cpu_used is not None else cpu_seconds(w.process.pid) - w.cpu_at_start
        for w in workers
    )


@dataclass(frozen=True)
class Spent:
    """What the processes report of their work so far (`worker.Worker.stats`)."""

    drawn: float  # images (and replays) drawn off the event loop
    drawing_cpu: float  # their CPU seconds
    players_cpu: float  # CPU seconds the simulated players took to decide
    kept: list[int]  # games each process keeps replayed


async def spent(run: Run) -> Spent:
    drawn = drawing_cpu = players_cpu = 0.0
    kept = []
    for worker in run.workers:
        stats = await worker_stats(run, worker)
        drawn, drawing_cpu = drawn + stats["drawn"], drawing_cpu + stats["drawing_cpu"]
        players_cpu += stats["players_cpu"]
        kept.append(int(stats["kept_games"]))
    return Spent(drawn, drawing_cpu, players_cpu, kept)


def spent_figures(before: Spent, after: Spent, run: Run, cpu: float) -> dict[str, Any]:
    """What of a move's CPU went to its images: how many were drawn a move (reminders and
    other deadlines' included) and their CPU time a move; the simulated players' deciding,
    which a deployed bot does not do, and the bot's CPU a move without it; and the games
    kept at the end."""
    moves = max(1, len(run.latencies))
    players = after.players_cpu - before.players_cpu
    return {
        "drawn_per_move": round((after.drawn - before.drawn) / moves, 2),
        "drawing_cpu_ms_per_move": round(
            (after.drawing_cpu - before.drawing_cpu) * 1000 / moves, 2
        ),
        "players_cpu_ms_per_move": round(players * 1000 / moves, 2),
        "bot_cpu_ms_per_move": round((cpu - players) * 1000 / moves, 2),
        "kept_games": after.kept,
    }


async def open_tables(run: Run, tables: int) -> None:
    """Open `tables` tables, a few at a time per process."""
    opening = asyncio.Semaphore(8 * len(run.workers))

    async def open_one(index: int) -> None:
        async with opening:
            await run.open(index)

    await asyncio.gather(*(open_one(i) for i in range(tables)))


async def measure(
    processes: int,
    tables: int,
    rate: float,
    seconds: float,
    kill: bool,
    computers: int = 0,
    level: str = "normal",
    aged: bool = False,
) -> dict[str, Any]:
    with temporary_redis_server() as server:
        workers = [await start_worker(server.url, computers, level) for _ in range(processes)]
        store = Store.from_url(server.url)
        await store.ping()
        timeout = aiohttp.ClientTimeout(total=60)
        connector = aiohttp.TCPConnector(limit=256)
        try:
            async with aiohttp.ClientSession(timeout=timeout, connector=connector) as session:
                run = Run(workers, session, store, tables=tables)
                await open_tables(run, tables)
                spreading = await spread(run, random.Random(2)) if aged else {}
                run.ended.clear()  # games that ended while tables were spread: not the run's
                for worker in workers:
                    worker.cpu_at_start = cpu_seconds(worker.process.pid)
                spent_at_start = await spent(run)
                watch = Watch(min(PROGRESS_EVERY, max(0.5, seconds / 4)))
                elapsed = await offer(run, rate, seconds, kill, watch)
                cpu = cpu_used(workers)
                missed = await drain(store, run)
                fired = await fired_counts(store)
                figures = report(run, rate, seconds, elapsed, cpu)
                figures |= {"aged": spreading} if aged else {}
                figures["tables_by_game"] = dict(sorted(Counter(run.games.values()).items()))
                figures |= {
                    "redis_bytes_per_table": watch.samples[-1].per_table,
                    "deadlines_fired": sum(fired.values()),
                } | watch.figures(seconds)
                if not kill:
                    figures |= spent_figures(spent_at_start, await spent(run), run, cpu)
                if computers:
                    figures |= await computer_figures(run)
                if kill:
                    figures |= {
                        "moves_lost": await lost_moves(store, run),
                        "deadlines_missed": missed,
                        "deadlines_twice": sum(1 for n in fired.values() if n > 1),
                    }
                return figures
        finally:
            await store.close()
            for worker in workers:
                if worker.process.returncode is None:
                    worker.process.kill()
                await worker.process.wait()


def report(run: Run, rate: float, seconds: float, elapsed: float, cpu: float) -> dict[str, Any]:
    moves = len(run.latencies)
    latencies = run.latencies or [0.0]
    return {
        "processes": len(run.workers),
        "tables": run.tables,
        "offered_per_s": round(run.offered / seconds, 1),
        "achieved_per_s": round(moves / elapsed, 1),
        "p50_ms": percentile(latencies, 0.50),
        "p99_ms": percentile(latencies, 0.99),
        "max_ms": round(max(latencies) * 1000, 1),
        "errors": run.errors,
        "skipped": run.skipped,
        "computers_to_move": run.waiting,
        "errors_why": dict(run.why.most_common(3)),  # what the commonest errors said
        "interrupted_by_kill": run.interrupted,
        "games_finished": len(run.ended),
        "cpu_ms_per_move": round(cpu * 1000 / max(1, moves), 2),
    }
