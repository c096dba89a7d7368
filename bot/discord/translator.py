"""`/fc` in the user's Discord language, from the bot's catalogues: the subcommand, group
(`/fc bot`) and option names, their descriptions and the choices.

The msgids are the English texts marked `N_` in `client.py`. The group keeps its name `fc`
everywhere, and Discord sends the English names back whatever the user's language, so the
handlers never see a translated name. A translated name Discord would refuse (uppercase,
spaces, too long) is left out, so Discord shows the English one rather than failing the sync.
"""

from __future__ import annotations

import unicodedata

import discord
from discord import app_commands

from bot.text.i18n import LANGUAGES, normalize, tr
from bot.text.lengths import cut

__all__ = ["FcTranslator"]

_Where = app_commands.TranslationContextLocation
_NAMES = {_Where.command_name, _Where.group_name, _Where.parameter_name}
_TEXTS = {
    _Where.command_description,
    _Where.group_description,
    _Where.parameter_description,
    _Where.choice_name,
}
MAX_NAME = 32
MAX_TEXT = 100


def _valid_name(text: str) -> bool:
    """Discord's rule for command and option names: 1-32 lowercase letters, digits, - or _."""
    return (
        0 < len(text) <= MAX_NAME
        and text == text.lower()
        and all(c in "-_" or unicodedata.category(c)[0] in "LN" for c in text)
    )


class FcTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if context.location not in _NAMES | _TEXTS:
            return None
        language = normalize(locale.value)
        if language is None or language == "en" or language not in LANGUAGES:
            return None
        text = tr(language, string.message)
        if text == string.message:
            return None
        if context.location in _NAMES:
            return text if _valid_name(text) else None
        return cut(text, MAX_TEXT)
