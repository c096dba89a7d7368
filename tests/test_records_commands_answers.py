"""What the record commands answer in words: `/fc export` names its file after the game and
says how to step through it, after the game's line from `/fc history`; without exactly one id
it says how to ask, in the chat's language. Through the service against
a real redis-server."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.service import GameService
from bot.store import Store
from tests.conftest import fixed_seeds
from tests.test_results import finish, member, only_result
from tests.test_service import Clock, settings, who

ASK_EXPORT = {
    "en": "Write /fc export <id>, with an id from /fc history.",
    "fr": "Écrivez /fc export <id>, avec un identifiant donné par /fc history.",
}


@pytest.fixture
async def service(store: Store) -> AsyncIterator[GameService]:
    made = GameService(store, settings(), clock=Clock(), seeds=fixed_seeds())
    yield made
    made.computer.close()


async def test_an_export_is_named_after_the_game_and_says_how_to_step_through_it(
    service: GameService, store: Store
) -> None:
    await finish(service, ["ann", "bob"])
    result = await only_result(store)
    history = (await service.command(member("cat"), "history")).public[0].text
    [line] = [line for line in history.splitlines() if line.startswith(result.short)]
    [message] = (await service.command(member("cat"), f"export {result.short}")).public
    name = f"forbidden-city-{result.short}.json"
    assert message.image_name == name
    assert (
        message.text
        == f"{line}. Step through it with: python -m engine.forbidden_city replay {name}"
    )


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("words", ["export", "export 1a2b3c4d 5e6f7a8b"])
async def test_an_export_without_one_id_says_how_to_ask(
    service: GameService, store: Store, lang: str, words: str
) -> None:
    await finish(service, ["ann", "bob"])
    if lang != "en":
        assert (await service.command(member("ann"), f"lang {lang}")).ok
    reply = await service.command(member("cat"), words)
    assert not reply.ok and not reply.public
    assert [m.text for m in reply.private] == [ASK_EXPORT[lang]]


async def test_each_history_says_whose_games_it_lists_and_how_to_watch_one(
    service: GameService, store: Store
) -> None:
    await finish(service, ["ann", "bob"])
    result = await only_result(store)
    asked = {
        "The last games here:": (member("cat"), "history"),
        "Their last games:": (member("cat"), "history <@ann>"),
        "Your last games:": (who("ann", "dm-ann", private=True), "history"),
    }
    for heading, (actor, words) in asked.items():
        [message] = (await service.command(actor, words)).public
        first, game, last = message.text.splitlines()
        assert first == heading and game.startswith(f"{result.short} · ")
        assert last == "Watch one with /fc replay <id>; download it with /fc export <id>."


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "No finished game is kept yet."),
        ("fr", "Aucune partie terminée n’est encore conservée."),
    ],
)
async def test_a_history_without_games_says_so(
    service: GameService, store: Store, lang: str, words: str
) -> None:
    if lang != "en":
        assert (await service.command(member("ann"), f"lang {lang}")).ok
    [message] = (await service.command(member("cat"), "history")).public
    assert message.text == words


async def test_a_replay_is_titled_with_the_games_line_and_drawn_in_the_chats_language(
    service: GameService, store: Store
) -> None:
    await finish(service, ["ann", "bob"])
    result = await only_result(store)
    history = (await service.command(member("cat"), "history")).public[0].text
    [line] = [line for line in history.splitlines() if line.startswith(result.short)]
    [english] = (await service.command(member("cat"), f"replay {result.short}")).public
    assert english.text == f"Replay of {line}"
    assert (await service.command(member("ann"), "lang fr")).ok
    [french] = (await service.command(member("cat"), f"replay {result.short}")).public
    assert french.text.startswith(f"Rediffusion de {result.short} · ")
    assert french.image is not None and english.image is not None
    assert french.image != english.image  # the table's words, in French
