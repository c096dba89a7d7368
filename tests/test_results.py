"""Finished games kept for good, rated once, and read back: the final message's rating
changes and Replay button, `/fc stats`, `/fc top`, `/fc history`, `/fc replay`, `/fc export`,
`/fc forget me`, the sweep that rates what a dead process left, and `ratings rebuild`; all
through the service against a real redis-server (and a cluster where keys' slots matter)."""

from __future__ import annotations

import io
import json
import os
import random
import re
import subprocess
import sys
from collections.abc import AsyncIterator

import pytest
import redis.asyncio as aioredis
from PIL import Image

from bot.exchange.actor import Actor
from bot.exchange.replies import Reply, mention
from bot.records.finished import Result, ResultSeat
from bot.service import GameService
from bot.service import results as kept
from bot.store import Channel, Conflict, Store
from engine.forbidden_city import Game
from engine.forbidden_city.replay import steps
from engine.ratings import Rating
from tests.conftest import fixed_seeds
from tests.tables import keep, load_game
from tests.test_saved_moves import play_first_spot
from tests.test_service import CHANNEL, Clock, current_user, settings, table_of, who

BACKENDS = ("single", "cluster")
ROOM = Channel.of("console", CHANNEL)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def service(store: Store, clock: Clock) -> AsyncIterator[GameService]:
    made = GameService(store, settings(), clock=clock, seeds=fixed_seeds())
    yield made
    made.computer.close()


def member(user: str, community: str = "guild1", channel: str = CHANNEL) -> Actor:
    return who(user, channel, community=community)


async def near_the_end(
    service: GameService,
    users: list[str],
    bots: int = 0,
    channel: str = CHANNEL,
    community: str = "guild1",
) -> str:
    """A started tile game whose next move, by a person, ends it; returns who plays it."""
    first = member(users[0], community, channel)
    assert (await service.command(first, f"new bots:{bots}:easy" if bots else "new")).ok
    for user in users[1:]:
        assert (await service.command(member(user, community, channel), "join")).ok
    assert (await service.command(first, "start")).ok
    where = Channel.of("console", channel)
    record = await service.store.load(where)
    assert record is not None
    table = await table_of(service.store, channel)
    assert table is not None and table.game is not None
    game = one_move_left(load_game(table))
    keep(table, game)
    if table.user_of(game.current).bot is not None:  # a person makes the last move
        person = next(i for i, s in enumerate(table.seats) if s.bot is None)
        mover = table.players.index(game.current)
        table.seats[person], table.seats[mover] = table.seats[mover], table.seats[person]
    await service.store.save(where, table.model_dump_json(), record.version)
    return current_user(table)


def one_move_left(dealt: Game) -> Game:
    """The dealt game played at random to its last move, whichever move ends it leaving
    one winner."""
    for seed in range(50):
        rng = random.Random(seed)
        trial = Game.from_json(dealt.to_json())
        moves = []
        while not trial.is_over:
            moves.append(rng.choice(trial.legal_moves()))
            trial.play(moves[-1])
        game = Game.from_json(dealt.to_json())
        for move in moves[:-1]:
            game.play(move)
        ends = []
        for move in game.legal_moves():
            end = Game.from_json(game.to_json())
            end.play(move)
            ends.append(len(end.winners) == 1)
        if all(ends):
            return game
    raise AssertionError("no deal with a clear winner")


async def finish(service: GameService, users: list[str], **kw: object) -> Reply:
    mover = await near_the_end(service, users, **kw)  # type: ignore[arg-type]
    reply = await play_first_spot_in(service, mover, str(kw.get("channel", CHANNEL)))
    assert reply.ok and "Game over" in reply.public[0].text, reply
    return reply


async def play_first_spot_in(service: GameService, user: str, channel: str) -> Reply:
    if channel == CHANNEL:
        return await play_first_spot(service, user)
    table = await table_of(service.store, channel)
    assert table is not None
    game = load_game(table)
    [move, *_] = game.legal_moves()
    return await service.command(who(user, channel), f"play {move.x},{move.y} {move.rotation}")


async def only_result(store: Store) -> Result:
    [ref] = await store.channel_results(ROOM, 10)
    text = await store.result(ref)
    assert text is not None
    return Result.model_validate_json(text)


def shown(text: str, name: str) -> tuple[int, int]:
    """`Ann 1000 → 1042 (+42)` in a final message: the rating before and after."""
    found = re.search(rf"{name} (\d+) → (\d+) \(([+-]\d+)\)", text)
    assert found is not None, text
    assert int(found[2]) - int(found[1]) == int(found[3])
    return int(found[1]), int(found[2])


