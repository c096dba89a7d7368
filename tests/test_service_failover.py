"""A master of the cluster dies in the middle of a game, seen through the service: players
are told, in their language, that the storage is unavailable and nothing was changed; the
deadline poller waits without raising; once the replica is promoted the same service goes
on with the game, every acknowledged move still there. A cluster of its own, as this one is
left with a dead node (see `test_store_failover` for the store's side)."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from typing import Any

import redis

import render.forbidden_city as render
from bot.config import Settings
from bot.exchange.actor import Actor
from bot.exchange.replies import Reply
from bot.records.table import Table
from bot.service import GameService
from bot.store import Channel, GameRecord, Store
from tests.conftest import fixed_seeds
from tests.procs import wait_gone
from tests.redis_cluster import LocalCluster
from tests.tables import load_game
from tests.views import to_play

CHANNEL = "failover_room"
CHAN = Channel.of("console", CHANNEL)
# What a player is told while the master of their table is down, as the bot words it.
UNAVAILABLE = {
    "en": "The game storage is unavailable right now. Nothing was changed; "
    "please try again in a moment.",
    "fr": "La sauvegarde des parties est indisponible pour le moment. Rien n'a été "
    "modifié ; réessaie dans un instant.",
}
NOW = 1_000_000.0


def settings() -> Settings:
    return Settings(_env_file=None)  # type: ignore[call-arg]


def who(user: str, channel: str = CHANNEL, **extra: Any) -> Actor:
    return Actor("console", channel, user, user.capitalize(), **extra)


def elsewhere(cluster: LocalCluster) -> str:
    """A channel whose table lives on another master than `CHANNEL`'s."""
    ours = cluster.master_of(CHAN.game_key).port
    return next(
        name
        for name in (f"other_{n}" for n in range(1000))
        if cluster.master_of(Channel.of("console", name).game_key).port != ours
    )


async def stored(store: Store) -> tuple[GameRecord, Table]:
    record = await store.load(CHAN)
    assert record is not None
    return record, Table.model_validate_json(record.data)


def next_move(table: Table) -> tuple[str, str, int]:
    """Who is to play, a legal `play` for them, and the spot's number (for its button)."""
    game = load_game(table)
    spot = render.spots(to_play(game))[0]
    mover = table.user_of(game.current).user_id
    return mover, f"play {spot.number} {spot.rotations[0]}", spot.number


async def play_on(service: GameService, moves: int) -> None:
    for _ in range(moves):
        before, table = await stored(service.store)
        mover, play, _ = next_move(table)
        reply = await service.command(who(mover), play)
        assert reply.ok, reply.private
        after, _ = await stored(service.store)
        assert after.version == before.version + 1


def unavailable(reply: Reply, lang: str = "en") -> bool:
    """A refusal that says, and only says, that the storage is away: nothing posted."""
    return (
        not reply.ok
        and not reply.public
        and not reply.direct
        and [m.text for m in reply.private] == [UNAVAILABLE[lang]]
    )


def button_of(table: Table, spot: int) -> str:
    """The data of the spot button the player to act was sent with their turn."""
    return f"fc:sp:{CHANNEL}:{len(load_game(table).moves)}:{spot}"


def wait_cluster_down(port: int, timeout: float = 30.0) -> None:
    """Until the node at `port` says the cluster is down (a master failed, none promoted)."""
    deadline = time.monotonic() + timeout
    with redis.Redis(port=port, decode_responses=True, socket_timeout=2) as node:
        while node.execute_command("CLUSTER INFO").get("cluster_state") != "fail":
            assert time.monotonic() < deadline, "the cluster never noticed the dead master"
            time.sleep(0.1)


async def down_for_everyone(service: GameService, mover: str, play: str, button: str) -> None:
    """While the table's master is down: a move, typed or pressed, every look at the table
    and a new table in its place are refused with the words users see, in their language,
    and quickly; what needs no table still answers; the deadline poller waits without
    raising."""
    started = time.monotonic()
    assert unavailable(await service.command(who(mover), play))
    assert unavailable(await service.command(who(mover, locale="fr"), play), "fr")
    assert unavailable(await service.press(who(mover), button))
    for reading in ("status", "board", "hand", "new"):
        assert unavailable(await service.command(who(mover), reading)), reading
    rules = await service.command(who(mover), "rules")
    assert rules.ok and rules.private[0].text
    assert await service.fire_due() == []
    assert service.ctx.store_down
    assert time.monotonic() - started < 20


