"""One bot process under load: the real service, store and images, asked over local HTTP.

Simulated players decide with each game's stand-in (what a person would type), then the
decision goes through `GameService.command` exactly as an adapter's would. Deadlines are
fired every second, as adapters do; each one's completed work is logged in
Redis (`load:fired`), so the driver can count a deadline fired twice or never.
"""

from __future__ import annotations

import asyncio
import collections
import random
import time
from datetime import timedelta
from typing import Any

from aiohttp import web

from render import memo

from ..config import Settings
from ..exchange.actor import Actor
from ..records import replayed
from ..records.table import Table
from ..runtime import heap
from ..runtime.metrics import REGISTRY
from ..service import GameService
from ..store import COPIED, Channel, Connector, Deadline, Store, StoreUnavailable
from ..store.connecting import REDIS_ERRORS
from .moves import PLATFORM, choose, open_table

# Deadlines are polled every second, as both adapters poll them: a poll reads the 256 deadline
# sets, about 7 ms of CPU, so polling ten times a second cost a load run 1.4 ms a move at 100/s.
POLL_EVERY = 1.0
FIRED_KEY = "load:fired"  # completed deadlines: "member@due#lease token", one per completion


class LoggingStore(Store):
    """The store, logging each deadline whose work is done (by its original due time)."""

    def __init__(self, client: Connector, **options: Any) -> None:
        super().__init__(client, **options)
        self.first_due: dict[str, float] = {}

    async def lease(self, deadline: Deadline, until: float) -> Deadline | None:
        claimed = await super().lease(deadline, until)
        if claimed is not None:
            self.first_due[claimed.token] = deadline.due
        return claimed

    async def done(self, claimed: Deadline) -> bool:
        """Logs the completion first: its work is done, whether or not the store can mark
        it (if not, it fires again once its lease runs out, and is counted twice)."""
        due = self.first_due.pop(claimed.token, claimed.due)
        await self._log_fired(f"{claimed.member}@{due!r}#{claimed.token}")
        return await super().done(claimed)  # False if its work set it anew

    async def _log_fired(self, entry: str) -> None:
        """Kept through an outage (a failover run): a completion missing from the log could
        hide a deadline fired twice. A set, so a resent SADD counts once."""
        for _ in range(1200):
            try:
                client = await self._client()
                await client.sadd(FIRED_KEY, entry)
                return
            except REDIS_ERRORS:
                await asyncio.sleep(0.1)
        raise RuntimeError(f"the fired deadline {entry} could not be logged")


async def fired_counts(store: Store) -> collections.Counter[str]:
    """How many times each deadline's work was done ("member@due" -> count)."""
    entries = await store.client.smembers(FIRED_KEY)
    return collections.Counter(str(entry).rsplit("#", 1)[0] for entry in entries)


class Worker:
    def __init__(self, service: GameService, computers: int, level: str) -> None:
        self.service = service
        self.computers, self.level = computers, level
        self.rng = random.Random()
        self.players_cpu = 0.0  # CPU seconds the simulated players took to decide

    async def open(self, request: web.Request) -> web.Response:
        body = await request.json()
        await open_table(
            self.service, body["game"], body["channel"], computers=self.computers, level=self.level
        )
        return web.json_response({"ok": True})

    async def step(self, request: web.Request) -> web.Response:
        """One simulated decision on a table: its stored version after it, or `over`; with
        `--failovers`, also what a failover may have cost (see `answer`)."""
        name = (await request.json())["channel"]
        try:
            return web.json_response(await self.answer(name))
        except StoreUnavailable:
            return web.json_response({"ok": False, "unavailable": True})

    async def answer(self, name: str) -> dict[str, Any]:
        """The step's figures: `missing` if the table was read as absent though it never
        ended, `said` the refusal if the move was refused, `copied` whether a replica
        acknowledged the saved move (`COPIED`)."""
        channel = Channel.of(PLATFORM, name)
        store = self.service.store
        record = await store.load(channel)
        if record is None:
            return {"over": True, "missing": await store.last_archived(channel) is None}
        deciding = time.thread_time()
        table = Table.model_validate_json(record.data)
        seat, text = table.module.visit(choose, table, self.rng)
        self.players_cpu += time.thread_time() - deciding
        if seat in table.computer_seats():
            return {"waiting": True}  # a computer's turn: its deadline plays it
        user = table.user_of(seat).user_id
        actor = Actor(PLATFORM, name, user, user.upper(), private=True)
        COPIED.set(None)
        reply = await self.service.command(actor, f"play {text}")
        copied = COPIED.get()
        after = await store.load(channel)
        return {
            "ok": reply.ok,
            "said": "" if reply.ok else " ".join(m.text for m in reply.private),
            "copied": copied,
            "before": record.version,
            "images": sum(1 for m in [*reply.public, *reply.private] if m.image),
            "version": None if after is None else after.version,
            "over": after is None,
        }

    async def stats(self, request: web.Request) -> web.Response:
        """Computer players' decisions made here, those their CPU-time cap cut, the bytes
        each image cache holds, the images (and replays) drawn off the event loop, with
        their CPU time, and the games kept replayed (`bot.records.replayed`)."""
        return web.json_response(
            {
                "decisions": _total("fc_computer_search_seconds_count"),
                "cut": _total("fc_computer_searches_cut_total"),
                "caches": memo.held(),
                "drawn": _total("fc_drawn_total"),
                "drawing_cpu": _total("fc_drawing_cpu_seconds_total"),
                "kept_games": replayed.held(),
                "players_cpu": self.players_cpu,
            }
        )

    async def fire(self) -> None:
        while True:
            await self.service.fire_due(PLATFORM)
            await asyncio.sleep(POLL_EVERY)


def _total(sample: str) -> float:
    """A metric's samples of that name summed over their labels."""
    return sum(s.value for metric in REGISTRY.collect() for s in metric.samples if s.name == sample)


async def serve(
    redis_url: str, port: int, reminder_after: float, computers: int = 0, level: str = "normal"
) -> None:
    """Serve until killed; prints "ready" once it listens."""
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None,
        reminder_after=timedelta(seconds=reminder_after),
        bot_pause=timedelta(0),
    )
    store = LoggingStore.from_url(redis_url)
    worker = Worker(GameService(store, settings), computers, level)
    app = web.Application()
    app.router.add_post("/open", worker.open)
    app.router.add_post("/step", worker.step)
    app.router.add_get("/stats", worker.stats)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    heap.settle()
    print("ready", flush=True)
    await worker.fire()
