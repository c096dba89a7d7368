"""Durations read naturally in every language, in the status and at the turn limit."""

from __future__ import annotations

import pytest

from bot.durations import duration_text
from bot.service import GameService
from bot.store import Store
from tests.conftest import fixed_seeds
from tests.test_service import Clock, current_user, seated, settings, who


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
        (20, "en", "less than a minute"),
        (-5, "en", "less than a minute"),
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
def test_duration_text(seconds: int, lang: str, expected: str) -> None:
    assert duration_text(seconds, lang) == expected


async def test_status_says_how_long_the_turn_has_waited(store: Store) -> None:
    clock = Clock()
    service = GameService(store, settings(), clock=clock, seeds=fixed_seeds())
    await seated(service, ["ann", "bob"])
    clock.now += 45 * 60
    assert "(for 45 min)" in (await service.command(who("bob"), "status")).private[0].text
    clock.now += 2 * 86400 + 3 * 3600 - 45 * 60
    assert "(for 2 d 3 h)" in (await service.command(who("bob"), "status")).private[0].text
    await service.command(who("ann"), "lang fr")
    assert "(depuis 2 j 3 h)" in (await service.command(who("bob"), "status")).private[0].text


async def test_the_turn_limit_names_its_length(store: Store) -> None:
    clock = Clock()
    config = settings(reminder_after="20m", turn_limit="90m")
    service = GameService(store, config, clock=clock, seeds=fixed_seeds())
    table = await seated(service, ["ann", "bob"])
    clock.now += 90 * 60 + 1
    texts = [m.text for _, _, reply in await service.fire_due() for m in reply.public]
    assert [t for t in texts if "for more than 1 h 30 min" in t], texts
    assert current_user(table) in texts[-1]