async def answers_again(service: GameService, user: str, timeout: float = 30.0) -> Reply:
    """The first normal answer to `status` once the cluster has failed over. While redis-py
    learns the new topology a read may still be refused, but only with "try again": a table
    that exists is never said to be missing."""
    deadline = time.monotonic() + timeout
    while True:
        reply = await service.command(who(user), "status")
        if reply.ok:
            return reply
        assert unavailable(reply), reply.private
        assert time.monotonic() < deadline, f"the service did not come back: {reply.private}"
        await asyncio.sleep(0.2)


async def test_a_failover_mid_game_says_try_again_then_the_game_goes_on(
    own_cluster: LocalCluster,
) -> None:
    # A save waits up to 0.8 s for the replica (0.1 s by default), so a busy machine cannot
    # turn the copy this test relies on into a skipped one.
    store = Store.from_url(own_cluster.url, timeout=1.0, retries=1, replica_wait=0.8)
    service = GameService(store, settings(), clock=lambda: NOW, seeds=fixed_seeds())
    try:
        assert (await service.command(who("ann"), "new")).ok
        assert (await service.command(who("bob"), "join")).ok
        assert (await service.command(who("ann"), "start")).ok
        await play_on(service, 4)
        other = elsewhere(own_cluster)
        assert (await service.command(who("cid", other), "new")).ok
        before, table = await stored(store)
        assert before.version > 4 and len(load_game(table).moves) == 4
        mover, play, spot = next_move(table)
        assert await service.fire_due() == []  # nothing due yet: the poller reads every master

        master = own_cluster.master_of(CHAN.game_key)
        replica = own_cluster.replica_of(master)
        assert master.pid is not None
        # Every replica is promoted only when told (below), not by itself after the node
        # timeout (5 s): the outage lasts as long as the test needs, however slow the
        # machine, and a master merely slow to answer on a starved machine keeps its slots.
        for server in own_cluster.running():
            with redis.Redis(port=server.port, decode_responses=True) as node:
                if node.info("replication")["role"] == "slave":
                    assert node.config_set("cluster-replica-no-failover", "yes")
        os.kill(master.pid, signal.SIGKILL)
        assert wait_gone(master.pid)

        # Until the others mark it failed (the node timeout), only its slots are out:
        lobby = await service.command(who("cid", other), "status")  # its master is up
        assert lobby.ok and "Waiting for Cid to start" in lobby.private[0].text
        await down_for_everyone(service, mover, play, button_of(table, spot))
        survivor = next(
            s for s in own_cluster.running() if s.port not in (master.port, replica.port)
        )
        wait_cluster_down(survivor.port)  # the others mark the master failed: CLUSTERDOWN
        await down_for_everyone(service, mover, play, button_of(table, spot))

        with redis.Redis(port=replica.port, decode_responses=True) as promoted:
            assert promoted.execute_command("CLUSTER FAILOVER", "TAKEOVER")
        status = await answers_again(service, mover)
        assert "to play" in status.private[0].text
        opened = await service.command(who("bob"), "new")  # never over the table under way
        assert not opened.ok and "already open" in opened.private[0].text
        assert own_cluster.master_of(CHAN.game_key).port == replica.port

        after, kept = await stored(store)  # every move acknowledged before, nothing since
        assert (after.version, after.data) == (before.version, before.data)
        assert [str(m) for m in load_game(kept).moves] == [str(m) for m in load_game(table).moves]
        reply = await service.command(who(mover), play)  # the refused move, now played
        assert reply.ok, reply.private
        await play_on(service, 3)
        last, table = await stored(store)
        assert last.version == before.version + 4 and len(load_game(table).moves) == 8
        assert await service.fire_due() == []
        assert not service.ctx.store_down
        assert await store.user_games("console", "ann") == [CHAN]
        assert (await service.command(who("cid", other), "status")).ok
    finally:
        await store.close()
