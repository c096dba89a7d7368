"""The finer points of kept results and ratings, against a real redis-server: which games
are kept, a rating left to the sweep, the retry when two results share a player, the limits
of the boards and histories, the trend kept, ids shared by two games, and what `forget me`
leaves to others; what the end of a game leaves: a team game's option and partners, no
deadline, and nothing at all if the last move crossed another write."""

from __future__ import annotations

import asyncio
import copy
import io
import random
from collections.abc import AsyncIterator

import pytest
from PIL import Image

from bot.games.verbotene_stadt import MODULE as VS
from bot.records.finished import Result, ResultSeat
from bot.records.table import Table
from bot.service import GameService
from bot.service import results as kept
from bot.service.history import LISTED
from bot.service.standings import BOARD_ROWS, TEXT_ROWS
from bot.store import Channel, Player, Store, StoreUnavailable, Update
from bot.store.ratings import PREFIX
from engine.ratings import Rating
from engine.verbotene_stadt import Game as VsGame
from engine.verbotene_stadt.players import choose_greedy
from render.leaderboard import Row, leaderboard_png
from tests.conftest import fixed_seeds
from tests.tables import load_game
from tests.test_lobby_and_turns import CONFLICT, Racing, refusal
from tests.test_results import (
    ROOM,
    everything_mentioning,
    finish,
    member,
    near_the_end,
    only_result,
    play_first_spot_in,
)
from tests.test_results import (
    shown as rating_shown,
)
from tests.test_saved_moves import play_first_spot
from tests.test_service import Clock, settings, table_of, who
from tests.vs_driver import Chat, act, hasty
from tests.vs_table import open_stadt, prompt_all, store_position, user_of

KIND = "forbidden_city"


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def service(store: Store, clock: Clock) -> AsyncIterator[GameService]:
    made = GameService(store, settings(), clock=clock, seeds=fixed_seeds())
    yield made
    made.computer.close()


def person(user: str, place: int, score: int) -> ResultSeat:
    return ResultSeat(
        seat=user.upper()[::-1], name=user.capitalize(), user_id=user, score=score, place=place
    )


def made_result(number: int, seats: list[ResultSeat], channel: str = "room1") -> Result:
    return Result(
        id=f"{number:08x}{'0' * 24}" if number >= 0 else "abcdef12" + "9" * 24,
        kind=KIND,
        ended=1_000.0 + number,
        platform="console",
        channel=channel,
        community="guild1",
        moves=56,
        seats=seats,
        record={},
    )


async def keep_result(store: Store, result: Result) -> None:
    """A result as the archive keeps it: written and listed unrated (no live game needed)."""
    channel = Channel.of(result.platform, result.channel)
    client = store.client
    await client.set(channel.result_key(result.id), result.model_dump_json())
    await client.zadd(channel.results_key, {result.ref: result.ended})


@pytest.mark.parametrize(("least", "is_kept"), [(55, True), (56, False)])
async def test_a_game_ended_by_a_vote_is_kept_from_the_least_number_of_moves(
    store: Store, clock: Clock, least: int, is_kept: bool
) -> None:
    """The game below stands at 55 moves when its players end it."""
    made = GameService(store, settings(results_min_moves=least), clock=clock, seeds=fixed_seeds())
    try:
        mover = await near_the_end(made, ["ann", "bob"])
        clock.now += 73 * 3600
        await made.fire_due()
        reply = await made.command(who("bob" if mover == "ann" else "ann"), "vote end")
        assert reply.ok and ("Ratings:" in reply.public[0].text) == is_kept
        assert bool(reply.public[0].buttons) == is_kept
        kept_here = await store.channel_results(Channel.of("console", "room1"), 10)
        assert len(kept_here) == int(is_kept)
    finally:
        made.computer.close()


