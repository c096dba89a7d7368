"""Users named in a console line, as the `<@id>` the service reads on every platform.

A console user is the word that starts their lines (lower case), so `@ann` or `@Ann` names the
user `ann`, the way the console shows a mention. Only a user of this console is named so: one
who has typed a line, or whom the bot has addressed (a seated player's prompt, a mention),
since it started. A name nobody has typed is most likely a slip, and is answered here rather
than taken for a user with nothing to show.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from ..exchange.replies import MENTION, Reply
from ..text.i18n import tr
from ..text.names import without_controls

__all__ = ["name_of", "unknown_answer", "user_of", "users_in", "with_mentions"]

_AT_NAME = re.compile(r"(?<!\S)@(\S+)")
_ESCAPED = re.compile("%(25|3A)")


def user_of(name: str) -> str:
    """The user id a name typed at the start of a line, or after an `@`, stands for: lower
    case, its `:` written `%3A` (the store's key separator, which no id may hold:
    `javascript:alert(1)` crashed the console) and so its `%` written `%25`, so that every
    name keeps an id of its own. "" for a name of control characters only."""
    return without_controls(name).lower().replace("%", "%25").replace(":", "%3A")


def name_of(user_id: str) -> str:
    """The name a console user id is typed as (the inverse of `user_of`), for the lines the
    console shows: `[DM a:b]` is answered by typing `a:b ...`."""
    return _ESCAPED.sub(lambda match: "%" if match[1] == "25" else ":", user_id)


def with_mentions(text: str, known: Collection[str]) -> tuple[str, list[str]]:
    """The text with each `@name` of a known user replaced by `<@name>`, and the names of
    the `@name`s no user of this console has."""
    unknown: list[str] = []

    def replaced(match: re.Match[str]) -> str:
        user = user_of(match[1])
        if not user:  # `@` and control characters: no name, left as typed
            return match[0]
        if user in known:
            return f"<@{user}>"
        unknown.append(user)
        return match[0]

    return _AT_NAME.sub(replaced, text), unknown


def unknown_answer(name: str, lang: str) -> str:
    """What a line naming nobody of this console gets: how users are named and mentioned
    here, since the console has no member list to pick them from."""
    return tr(
        lang,
        "Nobody called {name} has typed here yet: a user is named by the first word of their "
        "lines ('{name} help'), and mentioned as @{name}.",
        name=name,
    )


def users_in(reply: Reply) -> set[str]:
    """The users a reply addresses: those it writes to in private and those it mentions."""
    messages = [*reply.public, *reply.private, *(d.message for d in reply.direct)]
    found = {d.user_id for d in reply.direct}
    found.update(m[1] for message in messages for m in MENTION.finditer(message.text))
    return found