async def test_a_finished_game_is_kept_rated_and_offers_its_replay(
    service: GameService, store: Store
) -> None:
    reply = await finish(service, ["ann", "bob"])
    result = await only_result(store)
    [message] = reply.public
    [[button]] = message.buttons
    assert button.data == f"fc:rp:{CHANNEL}:0:{result.short}" and "Replay" in button.label
    winner = next(s for s in result.seats if s.place == 1)
    loser = next(s for s in result.seats if s.place == 2)
    assert result.moves == 56 and not result.voted_end and result.community == "guild1"
    assert {s.user_id for s in result.seats} == {"ann", "bob"}
    assert winner.score > loser.score
    before_w, after_w = shown(message.text, winner.name)
    before_l, after_l = shown(message.text, loser.name)
    assert before_w == before_l == Rating().shown  # two newcomers
    assert after_w > before_w and after_l < before_l
    # A few KB, and the record in it replays the game to its end.
    assert len(result.model_dump_json()) < 8_000
    *_, last = steps(json.dumps(result.record))
    assert last.game.is_over and last.game.scores[winner.seat] == winner.score


async def test_a_result_applied_again_changes_nothing(service: GameService, store: Store) -> None:
    await finish(service, ["ann", "bob"])
    result = await only_result(store)
    players = [f"console:{u}" for u in ("ann", "bob")]
    before = await store.players(result.kind, players)
    assert await kept.apply(service.ctx, result) is None
    assert await kept.sweep(service.ctx) == 0
    assert await store.players(result.kind, players) == before
    assert before["console:ann"].games == 1


async def test_a_result_a_dead_process_left_unrated_is_rated_by_the_sweep(
    service: GameService, store: Store, clock: Clock
) -> None:
    mover = await near_the_end(service, ["ann", "bob"])

    async def dies(*args: object, **kwargs: object) -> None:
        raise SystemExit("the process died right after the archive")

    service.ctx.store.apply = dies  # type: ignore[method-assign, assignment]
    with pytest.raises(SystemExit):
        await play_first_spot(service, mover)
    del service.ctx.store.apply
    result = await only_result(store)
    assert await store.unrated() == [result.ref]
    assert await store.players(result.kind, ["console:ann"]) == {}
    await service.fire_due()  # the first poll of a process sweeps
    assert await store.unrated() == []
    rated = await store.players(result.kind, ["console:ann", "console:bob"])
    assert rated["console:ann"].games == rated["console:bob"].games == 1
    clock.now += 3600
    await service.fire_due()
    assert (await store.players(result.kind, ["console:ann"]))["console:ann"].games == 1


async def test_aborted_games_and_short_voted_ends_are_not_kept(
    service: GameService, store: Store, clock: Clock
) -> None:
    await near_the_end(service, ["ann", "bob"])
    assert (await service.command(who("ann"), "abort")).ok
    assert await store.channel_results(ROOM, 10) == []
    assert await store.unrated() == []
    assert "No finished game" in (await service.command(who("ann"), "history")).public[0].text


async def test_a_game_ended_by_a_vote_is_kept_after_enough_moves(
    service: GameService, store: Store, clock: Clock
) -> None:
    mover = await near_the_end(service, ["ann", "bob"])
    other = "bob" if mover == "ann" else "ann"
    clock.now += 73 * 3600
    await service.fire_due()  # the limit passes: votes open
    reply = await service.command(who(other), "vote end")
    assert reply.ok, reply.private
    result = await only_result(store)
    assert result.voted_end and result.moves == 55
    assert "Ratings:" in reply.public[0].text and reply.public[0].buttons


async def test_computer_levels_are_rated_and_on_the_board_here(
    service: GameService, store: Store
) -> None:
    reply = await finish(service, ["ann"], bots=1)
    result = await only_result(store)
    computer = next(s for s in result.seats if s.level is not None)
    assert result.player(computer) == "ai:easy" and computer.user_id is None
    assert "Computer (easy)" in reply.public[0].text
    top = await service.command(member("ann"), "top")
    text = top.public[0].text
    assert "Computer (easy)" in text and "Ann" in text
    assert is_image(top.public[0].image)
    assert (await store.players(result.kind, ["ai:easy"]))["ai:easy"].games == 1