async def test_a_rating_the_store_could_not_make_is_made_by_the_sweep(
    service: GameService, store: Store
) -> None:
    mover = await near_the_end(service, ["ann", "bob"])
    real = store.apply

    async def away(*args: object, **kwargs: object) -> str:
        raise StoreUnavailable("Redis went away right after the archive")

    store.apply = away  # type: ignore[method-assign, assignment]
    reply = await play_first_spot(service, mover)
    store.apply = real  # type: ignore[method-assign]
    [message] = reply.public
    assert reply.ok and "Game over" in message.text and "Ratings:" not in message.text
    result = await only_result(store)
    assert message.buttons[0][0].data.endswith(result.short)  # the replay is there already
    assert await kept.sweep(service.ctx) == 1
    assert (await store.players(KIND, ["console:ann"]))["console:ann"].games == 1


async def test_a_stale_read_is_refused_and_two_results_at_once_both_count(
    service: GameService, store: Store
) -> None:
    first = made_result(1, [person("ann", 1, 30), person("bob", 2, 20)])
    second = made_result(2, [person("ann", 2, 10), person("cat", 1, 40)])
    await kept.apply(service.ctx, first)
    stale = Update("console:ann", 0, Player("Ann", 30.0, 7.0, games=1), 9.0, True)
    assert await store.apply("x:y:z", "zzzzzzzz", 5.0, KIND, "console:g", [stale]) == "retry"
    assert (await store.players(KIND, ["console:ann"]))["console:ann"].mu != 30.0
    assert not await store.client.sismember(f"{PREFIX}:applied", "x:y:z")
    third = made_result(3, [person("ann", 1, 50), person("dan", 2, 5)])
    await asyncio.gather(kept.apply(service.ctx, second), kept.apply(service.ctx, third))
    ann = (await store.players(KIND, ["console:ann"]))["console:ann"]
    assert ann.games == 3 and ann.wins == 2 and ann.best == 50 and len(ann.trend) == 3


async def test_the_trend_keeps_the_last_twelve_ratings(service: GameService, store: Store) -> None:
    for number in range(14):
        await kept.apply(
            service.ctx, made_result(number, [person("ann", 1, number), person("bob", 2, 0)])
        )
    ann = (await store.players(KIND, ["console:ann"]))["console:ann"]
    assert ann.games == 14 and len(ann.trend) == kept.TREND == 12
    assert list(ann.trend) == sorted(ann.trend)  # fourteen wins: only ever up
    assert ann.trend[-1] == Rating(ann.mu, ann.sigma).shown  # the latest last


async def test_boards_and_histories_show_the_best_and_the_latest(
    service: GameService, store: Store
) -> None:
    users = [f"p{n:02d}" for n in range(BOARD_ROWS + 3)]
    for number, user in enumerate(users):
        # Each beats the one before: later players rank higher.
        rival = users[number - 1] if number else "zed"
        result = made_result(number, [person(user, 1, 10), person(rival, 2, 0)])
        await keep_result(store, result)
        await kept.apply(service.ctx, result)
    top = await service.command(member("ann"), "top")
    lines = [line for line in top.public[0].text.splitlines() if line[:1].isdigit()]
    assert len(lines) == TEXT_ROWS
    everywhere = await service.command(member("ann"), "top global")
    for shown in (top, everywhere):  # the image: BOARD_ROWS rows, as tall as such a board
        rows = [Row(n, "x", 1000, 1, 1, 1, ()) for n in range(BOARD_ROWS)]
        assert height(shown.public[0].image) == height(leaderboard_png("t", rows))
    best = (await store.board(KIND, 1))[0][1].name
    assert lines[0].startswith(f"1. {best} ")
    history = await service.command(member("ann"), "history")
    listed = [line for line in history.public[0].text.splitlines() if " · " in line]
    assert len(listed) == LISTED
    newest = made_result(len(users) - 1, [])
    assert listed[0].startswith(newest.short)


async def test_an_id_two_games_share_finds_this_channels_first(
    service: GameService, store: Store
) -> None:
    here = made_result(-1, [person("ann", 1, 10), person("bob", 2, 0)], channel="room1")
    there = made_result(-1, [person("cat", 1, 10), person("dan", 2, 0)], channel="room7")
    there = there.model_copy(update={"id": "abcdef12" + "8" * 24})
    for result in (there, here):
        await keep_result(store, result)
        await kept.apply(service.ctx, result)
    assert here.short == there.short
    found = await service.command(member("eve", channel="room1"), f"export {here.short}")
    assert "Ann" in found.public[0].text and "Cat" not in found.public[0].text
    found = await service.command(member("eve", channel="room7"), f"export {here.short}")
    assert "Cat" in found.public[0].text


