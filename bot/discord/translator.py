"""Command and option descriptions in the user's Discord language, from the bot's catalogues.

Only descriptions are translated: command and option names stay English so that `/fc play`
is the same everywhere, and so the help texts (which name the commands) stay right.
The msgids are the English descriptions in `client.py`; until a catalogue has them, Discord
shows the English text.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import LANGUAGES, normalize, tr

__all__ = ["FcTranslator"]

_DESCRIPTIONS = {
    app_commands.TranslationContextLocation.command_description,
    app_commands.TranslationContextLocation.group_description,
    app_commands.TranslationContextLocation.parameter_description,
}


class FcTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if context.location not in _DESCRIPTIONS:
            return None
        language = normalize(locale.value)
        if language is None or language == "en" or language not in LANGUAGES:
            return None
        text = tr(language, string.message)
        return text[:100] if text != string.message else None
