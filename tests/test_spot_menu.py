"""The spot menu of a private turn message offers every spot, a page at a time."""

from __future__ import annotations

import pytest

import render.forbidden_city as render
from bot.exchange.replies import Message
from bot.service import GameService
from bot.store import Channel, Store
from tests.conftest import fixed_seeds
from tests.late_table import advance
from tests.tables import load_game
from tests.test_service import CHANNEL, current_user, seated, settings, snapshot, who
from tests.views import to_play


@pytest.fixture
def service(store: Store) -> GameService:
    return GameService(store, settings(), seeds=fixed_seeds())


def spot_numbers(message: Message) -> list[int]:
    return [int(choice.data.rsplit(":", 1)[1]) for choice in message.choices]


def page_buttons(message: Message) -> list[str]:
    return [b.data for row in message.buttons for b in row if b.data.startswith("fc:pg:")]


async def test_every_spot_is_offered_page_by_page(service: GameService, store: Store) -> None:
    await seated(service, ["ann", "bob", "cid", "dan"])
    table = await advance(store, Channel.of("console", CHANNEL), spots=41)
    game = load_game(table)
    total = len(render.spots(to_play(game)))
    mover = current_user(table)
    [first] = (await service.command(who(mover), "hand")).private
    assert spot_numbers(first) == list(range(1, 21))
    seen = spot_numbers(first)
    page, pages = first, 1
    while nexts := [d for d in page_buttons(page) if int(d.rsplit(":", 1)[1]) == pages]:
        reply = await service.press(who(mover, "dm", private=True), nexts[0])
        assert reply.ok and not reply.public
        [page] = reply.private
        assert len(page.choices) <= 25 and page.choices_placeholder
        assert f"of {total}" in page.text
        seen += spot_numbers(page)
        pages += 1
        back = [d for d in page_buttons(page) if int(d.rsplit(":", 1)[1]) == pages - 2]
        assert back, "each later page leads back"
    assert seen == list(range(1, total + 1))
    assert pages == -(-total // 20)
    # A spot of the last page leads on to its rotations like any other.
    picked = await service.press(who(mover), page.choices[-1].data)
    assert picked.ok and picked.private[0].buttons[0][0].data.startswith("fc:pv:")


async def test_a_short_menu_has_no_page_buttons(service: GameService, store: Store) -> None:
    table = await seated(service, ["ann", "bob"])
    [turn] = (await service.command(who(current_user(table)), "hand")).private
    assert len(render.spots(to_play(load_game(table)))) <= 20
    assert spot_numbers(turn) == [s.number for s in render.spots(to_play(load_game(table)))]
    assert page_buttons(turn) == []


async def test_page_buttons_of_others_stale_or_forged_are_refused(
    service: GameService, store: Store
) -> None:
    await seated(service, ["ann", "bob", "cid", "dan"])
    table = await advance(store, Channel.of("console", CHANNEL), spots=41)
    mover = current_user(table)
    other = next(s.user_id for s in table.seats if s.user_id != mover)
    count = len(load_game(table).moves)
    before = await snapshot(store)
    cases = {
        (other, f"fc:pg:{CHANNEL}:{count}:1"): "turn",
        (mover, f"fc:pg:{CHANNEL}:{count - 1}:1"): "out of date",
        (mover, f"fc:pg:{CHANNEL}:{count}:9"): "not valid",
        (mover, f"fc:pg:{CHANNEL}:{count}:-1"): "not valid",
    }
    for (user, data), expected in cases.items():
        reply = await service.press(who(user), data)
        assert not reply.ok and expected in reply.private[0].text, (data, reply.private)
    assert await snapshot(store) == before