def is_image(data: bytes | None, kind: str = "PNG") -> bool:
    if data is None:
        return False
    with Image.open(io.BytesIO(data)) as image:
        return image.format == kind


async def test_stats_show_rating_games_wins_best_score_and_opponents(
    service: GameService, store: Store
) -> None:
    await finish(service, ["ann", "bob"])
    result = await only_result(store)
    ann = next(s for s in result.seats if s.user_id == "ann")
    reply = await service.command(member("ann"), "stats")
    text = reply.public[0].text
    stored = (await store.players(result.kind, ["console:ann"]))["console:ann"]
    rating = Rating(stored.mu, stored.sigma)
    assert f"rating {rating.shown} (± {rating.uncertainty})" in text
    assert "1 game" in text and f"best score {ann.score}" in text
    assert f"{1 if ann.place == 1 else 0} win" in text
    assert "Most played against: Bob (1)" in text
    assert is_image(reply.public[0].image)
    # Someone else's, by mention; someone with no games; a name that is not a mention.
    bob = await service.command(member("ann"), "stats <@bob>")
    assert "Bob: ratings" in bob.public[0].text
    none = await service.command(member("ann"), "stats <@carl>")
    assert "No rated games yet" in none.public[0].text
    bad = await service.command(member("ann"), "stats carl")
    assert not bad.ok and "mentioning" in bad.private[0].text


async def test_top_here_counts_those_who_played_here_and_global_everyone(
    service: GameService, store: Store
) -> None:
    await finish(service, ["ann", "bob"])
    await finish(service, ["cat", "dan"], channel="room2")  # same server, another channel
    here = (await service.command(member("eve"), "top")).public[0].text
    assert all(name in here for name in ("Ann", "Bob", "Cat", "Dan"))
    other = (await service.command(member("eve", community="guild2"), "top knizia")).public[0]
    assert "no rated games yet" in other.text
    everywhere = await service.command(member("eve", community="guild2"), "top knizia global")
    assert all(name in everywhere.public[0].text for name in ("Ann", "Bob", "Cat", "Dan"))
    winners = [line for line in here.splitlines() if line.startswith(("1.", "2."))]
    assert len(winners) == 2  # the two winners first (equal ratings), then the two losers
    wrong = await service.command(member("eve"), "top chess")
    assert not wrong.ok and "/fc top" in wrong.private[0].text
    stadt = (await service.command(member("eve"), "top stadt")).public[0].text
    assert "Die Verbotene Stadt" in stadt and "no rated games yet" in stadt


async def test_history_of_the_channel_and_of_a_player(service: GameService, store: Store) -> None:
    await finish(service, ["ann", "bob"])
    result = await only_result(store)
    text = (await service.command(member("bob"), "history")).public[0].text
    line = next(line for line in text.splitlines() if line.startswith(result.short))
    for seat in result.seats:
        assert f"{seat.name} {seat.score}" in line
    assert "Forbidden City" in line
    mine = (await service.command(member("bob"), "history <@ann>")).public[0].text
    assert result.short in mine
    nobody = (await service.command(member("bob"), "history <@zed>")).public[0].text
    assert "No finished game" in nobody


async def test_replay_is_an_animation_of_the_public_views_and_the_button_shows_it_too(
    service: GameService, store: Store
) -> None:
    await finish(service, ["ann", "bob"])
    result = await only_result(store)
    reply = await service.command(member("bob"), f"replay {result.short}")
    [message] = reply.public
    assert message.image_name == f"replay-{result.short}.gif" and is_image(message.image, "GIF")
    assert message.image is not None
    with Image.open(io.BytesIO(message.image)) as gif:
        assert getattr(gif, "n_frames", 1) >= 2
    pressed = await service.press(
        member("cat", channel="elsewhere"), f"fc:rp:{CHANNEL}:0:{result.short}"
    )
    assert pressed.public[0].image == message.image and pressed.channel_id == CHANNEL
    for bad in ("replay", "replay 12", "replay zzzzzzzz", "replay 00000000"):
        refused = await service.command(member("bob"), bad)
        assert not refused.ok and refused.private[0].text


async def test_export_loads_in_the_engine_and_steps_to_the_same_end(
    service: GameService, store: Store
) -> None:
    await finish(service, ["ann", "bob"])
    result = await only_result(store)
    reply = await service.command(member("bob"), f"export {result.short.upper()}")
    [message] = reply.public
    assert message.image is not None and message.image_name.endswith(".json")
    assert f"python -m engine.forbidden_city replay {message.image_name}" in message.text
    game = Game.from_json(message.image)
    assert game.is_over and {s.seat: s.score for s in result.seats} == game.scores


