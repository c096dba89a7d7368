"""Every message the bot or the images show exists in French, Italian and German."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from bot.text.i18n import LANGUAGES, normalize, tr

ROOT = Path(__file__).parent.parent
KEYWORDS = {"tr": (2,), "trn": (2, 3), "N_": None}


def extracted() -> set[str]:
    """Every message id; a plural's singular stands for both forms (its catalogue entry)."""
    found: set[str] = set()
    for folder in ("bot", "render"):
        for _file, _line, message, _comments, _context in extract_from_dir(
            ROOT / folder, method_map=[("**.py", "python")], keywords=KEYWORDS
        ):
            found.add(message if isinstance(message, str) else message[0])
    return found


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != "en"])
def test_catalogue_is_complete_and_keeps_placeholders(language: str) -> None:
    path = ROOT / "bot" / "locales" / language / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as handle:
        catalog = read_po(handle, locale=language)
    messages = extracted()
    assert len(messages) > 50
    missing = []
    for message in sorted(messages):
        entry = catalog.get(message)
        if entry is None or not entry.string or entry.fuzzy:  # a fuzzy one is never shown
            missing.append(message)
            continue
        forms = [entry.string] if isinstance(entry.string, str) else list(entry.string)
        if not all(forms):
            missing.append(message)
            continue
        translated = forms[0]
        assert all(fields(form) == fields(message) for form in forms), (language, forms)
        assert not re.search(r"\{u:", translated) or "{u:" in message
    assert missing == []


def test_translation_is_used_and_filled() -> None:
    assert tr("fr", "Next: {who}.", who="Ann") != "Next: Ann."
    assert "Ann" in tr("de", "Next: {who}.", who="Ann")
    assert tr("en", "Next: {who}.", who="Ann") == "Next: Ann."


@pytest.mark.parametrize(
    ("locale", "code"),
    [
        ("fr", "fr"),
        ("de-CH", "de"),
        ("it_IT", "it"),
        ("en-GB", "en"),
        ("pt-BR", None),
        (None, None),
    ],
)
def test_locales(locale: str | None, code: str | None) -> None:
    assert normalize(locale) == code
