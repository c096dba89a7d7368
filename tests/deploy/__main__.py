"""`python -m tests.deploy` (`make deploy-test`): the deploy files run on this machine.

From a clean machine: the Docker engine (installed, started), the base images from Debian's
packages, the bot's image from the wheelhouse; then the compose file for several processes over
one Redis, two bot processes, a whole game played through them over the fake Telegram (webhook
mode) while one container is killed and then both are rolled to a rebuilt image; then the
Redis Cluster compose file, a game played while the master holding the table is killed; the
systemd units verified. Whatever it started is removed at the end, also after a failure. The
last line printed is one JSON object of figures; exit status 0 when every check held, 77 when
no Docker engine can run here.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import FrameType
from typing import Any

import aiohttp

from bot.store import Store
from tests.fake_telegram import TOKEN, FakeBotApi
from tests.procs import ROOT

from .compose import Project
from .engine import SKIPPED, EngineUnavailable, install_missing, running_engine
from .images import (
    LOCAL_CADDY,
    LOCAL_PYTHON,
    LOCAL_REDIS,
    base_images,
    build_bot,
    command_of,
    id_of,
    size_of,
)
from .operators import ClusterOperator, ScaleOperator
from .play import ANN, GROUP, Players
from .telegram import HOST_NAME, SECRET, WEBHOOK_PATH, Webhooks, through_proxy
from .units import check_units

TAG = "fc-bot-deploy-test:latest"
REMINDER_AFTER = 6.0


class Run:
    """What one run started, so that all of it can be removed whatever happens."""

    def __init__(self, docker: str, scratch: Path) -> None:
        self.docker, self.scratch = docker, scratch
        self.projects: list[Project] = []
        self.built: list[str] = []  # the ids of the bot's images this run built
        self.figures: dict[str, Any] = {}
        self.revision = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
        ).stdout.strip()

    def project(self, name: str, file: str, bot_environment: dict[str, str]) -> Project:
        env_file = self.scratch / "bot.env"  # the bots' own .env: nothing from the developer's
        env_file.touch()
        variables = {
            "REDIS_IMAGE": LOCAL_REDIS,
            "PYTHON_IMAGE": LOCAL_PYTHON,
            "FC_BOT_IMAGE": TAG,
            "FC_BOT_ENV_FILE": str(env_file),
            "CADDY_IMAGE": LOCAL_CADDY,
            "BOT_HOST": "localhost",
        }
        made = Project(self.docker, name, file, self.scratch, variables, bot_environment)
        self.projects.append(made)
        made.down()  # a run stopped by force earlier may have left it
        return made

    def clean(self) -> list[str]:
        """Everything this run started, removed; what could not be, listed."""
        left: list[str] = []
        for project in self.projects:
            project.down()
            left += project.left()
        for image in (TAG, *self.built):  # the base images stay: they are the cache
            subprocess.run([self.docker, "image", "rm", "-f", image], capture_output=True)
        return left

    async def build(self) -> None:
        print("base images from Debian's packages (cached once built)", flush=True)
        self.figures["base_s"] = round(base_images(self.docker), 1)
        print("the bot's image from the wheelhouse", flush=True)
        self.figures["build_s"] = round(build_bot(self.docker, TAG, f"{self.revision}-1"), 1)
        self.built.append(id_of(self.docker, TAG))
        self.figures["image_bytes"] = size_of(self.docker, TAG)
        problems = check_units(self.scratch, command_of(self.docker, TAG))
        self.figures["units"] = problems or "verified"

    async def play(self) -> None:
        api = FakeBotApi()
        # What is checked is the deploy, at the machine's speed
        api.allow(chat=500, group=2000, overall=1000)
        await api.start("0.0.0.0")
        try:
            environment = {
                "TELEGRAM_TOKEN": TOKEN,
                "TELEGRAM_BASE_URL": f"http://{HOST_NAME}:{api.port}/bot",
                "TELEGRAM_WEBHOOK_URL": f"https://bot.example{WEBHOOK_PATH}",
                "TELEGRAM_WEBHOOK_SECRET": SECRET,
                "TELEGRAM_WEBHOOK_LISTEN": "0.0.0.0",
                "REMINDER_AFTER": f"{REMINDER_AFTER:g}s",
                "BOT_PAUSE": "0.2s",
                "BOT_ITERATIONS": "20",
            }
            await self._scale(api, environment)
            await self._cluster(api, environment)
        finally:
            await api.stop()

    async def _scale(self, api: FakeBotApi, environment: dict[str, str]) -> None:
        print("compose: two bot processes over one Redis", flush=True)
        scale = self.project("fc-deploy-test", "docker-compose.scale.yml", environment)
        scale.up("redis", *scale.bots)
        await healthy(scale, scale.bots)
        store = Store.from_url(f"redis://{scale.address('redis')}:6379/0")
        try:
            webhooks = Webhooks(api, lambda: live_addresses(scale))
            players = Players(api, webhooks, store, REMINDER_AFTER)
            operator = ScaleOperator(scale, self._rebuild, healthy)
            while players.tally.games == 0 or not operator.done:
                await players.play_game(operator.before_turn)
            await operator.finished()
            tally = players.finish()
            self.figures["proxy"] = await self._proxy(scale, api)
        finally:
            await store.close()
        self.figures.update(
            games=tally.games,
            **tally.figures(),
            restart_errors=tally.unanswered + tally.try_again + tally.refused,
            deliveries_retried=webhooks.retries,
            deliveries_busy=webhooks.busy,
            **operator.figures,
        )

    async def _proxy(self, scale: Project, api: FakeBotApi) -> str:
        """The compose file's Caddy in front of both bots: an update delivered through it over
        HTTPS is answered ("forwarded"), else what went wrong."""
        await asyncio.to_thread(scale.run, "up", "-d", "--no-build", "--no-deps", "caddy")
        update = api.command(GROUP, ANN, "/fc status")
        answers = len(api.sent())  # with no table, Ann is answered privately
        status = 0
        for _ in range(120):  # Caddy makes its own certificate authority first
            address = scale.address_or_none("caddy")
            if address is not None:
                with contextlib.suppress(aiohttp.ClientError, TimeoutError, OSError):
                    status = await through_proxy(address, "localhost", update)
                    if status == 200:
                        break
            await asyncio.sleep(0.5)
        if status != 200:
            return f"status {status} through Caddy\n{scale.logs()[-1500:]}"
        for _ in range(100):
            if len(api.sent()) > answers:
                return "forwarded"
            await asyncio.sleep(0.1)
        return "no answer to an update delivered through Caddy"

    def _rebuild(self) -> str:
        """The bot's image built again (another revision label): its id."""
        build_bot(self.docker, TAG, f"{self.revision}-2")
        self.built.append(id_of(self.docker, TAG))
        return self.built[-1]

    async def _cluster(self, api: FakeBotApi, environment: dict[str, str]) -> None:
        print("compose: the Redis Cluster, three masters and three replicas", flush=True)
        cluster = self.project("fc-deploy-test-cluster", "docker-compose.cluster.yml", environment)
        cluster.up()
        await healthy(cluster, cluster.bots)
        store = Store.from_url(f"redis://{cluster.address('redis-1')}:6379")
        try:
            webhooks = Webhooks(api, lambda: live_addresses(cluster))
            players = Players(api, webhooks, store, REMINDER_AFTER)
            operator = ClusterOperator(cluster, store, players.channel)
            await players.play_game(operator.before_turn)
            await operator.finished()
            tally = players.finish()
        finally:
            await store.close()
        self.figures["cluster"] = {**tally.figures(), **operator.figures}


