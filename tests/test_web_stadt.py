"""Die Verbotene Stadt from the players' pages, over HTTP against the real server and Redis:
secret bribes chosen on the page, an official slid and confirmed there and told in the chat,
and public responses that do not depend on the secrets at all; and in Chromium, a move
made on the board: the official tapped on its square, a slide by a swipe, then again by its
arrow key, the next by a tap where it would stop, then Confirm."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass

import aiohttp
import pytest
from playwright.async_api import expect

from bot.exchange.actor import Actor
from bot.records.table import Table
from bot.service import GameService
from bot.store import Channel, Store
from tests.browser import chromium
from tests.conftest import Site
from tests.pixels import Picture, picture
from tests.tables import load_game
from tests.test_web_seats import Clock, press, seat, settings
from tests.vs_driver import toward_the_pavilion

PLAYERS = ("ann", "bob", "cid")


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def service(store: Store, clock: Clock) -> AsyncIterator[GameService]:
    made = GameService(store, settings(), seeds=lambda: 7, clock=clock)  # every table alike
    yield made
    made.computer.close()


async def _deal(service: GameService, channel: str) -> str:
    def who(user: str) -> Actor:
        return Actor("console", channel, user, user.capitalize())

    assert (await service.command(who("ann"), "new stadt")).ok
    for user in PLAYERS[1:]:
        assert (await service.command(who(user), "join")).ok
    assert (await service.command(who("ann"), "start")).ok
    record = await service.store.load(Channel.of("console", channel))
    assert record is not None
    return record.game_id


async def _token(service: GameService, channel: str, game_id: str, user: str) -> str:
    """The token of `user`'s personal link to the table, as the bot makes it."""
    return await service.seat_token("console", channel, game_id, user)


@dataclass(frozen=True)
class Public:
    """Everything public of a table: its page, its state and the page's SVG as bytes (its own
    address taken out: it differs between tables), and the chat's PNG as the picture it shows
    (`tests.pixels.picture`: two encodings of one picture may differ in their bytes)."""

    text: bytes
    picture: Picture


async def public_side(
    http: aiohttp.ClientSession, address: str, channel: str, game_id: str
) -> Public:
    """What a watcher of the table gets (`Public`)."""
    path = f"/t/console/{channel}/{game_id}"
    text = b""
    for part in ("", "/state", "/board.svg"):
        async with http.get(address + path + part) as answer:
            assert answer.status == 200
            text += await answer.read()
    async with http.get(f"{address}{path}/board.png") as answer:
        assert answer.status == 200 and answer.content_type == "image/png"
        png = await answer.read()
    return Public(text.replace(path.encode(), b"<table>"), picture(png))


async def test_bribes_and_a_move_from_the_pages_with_nothing_secret_in_public(
    service: GameService, site: Site
) -> None:
    # Two tables dealt alike, whose players bribe different officials on their pages.
    games = {room: await _deal(service, room) for room in ("room1", "room2")}
    bribes = {"room1": ("RR", "RY", "RB"), "room2": ("GK", "BB", "YG")}
    address = await site(service)
    async with aiohttp.ClientSession() as http:
        for room, game_id in games.items():
            url = f"{address}/t/console/{room}/{game_id}"
            for user, bribe in zip(PLAYERS, bribes[room], strict=True):
                token = await _token(service, room, game_id, user)
                status, body = await seat(http, url, token)
                [choose] = body["messages"]
                assert choose["text"].startswith("Choose in secret the official you bribe")
                [pick] = [b for b in choose["choices"] if b["data"].endswith(f":{bribe}")]
                status, body = await press(http, url, token, pick["data"])
                assert status == 200 and body["ok"]
                assert body["messages"][0]["text"].startswith(f"Your secret bribe is now {bribe}")
        # The same public bytes, whatever the bribes: no secret reaches a watcher.
        public = [await public_side(http, address, room, g) for room, g in games.items()]
        assert public[0] == public[1]
        assert b"secret bribe is" not in public[0].text  # the private answer's words

        # The player to move slides an official from the page, then confirms.
        room, game_id = "room1", games["room1"]
        url = f"{address}/t/console/{room}/{game_id}"
        mover = None
        for user in PLAYERS:
            body = (await seat(http, url, await _token(service, room, game_id, user)))[1]
            if body["messages"][0]["text"].startswith("Your turn"):
                mover, choices = user, body["messages"][0]["choices"]
        assert mover is not None
        token = await _token(service, room, game_id, mover)
        before = await service.store.load(Channel.of("console", room))
        data = choices[0]["data"]
        for _ in range(12):
            status, body = await press(http, url, token, data)
            assert status == 200 and body["ok"], body
            buttons = [b for m in body["messages"] for row in m["buttons"] for b in row]
            done = [b for b in buttons if b["style"] == "success"]
            if not buttons:
                break
            data = (done or buttons)[0]["data"]
            if done:
                status, body = await press(http, url, token, data)
                assert body["ok"], body
                break
        after = await service.store.load(Channel.of("console", room))
        assert before is not None and after is not None and after.version > before.version
    # Each table's chat is told what its pages did: the bribes all made (the fate die
    # rolled), and in the first table the move.
    told = {channel: reply for _, channel, reply in await service.fire_due("console")}
    assert sorted(told) == ["room1", "room2"]
    assert [m.text for m in told["room1"].public][:-1] == [m.text for m in told["room2"].public]
    moved = told["room1"].public[-1]
    assert moved.image is not None and mover.capitalize() in moved.text


