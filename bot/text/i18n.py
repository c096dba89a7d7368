"""Translations: gettext catalogues (.po, read with Babel) for en, fr, it and de.

Message ids are the English texts with `{name}` placeholders. The .po files are compiled in
memory on first use, so the repository holds only text that translators can edit.
"""

from __future__ import annotations

import gettext
import re
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


# Italian writes "ad" for "a" before a word that starts with a: "tocca ad Ann". Names are only
# known when the message is filled, so the translation says "a {who}" and this picks the form.
# (A mention becomes a name only in the adapter: translations avoid "a" before one.)
_ITALIAN_A = re.compile(r"\b([Aa]) \{(\w+)\}")


def _italian_ad(text: str, values: dict[str, object]) -> str:
    def form(match: re.Match[str]) -> str:
        value = str(values.get(match[2], ""))
        ad = value[:1].lower() in ("a", "à", "á", "â")
        return f"{match[1]}{'d' if ad else ''} {{{match[2]}}}"

    return _ITALIAN_A.sub(form, text)


def tr(language: str, message: str, /, **values: object) -> str:
    """`message` in `language`, with its placeholders filled."""
    text = translations(language).gettext(message)
    if language == "it" and values:
        text = _italian_ad(text, values)
    return text.format(**values) if values else text


def trn(language: str, singular: str, plural: str, n: int, /, **values: object) -> str:
    text = translations(language).ngettext(singular, plural, n)
    if language == "it":
        text = _italian_ad(text, {"n": n, **values})
    return text.format(n=n, **values)
