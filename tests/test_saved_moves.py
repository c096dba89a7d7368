"""A saved move is always told, shown and followed up, even when Redis fails right after a
write: its reply is lost (redis-py resends the write) or Redis goes away at once. A real
redis-server sits behind `CuttingProxy`, which cuts the connection after a chosen command."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import render.forbidden_city as render
from bot.console.app import Console
from bot.exchange.replies import Reply, mention
from bot.local_redis.server import RedisServer
from bot.service import GameService
from bot.store import CLAIM_LEASE, Channel, Store, scripts
from engine.forbidden_city import Game
from tests.conftest import fixed_seeds
from tests.redis_proxy import CuttingProxy
from tests.tables import keep, load_game
from tests.test_service import (
    CHANNEL,
    Clock,
    current_user,
    is_png,
    seated,
    settings,
    table_of,
    who,
)
from tests.views import to_play

ROOM = Channel.of("console", CHANNEL)
HOUR = 3600.0


def sent(script: str) -> bytes:
    """What identifies a Lua script on the wire: redis-py sends EVALSHA <sha1>."""
    return hashlib.sha1(script.encode()).hexdigest().encode()


@pytest.fixture
async def proxy(redis_url: str, redis_server: RedisServer) -> AsyncIterator[CuttingProxy]:
    assert redis_server.unix_socket is not None
    cutting = CuttingProxy(redis_server.unix_socket)
    await cutting.start()
    yield cutting
    await cutting.stop()


@pytest.fixture
async def store(proxy: CuttingProxy) -> AsyncIterator[Store]:
    """A store whose every command goes through the proxy; redis-py resends once or twice."""
    through = Store.from_url(proxy.url, timeout=1.0, retries=2)
    yield through
    await through.close()


@pytest.fixture
def service(store: Store, clock: Clock) -> GameService:
    return GameService(store, settings(), clock=clock, seeds=fixed_seeds())


@pytest.fixture
def clock() -> Clock:
    return Clock()


def texts(reply: Reply) -> str:
    return " | ".join(m.text for m in [*reply.public, *reply.private])


async def one_move_from_the_end(service: GameService, store: Store) -> str:
    """A seated two-player table whose next move ends the game; returns who plays it."""
    await seated(service, ["ann", "bob"])
    record = await store.load(ROOM)
    assert record is not None
    table = await table_of(store)
    assert table is not None
    # Full stacks of one open tile (a stored record holds whole stacks): the game ends when both
    # seats are down to two tiles, after 2 x 28 moves.
    game = Game(load_game(table).players, start="none", stacks=[["....G"] * 30] * 2)
    for _ in range(2 * 28 - 1):
        game.play(game.legal_moves()[0])
    keep(table, game)
    await store.save(ROOM, table.model_dump_json(), record.version)
    return current_user(table)


async def play_first_spot(service: GameService, user: str) -> Reply:
    table = await table_of(service.store)
    assert table is not None
    spot = render.spots(to_play(load_game(table)))[0]
    return await service.command(who(user), f"play {spot.number} {spot.rotations[0]}")


async def test_a_move_saved_right_before_an_outage_is_told_with_its_image(
    service: GameService, store: Store, proxy: CuttingProxy, clock: Clock
) -> None:
    table = await seated(service, ["ann", "bob"])
    mover = current_user(table)
    other = "bob" if mover == "ann" else "ann"
    clock.now += HOUR
    proxy.cut_after(b"EVALSHA", deliver=True, down=True)
    reply = await play_first_spot(service, mover)
    assert proxy.cuts == 1
    assert reply.ok, texts(reply)
    [public] = reply.public
    assert is_png(public.image) and mention(other) in public.text
    [notice] = reply.direct
    assert notice.user_id == other and notice.turn_notice and is_png(notice.message.image)
    await proxy.start()
    after = await table_of(store)
    assert after is not None and after.game is not None and len(load_game(after).moves) == 1
    # The next turn's deadlines were written with the move.
    limit = await store.deadline(ROOM, "limit")
    remind = await store.deadline(ROOM, "remind")
    assert limit is not None and limit.due == clock.now + 72 * HOUR
    assert remind is not None and remind.due == clock.now + 12 * HOUR


async def test_the_next_turn_limit_counts_from_the_move_despite_an_outage(
    service: GameService, proxy: CuttingProxy, clock: Clock
) -> None:
    table = await seated(service, ["ann", "bob"])
    mover = current_user(table)
    other = "bob" if mover == "ann" else "ann"
    clock.now += 71 * HOUR
    moved_at = clock.now
    proxy.cut_after(b"EVALSHA", deliver=True, down=True)
    await play_first_spot(service, mover)
    await proxy.start()
    clock.now += 2 * HOUR  # past the first turn's limit, far from the second's
    fired = await service.fire_due()
    assert not [m for _, _, r in fired for m in r.public], "a turn limit fired early"
    clock.now = moved_at + 72 * HOUR + 1
    fired = await service.fire_due()
    public = [m.text for _, _, r in fired for m in r.public]
    assert len(public) == 1 and mention(other) in public[0] and "vote" in public[0]


async def test_a_lost_reply_to_the_last_move_still_ends_the_game_with_its_results(
    service: GameService, store: Store, proxy: CuttingProxy
) -> None:
    mover = await one_move_from_the_end(service, store)
    proxy.cut_after(sent(scripts.ARCHIVE))
    reply = await play_first_spot(service, mover)
    assert proxy.cuts == 1
    assert reply.ok, texts(reply)
    [public] = reply.public
    assert "Game over" in public.text and "Winner" in public.text and is_png(public.image)
    assert await store.load(ROOM) is None


async def test_an_outage_right_after_the_last_move_leaves_no_game_half_ended(
    service: GameService, store: Store, proxy: CuttingProxy
) -> None:
    mover = await one_move_from_the_end(service, store)
    proxy.cut_after(b"EVALSHA", deliver=True, down=True)
    reply = await play_first_spot(service, mover)
    assert proxy.cuts == 1
    assert reply.ok, texts(reply)
    assert "Game over" in reply.public[0].text
    await proxy.start()
    assert await store.load(ROOM) is None  # the channel is free for a new table
    assert await store.user_games("console", "ann") == []
    assert await store.deadline(ROOM, "limit") is None
    board = await service.command(who("bob"), "board")
    assert board.ok and "Game over" in board.public[0].text and is_png(board.public[0].image)
    assert (await service.command(who("ann"), "new")).ok


async def test_a_lost_reply_to_a_deadline_claim_still_fires_it(
    service: GameService, store: Store, proxy: CuttingProxy, clock: Clock
) -> None:
    table = await seated(service, ["ann", "bob"])
    clock.now += 12 * HOUR + 1
    proxy.cut_after(sent(scripts.CLAIM))
    fired = await service.fire_due()
    assert proxy.cuts == 1
    assert [d.user_id for _, _, r in fired for d in r.direct] == [current_user(table)]
    assert "reminder" in fired[0][2].direct[0].message.text


async def test_a_claimed_deadline_whose_work_failed_comes_due_again(
    service: GameService, proxy: CuttingProxy, clock: Clock
) -> None:
    table = await seated(service, ["ann", "bob"])
    clock.now += 12 * HOUR + 1
    proxy.cut_after(sent(scripts.CLAIM), deliver=True, down=True)
    assert await service.fire_due() == []  # the outage is waited out, not raised
    await proxy.start()
    assert await service.fire_due() == []  # claimed: not due again before its lease ends
    clock.now += CLAIM_LEASE + 1
    fired = await service.fire_due()
    assert [d.user_id for _, _, r in fired for d in r.direct] == [current_user(table)]
    assert await service.fire_due() == []


async def test_the_console_keeps_polling_deadlines_through_an_outage(
    service: GameService,
    proxy: CuttingProxy,
    clock: Clock,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    table = await seated(service, ["ann", "bob"])
    console = Console(service, tmp_path)
    clock.now += 12 * HOUR + 1
    await proxy.stop()
    with caplog.at_level(logging.WARNING):
        assert await console.tick() == []
        assert await console.tick() == []
    assert len([r for r in caplog.records if r.levelno == logging.WARNING]) == 1
    await proxy.start()
    lines = await console.tick()
    assert any(f"[DM {current_user(table)}]" in line and "reminder" in line for line in lines)


async def test_a_reminder_sent_just_before_an_outage_is_still_delivered_once(
    service: GameService, proxy: CuttingProxy, clock: Clock
) -> None:
    table = await seated(service, ["ann", "bob"])
    clock.now += 12 * HOUR + 1
    proxy.cut_after(sent(scripts.DONE), down=True)
    fired = await service.fire_due()
    assert proxy.cuts == 1
    assert [d.user_id for _, _, r in fired for d in r.direct] == [current_user(table)]
    await proxy.start()
    clock.now += CLAIM_LEASE + 1  # the reminder's work was stored: it does not come again
    assert await service.fire_due() == []


async def test_a_move_whose_reply_was_lost_for_good_is_told_once_the_store_is_back(
    service: GameService, store: Store, proxy: CuttingProxy, clock: Clock
) -> None:
    table = await seated(service, ["ann", "bob"])
    mover = current_user(table)
    other = "bob" if mover == "ann" else "ann"
    proxy.cut_after(b"EVALSHA", down=True)  # the move reaches Redis, no reply ever comes back
    reply = await play_first_spot(service, mover)
    assert not reply.ok  # the player is told to try again: the bot cannot know it was saved
    await proxy.start()
    after = await table_of(store)
    assert after is not None and len(load_game(after).moves) == 1  # it was saved
    assert await service.fire_due() == []  # its news are owed a little longer
    clock.now += 31
    fired = await service.fire_due()
    [(_, _, news)] = fired
    [public] = news.public
    assert is_png(public.image) and mention(other) in public.text and "saved" in public.text
    [notice] = news.direct
    assert notice.user_id == other and notice.turn_notice and notice.message.choices
    clock.now += 3600
    assert await service.fire_due() == []  # told once


async def test_news_told_while_redis_went_away_are_not_told_again(
    service: GameService, proxy: CuttingProxy, clock: Clock
) -> None:
    table = await seated(service, ["ann", "bob"])
    proxy.cut_after(b"EVALSHA", deliver=True, down=True)  # saved and told, then Redis goes
    reply = await play_first_spot(service, current_user(table))
    assert reply.ok and reply.public
    await proxy.start()
    clock.now += 31
    assert await service.fire_due() == []
