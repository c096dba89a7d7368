"""`python -m bot load --paced`: how long a person waits, from their move to its picture in
the chat, when the platforms pace the bot.

Each group is a game of one person against three computer players at the default pace (a
computer waits `bot_pause` before it acts), played through the real service, store, images
and platform adapters against local stand-ins that pace as Telegram and Discord do
(`stand_ins`). The person looks at the table whenever a picture reaches the group, and
moves a few seconds after it is their turn (`THINK`); a move's latency runs from the moment
it reaches the service to the moment a picture showing it reaches the group: its own, or a
newer one that replaced it in a crowded queue. A move whose picture never arrives is lost.

Three runs per platform: one group alone, `groups` groups at once, and the group alone again
beside a flooded one (a neighbour typing `board` twice a second, far past both platforms'
limits), which must not slow it: each chat has a queue of its own.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import hashlib
import math
import random
import time
from collections.abc import AsyncIterator, Coroutine
from dataclasses import dataclass, field, replace
from typing import Any, Final, Literal

from ..config import Settings
from ..exchange.actor import Actor
from ..exchange.replies import Reply
from ..games import module
from ..local_redis.server import temporary_redis_server
from ..records.table import Table
from ..service import GameService
from ..store import Channel, Store
from .moves import QuickComputer, waiting_for
from .sides import DiscordSide, Side, TelegramSide

THINK: Final = (3.0, 6.0)  # seconds a person takes to decide, at random between (bench's)
FLOOD_EVERY: Final = 0.5  # seconds between two `board`s in the flooded group
LOOK_EVERY: Final = 3.0  # seconds a person waits for a picture before looking all the same
RUN_IDS: Final = 1_000_000  # chat and user numbers a run may use
GAMES: Final = ("verbotene_stadt", "forbidden_city")  # group i plays GAMES[i % 2]


def _digest(picture: bytes) -> bytes:
    return hashlib.blake2b(picture, digest_size=16).digest()


Kind = Literal["person", "computer"]


@dataclass(eq=False)
class Group:
    """One chat: the pictures sent to it in order, and the moves not yet shown there.
    Pictures are told apart by their bytes: one that reaches the chat is the oldest still
    expected that has them, and a picture sent twice in a row is expected once, as its
    newest (a crowded queue leaves out the older)."""

    actor: Actor
    key: str
    measured: bool = True
    made: int = 0  # pictures handed to the adapter so far
    expected: list[tuple[bytes, int]] = field(default_factory=list)  # (digest, index) not seen
    shown: int = -1  # the newest picture index that reached the chat
    answered: float = 0.0  # when the service last answered for this chat
    waiting: list[tuple[int, float, Kind]] = field(default_factory=list)  # (index, since, kind)
    latencies: dict[Kind, list[float]] = field(
        default_factory=lambda: {"person": [], "computer": []}
    )
    looked: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def privately(self) -> Actor:
        """The person typing their moves in their private chat (where a bribe is typed)."""
        return replace(self.actor, private=True)

    def sent(self, reply: Reply, since: float | None = None, kind: Kind = "person") -> None:
        """Count the pictures of `reply`'s channel part; with `since`, its move is waited
        for from then until its first picture is shown."""
        self.answered = time.perf_counter()
        first = None
        for message in reply.public:
            if message.image is not None:
                first = self.made if first is None else first
                digest = _digest(message.image)
                if self.expected and self.expected[-1][0] == digest:
                    self.expected.pop()  # the same table again: either shows both
                self.expected.append((digest, self.made))
                self.made += 1
        if since is not None and first is not None:
            self.waiting.append((first, since, kind))

    def seen(self, picture: bytes) -> None:
        """A picture reached the chat: the oldest still expected that it is."""
        digest = _digest(picture)
        for position, (expected, index) in enumerate(self.expected):
            if expected == digest:
                del self.expected[position]
                self.shown = max(self.shown, index)
                break
        now = time.perf_counter()
        for index, since, kind in self.waiting:
            if index <= self.shown:
                self.latencies[kind].append(now - since)
        self.waiting = [w for w in self.waiting if w[0] > self.shown]
        self.looked.set()


class Watched(GameService):
    """The service, counting the pictures of the deadlines' replies it hands the adapter: a
    computer player's move is waited for from when it fell due, `bot_pause` after the
    service last answered for its chat."""

    groups: dict[str, Group]
    firing = 0.0  # seconds spent in `fire_due`: the computer players' moves, their pictures

    async def fire_due(self, platform: str | None = None) -> list[tuple[str, str, Reply]]:
        began = time.perf_counter()
        fired = await super().fire_due(platform)
        self.firing += time.perf_counter() - began
        pause = self.ctx.settings.bot_pause.total_seconds()
        for _, channel_id, reply in fired:
            group = self.groups.get(channel_id)
            if group is not None:
                group.sent(reply, group.answered + pause, "computer")
        return fired


@dataclass(eq=False)
class Play:
    """One run on one platform."""

    side: Side
    service: Watched
    rng: random.Random
    deliveries: set[asyncio.Task[None]] = field(default_factory=set)
    refused_moves: int = 0

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """A delivery in a task of its own, as each update or interaction is handled."""
        task = asyncio.create_task(work)
        self.deliveries.add(task)
        task.add_done_callback(self.deliveries.discard)

    async def say(self, group: Group, text: str) -> Reply:
        reply = await self.service.command(group.actor, text)
        group.sent(reply)
        self.spawn(self.side.deliver(group.actor, reply))
        return reply

    async def open(self, group: Group) -> None:
        await self.say(group, f"new {module(group.key).words[0]} bots:3")
        if not (await self.say(group, "start")).ok:
            raise RuntimeError(f"the table of {group.actor.channel_id} did not start")

    async def person(self, group: Group) -> None:
        """Look at the table each time a picture arrives (or after a while); move a few
        seconds after it is this person's turn."""
        channel = Channel.of(self.side.name, group.actor.channel_id)
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(group.looked.wait(), LOOK_EVERY)
            group.looked.clear()
            record = await self.service.store.load(channel)
            if record is None:
                return  # over
            table = Table.model_validate_json(record.data)
            text = table.module.visit(waiting_for, table, group.actor.user_id)
            if text is None:
                continue
            await asyncio.sleep(self.rng.uniform(*THINK))
            started = time.perf_counter()
            reply = await self.service.command(group.privately, f"play {text}")
            if not reply.ok:
                self.refused_moves += 1
                continue
            group.sent(reply, started)
            self.spawn(self.side.deliver(group.actor, reply))

    async def flood(self, group: Group) -> None:
        while True:
            await self.say(group, "board")
            await asyncio.sleep(FLOOD_EVERY)


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile (0 for no values).

    >>> percentile([5.0, 1.0, 3.0, 2.0, 4.0], 0.5)
    3.0
    >>> percentile([1.0, 2.0], 0.99)
    2.0
    """
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def _latency(groups: list[Group], kind: Kind) -> dict[str, Any]:
    latencies = [s for g in groups if g.measured for s in g.latencies[kind]]
    return {
        "moves": len(latencies),
        "p50_ms": round(percentile(latencies, 0.5) * 1000),
        "p99_ms": round(percentile(latencies, 0.99) * 1000),
        "max_ms": round(max(latencies, default=0.0) * 1000),
    }


Routes = dict[str, Group]  # the groups of the run under way, by their chat's id
Posts = collections.Counter[str]  # the run's posts that reached a chat: "group", "private"


def _groups(side: Side, groups: int, flooded: bool, run: int) -> list[Group]:
    """The run's groups, the flooded one last (its moves are not measured)."""
    ids = [run * RUN_IDS + i for i in range(groups + flooded)]
    made = [
        Group(Actor(side.name, side.group(n), side.person(n), f"Player {n}"), GAMES[i % 2])
        for i, n in enumerate(ids)
    ]
    if flooded:
        made[-1].measured = False
    return made