async def test_stats_give_the_place_on_the_board(service: GameService, store: Store) -> None:
    await finish(service, ["ann", "bob"])
    result = await only_result(store)
    winner = next(s for s in result.seats if s.place == 1).user_id
    loser = next(s for s in result.seats if s.place == 2).user_id
    assert "place 1 of 2" in (await service.command(member(str(winner)), "stats")).public[0].text
    assert "place 2 of 2" in (await service.command(member(str(loser)), "stats")).public[0].text


async def test_equal_ratings_share_a_place_in_stats_and_on_every_board(
    service: GameService, store: Store
) -> None:
    """Bob and Cat tie for second in their only game, so their ratings are equal: both are
    second of three wherever the place is shown, and Ann first."""
    result = made_result(1, [person("ann", 1, 30), person("cat", 2, 20), person("bob", 2, 20)])
    await kept.apply(service.ctx, result)
    ratings = await store.players(KIND, ["console:bob", "console:cat"])
    assert ratings["console:bob"].mu == ratings["console:cat"].mu
    expected = {"Ann": 1, "Bob": 2, "Cat": 2}
    for user, place in expected.items():
        stats = (await service.command(member(user.lower()), "stats")).public[0].text
        assert f"place {place} of 3" in stats, (user, stats)
    for words in ("top", "top global"):
        text = (await service.command(member("ann"), words)).public[0].text
        listed = [line.split(" ", 2)[:2] for line in text.splitlines() if line[:1].isdigit()]
        assert listed == [[f"{place}.", name] for name, place in expected.items()], text
    # A board cut through the tie keeps the same order: Bob, listed first of the two.
    assert [key for key, _ in await store.board(KIND, 2)] == ["console:ann", "console:bob"]


async def test_forget_me_leaves_the_others_settings_and_games(
    service: GameService, store: Store
) -> None:
    assert (await service.command(who("bob"), "notify off")).ok
    await finish(service, ["zoe", "bob"])
    await finish(service, ["bob", "cat"], channel="room2")
    asked = await service.command(member("zoe"), "forget me")
    assert (await service.press(member("zoe"), asked.private[0].buttons[0][0].data)).ok
    settings_of = await store.chat_settings(Channel.of("console", "room1"))
    assert settings_of.notify == {"bob": False}
    assert await store.last_archived(Channel.of("console", "room2")) is not None
    archived = await store.last_archived(Channel.of("console", "room1"))
    assert archived is not None and archived.players == ("bob",) and archived.creator != "zoe"
    table = Table.model_validate_json(archived.data)
    assert [s.name for s in table.seats if s.user_id != "bob"] == ["(anonymous)"]
    assert "zoe" not in archived.data and "Zoe" not in archived.data
    bob = (await store.players(KIND, ["console:bob"]))["console:bob"]
    assert bob.games == 2
    assert "console:zoe" not in await store.opponents(KIND, "console:bob")
    assert await store.opponents(KIND, "console:bob") == {"console:cat": 1}
    assert len(await store.history("console:bob", None)) == 2


async def test_history_in_a_private_chat_is_the_users_own(
    service: GameService, store: Store
) -> None:
    await finish(service, ["ann", "bob"])
    await finish(service, ["cat", "dan"], channel="room2")
    mine = await service.command(who("ann", "dm-ann", private=True), "history")
    lines = [line for line in mine.public[0].text.splitlines() if " · " in line]
    assert len(lines) == 1 and "Ann" in lines[0] and "Cat" not in lines[0]
    assert "Your last games" in mine.public[0].text
    nobody = await service.command(who("eve", "dm-eve", private=True), "history")
    assert "No finished game" in nobody.public[0].text


