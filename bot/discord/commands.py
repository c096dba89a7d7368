"""The command each `/fc` subcommand asks of the service, built from its typed options.

The service reads one command line on every platform (`service.command(actor, text)`), so a
slash command's typed values are spelled out here, once, for each subcommand that takes any:
no handler formats text of its own. The values arrive already checked by Discord against what
the subcommand declares (a `Range` such as the rotation's 0-3, a list of choices), so nothing
here checks them again; what the words mean is for the service to say.
"""

from __future__ import annotations

import re

__all__ = [
    "COMMA",
    "bot_add",
    "bot_remove",
    "lang",
    "notify",
    "play",
    "vote",
    "web",
    "words",
]

# A comma-separated value typed with spaces (`2, -1`, `N, E`) is one argument, not several.
COMMA = re.compile(r"\s*,\s*")


def words(*parts: str | int | None) -> str:
    """`parts` as one command line: a value left out (`None`) is not spelled; 0 is."""
    return " ".join(str(part) for part in parts if part is not None)


def play(spot: str, rotation: int | None = None) -> str:
    """`/fc play spot:2, -1 rotation:3` -> `play 2,-1 3`; no rotation: `play 2,-1`."""
    return words("play", COMMA.sub(",", spot.strip()), rotation)


def web(renew: bool = False) -> str:
    """`/fc web` -> `web`; `renew:true` -> `web new`."""
    return words("web", "new" if renew else None)


def lang(language: str) -> str:
    """`/fc lang language:de` -> `lang de`."""
    return words("lang", language)


def notify(setting: str) -> str:
    """`/fc notify setting:off` -> `notify off`."""
    return words("notify", setting)


def vote(choice: str) -> str:
    """`/fc vote choice:skip` -> `vote skip`."""
    return words("vote", choice)


def bot_add(level: str = "normal") -> str:
    """`/fc bot add level:hard` -> `bot add hard`."""
    return words("bot", "add", level)


def bot_remove(number: int | None = None) -> str:
    """`/fc bot remove number:2` -> `bot remove 2`; no number (the last): `bot remove`."""
    return words("bot", "remove", number)
