"""A whole game of Die Verbotene Stadt, from the deal of `new stadt` to the end shown on the
page, played by one person on a phone (390x844 CSS px, three device pixels to each, a touch
screen) who only taps what the page offers: the officials and stops of the big board, the
tray, the action bar's buttons (`tests/stadt_page.py`), each at least 44 CSS px; never a
chat command after the start; which official goes where is the test's choice
(`toward_the_pavilion`). Two computer players fill the other seats, each acting when its
pause is over (the test's clock). The presses each kind of move took are printed."""

from __future__ import annotations

import random
import time
from collections import defaultdict
from collections.abc import AsyncIterator

import pytest
from playwright.async_api import expect

from bot.exchange.actor import Actor
from bot.records.table import Table
from bot.runtime.computer_pool import Computer
from bot.service import GameService
from bot.store import Channel, Store
from tests.browser import chromium
from tests.conftest import Site
from tests.stadt_page import SMALLEST, changed, play_turn
from tests.tables import load_game
from tests.test_web_seats import Clock, settings

CHANNEL = "room1"
WHERE = Channel.of("console", CHANNEL)
PERSON = "ann"


@pytest.fixture
async def service(store: Store) -> AsyncIterator[GameService]:
    clock = Clock()
    # Six search iterations: the computers decide in milliseconds.
    made = GameService(
        store, settings(), seeds=lambda: 7, clock=clock, computer=Computer(1, 5.0, 6)
    )
    yield made
    made.computer.close()


async def _deal(service: GameService) -> str:
    """`new stadt` with two computer players, started: the real deal. The game's id."""
    ann = Actor("console", CHANNEL, PERSON, "Ann")
    opened = await service.command(ann, "new stadt bots:2:easy")
    assert opened.ok, [m.text for m in opened.private]
    assert (await service.command(ann, "start")).ok
    record = await service.store.load(WHERE)
    assert record is not None
    return record.game_id


async def _computers(service: GameService, clock: Clock) -> None:
    """The computer whose turn it is acts, once its pause is over."""
    pause = service.settings.bot_pause.total_seconds()
    for _ in range(5):
        clock.now += pause
        if [r for p, c, r in await service.fire_due() if Channel.of(p, c) == WHERE]:
            return
    raise AssertionError("no computer acted")


async def test_a_whole_game_of_die_verbotene_stadt_touched_on_a_phone(
    service: GameService, site: Site
) -> None:
    clock = service.clock
    assert isinstance(clock, Clock)
    game_id = await _deal(service)
    address = await site(service)
    rng = random.Random(2)
    presses: dict[str, list[int]] = defaultdict(list)  # kind of move: the presses of each
    smallest = float("inf")
    computer_turns = 0
    began = time.monotonic()
    async with chromium() as browser:
        phone = await browser.new_context(
            viewport={"width": 390, "height": 844},
            device_scale_factor=3,
            is_mobile=True,
            has_touch=True,
        )
        page = await phone.new_page()
        token = await service.seat_token("console", CHANNEL, game_id, PERSON)
        await page.goto(f"{address}/t/console/{CHANNEL}/{game_id}#seat={token}")
        assert await page.evaluate("window.devicePixelRatio") == 3
        for _ in range(1000):
            record = await service.store.load(WHERE)
            if record is None:
                break  # played out: the table is kept with the finished games
            table = Table.model_validate_json(record.data)
            game = load_game(table)
            if game.is_over:
                break
            mine = [t for t in game.to_act if table.user_of(t.seat).user_id == PERSON]
            if not mine:
                await _computers(service, clock)
                computer_turns += 1
                continue
            turn = mine[0]
            await expect(page.locator("#table")).to_have_attribute(
                "data-version", str(record.version), timeout=10000
            )
            sizes = await play_turn(page, game, turn.seat, turn.kind, rng)
            smallest = min(smallest, *sizes)
            presses[turn.kind].append(len(sizes))
            await changed(service, WHERE, record.version)
        else:
            raise AssertionError("the game did not end")
        await expect(page.locator("#table")).to_have_attribute("data-over", "true")
        status = await page.locator("#status").inner_text()
        await phone.close()
    took = time.monotonic() - began
    turns = sum(len(each) for each in presses.values())
    total = sum(sum(each) for each in presses.values())
    per_kind = ", ".join(
        f"{kind} {sum(each) / len(each):.2f} ({len(each)} turns, {min(each)}-{max(each)})"
        for kind, each in sorted(presses.items())
    )
    print(
        f"\nDie Verbotene Stadt, whole game on a phone: {turns} turns by touch, {total} presses, "
        f"{total / turns:.2f} presses per move; by kind: {per_kind}; {computer_turns} computer "
        f"turns; smallest target {smallest:.0f} CSS px; {took:.0f} s"
    )
    assert "Ann" in status and "Computer" in status
    assert smallest >= SMALLEST
    assert {"bribe", "move"} <= set(presses) and turns >= 10
