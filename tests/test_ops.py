"""GET /healthz and GET /metrics: what an operator's probes and Prometheus see."""

from __future__ import annotations

import aiohttp

from bot.actor import Actor
from bot.config import Settings
from bot.ops import Health, serve
from bot.redis_server import free_port
from bot.service import GameService
from bot.store import Store
from tests.conftest import RedisServerFactory, fixed_seeds


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
