"""Votes on a late turn by button: under the message that opens them in the chat, in the
voters' `/fc hand` and so on their pages; a button of an earlier late turn, a forged one,
and one pressed by the late player are refused and change nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import pytest

from bot.exchange.replies import Button, Reply
from bot.service import GameService
from bot.store import Channel, Store
from tests.conftest import Site
from tests.tables import load_game
from tests.test_service import current_user, seated, snapshot, table_of, who
from tests.test_web_seats import Clock, press, seat
from tests.test_web_seats import settings as web_settings


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def service(store: Store, clock: Clock) -> AsyncIterator[GameService]:
    made = GameService(
        store, web_settings(reminder_after="1h", turn_limit="5h"), clock=clock, seeds=lambda: 3
    )
    yield made
    made.computer.close()


async def _late(service: GameService, clock: Clock, users: list[str]) -> tuple[str, Reply]:
    """A table whose turn ran past its limit: the late player and the chat's message."""
    table = await seated(service, users)
    clock.now += 6 * 3600
    fired = [r for _, _, r in await service.fire_due() if r.public]
    (opened,) = [r for r in fired if "vote" in r.public[0].text]
    return current_user(table), opened


def _buttons(reply: Reply) -> list[Button]:
    return [b for m in [*reply.public, *reply.private] for row in m.buttons for b in row]


async def test_the_late_turn_is_voted_by_buttons(service: GameService, clock: Clock) -> None:
    late, opened = await _late(service, clock, ["ann", "bob", "cid"])
    labels = [b.label for b in _buttons(opened)]
    assert labels == ["Skip the turn", "A computer plays for them", "End the game"]
    skip = next(b.data for b in _buttons(opened) if b.label == "Skip the turn")
    voters = [u for u in ("ann", "bob", "cid") if u != late]

    before = await snapshot(service.store)
    refused = await service.press(who(late), skip)  # the late player does not vote
    assert not refused.ok and "waiting" in refused.private[0].text
    forged = await service.press(who(voters[0]), skip.replace(":0:", ":7:"))
    assert not forged.ok and "out of date" in forged.private[0].text
    assert await snapshot(service.store) == before

    # A voter's /fc hand offers the same votes, and says how they voted.
    hand = await service.command(who(voters[0]), "hand")
    assert [b.data for b in _buttons(hand)] == [b.data for b in _buttons(opened)]
    first = await service.press(who(voters[0], "dm", private=True), skip)  # from /fc hand
    assert first.ok and first.public[0].text.endswith("votes to skip (1/2).")
    hand = await service.command(who(voters[0]), "hand")
    assert "You voted: Skip the turn." in hand.private[-1].text
    late_hand = await service.command(who(late), "hand")
    assert all("vote" not in m.text for m in late_hand.private)  # the late player: no votes

    decided = await service.press(who(voters[1]), skip)
    assert decided.ok and "voted to skip" in decided.public[0].text
    table = await table_of(service.store)
    assert table is not None and len(load_game(table).moves) == 1  # a move played for them
    stale = await service.press(who(voters[0]), skip)  # the vote is over: an old button
    assert not stale.ok


async def test_a_vote_made_on_the_page_is_told_in_the_chat(
    service: GameService, clock: Clock, site: Site
) -> None:
    late, _ = await _late(service, clock, ["ann", "bob"])
    voter = "bob" if late == "ann" else "ann"
    place = Channel.of("console", "room1")
    record = await service.store.load(place)
    assert record is not None
    token = await service.seat_token("console", "room1", record.game_id, voter)
    address = await site(service)
    url = f"{address}/t/console/room1/{record.game_id}"
    async with aiohttp.ClientSession() as http:
        status, body = await seat(http, url, token)
        assert status == 200
        [asked] = [m for m in body["messages"] if "vote" in m["text"]]
        end = next(b for row in asked["buttons"] for b in row if b["label"] == "End the game")
        status, body = await press(http, url, token, end["data"])
        assert status == 200 and body["ok"], body
    told = await service.fire_due("console")
    texts = [m.text for _, channel, reply in told for m in reply.public]
    assert any("voted" in t or "ended" in t.lower() for t in texts), texts
    assert await service.store.load(place) is None  # the game ended by the vote
