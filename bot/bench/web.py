"""`python -m bot web-bench`: the web table's figures, one JSON line.

Against a throwaway redis-server, with the pages served by two child processes (as a
deployment runs them), it measures:

- `first_load_bytes`: a table page's first load, gzip-compressed as a proxy would send it
  (HTML, scripts, style, icon, the board's SVG);
- `change_ms`: from a confirmation pressed on a player's page (its POST sent) to the change
  received by another open page, p50 and p99, with both pages on one process (`same`) and
  with the press on one process and the page on the other (`across`);
- `pages`: event streams one process holds open at once on a quiet table, and the resident
  memory they add per page;
- `move_answered_ms`: from a confirmation pressed on a page to its answer, p50 and p99, on
  the process that holds `watchers` other pages of the same table (it tells them all of
  each move);
- `cpu_ms_per_change`: the serving process's CPU per change delivered to one open page.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import multiprocessing
import os
import random
import resource
import statistics
import time
from pathlib import Path
from typing import Any

import aiohttp
from pydantic import SecretStr

from ..config import Settings
from ..exchange.actor import Actor
from ..load.moves import choose
from ..local_redis.server import free_port, temporary_redis_server
from ..records.table import Table
from ..service import GameService
from ..store import Channel, Store

SECRET = "web-bench"
STATIC = ("table.js", "board.js", "seat.js", "telegram.js", "table.css", "icon.svg")


def _serve(redis_url: str, port: int, pages: int) -> None:
    """A child process serving the pages until it is terminated. Every page of the bench
    comes from this machine's one address: the caps on streams make room for them all."""

    async def run() -> None:
        settings = Settings(  # type: ignore[call-arg]
            _env_file=None,
            web_url=f"http://127.0.0.1:{port}",
            web_secret=SecretStr(SECRET),
            web_max_streams=4 * pages + 200,
            web_max_streams_per_address=4 * pages + 200,
        )
        service = GameService(Store.from_url(redis_url), settings)
        from ..web import serve

        await serve(service, "127.0.0.1", port)
        await asyncio.Event().wait()

    asyncio.run(run())


def _rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _up(address: str) -> None:
    async with aiohttp.ClientSession() as http:
        for _ in range(200):
            try:
                async with http.get(address + "/static/icon.svg") as answer:
                    if answer.status == 200:
                        return
            except aiohttp.ClientError:
                pass
            await asyncio.sleep(0.05)
    raise RuntimeError(f"{address} never answered")


async def _table(service: GameService, channel: str) -> str:
    for user in ("ann", "bob"):
        text = "new" if user == "ann" else "join"
        assert (await service.command(Actor("bench", channel, user, user), text)).ok
    assert (await service.command(Actor("bench", channel, "ann", "ann"), "start")).ok
    record = await service.store.load(Channel.of("bench", channel))
    assert record is not None
    return record.game_id


async def _tokens(service: GameService, channel: str, game_id: str) -> dict[str, str]:
    """The two players' seat tokens, as their personal links carry them."""
    return {
        user: await service.seat_token("bench", channel, game_id, user) for user in ("ann", "bob")
    }


async def _first_load(http: aiohttp.ClientSession, address: str, path: str) -> int:
    total = 0
    async with http.get(address + path) as answer:
        total += len(gzip.compress(await answer.read()))
    for name in STATIC:
        async with http.get(f"{address}/static/{name}") as answer:
            total += len(gzip.compress(await answer.read()))
    async with http.get(address + path + "/state") as answer:
        board = (await answer.json())["board"]
    async with http.get(address + board) as answer:
        drawn = await answer.read()  # an SVG compresses as the page's text does; a PNG is
        total += len(gzip.compress(drawn)) if ".svg" in board else len(drawn)
    return total


async def _versions(http: aiohttp.ClientSession, url: str, into: asyncio.Queue[float]) -> None:
    """An open page: the time each state event arrives."""
    async with http.get(url, timeout=aiohttp.ClientTimeout(total=None)) as stream:
        async for line in stream.content:
            if line.startswith(b"event: state"):
                await into.put(time.perf_counter())