async def _run(
    side: Side,
    routes: Routes,
    posts: Posts,
    url: str,
    groups: int,
    seconds: float,
    flooded: bool,
    run: int,
) -> dict[str, Any]:
    """`groups` groups (and a flooded neighbour) played for `seconds`, then drained. Each
    `run` has chats of its own: a chat's limits still count what the run before sent."""
    store = Store.from_url(url)
    await store.ping()
    await store.client.flushall()  # the run before's tables, deadlines and all
    settings = Settings(_env_file=None)  # type: ignore[call-arg]  # the default pace
    service = Watched(store, settings, computer=QuickComputer())
    made = _groups(side, groups, flooded, run)
    routes.clear()
    routes.update({g.actor.channel_id: g for g in made})
    service.groups = routes
    play = Play(side, service, random.Random(groups + flooded))
    refused_before = side.api.refused
    posts.clear()
    began = time.perf_counter()
    await side.begin(service)
    for group in made:
        await play.open(group)
    workers = [asyncio.create_task(play.person(g)) for g in made]
    if flooded:
        workers.append(asyncio.create_task(play.flood(made[-1])))
    await asyncio.sleep(seconds)
    played, during = time.perf_counter() - began, posts.copy()
    for worker in workers:
        worker.cancel()
    await asyncio.gather(*workers, return_exceptions=True)
    while play.deliveries:
        await asyncio.gather(*play.deliveries, return_exceptions=True)
    drained = await side.end()
    await store.close()
    # Lost: a move whose picture never came, a group whose last picture never came.
    lost = sum(len(g.waiting) for g in made)
    lost += sum(1 for g in made if g.expected and g.expected[-1][1] == g.made - 1)
    return {
        **_latency(made, "person"),
        "computer": _latency(made, "computer"),
        "lost": lost + (0 if drained else 1),
        "refused_429": side.api.refused - refused_before,
        "refused_moves": play.refused_moves,
        # The share of the run the service spent firing deadlines: near 100, the computer
        # players' latency is the machine's, not the platform's.
        "firing_pct": round(100 * service.firing / played),
        # What reached the chats a second while the games were played.
        "group_posts_per_s": round(during["group"] / played, 1),
        "private_posts_per_s": round(during["private"] / played, 1),
    }


