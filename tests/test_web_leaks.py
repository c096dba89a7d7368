"""Nothing hidden reaches a watcher's page: through a whole tile game, after every move, the
public page, its state and its image hold no tile in anyone's hand nor the order of the
stacks, and every image a watcher is sent is drawn from the public view (no seat, no hand,
no legal moves). Die Verbotene Stadt's bribes: `tests/test_vs_leak.py` compares the public
bytes of twin tables whose bribes differ."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import aiohttp
import pytest

import render.forbidden_city as render
from bot.games.forbidden_city import ForbiddenCity
from bot.records.table import Table
from bot.service import GameService
from bot.store import Channel, Store
from engine.forbidden_city.view import SeatView
from tests.conftest import Site, fixed_seeds
from tests.tables import load_game
from tests.test_web_seats import settings, start, who
from tests.test_web_stadt import public_side
from tests.views import to_play


@pytest.fixture
async def service(store: Store) -> AsyncIterator[GameService]:
    made = GameService(store, settings(), seeds=fixed_seeds(21))
    yield made
    made.computer.close()


async def test_a_whole_tile_game_shows_watchers_nothing_hidden(
    service: GameService, site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[SeatView] = []
    table_image = ForbiddenCity.table_image

    def spied(self: ForbiddenCity, at: object, view: SeatView) -> bytes:
        drawn.append(view)
        return table_image(self, at, view)  # type: ignore[arg-type]

    monkeypatch.setattr(ForbiddenCity, "table_image", spied)
    _, game_id = await start(service, "room1")
    address = await site(service)
    rng = random.Random(3)
    moves = 0
    async with aiohttp.ClientSession() as http:
        while (record := await service.store.load(Channel.of("console", "room1"))) is not None:
            table = Table.model_validate_json(record.data)
            game = load_game(table)
            public = await public_side(http, address, "room1", game_id)
            played = {code for code in game.view(None).played}
            hands = [game.hand(seat) for seat in game.players]
            for code in hands:  # a tile in hand, unless its like lies face up already
                if code is not None and code not in played:
                    assert code.encode() not in public.text, code
            for stack in game.stacks:  # the deal's order, three tiles at a time
                for k in range(len(stack) - 2):
                    assert ",".join(stack[k : k + 3]).encode() not in public.text
                    assert "".join(stack[k : k + 3]).encode() not in public.text
            spot = rng.choice(render.spots(to_play(game)))
            mover = table.user_of(game.current).user_id
            reply = await service.command(
                who(mover, "room1"), f"play {spot.number} {rng.choice(spot.rotations)}"
            )
            assert reply.ok, reply.private
            moves += 1
    assert moves > 40
    assert drawn, "no watcher's image was drawn"
    assert all(v.seat is None and v.hand is None and not v.legal_moves for v in drawn)
