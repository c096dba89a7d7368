"""Discord shards: each process runs the shards it is given, Discord sends each guild's events
to one shard, and a game goes on across processes (its channel on one, its player's DMs on
another, a computer's turns fired by either), even when one of them is killed outright."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.config import Settings
from bot.discord import FcClient, build_client
from bot.records.table import Table
from bot.service import GameService
from bot.store import Channel, Store
from tests.fake_discord import FakeDiscord, Json, Person, fake_discord
from tests.procs import ROOT, bot_environment
from tests.tables import load_game

ANN = Person(5001, "Ann")


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with fake_discord() as server:
        yield server


async def until(check: Callable[[], bool | Awaitable[bool]], timeout: float = 30.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        result = check()
        if not isinstance(result, bool):
            result = await result
        if result:
            return
        if asyncio.get_running_loop().time() > deadline:
            pytest.fail("waited in vain")
        await asyncio.sleep(0.05)


async def ask(fake: FakeDiscord, payload: Json, timeout: float = 30.0) -> int:
    """Send over the gateway and wait for the answer the user sees; returns the shard used."""
    shard = await fake.send(payload)
    interaction = fake.interactions[payload["token"]]
    if payload["type"] == 4:
        await until(lambda: interaction.choices is not None, timeout)
    else:
        await until(
            lambda: (
                bool(interaction.original or interaction.followups) or interaction.original_deleted
            ),
            timeout,
        )
    return shard


def settings(**values: Any) -> Settings:
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


async def test_a_process_identifies_only_its_own_shards(fake: FakeDiscord, store: Store) -> None:
    service = GameService(store, settings())
    client = build_client(settings(discord_shard_count=3, discord_shard_ids=[1, 2]), service)
    assert isinstance(client, FcClient)
    task = asyncio.create_task(client.start("test-token"))
    try:
        await until(lambda: len(fake.shards) == 2)
        assert sorted(fake.identified) == [(1, 3), (2, 3)]
        assert fake.commands == []  # shard 0's process syncs the commands, once
        fake.use_guild(2, 3)
        assert await ask(fake, fake.command_payload(ANN, "new")) == 2
        [lobby] = fake.channel_messages()
        assert "<@5001>" in lobby.content
        fake.use_guild(0, 3)
        with pytest.raises(KeyError):  # no process here runs shard 0
            await fake.send(fake.command_payload(ANN, "new"))
    finally:
        await client.close()
        task.cancel()


async def test_without_a_count_one_process_runs_what_discord_advises(
    fake: FakeDiscord, store: Store
) -> None:
    fake.recommended_shards = 2
    client = build_client(settings(), GameService(store, settings()))
    task = asyncio.create_task(client.start("test-token"))
    try:
        await until(lambda: len(fake.shards) == 2, timeout=30)
        assert sorted(fake.identified) == [(0, 2), (1, 2)]
        assert fake.commands  # this process runs shard 0: it syncs the commands
        fake.use_guild(1, 2)
        assert await ask(fake, fake.command_payload(ANN, "new")) == 1
    finally:
        await client.close()
        task.cancel()


class Bots:
    """`python -m bot` processes on the fake Discord, one per shard of two."""

    def __init__(self, fake: FakeDiscord, redis_url: str, folder: Path) -> None:
        self.fake, self.redis_url, self.folder = fake, redis_url, folder
        self.processes: dict[int, subprocess.Popen[bytes]] = {}

    def start(self, shard: int) -> None:
        env = bot_environment(
            DISCORD_TOKEN="test-token",
            DISCORD_API_BASE=self.fake.base,
            DISCORD_SHARD_COUNT="2",
            DISCORD_SHARD_IDS=str(shard),
            REDIS_URL=self.redis_url,
            DATA_DIR=str(self.folder / f"data-{shard}"),
            BOT_PAUSE="0s",
            BOT_ITERATIONS="4",
            LOG_LEVEL="WARNING",
        )
        log = (self.folder / f"bot-{shard}-{len(self.processes)}.log").open("ab")
        self.processes[shard] = subprocess.Popen(
            [sys.executable, "-m", "bot"], cwd=ROOT, env=env, stdout=log, stderr=log
        )

    def kill(self, shard: int) -> None:
        process = self.processes.pop(shard)
        os.kill(process.pid, signal.SIGKILL)
        process.wait(10)

    async def restart(self, shard: int) -> None:
        """Kill the shard's process outright and start another, then wait until that one has
        identified: the fake may not have read the dead process's end of its connection yet,
        and an interaction sent there would be lost."""
        dead = self.fake.shards[shard]
        self.kill(shard)
        self.start(shard)
        await until(lambda: self.fake.shards.get(shard) not in (None, dead), timeout=60)

    def stop(self) -> None:
        for process in self.processes.values():
            process.terminate()
        for process in self.processes.values():
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()


async def test_a_game_goes_on_across_two_processes_and_a_killed_one(
    fake: FakeDiscord, store: Store, redis_url: str, tmp_path: Path
) -> None:
    bots = Bots(fake, redis_url, tmp_path)
    bots.start(0)
    bots.start(1)
    try:
        await until(lambda: sorted(fake.shards) == [0, 1], timeout=60)
        fake.use_guild(1, 2)  # the table's channel: shard 1; Ann's DMs: shard 0
        channel = Channel.of("discord", str(fake.channel_id))

        async def table() -> Table | None:
            record = await store.load(channel)
            return None if record is None else Table.model_validate_json(record.data)

        async def anns_turn_or_over() -> bool:
            found = await table()
            if found is None or found.game is None:
                return True
            return found.user_of(load_game(found).current).user_id == str(ANN.id)

        assert await ask(fake, fake.command_payload(ANN, "new", bots=1, level="easy")) == 1
        assert await ask(fake, fake.command_payload(ANN, "start")) == 1
        moves = 0
        while True:
            await until(anns_turn_or_over, timeout=90)
            if await table() is None:
                break
            in_dm = moves % 2 == 1
            typed = fake.autocomplete_payload(ANN, "", dm=in_dm)
            assert await ask(fake, typed) == (0 if in_dm else 1)
            choices = fake.interactions[typed["token"]].choices
            assert choices, "no spot offered on Ann's turn"
            command = fake.dm_command_payload if in_dm else fake.command_payload
            before = await store.load(channel)
            turns = choices[0]["name"].split("(")[1].rstrip(")").split("/")
            await ask(fake, command(ANN, "play", spot=choices[0]["value"], rotation=int(turns[0])))
            await until(lambda before=before: _changed(store, channel, before))  # type: ignore[misc]
            moves += 1
            if moves == 6:  # the channel's process dies; a new one takes its shard
                await bots.restart(1)
        channel_id = fake.channel_id
        # the table is gone once the last move is saved; its words follow from the outbox
        await until(
            lambda: any("Game over" in post.content for post in fake.channel_messages(channel_id))
        )
        await asyncio.sleep(1.0)  # room for a second delivery, which must not come
        posted = fake.channel_messages(fake.channel_id)
        assert sum("Game over" in m.content for m in posted) == 1
        seen = [(m.content, tuple(data for _name, data in m.files)) for m in posted]
        assert len(seen) == len(set(seen)), "something posted twice"
        assert moves > 6
        assert fake.unexpected == []
    finally:
        bots.stop()


async def _changed(store: Store, channel: Channel, before: object) -> bool:
    now = await store.load(channel)
    return (
        now is None
        or before is None
        or getattr(now, "version", None) != getattr(before, "version", None)
    )
