"""What every game's images share about text: the translation hook and plural counts.

The render functions take `tr`, a function from a message id to its translation (the bot's
`gettext` for the table's language; None means English). Ids are plain English with
`str.format` placeholders, filled after translation. Each is written once inside `N_(...)`,
which `pybabel extract` finds by default; each game's `texts` module lists its own in
`MESSAGES`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

Translate = Callable[[str], str]


def N_(message: str) -> str:
    """Mark `message` for extraction (gettext's usual name); translated where it is drawn."""
    return message


def english(message: str) -> str:
    return message


def translator(tr: Translate | None) -> Translate:
    return english if tr is None else tr


# NOTE: on a band across the preview of a move the player has not confirmed yet.
PREVIEW: Final = N_("Preview: not played yet")


def count(n: int, one: str, many: str, tr: Translate) -> str:
    """`one` for exactly 1, else `many` with {n}: plural forms without ngettext."""
    return tr(one) if n == 1 else tr(many).format(n=n)
