"""What `forget me`'s confirmation answers, word for word, when it cannot or need not be done
as asked: a press by someone else, a person with a game under way (both refused, nothing
forgotten), and a Redis that cannot write its files again (done, the person told their name
may stay in the files for a while, the operator told in the log). Real redis-servers."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator

import pytest
import redis

from bot.service import GameService
from bot.store import parse_ref
from tests.conftest import RedisServerFactory
from tests.test_forget_files import limited, service_on
from tests.test_results import everything_mentioning, finish, member

FILES_NOT_WRITTEN = (
    "Done: you are forgotten. The database could not rewrite its files just now, so they may "
    "still hold your name until they are next rewritten; the bot's operator has been told."
)


@pytest.fixture
async def service(redis_url: str) -> AsyncIterator[GameService]:
    async for made in service_on(redis_url):
        yield made


async def confirmation(service: GameService, user: str) -> str:
    asked = await service.command(member(user), "forget me")
    return asked.private[0].buttons[0][0].data


async def test_only_the_person_who_asked_can_confirm(service: GameService) -> None:
    await finish(service, ["ann", "bob"])
    data = await confirmation(service, "ann")
    refused = await service.press(member("bob"), data)
    assert not refused.ok
    assert [m.text for m in refused.private] == ["Only the person who asked can confirm this."]
    stats = await service.command(member("cat"), "stats <@ann>")
    assert "Ann" in stats.public[0].text  # nobody was forgotten
    assert (await service.press(member("ann"), data)).private[0].text == "Done: you are forgotten."


async def test_a_person_with_a_game_under_way_is_asked_to_finish_it_first(
    service: GameService,
) -> None:
    await finish(service, ["ann", "bob"])
    assert (await service.command(member("ann", channel="room2"), "new")).ok
    assert (await service.command(member("cat", channel="room2"), "join")).ok
    assert (await service.command(member("ann", channel="room2"), "start")).ok
    data = await confirmation(service, "ann")
    refused = await service.press(member("ann"), data)
    assert not refused.ok
    assert [m.text for m in refused.private] == [
        "Finish or leave your games under way first, then ask again."
    ]
    stats = await service.command(member("cat"), "stats <@ann>")
    assert "Ann" in stats.public[0].text  # nothing of hers was forgotten


async def test_files_redis_cannot_write_again_are_said_to_the_person_and_the_operator(
    redis_server_factory: RedisServerFactory, caplog: pytest.LogCaptureFixture
) -> None:
    """A Redis that keeps an AOF but lets the bot not rewrite it (an ACL): the person is
    forgotten in the data, and told their name may stay in the files until the next rewrite."""
    async for made in service_on(limited(redis_server_factory, "bgrewriteaof")):
        await finish(made, ["ann", "bob"])
        data = await confirmation(made, "ann")
        with caplog.at_level(logging.ERROR, logger="bot.service"):
            done = await made.press(member("ann"), data)
        assert done.ok
        assert [m.text for m in done.private] == [FILES_NOT_WRITTEN]
        stats = await made.command(member("cat"), "stats <@ann>")
        assert "Ann" not in stats.public[0].text
    said = [r.getMessage() for r in caplog.records if r.name.startswith("bot.service")]
    assert said == ["a person was forgotten, but Redis' files may still hold their name and id"]


async def test_a_lost_result_does_not_keep_the_person_in_their_other_games(
    service: GameService, redis_url: str
) -> None:
    """A result of theirs that is gone (deleted by hand, say) is passed over: the games after
    it in their history are still made anonymous, and nothing anywhere holds them."""
    user, name = "zelda7", "Zelda7"
    await finish(service, [user, "bob"])
    await finish(service, [user, "cat"], channel="room2")
    refs = await service.store.history(f"console:{user}", None)
    assert len(refs) == 2
    channel, game_id = parse_ref(refs[0])
    with redis.Redis.from_url(redis_url) as admin:
        assert admin.delete(channel.result_key(game_id)) == 1
    data = await confirmation(service, user)
    assert (await service.press(member(user), data)).ok
    assert await everything_mentioning(redis_url, [user, name]) == []


async def test_forget_is_asked_for_by_name_and_confirmed_with_a_danger_button(
    service: GameService,
) -> None:
    refused = await service.command(member("ann"), "forget")
    assert not refused.ok
    assert [m.text for m in refused.private] == [
        "Write /fc forget me to have your results forgotten."
    ]
    asked = await service.command(member("ann"), "forget me")
    [[button]] = asked.private[0].buttons
    assert (button.label, button.style) == ("Yes, forget me", "danger")
