"""`/fc forget me` held to its word: after the confirmation nothing in Redis names the person,
however many games they kept, whatever else the bot remembered of them, and wherever their
group's leaderboard moved. Real redis-server (and cluster); games played through the service.

The person has a distinctive id and name, so that a search of every key and value that finds
neither proves something: no other player, place or word of the bot holds them.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence

import pytest
import redis.asyncio as aioredis

from bot.exchange.actor import Actor
from bot.records.finished import Result
from bot.records.table import Table
from bot.service import GameService
from bot.store import Channel, Store
from engine.forbidden_city.moves import Place
from tests.conftest import fixed_seeds
from tests.tables import keep, load_game
from tests.test_results import one_move_left
from tests.test_service import Clock, settings

BACKENDS = ("single", "cluster")
USER_ID = "987654321"
NAME = "Zebulon Quux"
TRACES = [USER_ID, NAME, "Zebulon", "Quux"]
DONE = "Done: you are forgotten."


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def service(store: Store, clock: Clock) -> AsyncIterator[GameService]:
    made = GameService(store, settings(), clock=clock, seeds=fixed_seeds())
    yield made
    made.computer.close()


def zebulon(channel: str = "room1", community: str = "guild1", platform: str = "console") -> Actor:
    return Actor(platform, channel, USER_ID, NAME, community=community)


def other(
    user: str, channel: str = "room1", community: str = "guild1", platform: str = "console"
) -> Actor:
    return Actor(platform, channel, user, user.capitalize(), community=community)


def in_group(user: str, name: str, group: str) -> Actor:
    """Someone in a Telegram group: the group is its own community."""
    return Actor("telegram", group, user, name, community=group)


def in_private(user: str, name: str) -> Actor:
    """Someone in their private chat with the bot on Telegram, whose id is the person's."""
    return Actor("telegram", user, user, name, private=True)


async def play_out(
    service: GameService, people: Sequence[Actor], clock: Clock, bots: int = 0
) -> Result:
    """A Forbidden City game of `people` (in their chat) and `bots` computer players, opened
    by the first, dealt and played to one move before its end, and ended by a person's move:
    a kept, rated result."""
    first, channel_id = people[0], people[0].channel_id
    assert (await service.command(first, f"new bots:{bots}:easy" if bots else "new")).ok
    for actor in people[1:]:
        assert (await service.command(actor, "join")).ok
    assert (await service.command(first, "start")).ok
    where = Channel.of(first.platform, channel_id)
    record = await service.store.load(where)
    assert record is not None
    table = Table.model_validate_json(record.data)
    game = one_move_left(load_game(table))
    keep(table, game)
    if table.user_of(game.current).bot is not None:  # a person's seat makes the last move
        person = next(i for i, seat in enumerate(table.seats) if seat.bot is None)
        last = table.players.index(game.current)
        table.seats[person], table.seats[last] = table.seats[last], table.seats[person]
    await service.store.save(where, table.model_dump_json(), record.version)
    mover = next(a for a in people if a.user_id == table.user_of(game.current).user_id)
    move = next(m for m in game.legal_moves() if isinstance(m, Place))
    clock.now += 3600  # each game ends an hour after the one before
    ended = await service.command(mover, f"play {move.x},{move.y} {move.rotation}")
    assert ended.ok and "Game over" in ended.public[-1].text, ended
    [ref] = await service.store.channel_results(where, 1)
    text = await service.store.result(ref)
    assert text is not None
    return Result.model_validate_json(text)


async def forget(service: GameService, actor: Actor) -> str:
    """`/fc forget me` asked and confirmed by `actor`: what the confirmation answered."""
    asked = await service.command(actor, "forget me")
    [[button]] = asked.private[0].buttons
    done = await service.press(actor, button.data)
    assert done.ok, done.private
    return done.private[0].text


async def traces(url: str, words: Sequence[str]) -> list[str]:
    """Every key whose name or value holds any of `words` (ASCII): a SCAN of every key on
    every master, each read whole whatever its type (strings, hashes, sets, sorted sets,
    lists, streams); a key of any other type is reported too, since it could not be read."""
    single = aioredis.Redis.from_url(url)
    clustered = (await single.info("cluster")).get("cluster_enabled") == 1
    if clustered:
        await single.aclose()
    client = aioredis.RedisCluster.from_url(url) if clustered else single
    found = []
    try:
        async for raw in client.scan_iter(match="*", count=500):
            key = raw.decode("utf-8", "replace")
            typed = await client.type(raw)
            kind = typed.decode() if isinstance(typed, bytes) else str(typed)
            value: object
            if kind == "string":
                value = await client.get(raw)
            elif kind == "hash":
                value = await client.hgetall(raw)
            elif kind == "set":
                value = await client.smembers(raw)
            elif kind == "zset":
                value = await client.zrange(raw, 0, -1, withscores=True)
            elif kind == "list":
                value = await client.lrange(raw, 0, -1)
            elif kind == "stream":
                value = await client.xrange(raw, "-", "+")
            else:
                found.append(f"{key} (a {kind}, not read)")
                continue
            if any(word in key or word in repr(value) for word in words):
                found.append(key)
    finally:
        await client.aclose()
    return sorted(found)


async def test_the_scan_finds_what_it_is_asked_about(
    service: GameService, clock: Clock, redis_url: str
) -> None:
    """The search itself: before any forget it finds the person in each kind of key that
    holds them, by name or by value."""
    await play_out(service, [zebulon(), other("bob")], clock)
    assert (await service.command(zebulon(), "notify off")).ok
    await service.dms_refused("console", USER_ID)
    found = await traces(redis_url, TRACES)
    kinds = {key.split(":")[2] if key.startswith("fc:{") else key.split(":")[1] for key in found}
    expected = {"archive", "result", "chat", "dms", "rating", "board", "members", "history"}
    assert expected | {"opponents", "boards"} <= kinds, found