async def test_favourite_opponents_are_the_most_played_first(
    service: GameService, store: Store
) -> None:
    games = [("bob", 1), ("cat", 2), ("cat", 3), ("dan", 4), ("dan", 5), ("dan", 6)]
    for rival, number in games:
        await kept.apply(
            service.ctx, made_result(number, [person("ann", 1, 9), person(rival, 2, 1)])
        )
    text = (await service.command(member("ann"), "stats")).public[0].text
    assert "Most played against: Dan (3), Cat (2), Bob (1)." in text


async def test_top_in_a_private_chat_is_the_board_of_everyone(
    service: GameService, store: Store
) -> None:
    await kept.apply(service.ctx, made_result(1, [person("ann", 1, 9), person("bob", 2, 1)]))
    elsewhere = made_result(2, [person("cat", 1, 9), person("dan", 2, 1)])
    elsewhere = elsewhere.model_copy(update={"community": "guild2"})
    await kept.apply(service.ctx, elsewhere)
    private = await service.command(who("eve", "dm-eve", private=True), "top")
    assert all(name in private.public[0].text for name in ("Ann", "Bob", "Cat", "Dan"))
    here = await service.command(member("eve"), "top")
    assert "Ann" in here.public[0].text and "Cat" not in here.public[0].text


async def test_history_marks_the_winners(service: GameService, store: Store) -> None:
    result = made_result(1, [person("ann", 2, 5), person("bob", 1, 9), person("cat", 1, 9)])
    await keep_result(store, result)
    line = next(
        line
        for line in (await service.command(member("eve"), "history")).public[0].text.splitlines()
        if line.startswith(result.short)
    )
    assert line.endswith("Bob 9 🏆, Cat 9 🏆, Ann 5")


async def test_rebuild_rates_in_the_order_games_ended_not_where(
    service: GameService, store: Store
) -> None:
    later = made_result(2, [person("ann", 1, 9), person("bob", 2, 1)], channel="room1")
    first = made_result(1, [person("ann", 2, 1), person("cat", 1, 9)], channel="room9")
    for result in (first, later):  # room1 sorts first, but room9's game ended first
        await keep_result(store, result)
        await kept.apply(service.ctx, result)
    live = await store.players(KIND, ["console:ann", "console:bob", "console:cat"])
    await kept.rebuild(service.ctx)
    assert await store.players(KIND, ["console:ann", "console:bob", "console:cat"]) == live


async def test_forgotten_seats_are_rated_for_their_game_only(
    service: GameService, store: Store
) -> None:
    result = made_result(1, [person("ann", 1, 9), person("bob", 2, 1)])
    await keep_result(store, result)
    await kept.apply(service.ctx, result)
    asked = await service.command(member("bob"), "forget me")
    assert (await service.press(member("bob"), asked.private[0].buttons[0][0].data)).ok
    await kept.rebuild(service.ctx)
    board = [key for key, _ in await store.board(KIND, 10)]
    assert board == ["console:ann"]
    assert await store.opponents(KIND, "console:ann") == {}


async def test_forget_me_reaches_a_result_not_rated_yet(
    service: GameService, store: Store, redis_url: str
) -> None:
    """A result whose rating a process never made (it died) is rated, then forgotten."""
    result = made_result(1, [person("zoe", 1, 9), person("bob", 2, 1)])
    await keep_result(store, result)
    await store.client.sadd(Channel.of("console", "room1").unrated_key, result.ref)
    asked = await service.command(member("zoe"), "forget me")
    assert (await service.press(member("zoe"), asked.private[0].buttons[0][0].data)).ok
    assert await everything_mentioning(redis_url, ["zoe", "Zoe"]) == []
    assert (await store.players(KIND, ["console:bob"]))["console:bob"].games == 1


async def test_stats_and_replay_take_one_argument(service: GameService, store: Store) -> None:
    await finish(service, ["ann", "bob"])
    result = await only_result(store)
    wrong = ("stats <@ann> <@bob>", "stats <@ann> now", "stats <@a:b>", "history <@x:y:z>")
    for text in (*wrong, f"replay {result.short} again"):
        refused = await service.command(member("cat"), text)
        assert not refused.ok and refused.private[0].text, text


