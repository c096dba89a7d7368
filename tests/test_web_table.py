"""A table's web page, served by the real server over loopback against a real Redis (one
server, and a cluster): what it shows, what it refuses, how it follows a game played by
another process, and what it never sends."""

from __future__ import annotations

import asyncio
import json
import random
import socket
import subprocess
import sys
from collections.abc import AsyncIterator
from xml.etree import ElementTree

import aiohttp
import pytest

import render.forbidden_city as render
from bot.config import Settings
from bot.exchange.actor import Actor
from bot.exchange.replies import Reply
from bot.records.table import Table
from bot.service import GameService
from bot.store import Channel, Store
from bot.web import serve
from tests.conftest import Site, fixed_seeds
from tests.pixels import picture
from tests.tables import load_game
from tests.views import to_play

BACKENDS = ("single", "cluster")
CHANNEL = "room1"
BASE = "https://fc.example"


def settings(**values: object) -> Settings:
    return Settings(_env_file=None, web_url=BASE, **values)  # type: ignore[call-arg, arg-type]


def who(user: str, name: str | None = None) -> Actor:
    return Actor("console", CHANNEL, user, name or user.capitalize())


async def table_of(store: Store) -> tuple[Table, str] | None:
    record = await store.load(Channel.of("console", CHANNEL))
    if record is None:
        return None
    return Table.model_validate_json(record.data), record.game_id


async def deal(service: GameService, names: dict[str, str] | None = None) -> str:
    """A started two-player tile game in CHANNEL; returns its page's path."""
    names = names or {}
    assert (await service.command(who("ann", names.get("ann")), "new")).ok
    assert (await service.command(who("bob", names.get("bob")), "join")).ok
    assert (await service.command(who("ann", names.get("ann")), "start")).ok
    found = await table_of(service.store)
    assert found is not None
    return f"/t/console/{CHANNEL}/{found[1]}"


async def move(service: GameService) -> Reply:
    """The player to act places their tile somewhere legal; what the chat is told."""
    found = await table_of(service.store)
    assert found is not None
    table = found[0]
    game = load_game(table)
    spot = random.Random(len(game.moves)).choice(render.spots(to_play(game)))
    user = table.user_of(game.current).user_id
    reply = await service.command(who(user), f"play {spot.number} {spot.rotations[0]}")
    assert reply.ok, reply.private
    return reply


@pytest.fixture
async def service(store: Store) -> AsyncIterator[GameService]:
    made = GameService(store, settings(), seeds=fixed_seeds())
    yield made
    made.computer.close()


async def test_the_deal_and_the_board_carry_the_tables_link(store: Store) -> None:
    service = GameService(store, settings(), seeds=fixed_seeds())
    assert (await service.command(who("ann"), "new")).ok
    assert (await service.command(who("bob"), "join")).ok
    started = await service.command(who("ann"), "start")
    found = await table_of(store)
    assert found is not None
    link = f"{BASE}/t/console/{CHANNEL}/{found[1]}"
    assert f"The table, live: {link}" in started.public[0].text
    board = await service.command(who("bob"), "board")
    assert f"The table, live: {link}" in board.public[0].text
    quiet = GameService(store, Settings(_env_file=None))  # type: ignore[call-arg]
    assert "live" not in (await quiet.command(who("bob"), "board")).public[0].text
    service.computer.close()
    quiet.computer.close()


