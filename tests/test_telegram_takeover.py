"""Polling passing from one bot process to another, with real `python -m bot` processes on the
fake Bot API and a real redis-server: a poller stopped with SIGTERM (a rolling restart) hands
its lease back, so another process polls at once; a killed one blocks polling until its lease
runs out. Either way the process that takes over says after how long polling resumed."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.fake_telegram import TOKEN, FakeBotApi, TgUser
from tests.procs import ROOT, bot_environment

GROUP = -100_5151
ANN = TgUser(7201, "Ann")
BEN = TgUser(7202, "Ben")
RESUMED = re.compile(r"polling resumed after (\d+(?:\.\d+)?) s \(([^)]*)\)")


async def until(check: Callable[[], object], timeout: float = 90.0) -> None:
    """Wait for a state; the bound only ends a test that is failing anyway."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not check():
        if asyncio.get_running_loop().time() > deadline:
            pytest.fail("waited in vain")
        await asyncio.sleep(0.05)


@dataclass
class Bot:
    """One `python -m bot` process and the file its log goes to."""

    process: subprocess.Popen[bytes]
    log_file: Path

    def log(self) -> str:
        return self.log_file.read_text(errors="replace")

    def exited(self) -> bool:
        return self.process.poll() is not None


class Bots:
    """Telegram-only bot processes sharing one Redis, all stopped at the end."""

    def __init__(self, api: FakeBotApi, redis_url: str, folder: Path, lease: str) -> None:
        self.api, self.redis_url, self.folder, self.lease = api, redis_url, folder, lease
        self.started: list[Bot] = []

    def start(self) -> Bot:
        number = len(self.started)
        env = bot_environment(
            TELEGRAM_TOKEN=TOKEN,
            TELEGRAM_BASE_URL=self.api.base_url,
            TELEGRAM_POLL_LEASE=self.lease,
            REDIS_URL=self.redis_url,
            DATA_DIR=str(self.folder / f"data-{number}"),
            LOG_LEVEL="INFO",
        )
        log_file = self.folder / f"bot-{number}.log"
        with log_file.open("wb") as out:
            process = subprocess.Popen(
                [sys.executable, "-m", "bot"], cwd=ROOT, env=env, stdout=out, stderr=out
            )
        bot = Bot(process, log_file)
        self.started.append(bot)
        return bot

    async def stop(self) -> None:
        """SIGTERM to those still running, waited for with the event loop free (the fake Bot
        API runs in it, and a stopping bot still calls it); SIGKILL after a while."""
        for bot in self.started:
            if not bot.exited():
                bot.process.terminate()
        try:
            await until(lambda: all(bot.exited() for bot in self.started), timeout=30)
        finally:
            for bot in self.started:
                if not bot.exited():
                    bot.process.kill()
                    bot.process.wait(10)


@pytest.fixture
async def bots_with(
    api: FakeBotApi, redis_url: str, tmp_path: Path
) -> AsyncIterator[Callable[[str], Bots]]:
    made: list[Bots] = []

    def make(lease: str) -> Bots:
        made.append(Bots(api, redis_url, tmp_path, lease))
        return made[-1]

    yield make
    for bots in made:
        await bots.stop()


async def poller_and_standby(bots: Bots) -> tuple[Bot, Bot]:
    """Two processes: the first polls, the second waits for the lease."""
    first = bots.start()
    await until(lambda: "polling Telegram for updates" in first.log())
    second = bots.start()
    await until(lambda: "another process polls Telegram" in second.log())
    return first, second


async def test_a_poller_stopped_with_sigterm_hands_its_lease_to_another_at_once(
    api: FakeBotApi, bots_with: Callable[[str], Bots]
) -> None:
    # An hour's lease: only the stopped poller giving it back can explain a takeover here.
    bots = bots_with("1h")
    api.poll_limit = 3600.0  # a long poll lasts as long as the bot asks, as on Telegram
    first, second = await poller_and_standby(bots)
    since = len(api.calls)  # the long poll begun after this update has its ten seconds ahead
    api.serve_update(api.command(GROUP, ANN, "/fc new"))
    await until(lambda: len(api.sent(GROUP)) == 1)
    await until(lambda: api.polling(since) is not None)
    held = api.polling(since)
    assert held is not None

    first.process.send_signal(signal.SIGTERM)  # in the middle of a long poll
    await until(first.exited)
    assert first.process.returncode == 0
    assert "stopped" in first.log() and "Traceback" not in first.log()
    api.serve_update(api.command(GROUP, BEN, "/fc join"))
    await until(lambda: any("Ben" in c.text for c in api.sent(GROUP)))
    resumed = RESUMED.search(second.log())
    assert resumed is not None, second.log()
    assert resumed[2] == "the last poller handed its lease back"
    # The poll under way was dropped at the stop, not waited out: Telegram never answered it.
    await until(lambda: held.abandoned or held.result is not None)
    assert held.abandoned


async def test_a_killed_pollers_lease_runs_out_and_another_process_polls_then(
    api: FakeBotApi, bots_with: Callable[[str], Bots]
) -> None:
    bots = bots_with("3s")
    first, second = await poller_and_standby(bots)
    os.kill(first.process.pid, signal.SIGKILL)
    await until(first.exited)
    api.serve_update(api.command(GROUP, ANN, "/fc new"))
    await until(lambda: len(api.sent(GROUP)) == 1)
    assert "opens a Forbidden City table" in api.sent(GROUP)[0].text
    resumed = RESUMED.search(second.log())
    assert resumed is not None, second.log()
    assert resumed[2] == "the last poller's lease ran out"
    assert float(resumed[1]) >= 3.0  # not before the killed poller's lease ran out
