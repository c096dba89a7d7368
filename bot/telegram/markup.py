"""A service `Message` as the Bot API takes it: its text in Telegram's HTML (mentions as
links, the rest escaped), its length as Telegram counts it, split to fit one message, and its
choices and buttons as an inline keyboard."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Final

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo

from bot.exchange.replies import Button, Message
from bot.text.lengths import utf16_length

from .parcels import TEXT_LIMIT

CHOICES_PER_ROW: Final = 4
CALLBACK_DATA_LIMIT: Final = 64
_STYLES: Final = {"primary": "primary", "success": "success", "danger": "danger"}


def escape(text: str) -> str:
    """Escape for Telegram's HTML outside attributes (quotes may stay as they are)."""
    return html.escape(text, quote=False)


def mention_html(user_id: str, name: str) -> str:
    return f'<a href="tg://user?id={html.escape(user_id)}">{escape(name)}</a>'


def to_html(message: Message) -> str:
    return message.format(mention_html, escape)


def visible_length(message: Message) -> int:
    """Length as Telegram counts it (UTF-16 units, after the markup is parsed)."""
    return utf16_length(plain_text(message))


def plain_text(message: Message) -> str:
    """The text with mentions as bare names: for places without markup (alerts)."""
    return message.format(lambda _uid, name: name, lambda text: text)


def keyboard(message: Message, private: bool = False) -> InlineKeyboardMarkup | None:
    """Choices (a menu on Discord) as rows of a few buttons, then the button rows, then the
    message's page: in a private chat, over https, it opens as the bot's Mini App (Telegram
    then hands the page its signed `initData`, which tells it who the player is); else as a
    link."""
    rows: list[list[InlineKeyboardButton]] = []
    choices = list(message.choices)
    for start in range(0, len(choices), CHOICES_PER_ROW):
        rows.append([_button(b) for b in choices[start : start + CHOICES_PER_ROW]])
    rows.extend([_button(b) for b in row] for row in message.buttons if row)
    if message.web:
        label = message.web_label or message.web
        if private and message.web.startswith("https://"):
            page = message.web.split("#", 1)[0]  # the page learns the player from Telegram
            rows.append([InlineKeyboardButton(label, web_app=WebAppInfo(page))])
        else:
            rows.append([InlineKeyboardButton(label, url=message.web)])
    return InlineKeyboardMarkup(rows) if rows else None


def _button(button: Button) -> InlineKeyboardButton:
    if not 1 <= len(button.data.encode()) <= CALLBACK_DATA_LIMIT:
        # Telegram would refuse the whole message; the service promised <= 64 bytes.
        raise ValueError(f"callback data must be 1-64 bytes: {button.data!r}")
    return InlineKeyboardButton(
        button.label or "·", callback_data=button.data, style=_STYLES.get(button.style)
    )


def split_text(message: Message, limit: int = TEXT_LIMIT) -> list[Message]:
    """Pieces of `message` (text only) that each fit in one Telegram message.

    Splits between lines, else between words, so a mention is never cut.
    """
    if visible_length(message) <= limit and len(to_html(message)) <= limit:
        return [Message(message.text, names=message.names)]
    pieces: list[Message] = []
    current = ""

    def fits(text: str) -> bool:
        candidate = Message(text, names=message.names)
        return visible_length(candidate) <= limit and len(to_html(candidate)) <= limit

    for unit in _units(message.text, fits):
        joined = unit if not current else current + unit
        if fits(joined):
            current = joined
        else:
            if current:
                pieces.append(Message(current, names=message.names))
            current = unit
    if current.strip():
        pieces.append(Message(current, names=message.names))
    return pieces


def _units(text: str, fits: Callable[[str], bool]) -> list[str]:
    """Lines (with their newline), and words of lines too long for one message."""
    units: list[str] = []
    for line in text.splitlines(keepends=True):
        if fits(line):
            units.append(line)
            continue
        for word in re.split(r"(?<= )", line):
            while not fits(word):  # a single "word" longer than a message: cut it
                cut = max(1, len(word) // 2)
                while cut > 1 and not fits(word[:cut]):
                    cut //= 2
                units.append(word[:cut])
                word = word[cut:]
            units.append(word)
    return units
