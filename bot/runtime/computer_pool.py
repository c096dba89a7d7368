"""Computer players' decisions, made in worker processes under a hard time limit.

A search takes up to two seconds of pure CPU: run in the bot's process it would stall every
chat for that long. Workers receive one seat's view (never the game), so a computer player
knows what a person in its seat would know. A decision that overruns its limit, or whose
worker dies or fails, is replaced by the greedy one, so a table never waits on a computer; the
workers are then replaced, since a process cannot be stopped in the middle of one task.
Nothing is kept between decisions: the same view and seed give the same decision again
after a restart.
"""

from __future__ import annotations

import asyncio
import ctypes
import logging
import multiprocessing
import os
import random
import signal
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from typing import Any, NamedTuple

from engine.ai import Player, game_ai

from ..text.i18n import N_
from .metrics import CUT

log = logging.getLogger(__name__)

DEFAULT_LEVEL = "normal"
# Time for a view to reach a worker and the action to come back, beyond the search's own.
GRACE = 1.0
_PR_SET_PDEATHSIG = 1

# The levels' names, translated where shown ("Computer (hard)").
LEVEL_WORDS = (N_("easy"), N_("normal"), N_("hard"))
# Lines of `/fc help` at a table whose game computer players know.
HELP = (
    N_(
        "bot add [easy|normal|hard] / bot remove [n]: seat or remove a computer player before "
        "the start (the creator); new ... bots:N seats N at once"
    ),
    N_("vote bot: a computer player plays for the late player until they type /fc back"),
)


class Thought(NamedTuple):
    """A worker's answer: the action, and whether the search's cap cut it short."""

    action: Any
    capped: bool


Work = Callable[[str, str, Any, str, int, float, int | None], Thought]


def playable(game_key: str) -> bool:
    """Whether computer players know this game (its `engine.<game>.ai` exists)."""
    try:
        game_ai(game_key)
    except ModuleNotFoundError:
        return False
    return True


def decide(
    game_key: str,
    level: str,
    view: Any,
    seat: str,
    seed: int,
    seconds: float,
    iterations: int | None = None,
) -> Thought:
    """The action of a computer player of `level` for `seat`, seeing only `view` (in a worker).
    The search stops by itself after `seconds` of its own CPU time; `iterations` caps every
    level (tests)."""
    ai = game_ai(game_key)
    budget = ai.levels()[level]
    budget = replace(budget, max_seconds=min(budget.max_seconds, seconds))
    if iterations is not None:
        budget = replace(
            budget,
            iterations=min(budget.iterations, iterations),
            determinizations=min(budget.determinizations, iterations),
        )
    action, capped = Player(level, ai).think(view, seat, random.Random(seed), budget)
    return Thought(action, capped)


def die_with(parent: int) -> None:
    """In each worker, first: the kernel ends it when the bot's process dies, even by SIGKILL
    (Linux), so no worker outlives its bot."""
    if sys.platform == "linux":
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        if os.getppid() != parent:  # the bot died before prctl took effect
            os._exit(0)


def greedy(game_key: str, view: Any, seat: str, seed: int) -> Any:
    """The greedy baseline's action from the same view: quick, and never wrong to play."""
    return Player("greedy", game_ai(game_key)).decide(view, seat, random.Random(seed))


class Computer:
    """The worker processes and the time limit (`decide` is the only entry point)."""

    def __init__(
        self, workers: int, limit: float, iterations: int | None = None, work: Work = decide
    ) -> None:
        self.workers = workers
        self.limit = limit
        self.iterations = iterations
        self._work = work
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # Spawned, not forked: the bot's process has threads and open connections.
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                self.workers, mp_context=context, initializer=die_with, initargs=(os.getpid(),)
            )
        return self._pool

    async def decide(self, game_key: str, level: str, view: Any, seat: str, seed: int) -> Any:
        """The decision, or the greedy one if it overran `limit` or its worker failed."""
        loop = asyncio.get_running_loop()
        try:
            future = loop.run_in_executor(
                self._executor(),
                self._work,
                game_key,
                level,
                view,
                seat,
                seed,
                self.limit,
                self.iterations,
            )
            thought = await asyncio.wait_for(future, self.limit + GRACE)
            if thought.capped:
                CUT.labels(game_key, level).inc()
            return thought.action
        except (TimeoutError, BrokenProcessPool) as err:
            log.warning("a %s decision in %s failed (%r): greedy instead", level, game_key, err)
            if isinstance(err, TimeoutError):  # cut by the time limit, as by the cap
                CUT.labels(game_key, level).inc()
            self._replace()
        except Exception:
            log.exception("a %s decision in %s failed: greedy instead", level, game_key)
        return await asyncio.to_thread(greedy, game_key, view, seat, seed)

    def _replace(self) -> None:
        """Stop the workers (one may be stuck in an overrun search); new ones start on demand."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        processes = list(getattr(pool, "_processes", {}).values())
        # Decisions still queued fail as the pool breaks (BrokenProcessPool), and go greedy.
        pool.shutdown(wait=False)
        for process in processes:
            process.terminate()

    def close(self) -> None:
        self._replace()
