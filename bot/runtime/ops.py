"""`GET /healthz` and `GET /metrics` for operators, on `OPS_PORT` when it is set.

`/healthz` answers 200 when Redis answers and every platform this process serves is connected
(its gateway, its webhook server or its poller), else 503, with each check in a JSON body, so
a load balancer or an orchestrator can route around a process that cannot work. `/metrics` is
Prometheus' text format (`bot.runtime.metrics`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from ..store import Store, StoreError
from .metrics import REGISTRY

log = logging.getLogger(__name__)
Check = Callable[[], bool]
CHECK_TIMEOUT = 2.0  # a Redis that takes longer than this to answer a ping is not healthy


class Health:
    """The checks of this process: Redis, and one per platform it serves."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.platforms: dict[str, Check] = {}

    def add(self, name: str, check: Check) -> None:
        """A platform's check, registered by its adapter once it starts."""
        self.platforms[name] = check

    async def report(self) -> dict[str, bool]:
        checks = {"redis": await self._redis()}
        for name, check in self.platforms.items():
            try:
                checks[name] = bool(check())
            except Exception:  # a check that fails says "unhealthy", never crashes the server
                log.exception("health check %s failed", name)
                checks[name] = False
        return checks

    async def _redis(self) -> bool:
        try:
            return await asyncio.wait_for(self.store.ping(), CHECK_TIMEOUT)
        except (StoreError, TimeoutError):
            return False


def app(health: Health) -> web.Application:
    async def healthz(request: web.Request) -> web.Response:
        checks = await health.report()
        status = 200 if all(checks.values()) else 503
        return web.json_response({"ok": status == 200, "checks": checks}, status=status)

    async def metrics(request: web.Request) -> web.Response:
        body = generate_latest(REGISTRY)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    made = web.Application()
    made.router.add_get("/healthz", healthz)
    made.router.add_get("/metrics", metrics)
    return made


async def serve(health: Health, host: str, port: int) -> Callable[[], Awaitable[None]]:
    """Start the server; returns what stops it."""
    runner = web.AppRunner(app(health), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    log.info("health and metrics on http://%s:%d/healthz and /metrics", host, port)
    return runner.cleanup
