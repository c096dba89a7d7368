"""A player's own page, over HTTP against the real server and a real Redis: the personal link
in their turn message, what their token opens and what it does not, and a move made from the
page, told in the chat exactly as the same presses in the chat tell it."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from urllib.parse import urlsplit

import aiohttp
import pytest
from pydantic import SecretStr

from bot.config import Settings
from bot.exchange.actor import Actor
from bot.exchange.replies import Reply
from bot.links.tokens import SeatToken, sign
from bot.service import GameService
from bot.store import Channel, Store
from tests.conftest import Site, fixed_seeds
from tests.pixels import pictures

BACKENDS = ("single", "cluster")
SECRET = "s3cret-for-tests-only"
NOW = 2_000_000_000.0


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> float:
        return self.now


def settings(**values: object) -> Settings:
    return Settings(  # type: ignore[call-arg]
        _env_file=None,
        web_url="https://fc.example",
        web_secret=SecretStr(SECRET),
        **values,  # type: ignore[arg-type]
    )


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def service(store: Store, clock: Clock) -> AsyncIterator[GameService]:
    made = GameService(store, settings(), seeds=fixed_seeds(), clock=clock)
    yield made
    made.computer.close()


def who(user: str, channel: str) -> Actor:
    return Actor("console", channel, user, user.capitalize())


async def start(service: GameService, channel: str) -> tuple[Reply, str]:
    """A two-player tile game in `channel`; the deal's reply and the game's id."""
    assert (await service.command(who("ann", channel), "new")).ok
    assert (await service.command(who("bob", channel), "join")).ok
    dealt = await service.command(who("ann", channel), "start")
    assert dealt.ok
    record = await service.store.load(Channel.of("console", channel))
    assert record is not None
    return dealt, record.game_id


def personal_link(reply: Reply) -> tuple[str, str, str]:
    """The only turn notice of a reply: its reader, and their link's path and token."""
    (notice,) = reply.direct
    assert notice.message.web_label == "Play on the board"
    link = urlsplit(notice.message.web)
    assert link.fragment.startswith("seat=")
    return notice.user_id, link.path, link.fragment[5:]


async def seat(http: aiohttp.ClientSession, url: str, token: str | None) -> tuple[int, dict]:  # type: ignore[type-arg]
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    async with http.get(url + "/seat", headers=headers) as answer:
        return answer.status, await answer.json()