async def test_a_kept_record_that_no_longer_replays_is_refused_in_words(
    service: GameService, store: Store
) -> None:
    await finish(service, ["ann", "bob"])
    result = await only_result(store)
    broken = result.model_copy(update={"record": {**result.record, "moves": ["nonsense"]}})
    await keep_result(store, broken)
    reply = await service.command(member("cat"), f"replay {result.short}")
    assert not reply.ok and "stored game unreadable" in reply.private[0].text


def test_only_a_results_key_names_a_result() -> None:
    channel = Channel.of("console", "room1")
    assert Channel.of_result_key(channel.result_key("g1")) == (channel, "g1")
    assert Channel.of_result_key(channel.archive_key("g1")) is None
    assert Channel.of_result_key(channel.game_key) is None


def test_the_team_games_partners_are_one_side_of_its_outcome() -> None:
    game = VsGame(4, seed=6, teams=True)
    rng = random.Random(6)
    while not game.is_over:
        seat = game.to_act[0].seat
        game.play(seat, choose_greedy(game, seat, rng))
    players = game.players
    outcome = VS.outcome(game)
    assert sorted(outcome.teams) == sorted([(players[0], players[2]), (players[1], players[3])])
    assert set(outcome.winners) in ({players[0], players[2]}, {players[1], players[3]})
    solo = VsGame(3, seed=6)
    assert VS.outcome(solo).teams == []


@pytest.mark.parametrize(
    "text",
    [
        "top global global",
        "top knizia stadt",
        "top 🐉",
        "stats <@>",
        "stats <@" + "9" * 60 + ">",
        "history <@!ann>",
        "replay ABCDEF12",
        "replay 1a2b3c4d5",
        "export -",
        "forget ME",
        "forget you",
    ],
)
async def test_odd_words_get_an_answer_and_change_nothing(
    service: GameService, store: Store, text: str
) -> None:
    await finish(service, ["ann", "bob"])
    before = await store.players(KIND, ["console:ann", "console:bob"])
    reply = await service.command(member("cat"), text)
    said = reply.public or reply.private
    assert said and said[0].text
    assert await store.players(KIND, ["console:ann", "console:bob"]) == before


@pytest.mark.parametrize("data", ["fc:fg:room1:0:", "fc:fg:room1", "fc:rp:room1:0:zz", "fc:rp:x"])
async def test_odd_record_buttons_are_refused(service: GameService, data: str) -> None:
    reply = await service.press(member("cat"), data)
    assert not reply.ok and reply.private[0].text


async def test_a_group_with_a_new_id_keeps_its_history_and_leaderboard(
    service: GameService, store: Store
) -> None:
    """A Telegram group that becomes a supergroup: its community is the chat itself."""
    mover = await near_the_end(service, ["ann", "bob"], channel="grp1", community="grp1")
    assert (await play_first_spot_in(service, mover, "grp1")).ok
    mover = await near_the_end(service, ["ann", "cat"], channel="grp1", community="grp1")
    assert await service.chat_moved("console", "grp1", "grp9")
    assert (await play_first_spot_in(service, mover, "grp9")).ok
    history = (await service.command(member("dan", "grp9", "grp9"), "history")).public[0].text
    assert len([line for line in history.splitlines() if " · " in line]) == 2
    top = (await service.command(member("dan", "grp9", "grp9"), "top")).public[0].text
    assert all(name in top for name in ("Ann", "Bob", "Cat"))
    old = (await service.command(member("dan", "grp1", "grp1"), "top")).public[0].text
    assert "no rated games yet" in old
    results = [
        Result.model_validate_json(t or "")
        for t in await store.results(await store.channel_results(Channel.of("console", "grp9"), 10))
    ]
    assert sorted(r.community for r in results) == ["grp1", "grp9"]


def height(png: bytes | None) -> int:
    assert png is not None
    with Image.open(io.BytesIO(png)) as image:
        return image.height


TEAM = ["ann", "bob", "cid", "dan"]