async def _platform(side: Side, url: str, groups: int, seconds: float) -> dict[str, Any]:
    routes: Routes = {}
    posts: Posts = collections.Counter()
    side.api.seen = lambda place, picture: _seen(routes, posts, place, picture)
    one = await _run(side, routes, posts, url, 1, seconds, False, 0)
    many = await _run(side, routes, posts, url, groups, seconds, False, 1)
    beside = await _run(side, routes, posts, url, 1, seconds, True, 2)
    runs = (one, many, beside)
    return {
        "platform": side.name,
        "seconds": seconds,
        "groups_1": one,
        f"groups_{groups}": many,
        "busy_neighbour": {
            "quiet_alone": _quiet(one),
            "quiet_beside_flooded": _quiet(beside),
            "refused_429": beside["refused_429"],  # the flooded group's, mostly
        },
        "refused_429": sum(r["refused_429"] for r in runs),
        "lost": sum(r["lost"] for r in runs),
        "unexpected_calls": sorted(set(side.api.unexpected)),
    }


def _quiet(run: dict[str, Any]) -> dict[str, Any]:
    """A quiet group's figures, the person's and the computers' moves."""
    shown = ("moves", "p50_ms", "p99_ms")
    return {k: run[k] for k in shown} | {"computer": {k: run["computer"][k] for k in shown}}


def _seen(routes: Routes, posts: Posts, place: str, picture: bytes | None) -> None:
    group = routes.get(place)
    posts["private" if group is None else "group"] += 1
    if group is not None and picture is not None:
        group.seen(picture)


async def measure_paced(groups: int, seconds: float) -> AsyncIterator[dict[str, Any]]:
    """Each platform's figures as they are made, one platform after the other, on one
    scratch Redis."""
    with temporary_redis_server() as server:
        sides: list[Side] = [TelegramSide(), DiscordSide()]
        for side in sides:
            try:
                figures = await _platform(side, server.url, groups, seconds)
            finally:
                await side.close()
            yield figures
