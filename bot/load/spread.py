"""Tables spread over their games before a soak's clock starts (`python -m bot load --aged`).

A run opens all its tables at once, so they age together: at 10 moves a second over 40
tables a Die Verbotene Stadt game lasts about as long as a half-hour soak, and a table's
record, its kept game and the images it draws all grow with its age for the whole run. Memory
that follows the tables' common age hides a leak, or looks like one. A bot that has run for a
while holds tables at every point of their games; so does a run that first plays each table
a share of a game's length, the shares spread evenly between none and all of it. A game's
length is measured, not assumed: three tables of each game are played to their ends first,
and the shortest sets the shares. Games of Die Verbotene Stadt run from 140 to over 400 moves
(greedy players, 300 deals): measured on one long game, the last shares fell past the end of
shorter games, whose tables then started the run new. A table whose game still ends before
its share is replaced by a new one, as during the run, and the new one is forwarded in turn.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

from .run import Run

CONCURRENT = 8  # tables forwarded at once, per process
MEASURED = 3  # whole games of each kind played to learn its length
TRIES = 3  # tables played in turn to forward one, if their games end before


async def game_length(run: Run, game: str, name: str) -> int:
    """Moves a whole game of `game` took on table `name`, played through the service by the
    simulated players (`moves.choose`)."""
    worker = run.workers[0]
    await run.post(worker, "/open", {"game": game, "channel": name})
    moves = 0
    while not (await run.post(worker, "/step", {"channel": name})).get("over"):
        moves += 1
    return moves


async def forward(run: Run, table: str, moves: int) -> bool:
    """Play `moves` moves on an idle table (taken out of `run.idle` by the caller), then give
    it back. One whose game ends before is replaced by a new table, played `moves` moves in
    its turn, up to TRIES tables; False if the last one ended too (it starts the run new)."""
    for attempt in range(1, TRIES + 1):
        successor = await _play(run, table, moves)
        if successor is None:
            run.idle.append(table)
            return True
        if attempt < TRIES:
            run.idle.remove(successor)  # left idle by `Run.replace`: forwarded here first
            table = successor
    return False


async def _play(run: Run, table: str, moves: int) -> str | None:
    """Play up to `moves` moves on `table`: None if all were played, else the new table that
    replaced it when its game ended."""
    worker = run.worker_for(table)
    for _ in range(moves):
        successor = await run.settle(table, await run.post(worker, "/step", {"channel": table}))
        if successor is not None:
            return successor
    return None


def even_shares(games: list[str], lengths: dict[str, int], rng: random.Random) -> list[int]:
    """The moves to forward each table (given by its game): the tables of a game take the
    middles of as many equal parts of its length, in a shuffled order. Drawn at random, a
    few tables' shares could all fall early, and the run start younger than a bot that has
    run for long; evenly spaced, their mean is half a game whatever the draw."""
    shares = [0] * len(games)
    for game in sorted(set(games)):
        places = [index for index, of in enumerate(games) if of == game]
        rng.shuffle(places)
        for rank, index in enumerate(places):
            shares[index] = int((rank + 0.5) / len(places) * lengths[game])
    return shares


async def spread(run: Run, rng: random.Random) -> dict[str, Any]:
    """Forward every idle table by an even share of its game's measured length; returns the
    lengths, by game, the least, median and most moves a table was forwarded, and how many
    tables ended on the way (started the run new)."""
    lengths = {
        game: min(
            await asyncio.gather(
                *(game_length(run, game, f"length-{game}-{n}") for n in range(MEASURED))
            )
        )
        for game in sorted(set(run.games.values()))
    }
    tables, run.idle = run.idle, []
    shares = even_shares([run.games[table] for table in tables], lengths, rng)
    gate = asyncio.Semaphore(CONCURRENT * len(run.workers))

    async def one(table: str, moves: int) -> bool:
        async with gate:
            return await forward(run, table, moves)

    done = await asyncio.gather(
        *(one(table, moves) for table, moves in zip(tables, shares, strict=True))
    )
    shares.sort()
    middle = shares[len(shares) // 2] if shares else 0
    return {
        "game_lengths": lengths,
        "moves_forwarded": [min(shares, default=0), middle, max(shares, default=0)],
        "ended_on_the_way": done.count(False),
    }
