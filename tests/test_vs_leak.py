"""Secret bribes never reach the channel: two tables play the same game, every seat pressing the
same buttons (moves typed), except that some bribes differ; until the rules reveal bribes,
everything the channel gets (text, picture, buttons) and every byte of the tables' web pages
(the page, its state, its SVG; their PNG as a picture) are the same at both tables."""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator

import aiohttp
import pytest

from bot.exchange.replies import Message
from bot.service import GameService
from bot.store import Channel, Store
from engine.verbotene_stadt import Game, MoveOfficial
from engine.verbotene_stadt.actions import Action, Bribe, Keep
from tests.conftest import Site, fixed_seeds
from tests.pixels import pictures
from tests.tables import load_game
from tests.test_service import Clock, settings, table_of, who
from tests.test_web_stadt import public_side
from tests.vs_driver import Chat, act, entering

CODE = re.compile(r"\b[RYBGK]{2}\b")


def shared_choice(a: Game, b: Game, seat: str, rng: random.Random) -> Action:
    """An action legal at both tables, an entry more often than not when there is one."""
    legal_b = {str(x) for x in b.legal_actions(seat)}
    both = [x for x in a.legal_actions(seat) if str(x) in legal_b]
    entries = [x for x in both if entering(a, x)]
    if entries and rng.random() < 0.7:
        return rng.choice(entries)
    return rng.choice(both)


def bribes(game: Game, seat: str, rng: random.Random, differ: bool) -> tuple[Action, Action]:
    """The same choice at both tables, or two different ones."""
    legal = [x for x in game.legal_actions(seat) if isinstance(x, (Bribe, Keep))]
    first = rng.choice(legal)
    if not differ:
        return first, first
    return first, rng.choice([x for x in legal if x != first])


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


def public_of(chat: Chat, start: int) -> list[Message]:
    return chat.public[start:]


@pytest.mark.parametrize(
    ("players", "seed", "diverge"),
    [(3, 11, 0), (4, 12, 0), (2, 13, 1), (3, 14, 1), (4, 15, 1)],
)
async def test_tables_differing_only_in_bribes_look_the_same_to_the_channel(
    store: Store, site: Site, http: aiohttp.ClientSession, players: int, seed: int, diverge: int
) -> None:
    """`diverge`: the bribe round from which the tables' bribes differ (0: the start). The
    tables' web pages (page, state, image) are compared too, after every action."""
    users = ["ann", "bob", "cid", "dan"][:players]
    rooms = ("roomA", "roomB")
    services = {
        room: GameService(store, settings(), clock=Clock(), seeds=fixed_seeds(seed))
        for room in rooms
    }
    chats = {room: Chat() for room in rooms}
    for room in rooms:
        service, chat = services[room], chats[room]
        chat.take(users[0], await service.command(who(users[0], room), "new stadt"))
        for user in users[1:]:
            chat.take(user, await service.command(who(user, room), "join"))
        chat.take(users[0], await service.command(who(users[0], room), "start"))
    address = await site(services["roomA"])
    game_ids = {}
    for room in rooms:
        record = await store.load(Channel.of("console", room))
        assert record is not None
        game_ids[room] = record.game_id
    rng = random.Random(seed)
    rounds, differed, steps, private_differs = -1, False, 0, False
    last_kind = ""
    while steps < 100:
        table_a, table_b = [await table_of(store, room) for room in rooms]
        if table_a is None or table_b is None:
            break
        game_a, game_b = load_game(table_a), load_game(table_b)
        assert game_a.to_act == game_b.to_act
        turn = game_a.to_act[0]
        user = table_a.user_of(turn.seat).user_id
        if turn.kind in ("bribe", "rebribe") and last_kind not in ("bribe", "rebribe"):
            rounds += 1
        last_kind = turn.kind
        if turn.kind in ("bribe", "rebribe"):
            differ = rounds >= diverge
            actions = bribes(game_a, turn.seat, rng, differ)
            differed = differed or differ
        else:
            action = shared_choice(game_a, game_b, turn.seat, rng)
            actions = (action, action)
        starts = [len(chats[room].public) for room in rooms]
        for room, action in zip(rooms, actions, strict=True):
            if isinstance(action, MoveOfficial):  # typed: the buttons' previews cost time
                reply = await services[room].command(who(user, room), f"play {action}")
                assert reply.ok, reply.private
                chats[room].take(user, reply)
            else:
                await act(services[room], chats[room], user, action)
        new_a, new_b = (public_of(chats[r], s) for r, s in zip(rooms, starts, strict=True))
        steps += 1
        revealed = any("Bribes revealed" in m.text for m in new_a + new_b)
        if revealed and differed:
            break
        assert [m.text for m in new_a] == [m.text for m in new_b]
        assert pictures([m.image for m in new_a]) == pictures([m.image for m in new_b])
        pages = [await public_side(http, address, room, game_ids[room]) for room in rooms]
        assert pages[0] == pages[1]
        for message in new_a + new_b:
            assert not message.buttons and not message.choices
            if turn.kind in ("bribe", "rebribe"):
                assert not CODE.search(message.text), message.text
        inbox_a, inbox_b = chats["roomA"].inbox[user], chats["roomB"].inbox[user]
        if inbox_a and inbox_b and pictures([inbox_a[-1].image]) != pictures([inbox_b[-1].image]):
            private_differs = True  # the seats' own pictures do show their bribes
    assert differed and steps > 5
    assert private_differs or diverge == 1
