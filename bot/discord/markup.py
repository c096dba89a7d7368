"""A service `Message` as discord.py sends it: its text in Discord's Markdown (the service's
mentions as mentions, everything else escaped, mention syntax in a name shown as text), in
pieces of at most 2,000 characters, with its menu and buttons as a persistent view, and the
mentions Discord may notify: the service's own, nobody else."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from typing import Any

import discord

from bot.exchange.replies import MENTION, Button, Message
from bot.text.lengths import cut, fitting

from .components import LABEL_LIMIT, FcButton, FcSelect

# Discord's limits, in characters (code points, `bot.text.lengths`): a message's content, a menu's
# placeholder, one of its options' labels.
MAX_CONTENT = 2000
PLACEHOLDER_LIMIT = 150
OPTION_LIMIT = 100
_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def chunks(text: str, size: int = MAX_CONTENT) -> list[str]:
    """Split text into Discord-sized pieces, at line breaks where possible."""
    if len(text) <= size:
        return [text]
    out: list[str] = []
    rest = text
    while len(rest) > size:
        end = rest.rfind("\n", 0, size)
        if end <= 0:
            end = fitting(rest, size) or size  # between characters, an emoji's parts together
        out.append(rest[:end])
        rest = rest[end:].lstrip("\n")
    if rest:
        out.append(rest)
    return out


def render_view(message: Message) -> discord.ui.View | None:
    """The menu, then the button rows, as a persistent view (dynamic items, no timeout): read
    from the top, the choices come first and what goes beside them (other pages, Pass)
    after, as on Telegram."""
    if not message.buttons and not message.choices and not message.web:
        return None
    view = discord.ui.View(timeout=None)
    first = 0
    if message.choices:
        options = [_option(choice) for choice in message.choices[:25]]
        placeholder = cut(message.choices_placeholder, PLACEHOLDER_LIMIT) or None
        view.add_item(FcSelect(options, placeholder=placeholder, row=0))
        first = 1
    rows = [row[:5] for row in message.buttons if row][: 5 - first - bool(message.web)]
    for number, row in enumerate(rows, start=first):
        for button in row:
            view.add_item(
                FcButton(button.data, label=button.label, style=_STYLES[button.style], row=number)
            )
    if message.web:  # the reader's page: a link button under the choices
        label = cut(message.web_label or "🌐", LABEL_LIMIT)
        page = discord.ui.Button[Any](label=label, url=message.web, row=first + len(rows))
        view.add_item(page)
    return view


def _option(choice: Button) -> discord.SelectOption:
    label = cut(choice.label, OPTION_LIMIT) or cut(choice.data, OPTION_LIMIT)
    return discord.SelectOption(label=label, value=choice.data)


def _mention(user_id: str, _name: str) -> str:
    return f"<@{user_id}>"


# Mention syntax in the text around the service's mentions (a display name "<@123>",
# "@everyone", "<@&role>", "<#channel>"): a backslash before it shows it as typed. The
# adapter's own link to a channel is framed by control characters, as the service's
# mentions are (`bot.exchange.replies`), which no name keeps: `channel_mention`.
_MENTION_SYNTAX = re.compile(r"<[@#]|@(?:everyone|here)")
_CHANNEL = re.compile("\x02c:(\\d{1,24})\x03")


def channel_mention(channel_id: int | str) -> str:
    """A link to a channel or thread in a message's text, posted as Discord's `<#id>`."""
    return f"\x02c:{channel_id}\x03"


def _escape(text: str) -> str:
    """Markdown escaped, and mention syntax shown as text: only the service's mentions are."""
    return _MENTION_SYNTAX.sub(lambda m: "\\" + m[0], discord.utils.escape_markdown(text))


def allowed_mentions(message: Message) -> discord.AllowedMentions:
    """Discord notifies the users the message mentions and nobody else: never @everyone, a
    role, or a user whose mention a name spells out, whatever the content holds."""
    ids = dict.fromkeys(uid for uid in MENTION.findall(message.text) if uid.isdigit())
    users = [discord.Object(int(uid)) for uid in ids]
    return discord.AllowedMentions(everyone=False, roles=False, users=users, replied_user=False)


def pieces(message: Message) -> Iterator[dict[str, Any]]:
    """The send() keyword arguments for a message; the image and components go on the last."""
    text = _CHANNEL.sub(r"<#\1>", message.format(mention_of=_mention, escape=_escape))
    parts = chunks(text) if text else [""]
    mentions = allowed_mentions(message)
    for index, part in enumerate(parts):
        kwargs: dict[str, Any] = {"allowed_mentions": mentions}
        if part:
            kwargs["content"] = part
        if index == len(parts) - 1:
            if message.image is not None:
                image = io.BytesIO(message.image)
                kwargs["file"] = discord.File(image, filename=message.image_name)
            view = render_view(message)
            if view is not None:
                kwargs["view"] = view
        if len(kwargs) > 1:
            yield kwargs
