"""`python -m bot load` drives bot processes of its own over a scratch Redis, kills one when
asked, and accounts for what that cost: one JSON line of figures, last."""

from __future__ import annotations

import random
import re

import pytest

from bot.load.moves import PLATFORM
from bot.load.progress import live_table_bytes
from bot.load.spread import TRIES, even_shares, forward
from bot.records import replayed
from bot.store import Channel, Store
from tests.procs import bot_load, ours, run_load

SMALL = ["--rate", "12", "--seconds", "4", "--kill"]


def test_a_small_load_with_a_killed_process_loses_nothing() -> None:
    figures, stderr = bot_load("--processes", "2", "--tables", "24", *SMALL)
    progress = [line for line in stderr.splitlines() if line.startswith("load: ")]
    assert len(progress) >= 2, stderr  # one every second of a 4-second run
    assert all(re.search(r"moves/s lately, p99 so far \d+ ms, 0 errors$", p) for p in progress)
    assert figures["processes"] == 2 and figures["tables"] == 24
    assert figures["offered_per_s"] == 12.0
    assert 0 < figures["achieved_per_s"] <= 13
    assert 0 < figures["p50_ms"] <= figures["p99_ms"] <= figures["max_ms"]
    assert figures["errors"] == 0
    assert figures["cpu_ms_per_move"] > 0
    assert 500 < figures["redis_bytes_per_table"] < 16_000  # a few KB a table
    assert figures["moves_lost"] == figures["deadlines_missed"] == figures["deadlines_twice"] == 0
    # The memory curve's ends: the killed process is counted out of the growth.
    assert [len(pair) for pair in figures["rss_mb"]] == [2, 2]
    assert 20 < figures["rss_mb"][1][0] < 400 and figures["rss_mb"][0][1] == 0
    curve = figures["rss_mb_curve"]  # [seconds, MB of each process], in time order
    assert len(curve) >= 3 and [len(point) for point in curve] == [3] * len(curve)
    assert [point[0] for point in curve] == sorted(point[0] for point in curve)
    # Each process's image caches, by name, at both ends: the killed one says nothing at the end.
    caches = figures["cache_mb"]
    assert len(caches) == 2 and caches[0][1] == {}
    assert set(caches[1][1]) == {
        "text", "text on a ground", "tile art", "labels", "spots", "officials",
        "sprites on a ground", "rounded boxes",
    }  # fmt: skip
    assert caches[1][1]["text"] > 0 and caches[1][1]["text on a ground"] > 0
    assert caches[1][1]["tile art"] >= caches[1][0]["tile art"] > 0
    assert isinstance(figures["rss_less_caches_growth_pct"], float)
    assert figures["redis_mb"][0] > 0 and 500 < figures["table_bytes"][1] < 16_000
    assert "computer_decisions" not in figures
    assert "drawn_per_move" not in figures  # a killed process's images cannot be asked for
    assert ours("bot load-worker") == [], "a worker outlived the load run"


def test_computer_players_decisions_and_those_their_cap_cut_are_counted() -> None:
    computers = ["--rate", "10", "--seconds", "5", "--computers", "2", "--level", "easy"]
    figures, _ = bot_load("--processes", "1", "--tables", "12", *computers)
    assert figures["computers_to_move"] > 0 and figures["computer_decisions"] > 0
    assert figures["computer_cut"] == 0 and figures["computer_cut_pct"] == 0.0
    # Most moves draw the table and the next player's turn; the images take part of the CPU.
    assert 1 <= figures["drawn_per_move"] <= 6
    assert 0 < figures["drawing_cpu_ms_per_move"] < figures["cpu_ms_per_move"]
    # The simulated players' deciding is theirs, not the bot's: counted apart.
    players, bot = figures["players_cpu_ms_per_move"], figures["bot_cpu_ms_per_move"]
    assert 0 < players < bot and bot + players == pytest.approx(figures["cpu_ms_per_move"], 0.02)
    assert 0 < figures["kept_games"][0] <= replayed.GAMES  # the tables' games, kept replayed
    assert figures["errors"] == 0 and figures["achieved_per_s"] > 0


