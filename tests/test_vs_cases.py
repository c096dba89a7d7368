"""Die Verbotene Stadt's special moments through the service, from prepared positions: a doubter
proved wrong, a bluff caught, a shared bribe, a dragon, an empty pavilion, the 10-exile rule and
the end. Each checks what the channel is told and what the seats are asked, privately."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.exchange.replies import Message, mention
from bot.service import GameService
from bot.store import Channel, Store
from tests.conftest import fixed_seeds
from tests.tables import load_game
from tests.test_service import Clock, is_png, settings, table_of, who
from tests.vs_driver import Chat, press
from tests.vs_positions import seed_for
from tests.vs_table import open_stadt, position, store_position

USERS = ["ann", "bob", "cid"]
# Officials not on the board of `vs_table.OFFICIALS`, to fill the exile terrace.
AWAY = ("RY", "RG", "RK", "YR", "YB", "YG", "YK", "BR", "BY", "BG", "BK", "GR", "GY", "GB")


@pytest.fixture
async def service(store: Store) -> AsyncIterator[GameService]:
    yield GameService(store, settings(), clock=Clock(), seeds=fixed_seeds())


async def seats(store: Store) -> dict[str, str]:
    """Engine seat -> user id."""
    table = await table_of(store)
    assert table is not None
    return table.users()


def names(chat: Chat) -> str:
    return " ".join(m.text for m in chat.public)


def only_message(messages: list[Message]) -> Message:
    assert len(messages) == 1, [m.text for m in messages]
    return messages[0]


async def test_a_doubter_proved_wrong_gives_the_mover_a_card(
    service: GameService, store: Store
) -> None:
    chat = Chat()
    await open_stadt(service, chat, USERS)
    hands = [["2H"], ["3H"], ["4H"]]
    await store_position(store, position(3, ["RR", "KK", "GG"], hands=hands, seed=2))
    user = await seats(store)
    north, east, south = user["north"], user["east"], user["south"]
    entered = chat.take(north, await service.command(who(north), "play RR W"))
    assert "The bluff is in play: did" in entered.public[0].text
    asked = only_message([d.message for d in entered.direct if d.user_id == east])
    assert "into pavilion 1 (red). Did" in asked.text and is_png(asked.image)
    doubted = await press(service, chat, east, chat.button(east, "va", "doubt").data)
    assert "doubts it!" in doubted.public[0].text and doubted.public[0].image is None
    believed = await press(service, chat, south, chat.button(south, "va", "believe").data)
    text = believed.public[0].text
    assert "Bribes revealed: " in text and ": RR (red hat, red robe)" in text
    assert "KK" not in text and "GG" not in text  # the others' bribes stay secret
    assert "told the truth: " in text and "doubted wrongly" in text
    assert "takes 1H (red hat) from pavilion 1 (red)." in text
    # The mover now chooses one of the doubter's cards, privately.
    menu = only_message([d.message for d in believed.direct if d.user_id == north])
    assert [c.data.rsplit(":", 1)[1] for c in menu.choices] == ["2.3H"]
    assert not menu.buttons  # a reward must be taken: no "take nothing"
    took = await press(service, chat, north, menu.choices[0].data)
    assert "takes 3H (blue hat) from" in took.public[0].text and is_png(took.public[0].image)
    game = load_game(await table_of(store))  # type: ignore[arg-type]
    assert game.hands == [("1H", "2H", "3H"), (), ("4H",)]
    assert {t.kind for t in game.to_act} == {"bribe", "rebribe"}


async def test_a_bluff_caught_rewards_the_doubter(service: GameService, store: Store) -> None:
    chat = Chat()
    await open_stadt(service, chat, USERS[:2])
    await store_position(store, position(2, ["KK", "GG"], hands=[["2H", "2C"], ["3H"]], seed=2))
    user = await seats(store)
    north, east = user["north"], user["east"]
    chat.take(north, await service.command(who(north), "play RR W"))
    doubted = await press(service, chat, east, chat.button(east, "va", "doubt").data)
    text = doubted.public[0].text
    assert "bluffed and" in text and "caught it" in text
    assert ": KK (black hat, black robe)" in text  # the bluffer's bribe, now revealed
    menu = only_message([m for m in doubted.private if m.choices])
    assert sorted(c.data.rsplit(":", 1)[1] for c in menu.choices) == ["1.2C", "1.2H"]
    took = await press(service, chat, east, chat.button(east, "vt", "1.2C").data)
    assert "takes 2C (yellow coat) from" in took.public[0].text
    game = load_game(await table_of(store))  # type: ignore[arg-type]
    assert game.hands == [("2H",), ("1H", "2C", "3H")]


async def test_a_shared_bribe_gives_the_card_to_the_farthest_briber(
    service: GameService, store: Store
) -> None:
    chat = Chat()
    await open_stadt(service, chat, USERS)
    await store_position(store, position(3, ["RR", "GG", "RR"], seed=2))
    user = await seats(store)
    table = await table_of(store)
    assert table is not None
    south_name = table.names()["south"]
    reply = chat.take(user["north"], await service.command(who(user["north"]), "play RR W"))
    text = reply.public[0].text
    assert "The bluff is in play" not in text  # nobody holds a card yet
    assert f"{south_name}: RR (red hat, red robe)" in text and "GG" not in text
    assert f"{south_name} takes 1H (red hat) from pavilion 1 (red)." in text
    # The mover must bribe anew, the shared briber too (its official is gone); east may keep.
    asked = {d.user_id: d.message for d in reply.direct}
    assert "Keep GG" in [b.label for row in asked[user["east"]].buttons for b in row]
    assert "is in exile: choose another" in asked[user["south"]].text
    assert not asked[user["south"]].buttons
    own = only_message(reply.private)
    assert "choose in secret the official you bribe now" in own.text


async def test_a_dragon_lets_the_roller_take_a_card(service: GameService, store: Store) -> None:
    chat = Chat()
    await open_stadt(service, chat, USERS)
    game = position(3, ["RR", "KK", "GG"], hands=[[], ["3H"], ["4H"]], seed=seed_for(["dragon"]))
    await store_position(store, game)
    user = await seats(store)
    north, east = user["north"], user["east"]
    moved = chat.take(north, await service.command(who(north), "play GG E"))
    text = moved.public[0].text
    assert "rolls the small fate die: a dragon!" in text and is_png(moved.public[0].image)
    menu = only_message([d.message for d in moved.direct if d.user_id == east])
    assert "The dragon: you may take one card" in menu.text
    assert [c.data.rsplit(":", 1)[1] for c in menu.choices] == ["3.4H"]
    assert [b.label for row in menu.buttons for b in row] == ["Take nothing"]
    took = await press(service, chat, east, menu.choices[0].data)
    assert (
        "The dragon: " in took.public[0].text
        and "takes 4H (orange hat) from" in took.public[0].text
    )
    assert [d.user_id for d in took.direct] == [north]  # the mover moves on
    assert "Another move (move 2 of 4)" in took.direct[0].message.text


async def test_an_empty_pavilion_takes_a_card_of_its_colour(
    service: GameService, store: Store
) -> None:
    chat = Chat()
    await open_stadt(service, chat, USERS)
    hands = [[], ["1H", "1T", "2H"], ["1C"]]
    begun_before = position(3, ["RR", "KK", "GG"], hands=hands, piles={1: []}, rules=1)
    await store_position(store, begun_before)  # the first edition: the take is compulsory
    user = await seats(store)
    north = user["north"]
    entered = chat.take(north, await service.command(who(north), "play RR W"))
    assert "The bluff is in play" not in entered.public[0].text
    menu = only_message(entered.private)
    assert "The pavilion is empty: take a card of its colour" in menu.text
    assert sorted(c.data.rsplit(":", 1)[1] for c in menu.choices) == ["2.1H", "2.1T", "3.1C"]
    took = await press(service, chat, north, chat.button(north, "vt", "3.1C").data)
    assert "The pavilion is empty: " in took.public[0].text
    assert "takes 1C (red coat) from" in took.public[0].text


async def test_an_empty_pavilions_card_may_be_left_and_partners_are_spared(
    service: GameService, store: Store
) -> None:
    """ "peut prendre une carte de vêtement de la même couleur dans le jeu d'un autre joueur";
    in the team game only an opponent's."""
    chat = Chat()
    await open_stadt(service, chat, [*USERS, "dan"], "teams")
    hands = [[], ["1H"], ["1C"], ["1T"]]  # south is north's partner
    game = position(4, ["RR", "KK", "GG", "KK"], hands=hands, piles={1: []}, teams=True)
    await store_position(store, game)
    north = (await seats(store))["north"]
    entered = chat.take(north, await service.command(who(north), "play RR W"))
    menu = only_message(entered.private)
    assert "you may take a card of its colour from an opponent" in menu.text
    assert sorted(c.data.rsplit(":", 1)[1] for c in menu.choices) == ["2.1H", "4.1T"]
    left = await press(service, chat, north, chat.button(north, "va", "pass").data)
    said = f"The pavilion is empty: {north.capitalize()} takes no card from the others."
    assert left.ok and said in left.public[0].text
    table = await table_of(store)
    assert table is not None and load_game(table).hands[0] == ()