async def test_a_person_of_twelve_kept_games_is_forgotten_in_every_one(
    service: GameService, store: Store, clock: Clock, redis_url: str
) -> None:
    """More games than any listing shows at once (ten): the oldest are forgotten too."""
    played = [await play_out(service, [zebulon(), other("bob")], clock) for _ in range(12)]
    assert len(await store.history(f"console:{USER_ID}", None)) == 12
    assert await forget(service, zebulon()) == DONE
    assert await traces(redis_url, TRACES) == []
    for result in played:  # every game stays, with an anonymous seat
        text = await store.result(result.ref)
        assert text is not None
        seats = Result.model_validate_json(text).seats
        assert {(s.user_id, s.name) for s in seats} == {(None, ""), ("bob", "Bob")}
    assert len(await store.history("console:bob", None)) == 12
    stats = await service.command(other("bob"), f"stats <@{USER_ID}>")
    assert stats.public[0].text == "No rated games yet for this player."
    top = (await service.command(other("bob"), "top")).public[0].text
    assert "Bob" in top and NAME not in top


async def test_nothing_in_redis_names_the_person_after_the_forget(
    store: Store, clock: Clock, redis_url: str
) -> None:
    """Everything the bot keeps of a Telegram user, each in its own key or field: their
    private chat's settings (a key named by their id), turn notices off in a group, the marker
    that their private chat is closed, the hint the group got for it, a personal web link,
    a table they opened and ended, games with a person and with a computer player (results,
    archives, ratings, boards, histories, opponents). Asked and confirmed in their private
    chat, where the answer comes in its language."""
    service = GameService(
        store,
        settings(web_url="https://fc.example", web_secret="s" * 32),
        clock=clock,
        seeds=fixed_seeds(),
    )
    group, aborted, with_bot = "-100555", "-100777", "-100999"
    private = in_private(USER_ID, NAME)
    try:
        assert (await service.command(private, "lang fr")).ok
        assert (await service.command(private, "notify off")).ok
        assert (await service.command(in_group(USER_ID, NAME, group), "notify off")).ok
        assert (await service.command(in_group(USER_ID, NAME, aborted), "new")).ok
        assert (await service.command(in_group("111", "Bob", aborted), "join")).ok
        assert (await service.command(in_group(USER_ID, NAME, aborted), "abort")).ok
        await play_out(service, [in_group(USER_ID, NAME, with_bot)], clock, bots=1)
        me, bob = in_group(USER_ID, NAME, group), in_group("111", "Bob", group)
        assert (await service.command(me, "new")).ok
        assert (await service.command(bob, "join")).ok
        assert (await service.command(me, "start")).ok
        link = (await service.command(me, "web")).private[0]
        assert link.web or "#seat=" in link.text  # a personal link, for their seat
        assert (await service.dm_failed("telegram", group, USER_ID)).public  # the group told
        await service.dms_refused("telegram", USER_ID)
        assert (await service.command(me, "abort")).ok  # this table ends unplayed...
        await play_out(service, [me, bob], clock)  # ...and the next is played out
        before = await traces(redis_url, TRACES)
        assert f"fc:dms:telegram:{USER_ID}" in before, before
        assert f"fc:{{fc-ratings}}:history:telegram:{USER_ID}" in before, before
        assert any(key.endswith(f":chat:telegram:{USER_ID}") for key in before), before
        assert any(key.endswith(f":chat:telegram:{group}") for key in before), before

        asked = await service.command(private, "forget me")
        [[button]] = asked.private[0].buttons
        done = await service.press(private, button.data)
        assert [m.text for m in done.private] == ["C’est fait : vous êtes oublié."]
        assert await traces(redis_url, TRACES) == []
        top = (await service.command(bob, "top")).public[0].text
        assert "Bob" in top and "Zebulon" not in top
        final = (await service.command(bob, "board")).public[0].text
        assert final.startswith("Game over!") and "(anonymous)" in final and "Bob" in final
    finally:
        service.computer.close()


async def test_a_group_that_became_a_supergroup_forgets_the_person_on_its_leaderboard(
    service: GameService, clock: Clock, redis_url: str
) -> None:
    """Telegram gives a group a new id when it becomes a supergroup: the group's leaderboard
    follows it (`chat_moved`), with the person who played there only before the move; once
    forgotten, they are on neither the new group's board nor the old one's."""
    old, new = "-100555", "-1001234567890"
    await play_out(service, [in_group(USER_ID, NAME, old), in_group("111", "Bob", old)], clock)
    await service.chat_moved("telegram", old, new)
    cat = in_group("222", "Cat", new)
    await play_out(service, [in_group("111", "Bob", new), cat], clock)
    top = (await service.command(cat, "top")).public[0].text
    assert all(name in top for name in (NAME, "Bob", "Cat"))  # the board did follow
    assert await forget(service, in_group(USER_ID, NAME, new)) == DONE
    for where in (new, old):
        top = (await service.command(in_group("222", "Cat", where), "top")).public[0].text
        assert "Zebulon" not in top, where
    top = (await service.command(cat, "top")).public[0].text
    assert "Bob" in top and "Cat" in top
    history = (await service.command(cat, "history")).public[0].text
    assert "(anonymous)" in history and "Zebulon" not in history
    assert await traces(redis_url, TRACES) == []
