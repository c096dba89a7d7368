"""Telegram for bots in containers: the project's fake Bot API listening where the containers
reach it, and the delivery of each update to the processes behind the public webhook URL.

A reverse proxy spreads updates over the processes, and Telegram sends an update again until
some process answers 200; a process killed or restarting is therefore skipped, never waited on.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import aiohttp

from tests.fake_telegram import FakeBotApi

__all__ = ["HOST_NAME", "SECRET", "Undelivered", "Webhooks", "through_proxy"]

# The containers reach the host, where the fake Bot API runs, by this name (host-gateway).
HOST_NAME = "host.docker.internal"
SECRET = "deploy-test-Secret_1"
WEBHOOK_PATH = "/telegram"


async def through_proxy(address: str, host: str, update: dict[str, Any]) -> int:
    """Deliver an update to the webhook through the reverse proxy at `address` serving `host`
    over HTTPS (its own certificate authority's certificate, not checked): the status."""
    async with (
        aiohttp.ClientSession() as session,
        session.post(
            f"https://{address}{WEBHOOK_PATH}",
            json=update,
            headers={"Host": host, "X-Telegram-Bot-Api-Secret-Token": SECRET},
            server_hostname=host,
            ssl=False,
            timeout=aiohttp.ClientTimeout(total=10),
        ) as response,
    ):
        return response.status


class Undelivered(Exception):
    """No process took an update for as long as Telegram keeps trying."""


class Webhooks:
    """Delivers updates round robin over the bot processes' webhooks, retrying elsewhere."""

    def __init__(self, api: FakeBotApi, addresses: Callable[[], list[str]]) -> None:
        self.api = api
        self._addresses = addresses  # the bot containers' addresses, looked up again on failure
        self._live: list[str] = []  # their addresses, as last looked up
        self._looked = 0.0
        self._turn = 0
        self.retries = 0  # deliveries a process did not take (killed, stopping, starting)
        self.busy = 0  # of those, 503s: the update was being handled by another process

    async def refresh(self) -> None:
        """Look the processes up again, as a proxy's health checks do (at most once a second),
        so one that comes back gets its share again."""
        if time.monotonic() - self._looked < 1.0 and self._live:
            return
        self._live = await asyncio.to_thread(self._addresses)
        self._looked = time.monotonic()

    async def next_address(self) -> str:
        """The address the next update goes to first."""
        await self.refresh()
        return self._live[(self._turn + 1) % len(self._live)]

    async def deliver(self, update: dict[str, Any], patience: float = 120.0) -> None:
        await self.refresh()
        deadline = time.monotonic() + patience
        while True:
            self._turn += 1
            live = self._live
            url = f"http://{live[self._turn % len(live)]}:8443{WEBHOOK_PATH}" if live else None
            if url is not None and await self._taken(url, update):
                return
            self.retries += 1
            if time.monotonic() > deadline:
                raise Undelivered(f"update {update['update_id']} reached no process")
            await asyncio.sleep(0.2)
            await self.refresh()

    async def _taken(self, url: str, update: dict[str, Any]) -> bool:
        try:
            async with asyncio.timeout(10):
                status, _ = await self.api.post_webhook(url, update, SECRET)
        except (aiohttp.ClientError, TimeoutError, OSError):
            return False
        self.busy += status == 503
        return status == 200