async def test_the_page_shows_what_the_channel_is_shown(service: GameService, site: Site) -> None:
    path = await deal(service)
    moved = await move(service)
    shown = await service.command(who("bob"), "board")
    address = await site(service)
    async with aiohttp.ClientSession() as http:
        async with http.get(address + path) as page:
            assert page.status == 200 and page.content_type == "text/html"
            html = await page.text()
        async with http.get(address + path + "/state") as answer:
            state = await answer.json()
        async with http.get(address + state["board"]) as drawing:
            assert drawing.status == 200 and drawing.content_type == "image/svg+xml"
            assert "immutable" in drawing.headers["Cache-Control"]
            svg = ElementTree.fromstring(await drawing.text())
        async with http.get(f"{address}{path}/board.png?v=4") as image:
            assert image.status == 200 and image.content_type == "image/png"
            png = await image.read()
    assert state["title"] == "Forbidden City" and state["version"] == 4
    assert sorted(state["seats"]) == ["Ann", "Bob"] and not state["over"]
    # The same words and the same picture as `/fc board` in the channel, mentions as names.
    words = shown.public[0].text.split("\nThe table, live:")[0]
    for user, name in (("ann", "Ann"), ("bob", "Bob")):
        words = words.replace(f"\x02u:{user}\x03", name)
    assert state["text"] == words
    # The game's log: the move in the very sentence the chat was told.
    [told] = state["log"]
    assert told in moved.public[0].text and told.endswith(".") and "places a tile" in told
    assert f"<li>{told}</li>" in html
    assert shown.public[0].image is not None and picture(png) == picture(shown.public[0].image)
    # The page draws the same board in SVG: the same tiles, the same last move ringed.
    found = await table_of(service.store)
    assert found is not None
    game = load_game(found[0])
    cells = {e.get("data-cell") for e in svg.iter() if e.get("data-cell")}
    assert cells == {f"{c.x},{c.y}" for c in game.view(None).table}
    [ringed] = [e.get("data-last") for e in svg.iter() if e.get("data-last")]
    assert ringed == game.view(None).moves[-1].partition("@")[0]
    assert '<h1 id="title">Forbidden City</h1>' in html and '<span class="name">Ann</span>' in html
    assert f'data-board="{path}/board.svg?v=4"' in html  # the board the page draws inline


async def test_a_name_made_of_markup_is_shown_as_text_under_a_strict_policy(
    service: GameService, site: Site
) -> None:
    evil = "<img src=x onerror=alert(1)>"
    path = await deal(service, {"bob": evil})
    address = await site(service)
    async with aiohttp.ClientSession() as http:
        async with http.get(address + path) as page:
            html = await page.text()
            headers = page.headers
        async with http.get(address + "/static/table.js") as script:
            assert script.status == 200
            assert "Set-Cookie" not in script.headers
    assert evil not in html and "&lt;img src=x onerror=alert(1)&gt;" in html
    policy = headers["Content-Security-Policy"]
    assert "default-src 'none'" in policy and "script-src 'self'" in policy
    assert "unsafe-inline" not in policy and "<script>" not in html
    assert "Set-Cookie" not in headers and headers["X-Content-Type-Options"] == "nosniff"


async def test_a_wrong_link_is_refused_and_an_ended_games_link_keeps_its_game(
    service: GameService, site: Site
) -> None:
    path = await deal(service)
    address = await site(service)
    async with aiohttp.ClientSession(headers={"Accept-Language": "fr-CH, en;q=0.5"}) as http:
        for wrong in (other_game(path), f"/t/console/elsewhere/{path.rsplit('/', 1)[1]}"):
            async with http.get(address + wrong) as page:
                assert page.status == 404
                assert "Aucune table" in await page.text()
            async with http.get(address + wrong + "/board.png") as image:
                assert image.status == 404
        assert (await service.command(who("ann"), "abort")).ok
        assert (await service.command(who("cid"), "new")).ok  # the channel's next table
        async with http.get(address + path + "/state") as answer:
            state = await answer.json()
        assert state["over"] and "closed before the end" in state["text"]
        assert state["seats"] == ["Ann", "Bob"] or state["seats"] == ["Bob", "Ann"]


async def _states(
    http: aiohttp.ClientSession, url: str, into: asyncio.Queue[dict[str, object]]
) -> None:
    async with http.get(url) as stream:
        assert stream.headers["Content-Type"].startswith("text/event-stream")
        event = ""
        async for raw in stream.content:
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: ") and event == "state":
                await into.put(json.loads(line[6:]))