async def _confirm(
    http: aiohttp.ClientSession, presser: str, path: str, token: str
) -> tuple[float, float] | None:
    """The seat of `token` plays from its page on `presser` (a spot, a turn, the
    confirmation): when the confirmation was sent and when its answer came, or None if the
    seat has nothing to play."""
    headers = {"Authorization": f"Bearer {token}"}
    async with http.get(presser + path + "/seat", headers=headers) as answer:
        body = await answer.json()
    choices = body["messages"][0]["choices"] if body.get("ok") else []
    if not choices:
        return None
    data = choices[0]["data"]
    for _step in range(2):
        async with http.post(presser + path + "/press", headers=headers, json={"data": data}) as a:
            body = await a.json()
        data = body["messages"][0]["buttons"][0][0]["data"]
    confirm = next(
        b["data"] for m in body["messages"] for row in m["buttons"] for b in row
        if b["style"] == "success"
    )  # fmt: skip
    start = time.perf_counter()
    async with http.post(presser + path + "/press", headers=headers, json={"data": confirm}) as a:
        await a.read()
    return start, time.perf_counter()


async def _change_ms(
    service: GameService,
    http: aiohttp.ClientSession,
    presser: str,
    watcher: str,
    path: str,
    channel: str,
    game_id: str,
    moves: int,
) -> list[float]:
    """Moves confirmed on the mover's page (served by `presser`), each timed until a page on
    `watcher` hears of it."""
    arrivals: asyncio.Queue[float] = asyncio.Queue()
    reader = asyncio.create_task(_versions(http, watcher + path + "/events", arrivals))
    await asyncio.wait_for(arrivals.get(), 10)
    tokens = await _tokens(service, channel, game_id)
    took: list[float] = []
    for _ in range(moves):
        for user in ("ann", "bob"):
            pressed = await _confirm(http, presser, path, tokens[user])
            if pressed is None:
                continue
            arrived = await asyncio.wait_for(arrivals.get(), 10)
            took.append((arrived - pressed[0]) * 1000)
            await asyncio.sleep(0.2)  # a person's pace: the server limits a token's requests
            break
    reader.cancel()
    return took


async def _answered_ms(
    service: GameService, http: aiohttp.ClientSession, address: str, channel: str, watchers: int
) -> dict[str, Any]:
    """Moves confirmed on a page of the process that holds `watchers` pages of the same
    table, each timed until its answer: the event loop that tells them all must answer the
    mover meanwhile. The pages are held by another process (as by other machines), so that
    reading their events does not delay this one's reading of the answer."""
    game_id = await _table(service, channel)
    path = f"/t/bench/{channel}/{game_id}"
    spawn = multiprocessing.get_context("spawn")
    told: multiprocessing.Queue[int] = spawn.Queue()
    holder = spawn.Process(
        target=_hold, args=(address + path + "/events", watchers, told), daemon=True
    )
    holder.start()
    try:
        await asyncio.to_thread(told.get, True, 120)  # every page open, with the state
        tokens = await _tokens(service, channel, game_id)
        took: list[float] = []
        for _ in range(20):
            for user in ("ann", "bob"):
                pressed = await _confirm(http, address, path, tokens[user])
                if pressed is None:
                    continue
                took.append((pressed[1] - pressed[0]) * 1000)
                await asyncio.to_thread(told.get, True, 60)  # every page told of it
                await asyncio.sleep(0.2)
                break
    finally:
        holder.terminate()
        holder.join(5)
    return {"watchers": watchers, "p50": _p(took, 0.5), "p99": _p(took, 0.99), "n": len(took)}


def _hold(url: str, count: int, told: multiprocessing.Queue[int]) -> None:
    """A child process holding `count` pages on the event stream `url`: it says when all
    have the table's state, then again each time all have heard of a change."""

    async def run() -> None:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, count + 512)), hard))
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
            _, arrivals = await _open(http, url, count)
            told.put(0)
            heard = 0
            while True:
                await arrivals.get()
                heard += 1
                if heard % count == 0:
                    told.put(heard // count)

    asyncio.run(run())


async def _open(
    http: aiohttp.ClientSession, url: str, count: int
) -> tuple[list[asyncio.Task[None]], asyncio.Queue[float]]:
    """`count` pages open on the event stream `url`, each once it has the table's state."""
    arrivals: asyncio.Queue[float] = asyncio.Queue()
    readers = [asyncio.create_task(_versions(http, url, arrivals)) for _ in range(count)]
    for _ in range(count):
        await asyncio.wait_for(arrivals.get(), 60)
    return readers, arrivals


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)


