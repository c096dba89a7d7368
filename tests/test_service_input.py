"""The service against a real redis-server: odd `play` input, engine refusals, rotations that
do not fit, commands typed in a private chat, and the random seating."""

from __future__ import annotations

import pytest

import bot.games.forbidden_city as fc_module
import render.forbidden_city as render
from bot.exchange.replies import mention
from bot.games.forbidden_city.targets import explain
from bot.service import GameService
from bot.store import Store
from engine.forbidden_city import DISCARD, Game, IllegalMove, Move, Place, Tile
from tests.conftest import fixed_seeds
from tests.tables import load_game
from tests.test_service import (
    CHANNEL,
    current_user,
    is_png,
    seated,
    settings,
    snapshot,
    table_of,
    who,
)
from tests.views import to_play


@pytest.fixture
def service(store: Store) -> GameService:
    return GameService(store, settings(), seeds=fixed_seeds())


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("play ²", "not a spot number"),
        ("play ² 0", "not a spot number"),
        ("play " + "7" * 5000, "There is no spot"),
        ("play " + "7" * 5000 + " 1", "There is no spot"),
        ("play " + "1" * 5000 + ",0 1", "not a spot number"),
        ("play 1 ³", "rotation is 0, 1, 2 or 3"),
        ("play 1 1 1", "Too many words: “1”"),
        ("play 2,-1 0 please", "Too many words: “please”"),
        # The first thing wrong is said: the spot, before its rotation.
        ("play abc def", "“abc” is not a spot number"),
        ("play 99 def", "There is no spot 99"),
        ("play abc 1 2 3", "“abc” is not a spot number"),
    ],
)
async def test_odd_numbers_are_refused_and_change_nothing(
    service: GameService, store: Store, text: str, expected: str
) -> None:
    table = await seated(service, ["ann", "bob"])
    before = await snapshot(store)
    reply = await service.command(who(current_user(table)), text)
    assert not reply.ok
    assert expected in reply.private[0].text
    assert len(reply.private[0].text) < 300  # the number is not echoed back whole
    assert not reply.public and not reply.direct
    assert await snapshot(store) == before


async def test_odd_numbers_are_refused_in_the_players_language(
    service: GameService, store: Store
) -> None:
    table = await seated(service, ["ann", "bob"])
    await service.command(who("ann"), "lang it")
    reply = await service.command(who(current_user(table)), "play " + "7" * 5000)
    assert not reply.ok and "Non esiste la posizione" in reply.private[0].text


async def test_a_move_the_engine_refuses_is_a_refusal_with_its_reason(
    service: GameService, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await seated(service, ["ann", "bob"])
    before = await snapshot(store)
    # Should the checks before the engine ever let a bad move through, the engine's own
    # refusal is what the player reads: here a move onto the start tile's centre.
    monkeypatch.setattr(fc_module, "target", lambda game, args, lang: Place(0, 0, 0))
    reply = await service.command(who(current_user(table)), "play 1 0")
    assert not reply.ok
    assert "0,0 is already taken" in reply.private[0].text
    await service.command(who("ann"), "lang fr")
    reply = await service.command(who(current_user(table)), "play 1 0")
    assert not reply.ok and "La case 0,0 est déjà occupée" in reply.private[0].text
    assert await snapshot(store) == before


async def test_a_rotation_that_does_not_fit_is_refused_with_the_ones_that_do(
    service: GameService, store: Store
) -> None:
    table = await seated(service, ["ann", "bob"])
    game = load_game(table)
    hand = Tile.parse(game.hand(game.turn) or "")
    for spot in render.spots(to_play(game)):
        fitting = {hand.rotated(r) for r in spot.rotations}
        wrong = [r for r in range(4) if hand.rotated(r) not in fitting]
        if wrong:
            break
    else:
        pytest.fail("every rotation fits everywhere on this deal")
    before = await snapshot(store)
    reply = await service.command(who(current_user(table)), f"play {spot.number} {wrong[0]}")
    assert not reply.ok
    text = reply.private[0].text
    assert f"Rotation {wrong[0]} does not fit at {spot.x},{spot.y}" in text
    assert "Rotations that fit: " + ", ".join(str(r) for r in spot.rotations) in text
    assert await snapshot(store) == before


async def test_hand_typed_in_a_private_chat_shows_the_tile_of_the_users_game(
    service: GameService, store: Store
) -> None:
    table = await seated(service, ["ann", "bob"])
    mover = current_user(table)
    waiting = "bob" if mover == "ann" else "ann"
    mine = await service.command(who(mover, "dm-ann", private=True), "hand")
    assert mine.ok and not mine.public and is_png(mine.private[0].image)
    assert mine.channel_id == CHANNEL
    assert mine.private[0].choices  # the numbered spots: it is this player's turn
    theirs = await service.command(who(waiting, "dm-bob", private=True), "hand")
    assert theirs.ok and not theirs.public and is_png(theirs.private[0].image)
    assert not theirs.private[0].choices and "turn" in theirs.private[0].text
    stranger = await service.command(who("zed", "dm-zed", private=True), "hand")
    assert not stranger.ok and "no game" in stranger.private[0].text


async def test_seats_are_drawn_at_random(service: GameService, store: Store) -> None:
    users = ["ann", "bob", "cid", "dan"]
    orders = set()
    for number in range(8):
        channel = f"room-{number}"
        assert (await service.command(who(users[0], channel), "new")).ok
        for user in users[1:]:
            assert (await service.command(who(user, channel), "join")).ok
        reply = await service.command(who(users[0], channel), "start")
        table = await table_of(store, channel)
        assert table is not None
        order = tuple(s.user_id for s in table.seats)
        assert sorted(order) == sorted(users)
        first = reply.public[0].text.split("Seats in turn order:")[1]
        assert [first.index(mention(u)) for u in order] == sorted(
            first.index(mention(u)) for u in order
        )  # the message lists the seats in the stored turn order
        orders.add(order)
    assert len(orders) > 2  # 8 deals in join order every time would be 1
    assert len({order[0] for order in orders}) > 1  # the creator does not always begin


def engine_refusal(game: Game, move: Move) -> IllegalMove:
    with pytest.raises(IllegalMove) as err:
        game.play(move)
    return err.value


@pytest.mark.parametrize(
    ("move", "english", "german"),
    [
        (Place(0, 0, 0), "The cell 0,0 is already taken.", "Das Feld 0,0 ist schon belegt."),
        (Place(9, 9, 0), "9,9 touches none", "9,9 berührt keines"),
        (Place(2, 0, 0), "Open edges must meet the same colour", "Offene Kanten"),
        (DISCARD, "That move is not allowed: the tile in hand fits", "nicht erlaubt"),
    ],
)
def test_the_engines_reasons_read_in_the_players_language(
    move: Move, english: str, german: str
) -> None:
    # The beginner side's east arm is green and open to the east: a pink tile may not meet it.
    game = Game(["purple", "yellow"], stacks=[["....P"] * 3, ["....G"] * 3])
    refusal = engine_refusal(game, move)
    assert english in explain(refusal, "en")
    assert german in explain(refusal, "de")


def test_a_move_after_the_end_reads_the_game_is_over() -> None:
    game = Game(["purple", "yellow"], stacks=[["....G"] * 3, ["....G"] * 3])
    game.play(game.legal_moves()[0])
    game.play(game.legal_moves()[0])
    assert game.is_over
    assert explain(engine_refusal(game, Place(2, 0, 0)), "it") == "La partita è finita."