def live_addresses(project: Project) -> list[str]:
    return [a for a in (project.address_or_none(bot) for bot in project.bots) if a is not None]


async def healthy(project: Project, services: list[str], timeout: float = 180.0) -> float:
    """Seconds until every service reports healthy (its /healthz answers). Docker is asked
    from a thread: the fake Telegram the bots talk to runs in this event loop."""
    began = time.monotonic()
    while not await asyncio.to_thread(project.healthy, services):
        if time.monotonic() - began > timeout:
            states = {s: project.health(s) for s in services}
            raise RuntimeError(f"not healthy after {timeout:.0f} s: {states}\n{project.logs()}")
        await asyncio.sleep(0.5)
    return time.monotonic() - began


def passed(figures: dict[str, Any]) -> bool:
    cluster = figures.get("cluster", {})
    zero = ("moves_lost", "images_missing", "private_missing", "deadlines_missed")
    return (
        figures.get("units") == "verified"
        and figures.get("games", 0) >= 1
        and figures.get("rolled") is True
        and figures.get("proxy") == "forwarded"
        and all(figures.get(k) == 0 for k in (*zero, "deadlines_twice", "restart_errors"))
        and all(cluster.get(k) == 0 for k in (*zero, "deadlines_twice", "unanswered", "refused"))
        and cluster.get("moves_played", 0) > 0
        and figures.get("left_behind") == []
    )


def _stop(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def main() -> int:
    signal.signal(signal.SIGTERM, _stop)
    scratch = Path(tempfile.mkdtemp(prefix="fc-deploy-test-"))
    figures: dict[str, Any] = {}
    began = time.monotonic()
    try:
        install_missing()
        with running_engine(scratch / "dockerd.log") as docker:
            run = Run(docker, scratch)
            figures = run.figures
            try:
                asyncio.run(run.build())
                asyncio.run(run.play())
            except (Exception, KeyboardInterrupt) as exc:  # SIGTERM too: remove all first
                figures["failed"] = f"{type(exc).__name__}: {exc}"[-3000:]
            finally:
                figures["left_behind"] = run.clean()
    except EngineUnavailable as exc:
        print(f"deploy-test skipped: no Docker engine can run on this machine ({exc})")
        print(json.dumps({"skipped": str(exc)}))
        return SKIPPED
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    figures["total_s"] = round(time.monotonic() - began, 1)
    figures["passed"] = passed(figures)
    print(json.dumps(figures))
    return 0 if figures["passed"] else 1


if __name__ == "__main__":
    sys.exit(main())
