"""Translations: gettext catalogues (.po, read with Babel) for en, fr, it and de.

Message ids are the English texts with `{name}` placeholders. The .po files are compiled in
memory on first use, so the repository holds only text that translators can edit.
"""

from __future__ import annotations

import gettext
from functools import cache
from importlib import resources
from io import BytesIO
from typing import Final

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LANGUAGES: Final = ("en", "fr", "it", "de")
LANGUAGE_NAMES: Final = {"en": "English", "fr": "Français", "it": "Italiano", "de": "Deutsch"}


def normalize(locale: str | None) -> str | None:
    """'fr-FR', 'de_CH', 'it' -> a supported language code, or None."""
    if not locale:
        return None
    code = locale.replace("_", "-").split("-")[0].lower()
    return code if code in LANGUAGES else None


@cache
def translations(language: str) -> gettext.NullTranslations:
    if language not in LANGUAGES or language == "en":
        return gettext.NullTranslations()
    path = resources.files("bot").joinpath("locales", language, "LC_MESSAGES", "messages.po")
    with path.open("rb") as handle:
        catalog = read_po(handle, locale=language)
    compiled = BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def N_(message: str) -> str:
    """Marks a message for extraction where it is defined; it is translated where used."""
    return message


def tr(language: str, message: str, /, **values: object) -> str:
    """`message` in `language`, with its placeholders filled."""
    text = translations(language).gettext(message)
    return text.format(**values) if values else text


def trn(language: str, singular: str, plural: str, n: int, /, **values: object) -> str:
    text = translations(language).ngettext(singular, plural, n)
    return text.format(n=n, **values)