async def press(http: aiohttp.ClientSession, url: str, token: str, data: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    headers = {"Authorization": f"Bearer {token}"}
    async with http.post(url + "/press", headers=headers, json={"data": data}) as answer:
        return answer.status, await answer.json()


async def test_the_turn_message_links_the_seat_and_only_its_token_opens_it(
    service: GameService, site: Site, clock: Clock, store: Store
) -> None:
    dealt, game_id = await start(service, "room1")
    user, path, token = personal_link(dealt)
    assert path == f"/t/console/room1/{game_id}"
    address = await site(service)
    url = address + path
    before = await store.load(Channel.of("console", "room1"))
    async with aiohttp.ClientSession() as http:
        status, body = await seat(http, url, token)
        assert status == 200 and body["ok"]
        (mine,) = body["messages"]
        assert mine["text"].startswith("Your turn in Forbidden City")
        # The page draws the board itself: no picture is drawn for it, the tile in hand comes
        # drawn for its tray and every spot as a place on the board.
        assert mine["image"] is None
        assert mine["tray"].startswith("<svg") and 'aria-label="Your tile"' in mine["tray"]
        assert [c["label"] for c in mine["choices"]][:1] == ["Spot 1: -1,-2"]
        assert mine["spots"][0]["label"] == "Spot 1: -1,-2"

        forged = token[:-2] + ("AA" if not token.endswith("AA") else "BB")
        other = sign(SECRET.encode(), SeatToken("console", "room2", game_id, user, NOW + 60))
        wrong_key = sign(b"another secret", SeatToken("console", "room1", game_id, user, NOW + 60))
        old_game = sign(SECRET.encode(), SeatToken("console", "room1", "0" * 32, user, NOW + 60))
        for bad in (None, "", forged, other, wrong_key, old_game, "not.a.token"):
            status, body = await seat(http, url, bad)
            assert status == 403 and "no longer plays for you" in body["error"]
            if bad is not None:
                status, body = await press(http, url, bad, mine["choices"][0]["data"])
                assert status == 403
        clock.now = NOW + 86400 + 1  # a day later: the link has expired
        assert (await seat(http, url, token))[0] == 403
        # `/fc hand` brings a fresh link on demand, which plays again.
        hand = await service.command(who(user, "room1"), "hand")
        assert hand.private[0].image is not None  # the chat's, with its picture
        fresh = urlsplit(hand.private[0].web).fragment[5:]
        assert fresh and (await seat(http, url, fresh))[0] == 200
        clock.now = NOW
        stranger = sign(SECRET.encode(), SeatToken("console", "room1", game_id, "zed", NOW + 60))
        status, body = await seat(http, url, stranger)
        assert status == 200 and not body["ok"]
        assert body["messages"][0]["text"] == "You have no seat at this table."
    after = await store.load(Channel.of("console", "room1"))
    assert before is not None and after is not None and after.version == before.version


async def test_a_move_from_the_page_is_told_in_the_chat_as_the_same_presses_there(
    service: GameService, site: Site, store: Store, clock: Clock
) -> None:
    # Two tables dealt alike: one played from the page, the other by pressing in the chat.
    twin = GameService(store, settings(), seeds=fixed_seeds(), clock=clock)
    dealt, _ = await start(service, "room1")
    await start(twin, "room2")
    user, path, token = personal_link(dealt)
    address = await site(service)
    url = address + path
    chat: list[Reply] = []
    async with aiohttp.ClientSession() as http:
        status, body = await seat(http, url, token)
        spot = body["messages"][0]["choices"][2]["data"]
        status, rotations = await press(http, url, token, spot)
        assert status == 200 and rotations["ok"]
        assert rotations["messages"][0]["text"].startswith("Spot 3 ")
        rotation = rotations["messages"][0]["buttons"][0][1]["data"]
        status, preview = await press(http, url, token, rotation)
        assert preview["messages"][0]["text"].startswith("Preview: your tile at")
        assert preview["messages"][0]["image"].startswith("data:image/png")
        confirm = preview["messages"][0]["buttons"][0][0]
        assert confirm["label"] == "Place it here" and confirm["style"] == "success"
        assert await service.fire_due("console") == []  # nothing is played before confirming
        status, placed = await press(http, url, token, confirm["data"])
        assert status == 200 and placed["ok"]
        # The same three presses in the chat of the twin table.
        for data in (spot, rotation, confirm["data"]):
            chat.append(await twin.press(who(user, "room1"), data.replace(":room1:", ":room2:")))
        stale = await press(http, url, token, confirm["data"])  # the move is played already
        assert stale[0] == 200 and not stale[1]["ok"]
        assert (
            "earlier" in stale[1]["messages"][0]["text"]
            or "turn" in stale[1]["messages"][0]["text"]
        )
    told = await service.fire_due("console")
    assert [(p, c) for p, c, _ in told] == [("console", "room1")]
    posted = told[0][2]
    pressed = chat[-1]
    # The chat gets the same words and the same image, and the next player the same notice.
    assert [m.text for m in posted.public] == [m.text for m in pressed.public]
    assert pictures([m.image for m in posted.public]) == pictures([m.image for m in pressed.public])
    assert [d.user_id for d in posted.direct] == [d.user_id for d in pressed.direct] != [user]
    assert [d.message.text for d in posted.direct] == [d.message.text for d in pressed.direct]
    assert [d.message.web_label for d in posted.direct] == ["Play on the board"]
    # What the chat's press said privately, the page was shown instead.
    assert json.dumps([m.text for m in pressed.private]) == json.dumps(
        [m["text"] for m in placed["messages"]]
    )
    assert await service.fire_due("console") == []  # told once
    twin.computer.close()


async def test_a_page_cannot_act_for_a_game_that_ended(
    service: GameService, site: Site, store: Store
) -> None:
    dealt, _ = await start(service, "room1")
    _, path, token = personal_link(dealt)
    address = await site(service)
    async with aiohttp.ClientSession() as http:
        status, body = await seat(http, address + path, token)
        data = body["messages"][0]["choices"][0]["data"]
        assert (await service.command(who("ann", "room1"), "abort")).ok
        status, body = await press(http, address + path, token, data)
        assert status == 200 and not body["ok"]
        assert body["messages"][0]["text"] == "This game is over: the page shows how it ended."
        async with http.post(
            address + path + "/press",
            headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
            data="not json",
        ) as answer:
            assert answer.status == 400
    assert await store.load(Channel.of("console", "room1")) is None
    assert await service.fire_due("console") == []


async def test_a_token_asking_too_fast_is_slowed_down_and_others_are_not(
    service: GameService, site: Site
) -> None:
    dealt, game_id = await start(service, "room1")
    _, path, token = personal_link(dealt)
    other = sign(SECRET.encode(), SeatToken("console", "room1", game_id, "zed", NOW + 60))
    address = await site(service)
    async with aiohttp.ClientSession() as http:
        answers = await asyncio.gather(*(seat(http, address + path, token) for _ in range(45)))
        statuses = [status for status, _ in answers]
        assert statuses.count(200) >= 30 and 429 in statuses
        slowed = next(body for status, body in answers if status == 429)
        assert slowed["error"] == "Too many requests at once: wait a moment."
        assert (await seat(http, address + path, other))[0] == 200  # another player's token


async def test_fc_web_gives_the_page_and_a_players_own_link(service: GameService) -> None:
    _, game_id = await start(service, "room9")
    mine = await service.command(who("ann", "room9"), "web")
    [message] = mine.private
    assert mine.ok and not mine.public  # privately
    assert message.text == f"The table, live: https://fc.example/t/console/room9/{game_id}"
    assert message.web_label == "Play on the board" and "#seat=" in message.web
    watcher = await service.command(who("zed", "room9"), "web")
    assert watcher.ok and watcher.private[0].web == ""  # a spectator's: no seat to play
    assert watcher.private[0].text == message.text
    plain = GameService(service.store, Settings(_env_file=None))  # type: ignore[call-arg]
    refused = await plain.command(who("ann", "room9"), "web")
    assert not refused.ok and refused.private[0].text == "This bot serves no web pages."
    plain.computer.close()
