"""What the record commands answer in words: each history's heading, lines (the day a game
ended, in the chat's language and in UTC) and closing line; an export's file name and how to
step through it; a replay's title and its table words in the chat's language; and, without
exactly one good id, why not, in the chat's language. Through the service against a real
redis-server."""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator

import pytest

from bot.records.finished import ResultSeat
from bot.service import GameService
from bot.service import results as kept
from bot.store import Store
from engine.forbidden_city.replay import steps
from tests.conftest import fixed_seeds
from tests.test_results import finish, member, only_result
from tests.test_results_details import keep_result, made_result, person
from tests.test_service import Clock, settings, who

ASK = {
    ("export", "en"): "Write /fc export <id>, with an id from /fc history.",
    ("export", "fr"): "Écrivez /fc export <id>, avec un identifiant donné par /fc history.",
    ("replay", "en"): "Write /fc replay <id>, with an id from /fc history.",
    ("replay", "fr"): "Écrivez /fc replay <id>, avec un identifiant donné par /fc history.",
}
NOT_AN_ID = {
    "en": "A game id is 8 letters and digits, as /fc history shows (e.g. 1a2b3c4d).",
    "fr": "Un identifiant de partie compte 8 lettres et chiffres, comme les montre "
    "/fc history (par ex. 1a2b3c4d).",
}
NO_SUCH_GAME = {
    "en": "No finished game has the id 0badc0de.",
    "fr": "Aucune partie terminée n’a l’identifiant 0badc0de.",
}


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def service(store: Store, clock: Clock) -> AsyncIterator[GameService]:
    made = GameService(store, settings(), clock=clock, seeds=fixed_seeds())
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
@pytest.mark.parametrize("command", ["export", "replay"])
async def test_an_export_or_a_replay_without_one_good_id_says_why(
    service: GameService, store: Store, lang: str, command: str
) -> None:
    await finish(service, ["ann", "bob"])
    if lang != "en":
        assert (await service.command(member("ann"), f"lang {lang}")).ok
    answers = {
        command: ASK[command, lang],
        f"{command} 1a2b3c4d 5e6f7a8b": ASK[command, lang],
        f"{command} 1a2b3c4": NOT_AN_ID[lang],
        f"{command} 1a2b3c4g": NOT_AN_ID[lang],
        f"{command} 0BADC0DE": NO_SUCH_GAME[lang],
    }
    for words, answer in answers.items():
        reply = await service.command(member("cat"), words)
        assert not reply.ok and not reply.public, words
        assert [m.text for m in reply.private] == [answer], words


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


@pytest.mark.parametrize(("lang", "day"), [("en", "Nov 14, 2023"), ("fr", "14 nov. 2023")])
async def test_a_history_line_gives_the_day_the_game_ended_in_the_chats_language(
    service: GameService, store: Store, clock: Clock, lang: str, day: str
) -> None:
    clock.now = 1_700_000_000.0  # 14 November 2023, 22:13 UTC
    await finish(service, ["ann", "bob"])
    if lang != "en":
        assert (await service.command(member("ann"), f"lang {lang}")).ok
    history = (await service.command(member("cat"), "history")).public[0].text
    [line] = [line for line in history.splitlines() if " · " in line]
    assert line.split(" · ")[1] == day


async def test_a_history_line_gives_the_day_in_utc_whatever_the_machines_zone(
    service: GameService, store: Store, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock.now = 1_700_000_000.0  # 14 November 2023, 22:13 UTC: already the 15th at UTC+14
    await finish(service, ["ann", "bob"])
    monkeypatch.setenv("TZ", "Pacific/Kiritimati")
    time.tzset()
    try:
        history = (await service.command(member("cat"), "history")).public[0].text
    finally:
        monkeypatch.undo()
        time.tzset()
    [line] = [line for line in history.splitlines() if " · " in line]
    assert line.split(" · ")[1] == "Nov 14, 2023"


async def test_a_history_line_says_which_game_and_whether_a_vote_ended_it(
    service: GameService, store: Store
) -> None:
    played = made_result(1, [person("ann", 1, 9), person("bob", 2, 1)])
    voted = made_result(2, [person("ann", 1, 9), person("bob", 2, 1)])
    voted = voted.model_copy(update={"voted_end": True})
    for result in (played, voted):
        await keep_result(store, result)
    history = (await service.command(member("cat"), "history")).public[0].text
    titles = {line[:8]: line.split(" · ")[2] for line in history.splitlines() if " · " in line}
    assert titles == {
        played.short: "Forbidden City",
        voted.short: "Forbidden City (ended by a vote)",
    }


async def test_an_export_is_a_file_a_person_can_read(service: GameService, store: Store) -> None:
    await finish(service, ["ann", "bob"])
    result = await only_result(store)
    [message] = (await service.command(member("cat"), f"export {result.short}")).public
    assert message.image is not None
    text = message.image.decode("utf-8")
    # The engine's record, with who sat where, as the table named them.
    assert json.loads(text) == {**result.record, "names": {s.seat: s.name for s in result.seats}}
    assert sorted(json.loads(text)["names"].values()) == ["Ann", "Bob"]
    *_, last = steps(text)  # the engine steps through the export to its end
    assert last.number == len(result.record["moves"])  # type: ignore[arg-type]
    lines = text.splitlines()
    moves = result.record["moves"]
    assert isinstance(moves, list)
    assert len(lines) > len(moves)  # pretty-printed: a move a line, as an editor shows it
    assert f'"{moves[-1]}"' in [line.strip() for line in lines]


async def test_an_export_names_a_computer_by_its_level_and_a_forgotten_player_anonymous(
    service: GameService, store: Store
) -> None:
    computer = ResultSeat(seat="C", name="Computer (easy) 2", level="easy", score=5, place=2)
    forgotten = ResultSeat(seat="F", name="", score=1, place=3)  # after forget me
    result = made_result(3, [person("ann", 1, 9), computer, forgotten])
    await keep_result(store, result)
    await kept.apply(service.ctx, result)
    reply = await service.command(member("ann"), f"export {result.short}")
    [message] = reply.public or reply.private
    assert message.image is not None, message.text
    names = json.loads(message.image)["names"]
    assert names == {"NNA": "Ann", "C": "Computer (easy)", "F": "(anonymous)"}