async def _pages(
    http: aiohttp.ClientSession, address: str, path: str, pid: int, count: int
) -> dict[str, Any]:
    """`count` event streams held open on one process, and what they cost it."""
    before = _rss_kb(pid)
    readers, _ = await _open(http, address + path + "/events", count)
    held = _rss_kb(pid)
    for reader in readers:
        reader.cancel()
    return {"open": count, "kb_each": round((held - before) / count, 1)}


async def _cpu_per_change(
    service: GameService,
    http: aiohttp.ClientSession,
    address: str,
    path: str,
    pid: int,
    channel: str,
    pages: int,
) -> float:
    """The serving process's CPU per change delivered, with `pages` pages open on a table."""
    arrivals: asyncio.Queue[float] = asyncio.Queue()
    readers = [
        asyncio.create_task(_versions(http, address + path + "/events", arrivals))
        for _ in range(pages)
    ]
    for _ in range(pages):
        await asyncio.wait_for(arrivals.get(), 30)

    rng = random.Random(1)
    cpu = _cpu_s(pid)
    changes = 0
    for _ in range(10):
        record = await service.store.load(Channel.of("bench", channel))
        assert record is not None
        table = Table.model_validate_json(record.data)
        seat, text = table.module.visit(choose, table, rng)
        user = table.user_of(seat).user_id
        reply = await service.command(Actor("bench", channel, user, user), f"play {text}")
        assert reply.ok
        for _ in range(pages):
            await asyncio.wait_for(arrivals.get(), 30)
        changes += pages
    used = _cpu_s(pid) - cpu
    for reader in readers:
        reader.cancel()
    return round(used * 1000 / changes, 3)


async def run(moves: int, pages: int, watchers: int = 3000) -> dict[str, Any]:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = max(pages, watchers) * 2 + 512
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, wanted)), hard))
    with temporary_redis_server(unix_socket=False) as server:
        ports = [free_port(), free_port()]
        spawn = multiprocessing.get_context("spawn")
        children = [
            spawn.Process(target=_serve, args=(server.url, p, max(pages, watchers)), daemon=True)
            for p in ports
        ]
        for child in children:
            child.start()
        one, two = (f"http://127.0.0.1:{p}" for p in ports)
        settings = Settings(_env_file=None, web_secret=SecretStr(SECRET))  # type: ignore[call-arg]
        service = GameService(Store.from_url(server.url), settings)
        try:
            await _up(one)
            await _up(two)
            connector = aiohttp.TCPConnector(limit=0)
            async with aiohttp.ClientSession(connector=connector) as http:
                figures: dict[str, Any] = {}
                game_id = await _table(service, "t1")
                path = f"/t/bench/t1/{game_id}"
                figures["first_load_bytes"] = await _first_load(http, one, path)
                same = await _change_ms(service, http, one, one, path, "t1", game_id, moves)
                across = await _change_ms(service, http, one, two, path, "t1", game_id, moves)
                figures["change_ms"] = {
                    "same": {"p50": _p(same, 0.5), "p99": _p(same, 0.99), "n": len(same)},
                    "across": {"p50": _p(across, 0.5), "p99": _p(across, 0.99), "n": len(across)},
                }
                quiet = await _table(service, "t2")
                figures["pages"] = await _pages(
                    http, two, f"/t/bench/t2/{quiet}", children[1].pid or 0, pages
                )
                figures["move_answered_ms"] = await _answered_ms(service, http, one, "t4", watchers)
                busy = await _table(service, "t3")
                figures["cpu_ms_per_change"] = await _cpu_per_change(
                    service, http, two, f"/t/bench/t3/{busy}", children[1].pid or 0, "t3", 50
                )
                figures["mean_change_ms"] = round(statistics.fmean(same + across), 1)
                return figures
        finally:
            service.computer.close()
            await service.store.close()
            for child in children:
                child.terminate()
                child.join(5)


def main(moves: int, pages: int, watchers: int) -> None:
    print(json.dumps(asyncio.run(run(moves, pages, watchers))))
