"""`/fc` in the user's Discord language: names and descriptions of the subcommands, their
options and choices, as the bot syncs them to Discord (read from the fake REST API)."""

from __future__ import annotations

import unicodedata
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from bot.discord import FcClient
from bot.text.i18n import normalize, tr
from tests.fake_discord import FakeDiscord, dispatch, fake_discord, logged_in
from tests.test_discord_delivery import ALICE, Scripted

LOCALES = ("fr", "it", "de")
TITLES = ("Forbidden City", "Die Verbotene Stadt")  # game titles some editions keep
Json = dict[str, Any]


@pytest.fixture
async def synced() -> AsyncIterator[tuple[FakeDiscord, FcClient, Scripted]]:
    service = Scripted()
    async with fake_discord() as fake, logged_in(FcClient(service, deadline_seconds=None)) as bot:
        yield fake, bot, service


def discord_name(text: str) -> bool:
    """Discord's rule for command and option names: ^[-_\\p{L}\\p{N}...]{1,32}$, lowercase."""
    return (
        0 < len(text) <= 32
        and text == text.lower()
        and all(c in "-_" or unicodedata.category(c)[0] in "LN" for c in text)
    )


def named(group: Json, where: str = "/fc") -> Iterator[tuple[str, list[Json]]]:
    """Each level whose names must differ: the subcommands (and a subcommand group's), then
    each one's options."""
    yield where, group["options"]
    for sub in group["options"]:
        if sub["type"] == 2:  # a subcommand group
            yield from named(sub, f"{where} {sub['name']}")
        else:
            yield f"{where} {sub['name']}", sub.get("options", [])


async def test_names_and_descriptions_are_synced_in_french_italian_and_german(
    synced: tuple[FakeDiscord, FcClient, Scripted],
) -> None:
    fake = synced[0]
    [group] = fake.commands
    assert group["name"] == "fc" and not group.get("name_localizations")
    assert set(group["description_localizations"]) >= set(LOCALES)
    for where, level in named(group):
        assert level or where != "/fc"
        for item in level:
            names, texts = item.get("name_localizations"), item.get("description_localizations")
            assert names and set(names) >= set(LOCALES), (where, item["name"])
            assert texts and set(texts) >= set(LOCALES), (where, item["name"])
            for locale in LOCALES:
                assert discord_name(names[locale]), (where, locale, names[locale])
                assert 0 < len(texts[locale]) <= 100
                assert texts[locale] != item["description"], (where, locale, texts[locale])
        for locale in LOCALES:
            localized = [item["name_localizations"][locale] for item in level]
            assert len(set(localized)) == len(localized), (where, locale, localized)


@pytest.mark.parametrize(
    ("path", "locale", "name", "description_word"),
    [
        (("play",), "fr", "jouer", "coup"),
        (("play", "spot"), "it", "posizione", "numero"),
        (("help",), "de", "hilfe", "Bot"),
    ],
)
async def test_a_few_translations_read_naturally(
    synced: tuple[FakeDiscord, FcClient, Scripted],
    path: tuple[str, ...],
    locale: str,
    name: str,
    description_word: str,
) -> None:
    item: Json = synced[0].commands[0]
    for step in path:
        item = next(o for o in item["options"] if o["name"] == step)
    assert item["name_localizations"][locale] == name
    assert description_word in item["description_localizations"][locale]


async def test_choices_are_translated(synced: tuple[FakeDiscord, FcClient, Scripted]) -> None:
    subcommands = {o["name"]: o for o in synced[0].commands[0]["options"]}
    for sub in ("new", "notify", "vote"):
        for option in subcommands[sub]["options"]:
            for choice in option.get("choices", []):
                # A title the same in every language (the tile game's), or a word the same in
                # French and German ("normal"), needs no translation there.
                wanted = {
                    locale
                    for locale in LOCALES
                    if tr(normalize(locale) or "en", choice["name"]) != choice["name"]
                }
                same = choice["name"].startswith(TITLES) or choice["name"] == "normal"
                assert wanted == {"fr", "it", "de"} or same, choice
                assert set(choice.get("name_localizations") or {}) >= wanted, (sub, choice)
    side = next(o for o in subcommands["new"]["options"] if o["name"] == "side")
    beginner = side["choices"][0]
    assert beginner["value"] == "beginner"
    assert beginner["name_localizations"]["fr"] == "débutant"


async def test_a_french_user_still_sends_the_english_names(
    synced: tuple[FakeDiscord, FcClient, Scripted],
) -> None:
    """Discord sends the default names whatever the user's language: the commands still work."""
    fake, bot, service = synced
    await dispatch(bot, fake.command_payload(ALICE, "notify", setting="off"))
    await dispatch(bot, fake.command_payload(ALICE, "vote", choice="end"))
    assert [c[2] for c in service.calls] == ["notify off", "vote end"]
