"""`python -m bot`: run every platform whose token is set (the console if none);
`python -m bot bench`: service speed figures, one JSON line."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import signal
import sys
from collections.abc import Coroutine
from typing import Any

from pydantic import SecretStr, ValidationError

from .config import Settings, refusal
from .links.console_secret import console_secret
from .load.cli import add_load, add_worker, run_load, run_worker
from .local_redis.server import RedisServerError, redis_url_for
from .runtime import heap
from .runtime import loop as event_loop
from .runtime.compat import fix_wait_for
from .runtime.logs import install as install_logging
from .runtime.ops import Health
from .runtime.ops import serve as serve_ops
from .service import GameService
from .store import Store
from .web.errors import WebPortError

log = logging.getLogger("fc-bot")


async def prepare(service: GameService) -> None:
    """Bring the stored data up to date before serving: the key layout (once), the players'
    index of games (any entry a dead process left out), the deadlines of turns under way."""
    await service.store.migrate()  # logs what it moved
    games = await service.store.repair_user_index()
    log.info("%d game(s) under way", games)
    restored = await service.restore_deadlines()
    if restored:
        log.info("restored %d deadline(s)", restored)
    heap.settle()


async def serve(settings: Settings) -> None:
    url = settings.redis_url.get_secret_value() if settings.redis_url else None
    console = settings.discord_token is None and settings.telegram_token is None
    if console and settings.web_url is None:
        # The console serves the pages too, so a newcomer sees the web table at once.
        settings = settings.model_copy(
            update={"web_url": f"http://{settings.web_host}:{settings.web_port}"}
        )
    if console and settings.web_secret is None:
        # Its players' personal links live as long as its data (`console_secret`).
        made = console_secret(settings.data_dir)
        settings = settings.model_copy(update={"web_secret": SecretStr(made)})
    if settings.web_url is not None and settings.web_secret is None:
        log.warning("WEB_SECRET is not set: the pages are spectators' only, no personal links")
    with redis_url_for(url, settings.data_dir) as redis_url:
        store = Store.from_url(redis_url, archive_ttl=settings.archive_ttl)
        service = GameService(store, settings)
        health = Health(store)
        stop_ops = stop_web = None
        if settings.ops_port is not None:
            stop_ops = await serve_ops(health, settings.ops_host, settings.ops_port)
        if settings.web_url is not None:
            from .web import serve as serve_web

            try:
                stop_web = await serve_web(service, settings.web_host, settings.web_port)
            except WebPortError as error:
                if not console:
                    raise
                # The console plays on without its pages, and posts no link to them.
                print(f"fc-bot: {error}", file=sys.stderr)
                service.ctx.settings = settings.model_copy(update={"web_url": None})
        await prepare(service)
        jobs: list[Coroutine[Any, Any, None]] = []
        if settings.discord_token is not None:
            from .discord import run as run_discord

            jobs.append(run_discord(settings, service, health=health))
        if settings.telegram_token is not None:
            from .telegram import run as run_telegram

            jobs.append(run_telegram(settings, service, health=health))
        try:
            if jobs:
                log.info("starting %d platform(s)", len(jobs))
                await asyncio.gather(*jobs)
            else:
                from .console import run as run_console

                await run_console(service, settings.data_dir / "images")
        finally:
            if stop_web is not None:
                await stop_web()
            if stop_ops is not None:
                await stop_ops()
            service.computer.close()
            await store.close()


async def serve_until_stopped(settings: Settings) -> None:
    """Serve until SIGTERM or SIGINT, then leave cleanly (the embedded Redis saves and stops)."""
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    assert task is not None
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, task.cancel)
    try:
        await serve(settings)
    except asyncio.CancelledError:
        log.info("stopped")


async def rebuild_ratings(settings: Settings) -> tuple[int, int]:
    """`python -m bot ratings rebuild`: every rating made again from the kept results."""
    from .service.results import rebuild

    url = settings.redis_url.get_secret_value() if settings.redis_url else None
    with redis_url_for(url, settings.data_dir) as redis_url:
        store = Store.from_url(redis_url)
        service = GameService(store, settings)
        try:
            return await rebuild(service.ctx)
        finally:
            service.computer.close()
            await store.close()


def parser() -> argparse.ArgumentParser:
    """The command line, every option with its help text."""
    made = argparse.ArgumentParser(
        prog="python -m bot",
        description="Run the bot: every platform whose token is set, the console if none.",
    )
    # `load-worker` is started by `load` only: no help and no place in the listed choices, so
    # --help does not show it (argparse would print "==SUPPRESS==" for a suppressed help).
    sub = made.add_subparsers(dest="command", metavar="{bench,load,ratings,web-bench}")
    bench = sub.add_parser("bench", help="service speed with real Redis and rendering")
    bench.add_argument(
        "--games", type=int, default=200, help="tile-game tables at once (default 200)"
    )
    bench.add_argument("--moves", type=int, default=300, help="timed single plays (default 300)")
    add_load(sub)
    web_bench = sub.add_parser(
        "web-bench", help="the web table's figures: first load, change delay, open pages"
    )
    web_bench.add_argument("--moves", type=int, default=30, help="timed moves each way")
    web_bench.add_argument(
        "--pages", type=int, default=10000, help="event streams held open on one process"
    )
    web_bench.add_argument(
        "--watchers",
        type=int,
        default=3000,
        help="pages watching the table whose moves are timed to their answer",
    )
    ratings = sub.add_parser(
        "ratings",
        help="ratings, leaderboards and histories",
        description="rebuild: delete every rating, leaderboard and player history and make "
        "them again from the kept results, oldest game first (REDIS_URL from the environment).",
    )
    ratings.add_argument("action", choices=["rebuild"], help="what to do: rebuild")
    add_worker(sub)
    return made


def main(argv: list[str] | None = None) -> int:
    fix_wait_for()
    args = parser().parse_args(argv)
    if args.command == "bench":
        from .bench.service import run as run_bench

        print(json.dumps(event_loop.run(run_bench(args.games, args.moves))))
        return 0
    if args.command == "load":
        return run_load(args)
    if args.command == "web-bench":
        from .bench.web import main as run_web_bench

        run_web_bench(args.moves, args.pages, args.watchers)
        return 0
    if args.command == "load-worker":
        return run_worker(args)
    try:
        settings = Settings()
    except ValidationError as error:  # a setting it cannot start with: one line that says so
        print(f"fc-bot: {refusal(error)}", file=sys.stderr)
        return 1
    install_logging(settings, "%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        if args.command == "ratings":
            results, cleared = event_loop.run(rebuild_ratings(settings))
            print(f"rated {results} kept result(s) again ({cleared} derived key(s) replaced)")
            return 0
        with contextlib.suppress(KeyboardInterrupt):
            event_loop.run(serve_until_stopped(settings))
    except WebPortError as error:
        print(f"fc-bot: {error}", file=sys.stderr)
        return 1
    except RedisServerError as error:
        # Both start the embedded Redis on the data folder: one that cannot start (the folder
        # in use by a running bot, data it cannot read) is said in one line, not a traceback.
        print(f"fc-bot: the embedded Redis could not start: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