def test_an_aged_run_starts_with_its_tables_spread_over_their_games() -> None:
    """`--aged` measures a whole game of each kind, played by the simulated players, then
    forwards each table a share of it before the clock starts."""
    figures, _ = bot_load(
        "--processes", "1", "--tables", "6", "--rate", "6", "--seconds", "2", "--aged"
    )
    lengths = figures["aged"]["game_lengths"]
    assert set(lengths) == {"forbidden_city", "verbotene_stadt"}
    # The simulated players finish a game in a few hundred moves (stand-ins never would).
    assert all(20 < moves < 1000 for moves in lengths.values()), lengths
    least, median, most = figures["aged"]["moves_forwarded"]
    assert 0 <= least <= median <= most < max(lengths.values()) and least < most
    assert figures["aged"]["ended_on_the_way"] == 0  # none starts the run new
    assert figures["errors"] == 0 and figures["achieved_per_s"] > 0
    # A table whose game ended is replaced by one of the same game: the mix stays even.
    assert figures["tables_by_game"] == {"forbidden_city": 3, "verbotene_stadt": 3}
    # Spread tables hold more than a fresh one's few KB, from the first sample on.
    fresh, _ = bot_load("--processes", "1", "--tables", "6", "--rate", "6", "--seconds", "2")
    assert figures["table_bytes"][0] > 1.2 * fresh["table_bytes"][0]
    assert "aged" not in fresh


@pytest.mark.parametrize(
    ("args", "said"),
    [(["--rate", "0"], "must be positive"), (["--computers", "4"], "--computers is 0 to 3")],
)
def test_bad_figures_are_refused(args: list[str], said: str) -> None:
    done = run_load(*args, timeout=60)
    assert done.returncode == 2 and said in done.stderr


async def test_a_live_tables_mean_key_counts_young_tables_as_well_as_old(store: Store) -> None:
    """A run lists its tables by their first move, so the first few hundred listed are the
    games alive longest, whose keys are the largest: the mean covers every table listed."""
    old = [f"old{i}" for i in range(300)]
    young = [f"young{i}" for i in range(300)]
    for names, data in ((old, "x" * 8000), (young, "x" * 500)):
        for name in names:
            await store.client.hset(Channel.of(PLATFORM, name).game_key, "data", data)
    sizes = [
        await store.client.memory_usage(Channel.of(PLATFORM, names[0]).game_key, samples=0) or 0
        for names in (old, young)
    ]
    mean = await live_table_bytes(store, old + young)
    assert mean == pytest.approx(sum(sizes) / 2, rel=0.02)
    assert mean < 0.6 * sizes[0]


@pytest.mark.parametrize("seed", range(5))
def test_aged_tables_are_spread_evenly_over_their_game_whatever_the_draw(seed: int) -> None:
    """Three tables of a game take a sixth, a half and five sixths of its length, in some
    order: never three early shares, which would start a soak on young tables."""
    games = ["tile", "stadt", "tile", "stadt", "tile", "stadt"]
    shares = even_shares(games, {"tile": 90, "stadt": 210}, random.Random(seed))
    assert sorted(shares[0::2]) == [15, 45, 75]
    assert sorted(shares[1::2]) == [35, 105, 175]


class EndingRun:
    """What `forward` asks of a run, with games that end after the moves `lasting` gives
    (one per table, in the order the tables open); a table that ends is replaced."""

    def __init__(self, lasting: list[int]) -> None:
        self.lasting, self.idle = lasting, ["other"]
        self.played: dict[str, int] = {"t0": 0}

    def worker_for(self, table: str) -> str:
        return "worker"

    async def post(self, worker: str, path: str, body: dict[str, str]) -> dict[str, object]:
        table = body["channel"]
        self.played[table] += 1
        return {"over": self.played[table] == self.lasting[int(table[1:])]}

    async def settle(self, table: str, answer: dict[str, object]) -> str | None:
        if not answer["over"]:
            return None
        new = f"t{len(self.played)}"
        self.played[new] = 0
        self.idle.append(new)
        return new


@pytest.mark.parametrize(
    ("lasting", "forwarded", "played"),
    [
        ([50], True, {"t0": 30}),
        ([10, 50], True, {"t0": 10, "t1": 30}),
        ([10, 20, 5], False, {"t0": 10, "t1": 20, "t2": 5, "t3": 0}),
    ],
)
async def test_a_table_whose_game_ends_before_its_share_is_replaced_and_forwarded_in_turn(
    lasting: list[int], forwarded: bool, played: dict[str, int]
) -> None:
    """Forwarding 30 moves: a game that ends first leaves its replacement to be played the 30
    moves; after TRIES games that all end, the new table after them is left idle, unplayed."""
    assert TRIES == 3
    run = EndingRun(lasting)
    assert await forward(run, "t0", 30) is forwarded  # type: ignore[arg-type]
    assert run.played == played
    assert run.idle == ["other", max(played)]  # the one table it ends with, idle once