async def test_an_official_slid_by_taps_and_arrow_keys_in_chromium(
    service: GameService, site: Site
) -> None:
    game_id = await _deal(service, "room3")
    for user in PLAYERS:  # the bribes, from the private menus
        actor = Actor("console", "room3", user, user)
        [asked] = [m for m in (await service.command(actor, "hand")).private if m.choices]
        assert (await service.press(actor, asked.choices[0].data)).ok
    mover = None
    for user in PLAYERS:
        hand = await service.command(Actor("console", "room3", user, user), "hand")
        if any(m.text.startswith("Your turn") for m in hand.private):
            mover = user
    assert mover is not None
    before = await service.store.load(Channel.of("console", "room3"))
    address = await site(service)
    path = f"/t/console/room3/{game_id}"
    async with chromium() as browser:
        page = await browser.new_page(viewport={"width": 390, "height": 844})
        await page.goto(f"{address}{path}#seat={await _token(service, 'room3', game_id, mover)}")
        officials = page.locator("#spots .spot")
        await officials.first.wait_for()
        await officials.first.click()  # the official, on its square
        await expect(page.locator("#choices .text").first).to_contain_text("Choose its first")
        # Second thoughts before any slide: Escape goes back to every official.
        await asyncio.sleep(0.3)
        await page.keyboard.press("Escape")
        await expect(page.locator("#choices .text").first).to_contain_text("Your turn")
        await asyncio.sleep(0.3)
        await officials.first.click()
        await expect(page.locator("#choices .text").first).to_contain_text("Choose its first")
        # The first slide by a swipe across the board, the way its button points.
        first = page.locator("#choices .buttons button[data-choice*=':vs:']").first
        label = await first.inner_text()
        box = await page.locator("#figure").bounding_box()
        assert box is not None
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        way = {"↑": (0, -80), "→": (80, 0), "↓": (0, 80), "←": (-80, 0)}[label[0]]
        await page.mouse.move(x, y)
        await page.mouse.down()
        await page.mouse.move(x + way[0], y + way[1], steps=5)
        await page.mouse.up()
        await expect(page.locator("#choices .text").first).to_contain_text("Preview")
        assert label[0] in await page.locator("#choices .text").first.inner_text()
        await asyncio.sleep(0.3)
        await page.get_by_role("button", name="Start again").click()
        await expect(page.locator("#choices .text").first).to_contain_text("Choose its first")
        # Then by its arrow key (up is north), as its button names it.
        key = {"↑": "ArrowUp", "→": "ArrowRight", "↓": "ArrowDown", "←": "ArrowLeft"}
        await asyncio.sleep(0.3)
        await page.keyboard.press(key[label[0]])
        await expect(page.locator("#choices .text").first).to_contain_text("Preview")
        said = await page.locator("#choices .text").first.inner_text()
        assert label[0] in said  # the slide pressed is the path shown
        slides = page.locator("#spots .spot")
        if await slides.count():  # another slide may follow: a tap where it would stop
            await asyncio.sleep(0.3)
            await slides.first.click()
            await expect(page.locator("#choices .text").first).not_to_have_text(said)
        confirm = page.locator("#choices button.success")
        if await confirm.count() == 0:  # back where it began: it must slide on
            await page.locator("#spots .spot").first.click()
        await asyncio.sleep(0.3)
        await page.locator("#choices button.success").click()
        await expect(page.locator("#table")).not_to_have_attribute(
            "data-version", str(before.version if before else 0), timeout=5000
        )
    after = await service.store.load(Channel.of("console", "room3"))
    assert before is not None and after is not None and after.version > before.version


