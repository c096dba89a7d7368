"""GET /healthz and GET /metrics: what an operator's probes and Prometheus see."""

from __future__ import annotations

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

import render.forbidden_city as render
from bot.config import Settings
from bot.exchange.actor import Actor
from bot.local_redis.server import free_port
from bot.records.table import Table
from bot.runtime.computer_pool import Computer
from bot.runtime.ops import Health, serve
from bot.service import GameService
from bot.store import Channel, Store
from tests.conftest import RedisServerFactory, fixed_seeds
from tests.tables import load_game
from tests.views import to_play
from tests.vs_driver import Chat, press
from tests.vs_table import open_stadt

TINY = 6  # search iterations: a computer player decides in milliseconds (as test_table_bots)


async def _get(port: int, path: str) -> tuple[int, str]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}{path}") as response,
    ):
        return response.status, await response.text()


async def test_healthz_says_whether_redis_and_each_platform_are_up(
    redis_server_factory: RedisServerFactory,
) -> None:
    server = redis_server_factory()
    server.start()
    store = Store.from_url(server.url, timeout=0.5, retries=0)
    health = Health(store)
    connected = {"telegram": True}
    health.add("telegram", lambda: connected["telegram"])
    port = free_port()
    stop = await serve(health, "127.0.0.1", port)
    try:
        status, body = await _get(port, "/healthz")
        assert status == 200 and '"redis": true' in body and '"telegram": true' in body
        connected["telegram"] = False  # the poller stopped
        status, body = await _get(port, "/healthz")
        assert status == 503 and '"telegram": false' in body
        connected["telegram"] = True
        server.stop()  # Redis is gone
        status, body = await _get(port, "/healthz")
        assert status == 503 and '"redis": false' in body
    finally:
        await stop()
        await store.close()


async def test_metrics_count_actions_errors_and_time_commands(store: Store) -> None:
    service = GameService(store, Settings(_env_file=None), seeds=fixed_seeds())  # type: ignore[call-arg]
    port = free_port()
    stop = await serve(Health(store), "127.0.0.1", port)
    try:
        for user, text in (("ann", "new"), ("bob", "join"), ("ann", "start")):
            assert (await service.command(Actor("console", "m", user, user), text)).ok
        late = await service.command(Actor("console", "m", "cid", "Cid"), "join")
        assert not late.ok  # the game has started: refused
        status, text = await _get(port, "/metrics")
    finally:
        await stop()
    assert status == 200
    assert 'fc_command_seconds_count{kind="command"}' in text
    assert 'fc_errors_total{kind="refused"}' in text


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def _value(text: str, name: str, **labels: str) -> float:
    """One sample of a `/metrics` body (0 when it is not there yet)."""
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name and sample.labels == labels:
                return float(sample.value)
    return 0.0


def _grew(before: str, after: str, name: str, **labels: str) -> float:
    """How much a sample went up between two scrapes (the registry is the process's)."""
    return _value(after, name, **labels) - _value(before, name, **labels)


async def _scrape(port: int) -> str:
    status, text = await _get(port, "/metrics")
    assert status == 200
    return text


async def _table(store: Store, channel: str) -> Table:
    record = await store.load(Channel.of("console", channel))
    assert record is not None
    return Table.model_validate_json(record.data)


async def _tile_move(service: GameService, store: Store, channel: str) -> str:
    """The person whose turn it is at the tile game places a tile; returns who."""
    table = await _table(store, channel)
    [waiting] = table.waiting
    user = table.user_of(waiting.split(" ", 1)[0]).user_id
    spot = render.spots(to_play(load_game(table)))[0]
    actor = Actor("console", channel, user, user.capitalize())
    reply = await service.command(actor, f"play {spot.number} {spot.rotations[0]}")
    assert reply.ok, reply.private
    return user


async def test_metrics_count_the_actions_of_each_game(store: Store) -> None:
    service = GameService(store, Settings(_env_file=None), seeds=fixed_seeds())  # type: ignore[call-arg]
    port = free_port()
    stop = await serve(Health(store), "127.0.0.1", port)
    tiles = {"game": "forbidden_city", "by": "person"}
    stadt = {"game": "verbotene_stadt", "by": "person"}
    try:
        before = await _scrape(port)
        for user, text in (("ann", "new"), ("bob", "join"), ("ann", "start")):
            assert (await service.command(Actor("console", "tiles", user, user), text)).ok
        await _tile_move(service, store, "tiles")
        chat = Chat()
        await open_stadt(service, chat, ["ann", "bob"])
        await press(service, chat, "ann", chat.button("ann", "vb", "GY").data)  # a secret bribe
        after = await _scrape(port)
    finally:
        await stop()
    assert _grew(before, after, "fc_actions_total", **tiles) == 1
    assert _grew(before, after, "fc_actions_total", **stadt) == 1


async def test_metrics_show_deadlines_due_fired_late_and_computer_searches(store: Store) -> None:
    """Ann plays the tile game against a computer player, on a clock the test moves."""
    clock = Clock()
    computer = Computer(1, 5.0, TINY)
    settings = Settings(_env_file=None, bot_pause=0)  # type: ignore[call-arg, arg-type]
    service = GameService(store, settings, clock=clock, seeds=fixed_seeds(), computer=computer)
    ann = Actor("console", "room", "ann", "Ann")
    port = free_port()
    stop = await serve(Health(store), "127.0.0.1", port)
    try:
        before = await _scrape(port)
        assert (await service.command(ann, "new bots:1")).ok
        assert (await service.command(ann, "start")).ok
        await service.fire_due()  # the computer's first turn, if it has it: no pause
        table = await _table(store, "room")
        assert [table.user_of(w.split(" ", 1)[0]).user_id for w in table.waiting] == ["ann"]
        # Ann's reminder falls due, 5 s ago; a Discord poller leaves the console's to others.
        clock.now += settings.reminder_after.total_seconds() + 5
        assert await service.fire_due("discord") == []
        waiting = await _scrape(port)
        fired = await service.fire_due()
        assert fired and fired[0][2].direct  # Ann is reminded
        reminded = await _scrape(port)
        assert await _tile_move(service, store, "room") == "ann"
        await service.fire_due()  # the computer player's turn, at once
        after = await _scrape(port)
    finally:
        await stop()
        computer.close()
    assert _value(waiting, "fc_deadlines_due") == 1  # the reminder, left to the console
    assert _value(reminded, "fc_deadlines_due") == 0
    assert _value(after, "fc_deadlines_due") == 0
    assert _grew(waiting, reminded, "fc_deadlines_fired_total", kind="remind") == 1
    assert _grew(waiting, reminded, "fc_deadline_late_seconds_count", kind="remind") == 1
    late = _grew(waiting, reminded, "fc_deadline_late_seconds_sum", kind="remind")
    assert late == pytest.approx(5.0)
    moves = _grew(before, after, "fc_actions_total", game="forbidden_city", by="computer")
    assert moves >= 1
    assert _grew(before, after, "fc_deadlines_fired_total", kind="bot") == moves
    searched = {"game": "forbidden_city", "level": "normal"}
    assert _grew(before, after, "fc_computer_search_seconds_count", **searched) == moves
