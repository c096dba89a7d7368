"""Die Verbotene Stadt through the game service, against a real redis-server: the lobby, a whole
game by buttons, typed plays, previews, stale and forged presses, restarts and time limits."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest

from bot.exchange.replies import mention
from bot.games.verbotene_stadt.paths import pack
from bot.service import GameService
from bot.store import Store
from engine.verbotene_stadt.actions import OFFICIALS
from engine.verbotene_stadt.players import choose_simple
from tests.conftest import fixed_seeds
from tests.tables import load_game
from tests.test_service import CHANNEL, Clock, is_png, settings, snapshot, table_of, who
from tests.vs_driver import Chat, play_on, press
from tests.vs_table import open_stadt, position, prompt_all, store_position, user_of

USERS = ["ann", "bob", "cid"]


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def service(store: Store, clock: Clock) -> AsyncIterator[GameService]:
    yield GameService(store, settings(), clock=clock, seeds=fixed_seeds())


async def test_new_stadt_opens_its_table_and_the_team_game_needs_four(
    service: GameService, store: Store
) -> None:
    chat = Chat()
    opened = await service.command(who("ann"), "new stadt teams")
    assert opened.ok and "Die Verbotene Stadt" in opened.public[0].text
    assert "team" in opened.public[0].text
    for user in ("bob", "cid"):
        assert (await service.command(who(user), "join")).ok
    refused = await service.command(who("ann"), "start")
    assert not refused.ok and "exactly 4 players (3" in refused.private[0].text
    assert (await service.command(who("dan"), "join")).ok
    started = chat.take("ann", await service.command(who("ann"), "start"))
    assert started.ok and "Team " in started.public[0].text
    table = await table_of(store)
    assert table is not None and table.kind == "verbotene_stadt"
    assert load_game(table).teams
    assert not (await service.command(who("eve", "room2"), "new stadt duel")).ok
    default = await service.command(who("eve", "room2"), "new")
    assert "Forbidden City" in default.public[0].text  # the tile game stays the default
    help_text = (await service.command(who("ann"), "help")).private[0].text
    assert "play RB N,E" in help_text and "new knizia" in help_text
    rules = (await service.command(who("ann"), "rules")).private[0].text
    assert "Randolph" in rules and "bluff" in rules
    status = (await service.command(who("ann"), "status")).private[0].text
    assert status.startswith("0 of 15 officials in exile. ") and "Ann: 0 pts (-)" in status
    assert "Team Ann & " in status or " & Ann: 0 points" in status
    assert "Waiting for the secret choices of" in status


async def test_every_player_bribes_in_secret_from_a_menu_of_the_25_officials(
    service: GameService, store: Store
) -> None:
    chat = Chat()
    started = await open_stadt(service, chat, USERS)
    assert is_png(started.public[0].image)
    assert sorted(d.user_id for d in started.direct) == sorted(USERS)
    for direct in started.direct:
        menu = direct.message
        assert is_png(menu.image) and not menu.buttons
        assert [c.data.rsplit(":", 1)[1] for c in menu.choices] == list(OFFICIALS)
        assert menu.choices[0].label == "🔴🔴 RR (red hat, red robe)"  # as the pawn is drawn
        assert "⚫🔵 KB (black hat, blue robe)" in [c.label for c in menu.choices]
        assert all(len(c.data.encode()) <= 64 for c in menu.choices)
    first = await press(service, chat, "ann", chat.button("ann", "vb", "GY").data)
    assert "Ann has made a secret choice." in first.public[0].text
    assert "GY" not in first.public[0].text and first.public[0].image is None
    [told] = first.private
    assert told.text == "Your secret bribe is now GY (green hat, yellow robe)."
    # The menu stays valid while the others choose; a second press is refused.
    again = await service.press(who("ann"), chat.button("ann", "vb", "RB").data)
    assert not again.ok
    await press(service, chat, "bob", chat.button("bob", "vb", "RB").data)
    last = await press(service, chat, "cid", chat.button("cid", "vb", "GY").data)
    text = last.public[0].text
    assert "rolls the blue die: pavilion" in text and "to move (move 1 of 4)" in text
    assert is_png(last.public[0].image)
    game = load_game(await table_of(store))  # type: ignore[arg-type]
    mover = await user_of(store, game.to_act[0].seat)
    assert mention(mover) in text
    turn = [
        m for m in chat.inbox[mover] if m.choices and "Choose an official" in m.choices_placeholder
    ]
    assert turn and is_png(turn[-1].image)


async def test_a_whole_game_with_buttons_only(service: GameService, store: Store) -> None:
    chat = Chat()
    await open_stadt(service, chat, ["ann", "bob"])
    assert await play_on(service, store, chat, random.Random(25)) is None
    texts = [m.text for m in chat.public]
    assert "Game over!" in texts[-1] and "Winner:" in texts[-1]
    assert is_png(chat.public[-1].image)
    assert any("into the open pavilion!" in t for t in texts)
    assert any("leaves the board for the exile terrace (15 of 15)" in t for t in texts)
    assert await store.user_games("console", "ann") == []
    board = await service.command(who("bob"), "board")
    assert board.ok and is_png(board.public[0].image)
    # Every preview was private, with a picture; the channel got no button before the end,
    # and then only the one that shows the game's replay.
    previews = [m for box in chat.inbox.values() for m in box if m.image_name == "preview.png"]
    assert previews and all(is_png(m.image) for m in previews[:5])
    assert all(not m.buttons and not m.choices for m in chat.public[3:-1])
    [[replay]] = chat.public[-1].buttons
    assert replay.data.startswith("fc:rp:") and not chat.public[-1].choices


async def test_moves_typed_liberally(service: GameService, store: Store) -> None:
    chat = Chat()
    await open_stadt(service, chat, ["ann", "bob"])
    game = position(2, ["RR", "KK"], seed=5)
    await store_position(store, game)
    north = await user_of(store, "north")
    east = await user_of(store, "east")
    before = await snapshot(store)
    cases = {
        (east, "play RR W"): "turn",
        (north, "play"): "move an official",
        (north, "play RR"): "Say how RR slides",
        (north, "play XX N"): "not an official",
        (north, "play RR Q"): "not a direction",
        (north, "play RR N"): "cannot slide N from 4,1",
        (north, "play RR W,N"): "after the move is over",
        (north, "play believe"): "move an official",
        (north, "play pass"): "compulsory",
        (north, "play take 2 1H"): "move an official",
        (north, "play bribe RB"): "secret",
        (north, "play KK S,E"): "after the move is over",
    }
    for (user, text), expected in cases.items():
        reply = await service.command(who(user), text)
        assert not reply.ok, text
        assert expected in reply.private[0].text, (text, reply.private[0].text)
        assert not reply.public and not reply.direct
    assert await snapshot(store) == before
    reply = await service.command(who(north), "play rr w")
    assert reply.ok, reply.private
    text = reply.public[0].text
    # where from, how far, which pavilion (it was a chain of arrows)
    moved = "moves RR (red hat, red robe) from 4,1 in one slide to pavilion 1 (red): "
    assert moved + "into the open pavilion!" in text
    assert "Bribes revealed: " in text and "takes 1" in text


async def test_the_preview_shows_the_path_privately_and_plays_nothing(
    service: GameService, store: Store
) -> None:
    chat = Chat()
    await open_stadt(service, chat, ["ann", "bob"])
    await store_position(store, position(2, ["RR", "KK"], seed=5))
    north = await user_of(store, "north")
    await prompt_all(service, chat, ["ann", "bob"])
    before = await snapshot(store)
    picked = await press(service, chat, north, chat.button(north, "vo", "RR").data)
    assert [b.label for b in picked.private[0].buttons[0]] == ["→ East", "← West"]  # roof south
    step = await press(service, chat, north, chat.button(north, "vs", pack("RR", ("E",))).data)
    [preview] = step.private
    assert (
        not step.public and is_png(preview.image) and "Preview, not played yet: →" in preview.text
    )
    labels = [b.label for row in preview.buttons for b in row]
    assert "Confirm" in labels and "Start again" in labels
    assert "→ East" not in labels and "← West" not in labels  # only right angles follow
    assert await snapshot(store) == before  # a preview changes nothing and rolls no die
    west = await press(service, chat, north, chat.button(north, "vo", "RR").data)
    entering = await press(service, chat, north, west.private[0].buttons[0][-1].data)
    assert "enters pavilion 1 (red)" in entering.private[0].text
    last_row = [b.label for b in entering.private[0].buttons[0]]
    assert last_row == ["Confirm", "Start again", "Another official"]
    done = await press(service, chat, north, chat.button(north, "vm", pack("RR", ("W",))).data)
    assert "into the open pavilion" in done.public[0].text


async def test_second_thoughts_lead_back_to_the_officials_from_the_first_step(
    service: GameService, store: Store
) -> None:
    chat = Chat()
    await open_stadt(service, chat, ["ann", "bob"])
    await store_position(store, position(2, ["RR", "KK"], seed=5))
    north = await user_of(store, "north")
    await prompt_all(service, chat, ["ann", "bob"])
    before = await snapshot(store)
    picked = await press(service, chat, north, chat.button(north, "vo", "RR").data)
    [back] = picked.private[0].buttons[-1]  # before any slide: another official
    assert back.label == "Another official"
    again = await press(service, chat, north, back.data)
    [menu] = again.private
    assert menu.choices_placeholder == "Choose an official to move"
    officials = [c.data.rsplit(":", 1)[1] for c in menu.choices]
    assert "RR" in officials and len(officials) > 1
    other = next(c for c in menu.choices if not c.data.endswith(":RR"))
    chosen = await press(service, chat, north, other.data)
    assert "Choose its first slide." in chosen.private[0].text
    step = await press(service, chat, north, chosen.private[0].buttons[0][0].data)
    assert "Another official" in [b.label for row in step.private[0].buttons for b in row]
    assert await snapshot(store) == before  # second thoughts play nothing


async def test_stale_and_forged_presses_change_nothing(service: GameService, store: Store) -> None:
    chat = Chat()
    await open_stadt(service, chat, ["ann", "bob"])
    await store_position(store, position(2, ["RR", "KK"], hands=[["2H"], ["3H"]], seed=5))
    north = await user_of(store, "north")
    await prompt_all(service, chat, ["ann", "bob"])
    old = chat.button(north, "vo", "KK").data
    assert (await press(service, chat, north, chat.button(north, "vo", "GG").data)).ok
    # GG steps one square off its start square; a red face lets north move again.
    moved = await service.command(who(north), "play GG E")
    assert moved.ok
    game = load_game(await table_of(store))  # type: ignore[arg-type]
    seat = game.to_act[0].seat
    user = await user_of(store, seat)
    before = await snapshot(store)
    stale = await service.press(who(north), old)
    if seat == "north":
        assert not stale.ok and "out of date" in stale.private[0].text
    forged = [
        "garbage",
        f"fc:zz:{CHANNEL}:1:RR",
        f"fc:vo:{CHANNEL}:1:ZZ",
        f"fc:vo:{CHANNEL}:1:RRR",
        f"fc:vs:{CHANNEL}:1:RRQ",
        f"fc:vs:{CHANNEL}:1:RRNNNN",
        f"fc:vs:{CHANNEL}:1:{pack('RR', ('N',))}",  # RR cannot slide north
        f"fc:vs:{CHANNEL}:1:{pack('RR', ('E', 'W'))}",  # no turning back
        f"fc:vm:{CHANNEL}:1:{pack('RR', ('N',))}",
        f"fc:vm:{CHANNEL}:1:RR3v",  # a packed path with forged padding
        f"fc:vm:{CHANNEL}:1:XX",
        f"fc:vb:{CHANNEL}:0:RB",
        f"fc:vb:{CHANNEL}:1:keep",
        f"fc:va:{CHANNEL}:1:maybe",
        f"fc:va:{CHANNEL}:1:doubt",
        f"fc:vt:{CHANNEL}:1:2.9Z",
        f"fc:vt:{CHANNEL}:1:9.1H",
        f"fc:vt:{CHANNEL}:1:2.3H",
        f"fc:vs:{CHANNEL}:99:{pack('RR', ('W',))}",
        f"fc:vs:{CHANNEL}:1:" + "RR" + "z" * 22,
        f"fc:vm:nowhere:1:{pack('RR', ('W',))}",
    ]
    for data in forged:
        reply = await service.press(who(user), data)
        assert not reply.ok, data
        assert reply.private[0].text and not reply.public
    assert await snapshot(store) == before


async def test_a_bribe_button_of_an_earlier_round_is_out_of_date(
    service: GameService, store: Store
) -> None:
    chat = Chat()
    await open_stadt(service, chat, ["ann", "bob"])
    first_menu = chat.button("bob", "vb", "KK").data
    game = position(2, ["RR", "KK"], seed=5)
    await store_position(store, game)
    north = await user_of(store, "north")
    east = await user_of(store, "east")
    assert (await service.command(who(north), "play RR W")).ok  # entry: a new bribe round
    await prompt_all(service, chat, [north, east])
    before = await snapshot(store)
    reply = await service.press(who(east), first_menu.replace("vb:room1:0", "vb:room1:0"))
    assert not reply.ok and "out of date" in reply.private[0].text
    assert await snapshot(store) == before
    keep = chat.button(east, "vb", "keep")
    assert keep.label == "Keep KK"
    kept = await press(service, chat, east, keep.data)
    assert "has made a secret choice" in kept.public[0].text and "KK" not in kept.public[0].text


async def test_a_decision_after_a_reminder_does_not_remind_the_others_again_at_once(
    store: Store, clock: Clock
) -> None:
    service = GameService(store, settings(), clock=clock, seeds=fixed_seeds())
    chat = Chat()
    await open_stadt(service, chat, USERS)  # all three owe their opening bribe
    clock.now += 12 * 3600 + 1
    [(_, _, reminded)] = await service.fire_due()
    assert sorted(d.user_id for d in reminded.direct) == USERS
    clock.now += 600
    await press(service, chat, "ann", chat.button("ann", "vb", "GY").data)
    clock.now += 1
    assert await service.fire_due() == []  # Bob and Cid were reminded ten minutes ago
    clock.now += 12 * 3600
    [(_, _, again)] = await service.fire_due()
    assert sorted(d.user_id for d in again.direct) == ["bob", "cid"]


async def test_a_bribe_is_chosen_at_random_at_the_time_limit_and_told_privately(
    store: Store, clock: Clock
) -> None:
    service = GameService(store, settings(), clock=clock, seeds=fixed_seeds())
    chat = Chat()
    await open_stadt(service, chat, USERS)
    await press(service, chat, "ann", chat.button("ann", "vb", "GY").data)
    clock.now += 72 * 3600 + 1
    fired = await service.fire_due()
    replies = [reply for _, _, reply in fired]
    public = " ".join(m.text for r in replies for m in r.public)
    assert "Time ran out for Bob: the secret choice was made for them." in public
    assert "Time ran out for Cid" in public and "Time ran out for Ann" not in public
    told = {
        d.user_id: d.message.text
        for r in replies
        for d in r.direct
        if "bribe is now" in d.message.text
    }
    assert sorted(told) == ["bob", "cid"]
    game = load_game(await table_of(store))  # type: ignore[arg-type]
    table = await table_of(store)
    assert table is not None
    for user, text in told.items():
        seat = table.engine_seat(user)
        assert seat is not None
        bribe = game.bribes[game.seat_index(seat)]
        assert bribe is not None and bribe in text and bribe not in public.split("Time ran")[1]
    assert [t.kind for t in game.to_act] == ["move"]


async def test_a_restarted_service_carries_on_a_bluff_challenge(store: Store, clock: Clock) -> None:
    first = GameService(store, settings(), clock=clock, seeds=fixed_seeds())
    chat = Chat()
    await open_stadt(first, chat, USERS)
    game = position(3, ["KK", "RR", "GG"], hands=[["2H"], ["3H"], ["4H"]], seed=2)
    await store_position(store, game)
    north = await user_of(store, "north")
    east = await user_of(store, "east")
    south = await user_of(store, "south")
    entered = chat.take(north, await first.command(who(north), "play RR W"))
    assert "The bluff is in play: did" in entered.public[0].text
    [asked] = entered.direct
    assert asked.user_id == east and [b.label for b in asked.message.buttons[0]] == [
        "Believe",
        "Doubt",
    ]
    second = GameService(store, settings(), clock=clock, seeds=fixed_seeds())  # a restart
    doubted = await press(second, chat, east, chat.button(east, "va", "doubt").data)
    assert "doubts it!" in doubted.public[0].text
    assert [d.user_id for d in doubted.direct] == [south]
    assert f"{await name_of(store, east)} doubts" in doubted.direct[0].message.text
    # Silence until the time limit counts as belief.
    clock.now += 72 * 3600 + 1
    fired = await second.fire_due()
    public = " ".join(m.text for _, _, r in fired for m in r.public)
    assert "silence counts as belief" in public and "believes it." in public
    assert "bluffed and" in public and "caught it" in public  # north bribed KK, not RR
    # The doubter takes the top card, then chooses one of the bluffer's cards.
    table = await table_of(store)
    assert table is not None
    now = load_game(table)
    assert now.to_act[0].seat == "east" and now.to_act[0].kind == "take"
    await prompt_all(second, chat, [east])
    took = await press(second, chat, east, chat.button(east, "vt", "1.2H").data)
    assert "takes 2H (yellow hat) from" in took.public[0].text


async def name_of(store: Store, user: str) -> str:
    table = await table_of(store)
    assert table is not None
    seat = table.seat_of(user)
    assert seat is not None
    return seat.name


async def test_simple_players_finish_three_player_games_by_buttons(
    service: GameService, store: Store
) -> None:
    chat = Chat()
    await open_stadt(service, chat, USERS)
    left = await play_on(service, store, chat, random.Random(2), choose_simple, limit=60)
    assert left is not None and not left.is_over  # 60 actions in, still playing
    assert chat.replies and all(reply.ok for _, reply in chat.replies)


async def test_reminders_then_a_vote_at_the_time_limit_of_a_move(
    store: Store, clock: Clock
) -> None:
    service = GameService(store, settings(), clock=clock, seeds=fixed_seeds())
    chat = Chat()
    await open_stadt(service, chat, ["ann", "bob"])
    await store_position(store, position(2, ["RR", "KK"], seed=5))
    north = await user_of(store, "north")
    east = await user_of(store, "east")
    chat.take(north, await service.command(who(north), "play GG E"))  # a turn under way
    game = load_game(await table_of(store))  # type: ignore[arg-type]
    mover = await user_of(store, game.to_act[0].seat)
    other = east if mover == north else north
    clock.now += 12 * 3600 + 1
    [(_, _, reminded)] = await service.fire_due()
    [notice] = reminded.direct
    assert notice.user_id == mover and notice.message.text.startswith("A reminder:")
    assert notice.message.choices  # the officials to move, again
    clock.now += 60 * 3600
    fired = await service.fire_due()
    told = " ".join(m.text for _, _, r in fired for m in r.public)
    assert "/fc vote skip" in told
    assert not (await service.command(who(mover), "vote skip")).ok
    voted = await service.command(who(other), "vote skip")
    assert voted.ok and "The players voted to skip" in voted.public[0].text
    after = load_game(await table_of(store))  # type: ignore[arg-type]
    assert len(after.log) == len(game.log) + 1
