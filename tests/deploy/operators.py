"""What the operator does to the deployment while the players play: kill a bot container as a
move arrives, leave a turn waiting for its reminders, roll both bots to a rebuilt image one at
a time; on the cluster, kill the master that holds the table."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import RedisError

from bot.store import Channel, Store
from tests.fake_telegram import TgUser

from .compose import Project
from .play import Players

__all__ = ["ClusterOperator", "ScaleOperator"]

Healthy = Callable[[Project, list[str]], Awaitable[float]]


def kill_soon(project: Project, container: str) -> asyncio.Task[float]:
    """`docker kill` 30 ms from now, while the move typed next is on its way to that very
    process (or being handled there); the task's result is when the kill was done."""

    async def kill() -> float:
        await asyncio.sleep(0.03)
        await asyncio.to_thread(project.kill, container)
        return time.monotonic()

    return asyncio.get_running_loop().create_task(kill())


class ScaleOperator:
    """Over one Redis: bot-1 killed as a move arrives (move 8), a turn left waiting for two
    reminders after that, then a rolling restart to a rebuilt image (from move 20) while the
    game goes on."""

    KILL_AT, REMIND_AT, ROLL_AT = 8, 10, 20

    def __init__(self, project: Project, rebuild: Callable[[], str], healthy: Healthy) -> None:
        self.project, self.rebuild, self.healthy = project, rebuild, healthy
        self.figures: dict[str, Any] = {}
        self._stage = 0
        self._rolling: asyncio.Task[None] | None = None
        self._kill: asyncio.Task[None] | None = None

    @property
    def done(self) -> bool:
        return self._rolling is not None and self._rolling.done()

    async def before_turn(self, players: Players, person: TgUser) -> None:
        moves = players.tally.moves_played
        if self._stage == 0 and moves >= self.KILL_AT:
            self._stage = 1
            service = self.project.service_at(await players.webhooks.next_address())
            self.figures["killed"] = service
            print(f"docker kill {service} as move {moves + 1} reaches it", flush=True)
            self._kill = asyncio.create_task(
                self._back(service, kill_soon(self.project, self.project.container(service)))
            )
        elif self._stage == 1 and moves >= self.REMIND_AT:
            self._stage = 2
            print("a turn left waiting for two reminders", flush=True)
            await players.wait_for_reminders(person, 2)
        elif self._stage == 2 and moves >= self.ROLL_AT:
            self._stage = 3
            print("rolling restart to a rebuilt image, one container at a time", flush=True)
            self._rolling = asyncio.create_task(self._roll(players))

    async def _back(self, service: str, killed: asyncio.Task[float]) -> None:
        """`killed_back_s`: how soon Docker's restart policy had the killed process healthy
        again (None: not within 90 s; the rolling restart starts it anyway)."""
        at = await killed
        while await asyncio.to_thread(self.project.healthy, [service]):
            await asyncio.sleep(0.1)  # until Docker has seen it die
            if time.monotonic() - at > 10:
                break
        self.figures["killed_back_s"] = None
        while time.monotonic() - at < 90 and self._rolling is None:
            if await asyncio.to_thread(self.project.healthy, [service]):
                self.figures["killed_back_s"] = round(time.monotonic() - at, 1)
                return
            await asyncio.sleep(0.5)

    async def _roll(self, players: Players) -> None:
        before = players.tally.moves_played
        began = time.monotonic()
        rebuilt = await asyncio.to_thread(self.rebuild)
        self.figures["rebuild_s"] = round(time.monotonic() - began, 1)
        began = time.monotonic()
        self.figures["rolled"] = True  # every bot back healthy, on the rebuilt image
        for bot in self.project.bots:
            await asyncio.to_thread(self.project.run, "up", "-d", "--no-build", "--no-deps", bot)
            await self.healthy(self.project, [bot])
            if self.project.inspect(bot)["Image"] != rebuilt:
                self.figures["rolled"] = False
        self.figures["restart_s"] = round(time.monotonic() - began, 1)
        self.figures["moves_during_restart"] = players.tally.moves_played - before

    async def finished(self) -> None:
        """Raises what went wrong in the operator's own work (a kill, the restart)."""
        for task in (self._kill, self._rolling):
            if task is not None:
                await task


class ClusterOperator:
    """On the Redis Cluster: the master holding the table killed as a move arrives (move 8),
    then a turn left waiting for a reminder."""

    KILL_AT = 8

    def __init__(self, project: Project, store: Store, channel: Channel) -> None:
        self.project, self.store, self.channel = project, store, channel
        self.figures: dict[str, Any] = {}
        self._failover: asyncio.Task[None] | None = None
        self._reminded = False

    async def before_turn(self, players: Players, person: TgUser) -> None:
        moves = players.tally.moves_played
        if self._failover is None and moves >= self.KILL_AT:
            slot, host = await self._master_of_table()
            master = self.project.service_at(host)
            self.figures["killed"] = master
            print(f"docker kill {master}, the master holding the table", flush=True)
            killed = kill_soon(self.project, self.project.container(master))
            self._failover = asyncio.create_task(self._promoted(slot, host, killed))
        elif self._failover is not None and not self._reminded:
            self._reminded = True
            await players.wait_for_reminders(person, 1)

    async def finished(self) -> None:
        if self._failover is not None:
            await self._failover

    async def _master_of_table(self) -> tuple[int, str]:
        """The table's hash slot and the address of the master holding it."""
        client = RedisCluster(host=self.project.address("redis-2"), port=6379)
        try:
            await client.initialize()
            slot = client.keyslot(self.channel.game_key)
            return slot, str(client.nodes_manager.get_node_from_slot(slot).host)
        finally:
            await client.aclose()

    async def _promoted(self, slot: int, old: str, killed: asyncio.Task[float]) -> None:
        """`failover_s`: from the kill until a replica serves the table's slot as master."""
        at = await killed
        others = [
            address
            for address in (self.project.address_or_none(f"redis-{n}") for n in range(1, 7))
            if address and address != old
        ]
        while True:
            for address in others:
                if await _serves(address, slot):
                    self.figures["failover_s"] = round(time.monotonic() - at, 1)
                    return
            if time.monotonic() - at > 120:
                raise RuntimeError("no replica took over the table's slot in 120 s")
            await asyncio.sleep(0.1)


async def _serves(address: str, slot: int) -> bool:
    """Whether the node at `address` is a master serving `slot`, by its own account."""
    client = Redis(host=address, port=6379, socket_timeout=1)
    try:
        nodes = str(await client.execute_command("CLUSTER", "NODES"), "utf-8", "replace")  # type: ignore[no-untyped-call]
    except (RedisError, OSError):
        return False
    finally:
        await client.aclose()
    for line in nodes.splitlines():
        fields = line.split()
        if "myself" in fields[2].split(",") and "master" in fields[2].split(","):
            return any(_covers(part, slot) for part in fields[8:])
    return False


def _covers(part: str, slot: int) -> bool:
    if part.startswith("["):
        return False  # a slot being moved
    first, _, last = part.partition("-")
    return int(first) <= slot <= int(last or first)
