"""The computer players' worker processes never outlive the bot, even one killed outright."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.procs import ROOT, wait_gone

THINKER = """
import asyncio
from bot.runtime.computer_pool import Computer
from engine.forbidden_city import Game

async def main():
    computer = Computer(1, 5.0, 2)
    game = Game(["purple", "yellow"], seed=1)
    await computer.decide("forbidden_city", "easy", game.view(game.current), game.current, 1)
    print("decided", flush=True)
    await asyncio.sleep(60)

asyncio.run(main())
"""


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


@pytest.mark.skipif(sys.platform != "linux", reason="the kernel's parent-death signal is Linux's")
def test_workers_die_with_a_killed_bot() -> None:
    bot = subprocess.Popen(
        [sys.executable, "-c", THINKER], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    try:
        assert bot.stdout is not None and bot.stdout.readline().strip() == "decided"
        workers = children(bot.pid)
        assert workers  # the search ran in another process
        os.kill(bot.pid, signal.SIGKILL)
        bot.wait(10)
        assert all(wait_gone(pid, 10) for pid in workers)
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait(10)
