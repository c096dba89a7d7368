"""Wording the translators got wrong once: Italian "ad" before a name in A, the German winner,
and the game's title, which stays "Forbidden City" in every language."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot.exchange.replies import mention
from bot.service import GameService
from bot.store import Store
from bot.text.i18n import LANGUAGES, tr
from tests.conftest import fixed_seeds
from tests.test_service import current_user, seated, settings, who

ROOT = Path(__file__).parent.parent


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Ann", "Tocca ad Ann, non a te."),
        ("anna", "Tocca ad anna, non a te."),
        ("Àlex", "Tocca ad Àlex, non a te."),
        ("Bob", "Tocca a Bob, non a te."),
        ("Elena", "Tocca a Elena, non a te."),
    ],
)
def test_italian_says_ad_before_a_name_in_a(name: str, expected: str) -> None:
    assert tr("it", "It is {who}'s turn, not yours.", who=name) == expected


async def test_italian_status_and_refusal_say_ad_ann(store: Store) -> None:
    service = GameService(store, settings(), seeds=fixed_seeds())
    table = await seated(service, ["ann", "ada"])  # whoever moves, the name starts with A
    await service.command(who("ann"), "lang it")
    mover = current_user(table)
    waiting = "ada" if mover == "ann" else "ann"
    status = (await service.command(who(waiting), "status")).private[0].text
    assert f"Tocca ad {mover.capitalize()} (turno appena iniziato, " in status
    refused = (await service.command(who(waiting), "play 1 0")).private[0].text
    assert refused == f"Tocca ad {mover.capitalize()}, non a te."


def test_italian_never_puts_a_bare_a_before_a_mention() -> None:
    # A mention becomes a name only in the adapter, too late to choose "a" or "ad".
    text = tr("it", "Next: {who}.", who=mention("42"))
    assert f" a {mention('42')}" not in text and mention("42") in text


def test_german_names_the_winner_sieger() -> None:
    assert tr("de", "winner") == "Sieger"
    text = tr("de", "Game over! {scores}. Winner: {winners}.", scores="Ann 40", winners="Ann")
    assert "Sieger: Ann" in text


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_title_is_forbidden_city_in_every_language(language: str) -> None:
    # The published title in every edition; "Die Verbotene Stadt" and "Cité interdite" are
    # the titles of Randolph & Rüttinger's game, which this bot plays too.
    assert tr(language, "Forbidden City") == "Forbidden City"
    if language == "en":
        return
    path = ROOT / "bot" / "locales" / language / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as handle:
        catalog = read_po(handle, locale=language)
    for message in catalog:
        if message.id and "Forbidden City" in str(message.id):
            assert "Forbidden City" in str(message.string), message.id
        text = str(message.string).lower()
        if message.id and "Verbotene Stadt" in str(message.id):
            # The other game keeps the title of one of its own editions.
            titles = ("Die Verbotene Stadt", "La Cité interdite")
            assert any(title in str(message.string) for title in titles), message.id
            continue
        assert "verbotene stadt" not in text and "cité interdite" not in text, message.id
        assert "città proibita" not in text, message.id


def test_one_coin_and_one_tile_are_singular_in_every_language() -> None:
    from bot.games.forbidden_city.texts import coins_text, left_text

    assert (coins_text("en", 1), coins_text("en", 0), coins_text("en", 12)) == (
        "1 coin",
        "0 coins",
        "12 coins",
    )
    assert (left_text("en", 1), left_text("en", 2)) == ("1 tile left", "2 tiles left")
    assert (coins_text("fr", 1), left_text("fr", 1)) == ("1 pièce", "1 tuile restante")
    assert (coins_text("it", 1), left_text("it", 3)) == ("1 moneta", "3 tessere rimaste")
    assert (coins_text("de", 1), left_text("de", 1)) == ("1 Münze", "noch 1 Plättchen")
