"""Durations read naturally in every language, in the status and at the turn limit."""

from __future__ import annotations

import pytest

from bot.service import GameService
from bot.store import Store
from bot.text.durations import duration_text, turn_text
from tests.conftest import fixed_seeds
from tests.test_service import Clock, current_user, seated, settings, who
from tests.vs_driver import Chat
from tests.vs_table import open_stadt

HOUR, DAY = 3600, 86400
TO_PLAY = {"en": "{who} to play", "fr": "Au tour de {who}", "de": "{who} ist dran"}


@pytest.mark.parametrize(
    ("seconds", "lang", "expected"),
    [
        (45 * 60, "en", "45 min"),
        (45 * 60 + 59, "en", "45 min"),
        (2 * 86400 + 3 * 3600, "en", "2 d 3 h"),
        (2 * 86400 + 3 * 3600 + 59 * 60, "en", "2 d 3 h"),
        (86400, "en", "1 d"),
        (5 * 3600 + 20 * 60, "en", "5 h 20 min"),
        (3 * 3600, "en", "3 h"),
        (20, "en", "20 s"),  # "for more than 20 s", not "for more than less than a minute"
        (0.4, "en", "1 s"),
        (-5, "en", "less than a minute"),
        (30, "de", "30 Sek."),
        (45 * 60, "fr", "45 min"),
        (2 * 86400 + 3 * 3600, "fr", "2 j 3 h"),
        (5 * 3600 + 20 * 60, "fr", "5 h 20 min"),
        (45 * 60, "it", "45 min"),
        (2 * 86400 + 3 * 3600, "it", "2 g 3 h"),
        (45 * 60, "de", "45 Min."),
        (2 * 86400 + 3 * 3600, "de", "2 Tg. 3 Std."),
        (5 * 3600 + 20 * 60, "de", "5 Std. 20 Min."),
    ],
)
def test_duration_text(seconds: float, lang: str, expected: str) -> None:
    assert duration_text(seconds, lang) == expected


@pytest.mark.parametrize(
    ("waited", "left", "lang", "expected"),
    [
        (30, None, "en", "turn started just now"),  # a computer player's: no limit runs
        (3600, None, "it", "turno iniziato 1 h fa"),
        (3600, 59, "it", "turno iniziato 1 h fa, tempo rimasto: 1 min"),
        (3600, 0, "de", "Zug begann vor 1 Std., Zeit abgelaufen"),
    ],
)
def test_turn_text(waited: int, left: int | None, lang: str, expected: str) -> None:
    assert turn_text(waited, left, lang) == expected


@pytest.mark.parametrize(
    ("lang", "waited", "expected"),
    [
        ("en", 20, "(turn started just now, 3 d left)."),
        ("en", 45 * 60, "(turn started 45 min ago, 2 d 23 h left)."),
        ("en", 5 * HOUR + 20 * 60, "(turn started 5 h 20 min ago, 2 d 18 h left)."),
        ("en", 2 * DAY + 3 * HOUR, "(turn started 2 d 3 h ago, 21 h left)."),
        ("en", 3 * DAY - 30, "(turn started 2 d 23 h ago, 1 min left)."),
        ("en", 3 * DAY + HOUR, "(turn started 3 d 1 h ago, time limit passed)."),
        ("fr", 20, "(tout juste commencé, reste 3 j)."),
        ("fr", 45 * 60, "(depuis 45 min, reste 2 j 23 h)."),
        ("fr", 2 * DAY + 3 * HOUR, "(depuis 2 j 3 h, reste 21 h)."),
        ("fr", 3 * DAY + HOUR, "(depuis 3 j 1 h, délai dépassé)."),
        ("de", 20, "(Zug gerade begonnen, noch 3 Tg.)."),
        ("de", 5 * HOUR + 20 * 60, "(Zug begann vor 5 Std. 20 Min., noch 2 Tg. 18 Std.)."),
    ],
)
async def test_status_says_when_the_turn_started_and_how_long_it_has_left(
    store: Store, lang: str, waited: int, expected: str
) -> None:
    clock = Clock()
    service = GameService(store, settings(), clock=clock, seeds=fixed_seeds())  # limit: 72 h
    table = await seated(service, ["ann", "bob"])
    await service.command(who("ann"), f"lang {lang}")
    clock.now += waited
    text = (await service.command(who("bob"), "status")).private[0].text
    to_play = TO_PLAY[lang].format(who=current_user(table).capitalize())
    assert text.endswith(f". {to_play} {expected}"), text


async def test_status_after_the_limit_was_announced_says_it_passed(store: Store) -> None:
    clock = Clock()
    config = settings(reminder_after="20m", turn_limit="90m")
    service = GameService(store, config, clock=clock, seeds=fixed_seeds())
    await seated(service, ["ann", "bob"])
    clock.now += 90 * 60 + 1
    assert await service.fire_due()  # the limit: the players may vote now
    clock.now += 10 * 60
    text = (await service.command(who("bob"), "status")).private[0].text
    assert text.endswith("(turn started 1 h 40 min ago, time limit passed)."), text


async def test_the_turn_limit_names_its_length(store: Store) -> None:
    clock = Clock()
    config = settings(reminder_after="20m", turn_limit="90m")
    service = GameService(store, config, clock=clock, seeds=fixed_seeds())
    table = await seated(service, ["ann", "bob"])
    clock.now += 90 * 60 + 1
    texts = [m.text for _, _, reply in await service.fire_due() for m in reply.public]
    assert [t for t in texts if "for more than 1 h 30 min" in t], texts
    assert current_user(table) in texts[-1]


async def test_the_status_of_die_verbotene_stadt_says_it_too(store: Store) -> None:
    clock = Clock()
    service = GameService(store, settings(), clock=clock, seeds=fixed_seeds())
    await open_stadt(service, Chat(), ["ann", "bob", "cid"])
    clock.now += 2 * DAY + 3 * HOUR
    text = (await service.command(who("bob"), "status")).private[0].text
    assert "Waiting for the secret choices of " in text
    assert text.endswith(" (turn started 2 d 3 h ago, 21 h left)"), text