async def test_forget_me_leaves_no_trace_of_the_person(
    service: GameService, store: Store, redis_url: str
) -> None:
    name, user = "Zelda", "zelda7"
    assert (await service.command(who(user, "room9", community="guild1"), "notify off")).ok
    mover = await near_the_end(service, [user, "bob"])
    reply = await play_first_spot(service, mover)
    assert reply.ok
    asked = await service.command(member(user), "forget me")
    [[button]] = asked.private[0].buttons
    stranger = await service.press(member("bob"), button.data)
    assert not stranger.ok and "Only the person" in stranger.private[0].text
    before = (await service.command(member("bob"), "board")).public[0]
    assert name in before.text and user in before.names
    done = await service.press(member(user), button.data)
    assert done.ok, done.private
    assert await everything_mentioning(redis_url, [user, name]) == []
    # The game stays, anonymous; the other player keeps their rating and history.
    result = await only_result(store)
    assert [s.name for s in result.seats if s.user_id is None] == [""]
    assert (await store.players(result.kind, ["console:bob"]))["console:bob"].games == 1
    text = (await service.command(member("bob"), "history")).public[0].text
    assert "(anonymous)" in text
    assert "Bob" in (await service.command(member("bob"), "top")).public[0].text
    # The channel's final table is still there for the others, with the anonymous seat.
    board = await service.command(member("bob"), "board")
    assert board.ok, board.private
    [final] = board.public
    assert final.text.startswith("Game over!") and is_image(final.image)
    assert "(anonymous)" in final.text and "Bob" in final.text and name not in final.text
    assert user not in final.names and name not in final.names.values()
    shown = user.capitalize()  # the whole message as it was, the seat's name aside
    assert final.text.replace("(anonymous)", shown) == before.text.replace(mention(user), shown)
    replay = await service.command(member("bob"), f"replay {result.short}")
    assert replay.ok and is_image(replay.public[0].image, "GIF")


async def test_forget_me_waits_for_the_games_under_way(service: GameService) -> None:
    await near_the_end(service, ["ann", "bob"])
    asked = await service.command(member("ann"), "forget me")
    refused = await service.press(member("ann"), asked.private[0].buttons[0][0].data)
    assert not refused.ok and "Finish or leave" in refused.private[0].text
    wrong = await service.command(member("ann"), "forget")
    assert not wrong.ok and "forget me" in wrong.private[0].text


async def everything_mentioning(url: str, words: list[str]) -> list[str]:
    """Every key whose name or value holds any of `words` (SCAN of every key, every type)."""
    single = aioredis.Redis.from_url(url)
    clustered = (await single.info("cluster")).get("cluster_enabled") == 1
    if clustered:
        await single.aclose()
    client = aioredis.RedisCluster.from_url(url) if clustered else single
    found = []
    try:
        async for raw in client.scan_iter(match="*", count=500):
            key = raw.decode() if isinstance(raw, bytes) else str(raw)
            typed = await client.type(raw)
            kind = typed.decode() if isinstance(typed, bytes) else str(typed)
            if kind == "string":
                value = repr(await client.get(raw))
            elif kind == "hash":
                value = repr(await client.hgetall(raw))
            elif kind == "set":
                value = repr(await client.smembers(raw))
            elif kind == "zset":
                value = repr(await client.zrange(raw, 0, -1, withscores=True))
            else:
                value = repr(await client.lrange(raw, 0, -1))
            if any(w in key or w in value for w in words):
                found.append(key)
    finally:
        await client.aclose()
    return found


async def test_ratings_rebuild_from_the_results_gives_the_same_ratings(
    service: GameService, store: Store, clock: Clock
) -> None:
    await finish(service, ["ann", "bob"])
    clock.now += 60  # rebuilt in the order the games ended
    await finish(service, ["ann", "cat"], channel="room2")
    keys = ["console:ann", "console:bob", "console:cat"]
    before = await store.players("forbidden_city", keys)
    top_before = (await service.command(member("dan"), "top")).public[0].text
    count, cleared = await kept.rebuild(service.ctx)
    assert count == 2 and cleared > 0
    assert await store.players("forbidden_city", keys) == before
    assert (await service.command(member("dan"), "top")).public[0].text == top_before