async def _asked(http: aiohttp.ClientSession, url: str, token: str) -> list[dict]:  # type: ignore[type-arg]
    """Every choice the player's page offers now: menu choices and buttons."""
    status, body = await seat(http, url, token)
    assert status == 200, body
    return [
        choice
        for message in body["messages"]
        for choice in [*message["choices"], *(b for row in message["buttons"] for b in row)]
    ]


async def test_bribes_a_bluff_called_a_take_and_a_vote_made_from_the_pages(
    service: GameService, clock: Clock, site: Site
) -> None:
    """The players bribe, answer entries (doubting the first), take cards and vote on a late
    turn from their pages; the moves themselves are typed in the chat, entering whenever the
    rules let them."""
    game_id = await _deal(service, "room4")
    address = await site(service)
    url = f"{address}/t/console/room4/{game_id}"
    tokens = {user: await _token(service, "room4", game_id, user) for user in PLAYERS}
    rng = random.Random(5)
    doubted = taken = 0
    async with aiohttp.ClientSession() as http:
        for _ in range(300):
            record = await service.store.load(Channel.of("console", "room4"))
            assert record is not None
            table = Table.model_validate_json(record.data)
            game = load_game(table)
            if game.is_over or (doubted and taken):
                break
            turn = game.to_act[0]
            user = table.user_of(turn.seat).user_id
            if turn.kind == "move":  # typed in the chat
                action = toward_the_pavilion(game, turn.seat, rng)
                reply = await service.command(
                    Actor("console", "room4", user, user), f"play {action}"
                )
                assert reply.ok, reply.private
                continue
            offered = await _asked(http, url, tokens[user])
            labels = [c["label"] for c in offered]
            if turn.kind == "answer":
                pick = "Doubt" if "Doubt" in labels and not doubted else "Believe"
                doubted += pick == "Doubt"
            elif turn.kind == "take":
                pick = next((label for label in labels if label != "Take nothing"), labels[0])
                taken += pick != "Take nothing"
            else:  # a bribe, in secret: each player their own official
                pick = labels[PLAYERS.index(user) * 5 % len(labels)]
            data = next(c["data"] for c in offered if c["label"] == pick)
            status, body = await press(http, url, tokens[user], data)
            assert status == 200 and body["ok"], (turn.kind, pick, body)
        assert doubted and taken, (doubted, taken)

        # The turn runs past its limit: the others vote from their pages.
        record = await service.store.load(Channel.of("console", "room4"))
        assert record is not None
        table = Table.model_validate_json(record.data)
        late = {table.user_of(t.seat).user_id for t in load_game(table).to_act}
        clock.now += 73 * 3600  # their links of three days ago have expired: fresh ones
        await service.fire_due("console")
        for user in PLAYERS:
            if user in late:
                continue
            token = await service.seat_token("console", "room4", game_id, user)
            offered = await _asked(http, url, token)
            skip = next(c["data"] for c in offered if c["label"] == "Skip the turn")
            status, body = await press(http, url, token, skip)
            assert status == 200 and body["ok"], body
    told = [m.text for _, _, reply in await service.fire_due("console") for m in reply.public]
    assert any("voted to skip" in text for text in told), told