async def test_the_tenth_exile_is_announced_and_then_an_entry_takes_every_card(
    service: GameService, store: Store
) -> None:
    chat = Chat()
    await open_stadt(service, chat, USERS[:2])
    await store_position(store, position(2, ["RR", "KK"], exiled=AWAY[:9]))
    north = (await seats(store))["north"]
    tenth = await service.command(who(north), "play RR W")
    text = tenth.public[0].text
    assert "(10 of 15)" in text and "Ten officials in exile" in text
    assert "takes 1H" in text and "takes 1C" not in text  # the 10th entry: one card still
    await store_position(store, position(2, ["RR", "KK"], exiled=AWAY[:10]))
    eleventh = await service.command(who(north), "play RR W")
    text = eleventh.public[0].text
    assert "(11 of 15)" in text
    assert all(f"takes {card}" in text for card in ("1H", "1C", "1T"))
    game = load_game(await table_of(store))  # type: ignore[arg-type]
    assert game.hands[0] == ("1H", "1C", "1T") and game.piles[1] == ()


async def test_the_fifteenth_exile_ends_the_game(service: GameService, store: Store) -> None:
    chat = Chat()
    await open_stadt(service, chat, USERS[:2])
    await store_position(store, position(2, ["RR", "KK"], hands=[[], ["2H"]], exiled=AWAY[:14]))
    user = await seats(store)
    north = user["north"]
    last = chat.take(north, await service.command(who(north), "play RR W"))
    [final] = last.public
    assert "(15 of 15)" in final.text and "Game over!" in final.text
    assert "10 pts (1H 1C 1T)" in final.text  # the 10-exile rule took the whole pile
    assert f"Winner: {mention(north)}." in final.text and is_png(final.image)
    assert not last.direct
    assert await store.load(Channel.of("console", "room1")) is None  # archived
    board = await service.command(who(north), "board")
    assert board.ok and "Game over!" in board.public[0].text
    assert (await service.command(who(north), "play pass")).ok is False