async def test_a_move_made_by_another_process_reaches_the_open_page(
    service: GameService, site: Site, redis_url: str
) -> None:
    path = await deal(service)
    address = await site(service)
    other = Store.from_url(redis_url)  # another process: its own connection, its own service
    elsewhere = GameService(other, settings(), seeds=fixed_seeds(50))
    states: asyncio.Queue[dict[str, object]] = asyncio.Queue()
    async with aiohttp.ClientSession() as http:
        reader = asyncio.create_task(_states(http, address + path + "/events", states))
        first = await asyncio.wait_for(states.get(), 5)
        assert first["version"] == 3
        for expected in (4, 5, 6):
            await move(elsewhere)
            state = await asyncio.wait_for(states.get(), 5)
            assert state["version"] == expected
            assert state["board"] == f"{path}/board.svg?v={expected}"
        assert states.empty()
        reader.cancel()
    elsewhere.computer.close()
    await other.close()


async def test_the_stream_follows_only_its_own_table(service: GameService, site: Site) -> None:
    path = await deal(service)
    address = await site(service)
    states: asyncio.Queue[dict[str, object]] = asyncio.Queue()
    async with aiohttp.ClientSession() as http:
        reader = asyncio.create_task(_states(http, address + path + "/events", states))
        await asyncio.wait_for(states.get(), 5)
        other = Actor("console", "room2", "cid", "Cid")
        assert (await service.command(other, "new")).ok
        assert (await service.command(Actor("console", "room2", "dan", "Dan"), "join")).ok
        await asyncio.sleep(0.5)
        assert states.empty()  # another channel's table wrote: this page heard nothing
        await move(service)
        assert (await asyncio.wait_for(states.get(), 5))["version"] == 4
        reader.cancel()


async def test_a_port_in_use_is_said_in_one_line(service: GameService) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        from bot.web.errors import WebPortError

        with pytest.raises(WebPortError, match=f"127.0.0.1:{port}.*WEB_PORT"):
            await serve(service, "127.0.0.1", port)


def test_the_web_bench_prints_its_figures() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "bot",
            "web-bench",
            "--moves",
            "3",
            "--pages",
            "20",
            "--watchers",
            "30",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert 1_000 < figures["first_load_bytes"] < 150_000
    for where in ("same", "across"):
        assert figures["change_ms"][where]["n"] >= 2
        assert 0 < figures["change_ms"][where]["p50"] <= figures["change_ms"][where]["p99"]
    assert figures["pages"]["open"] == 20 and figures["cpu_ms_per_change"] > 0
    answered = figures["move_answered_ms"]
    assert answered["watchers"] == 30 and answered["n"] >= 10
    assert 0 < answered["p50"] <= answered["p99"]


async def test_the_page_speaks_the_chats_language(service: GameService, site: Site) -> None:
    path = await deal(service)
    assert (await service.command(who("ann"), "lang fr")).ok
    address = await site(service)
    async with (
        aiohttp.ClientSession(headers={"Accept-Language": "de"}) as http,
        http.get(address + path) as page,
    ):
        html = await page.text()
    assert '<html lang="fr">' in html and '<h1 id="title">Forbidden City</h1>' in html
    assert '<h2 id="players-title">Joueurs</h2>' in html and "Reconnexion…" in html
    assert "Au tour de" in html  # the status, as /fc board says it in the chat


def other_game(path: str) -> str:
    """The address of a game that is not there: its id's last digit changed."""
    return path[:-1] + ("1" if path.endswith("0") else "0")


async def test_a_crowd_of_watchers_costs_one_drawing_a_move(
    service: GameService, site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = await deal(service)
    drawings: list[str] = []
    drawn = service.board

    async def counted(platform: str, channel_id: str, game_id: str) -> tuple[int, bytes] | None:
        drawings.append(game_id)
        return await drawn(platform, channel_id, game_id)

    monkeypatch.setattr(service, "board", counted)
    address = await site(service)
    async with aiohttp.ClientSession() as http:
        for version in (3, 4):
            url = f"{address}{path}/board.png?v={version}"
            answers = await asyncio.gather(*(http.get(url) for _ in range(12)))
            bodies = {await answer.read() for answer in answers}
            assert all(answer.status == 200 for answer in answers) and len(bodies) == 1
            assert len(drawings) == version - 2  # one drawing for the twelve
            await move(service)
            for _ in range(100):  # until this process's pages have heard of the move
                async with http.get(f"{address}{path}/state") as answer:
                    if (await answer.json())["version"] == version + 1:
                        break
                await asyncio.sleep(0.05)