def seat(name: str, place: int, score: int, level: str | None = None) -> ResultSeat:
    user = None if level else name.lower()
    return ResultSeat(
        seat=name.lower(), name=name, user_id=user, level=level, score=score, place=place
    )


def result_of(seats: list[ResultSeat], teams: list[list[str]] | None = None) -> Result:
    return Result(
        id="0123456789abcdef",
        kind="verbotene_stadt",
        ended=1.0,
        platform="console",
        channel="room1",
        community="room1",
        moves=40,
        seats=seats,
        teams=teams or [],
        record={},
    )


def test_partners_share_their_change_and_a_level_twice_at_a_table_is_rated_once() -> None:
    teams = result_of(
        [seat("Ann", 1, 30), seat("Bob", 2, 20), seat("Cat", 1, 30), seat("Dan", 2, 20)],
        [["ann", "cat"], ["bob", "dan"]],
    )
    made, changes = kept.updates(teams, {})
    delta = {c.seat: c.after.shown - c.before.shown for c in changes}
    assert delta["ann"] == delta["cat"] > 0 > delta["bob"] == delta["dan"]
    assert {u.key for u in made} == {"console:ann", "console:bob", "console:cat", "console:dan"}
    twice = result_of([seat("Ann", 1, 30), seat("E1", 2, 20, "easy"), seat("E2", 3, 10, "easy")])
    made, changes = kept.updates(twice, {})
    assert sorted(u.key for u in made) == ["ai:easy", "console:ann"]
    [level] = [u for u in made if u.key == "ai:easy"]
    assert level.player.games == 1 and level.player.wins == 0 and level.player.best == 20
    # The level is told once, as it is kept: from its best placed seat; its other seat played
    # from the level's rating and moved nothing, so nothing is told of it.
    assert [c.seat for c in changes] == ["ann", "e1"]


async def test_the_ratings_rebuild_command_line_makes_them_again(
    service: GameService, store: Store, redis_url: str, backend: str
) -> None:
    await finish(service, ["ann", "bob"])
    keys = ["console:ann", "console:bob"]
    before = await store.players("forbidden_city", keys)
    await kept.rebuild(service.ctx)  # nothing kept changes
    await store.forget_player("console:ann", ["forbidden_city"])  # derived data damaged
    assert list(await store.players("forbidden_city", keys)) == ["console:bob"]
    env = {**os.environ, "REDIS_URL": redis_url, "DISCORD_TOKEN": "", "TELEGRAM_TOKEN": ""}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "ratings", "rebuild"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "rated 1 kept result(s) again" in done.stdout
    assert await store.players("forbidden_city", keys) == before


async def test_a_result_is_kept_only_with_its_own_game(store: Store, clock: Clock) -> None:
    """The archive and the result are one step: a result for another game id changes
    nothing, neither the live game nor the kept results."""
    await store.create(ROOM, "{}", creator="ann", players=["ann"], language="en")
    live = await store.load(ROOM)
    assert live is not None
    with pytest.raises(Conflict):
        await store.archive(ROOM, live.version, result="{}", game_id="another")
    assert await store.load(ROOM) == live
    assert await store.channel_results(ROOM, 10) == [] and await store.unrated() == []
    await store.archive(ROOM, live.version, result='{"kept": 1}', game_id=live.game_id)
    ref = f"{ROOM}:{live.game_id}"
    assert await store.result(ref) == '{"kept": 1}' and await store.unrated() == [ref]
    assert await store.load(ROOM) is None


@pytest.mark.parametrize(
    ("lang", "word"),
    [("fr", "meilleurs joueurs"), ("it", "migliori giocatori"), ("de", "beste Spieler")],
)
async def test_records_speak_the_chats_language(
    service: GameService, store: Store, lang: str, word: str
) -> None:
    reply = await finish(service, ["ann", "bob"])
    result = await only_result(store)
    english = {
        text: await service.command(member("ann"), text)
        for text in ("stats", "top", "history", f"replay {result.short}", "forget me")
    }
    assert (await service.command(member("ann"), f"lang {lang}")).ok
    for text, before in english.items():
        after = await service.command(member("ann"), text)
        said, was = after.public or after.private, before.public or before.private
        assert said[0].text != was[0].text, (lang, text)
        assert re.findall(r"\d{3,}", said[0].text) == re.findall(r"\d{3,}", was[0].text)
    top = (await service.command(member("ann"), "top")).public[0].text
    assert word in top
    assert "Replay" in reply.public[0].buttons[0][0].label