@pytest.fixture
async def racing(redis_url: str) -> AsyncIterator[Racing]:
    made = Racing.from_url(redis_url)
    yield made
    await made.close()


async def test_a_team_games_result_keeps_its_option_and_rates_partners_as_one_side(
    service: GameService, store: Store
) -> None:
    """Partners sit opposite (first and third, second and fourth): the kept result names them,
    and the final message gives both partners the same change, the winners a gain."""
    chat = Chat()
    await open_stadt(service, chat, TEAM, "teams")
    table = await table_of(store)
    assert table is not None
    seats = {s.user_id: seat for seat, s in zip(table.players, table.seats, strict=True)}
    order = [s.user_id for s in table.seats]
    game, rng = load_game(table), random.Random(3)
    while True:  # played in the engine up to the action that ends it, which a player presses
        seat = game.to_act[0].seat
        action = hasty(game, seat, rng)
        trial = copy.deepcopy(game)
        trial.play(seat, action)
        if trial.is_over:
            break
        game.play(seat, action)
    await store_position(store, game)
    await prompt_all(service, chat, TEAM)
    await act(service, chat, await user_of(store, seat), action)
    assert await table_of(store) is None
    result = await only_result(store)
    assert (result.kind, result.options) == ("verbotene_stadt", {"teams": "yes"})
    first, second = (frozenset((seats[order[k]], seats[order[k + 2]])) for k in (0, 1))
    assert {frozenset(team) for team in result.teams} == {first, second}
    final = chat.public[-1].text
    change = {}
    for user in TEAM:
        before, after = rating_shown(final, user.capitalize())
        change[user] = after - before
    assert change[order[0]] == change[order[2]] != change[order[1]] == change[order[3]]
    winners = {str(s.user_id) for s in result.seats if s.place == 1}
    assert winners in ({order[0], order[2]}, {order[1], order[3]})
    assert all(change[user] > 0 for user in winners)


async def test_the_last_move_ends_the_turns_deadlines_with_the_table(
    service: GameService, store: Store, clock: Clock
) -> None:
    """No reminder, time limit or news is left to fire for a game that is over."""
    mover = await near_the_end(service, ["ann", "bob"])
    assert await store.deadline(ROOM, "limit") is not None
    assert await store.deadline(ROOM, "remind") is not None
    assert (await play_first_spot(service, mover)).ok
    for kind in ("remind", "limit", "news"):
        assert await store.deadline(ROOM, kind) is None, kind
    clock.now += 100 * 3600
    assert await service.fire_due() == []


async def test_a_last_move_that_crosses_another_write_changes_nothing(
    racing: Racing, clock: Clock
) -> None:
    """Another process writes the table between the last move's read and its end: the move is
    refused in words, the game is still live one move short, nothing is kept, and the same
    move played again ends the game."""
    service = GameService(racing, settings(), clock=clock, seeds=fixed_seeds())
    mover = await near_the_end(service, ["ann", "bob"])

    async def written_meanwhile() -> None:
        record = await racing.load(ROOM)
        assert record is not None
        await racing.save(ROOM, record.data, record.version)

    before = await table_of(racing)
    racing.before_archive = written_meanwhile
    assert refusal(await play_first_spot(service, mover)) == CONFLICT
    assert await table_of(racing) == before
    assert await racing.channel_results(ROOM, 10) == []
    again = await play_first_spot(service, mover)
    assert again.ok and "Game over" in again.public[0].text
    assert await table_of(racing) is None
    assert len(await racing.channel_results(ROOM, 10)) == 1


async def test_a_second_game_is_rated_from_the_first(service: GameService, store: Store) -> None:
    """A player's second rated game starts from the rating the first left them, not from a
    newcomer's: their uncertainty keeps shrinking game after game."""
    players = ["console:ann", "console:bob"]
    await finish(service, ["ann", "bob"])
    first = await store.players(KIND, players)
    await finish(service, ["ann", "bob"])
    second = await store.players(KIND, players)
    for key in players:
        assert (first[key].games, second[key].games) == (1, 2)
        assert second[key].sigma < first[key].sigma, key  # surer of them after two games
