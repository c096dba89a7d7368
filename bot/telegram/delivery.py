"""Turning a service `Reply` into Bot API calls, and the only place that decides who sees what.

Public messages go to the group, private ones to the acting user's private chat (on Telegram
a user's private chat id is their user id) and directs to other users' private chats. A
private message that cannot be delivered is never posted in the group instead, since it may
hold a hand: the group only learns, with a mention, that the user must open the bot first.
"""

from __future__ import annotations

import html
import logging
import re
from collections.abc import Callable, Sequence
from typing import Final

from telegram import (
    Bot,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputFile,
    LinkPreviewOptions,
)
from telegram.constants import CallbackQueryLimit, MessageLimit, ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden, TelegramError

from bot.i18n import tr
from bot.replies import Button, Message, Reply, mention

from .contract import PLATFORM, GameServiceApi

log = logging.getLogger(__name__)

CHOICES_PER_ROW: Final = 4
TEXT_LIMIT: Final = int(MessageLimit.MAX_TEXT_LENGTH)  # 4096
CAPTION_LIMIT: Final = int(MessageLimit.CAPTION_LENGTH)  # 1024
ALERT_LIMIT: Final = int(CallbackQueryLimit.ANSWER_CALLBACK_QUERY_TEXT_LENGTH)  # 200
CALLBACK_DATA_LIMIT: Final = 64
_STYLES: Final = {"primary": "primary", "success": "success", "danger": "danger"}
_NO_PREVIEW: Final = LinkPreviewOptions(is_disabled=True)


def escape(text: str) -> str:
    """Escape for Telegram's HTML outside attributes (quotes may stay as they are)."""
    return html.escape(text, quote=False)


def mention_html(user_id: str, name: str) -> str:
    return f'<a href="tg://user?id={html.escape(user_id)}">{escape(name)}</a>'


def to_html(message: Message) -> str:
    return message.format(mention_html, escape)


def visible_length(message: Message) -> int:
    """Length as Telegram counts it (UTF-16 units, after the markup is parsed)."""
    plain = message.format(lambda _uid, name: name, lambda text: text)
    return len(plain.encode("utf-16-le")) // 2


def plain_text(message: Message) -> str:
    """The text with mentions as bare names: for places without markup (alerts)."""
    return message.format(lambda _uid, name: name, lambda text: text)


def keyboard(message: Message) -> InlineKeyboardMarkup | None:
    """Choices (a menu on Discord) as rows of a few buttons, then the button rows."""
    rows: list[list[InlineKeyboardButton]] = []
    choices = list(message.choices)
    for start in range(0, len(choices), CHOICES_PER_ROW):
        rows.append([_button(b) for b in choices[start : start + CHOICES_PER_ROW]])
    rows.extend([_button(b) for b in row] for row in message.buttons if row)
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


def undeliverable(error: TelegramError) -> bool:
    """The user never started the bot, blocked it, or is gone: retrying will not help."""
    if isinstance(error, Forbidden):
        return True
    return isinstance(error, BadRequest) and "chat not found" in error.message.lower()


def chat_ref(chat_id: int | str) -> int | str:
    """Numeric ids as ints (the rate limiter tells groups by a negative id)."""
    try:
        return int(chat_id)
    except ValueError:
        return chat_id


async def send(bot: Bot, chat_id: int | str, message: Message) -> None:
    """One `Message` as one or more Bot API calls; the keyboard goes on the last one."""
    chat_id = chat_ref(chat_id)
    markup = keyboard(message)
    caption = to_html(message)
    if message.image is not None:
        photo = InputFile(message.image, filename=message.image_name)
        short = visible_length(message) <= CAPTION_LIMIT and len(caption) <= CAPTION_LIMIT
        if short or not message.text.strip():
            await bot.send_photo(
                chat_id,
                photo,
                caption=caption or None,
                parse_mode=ParseMode.HTML,
                reply_markup=markup,
            )
            return
        await bot.send_photo(chat_id, photo)
    pieces = split_text(message) if message.text.strip() else []
    if not pieces:
        if markup is None:
            return
        # Buttons need a text to hang on.
        pieces = [Message(message.choices_placeholder or "…")]
    for index, piece in enumerate(pieces):
        await bot.send_message(
            chat_id,
            to_html(piece),
            parse_mode=ParseMode.HTML,
            reply_markup=markup if index == len(pieces) - 1 else None,
            link_preview_options=_NO_PREVIEW,
        )


def deep_link(bot: Bot) -> str:
    return f"https://t.me/{bot.username}?start=fc"


def open_chat_hint(bot: Bot, user_id: str, name: str, language: str) -> Message:
    text = tr(
        language,
        "{user}, I cannot write to you in private yet. Open {link}, press Start, then try again.",
        user=mention(user_id),
        link=deep_link(bot),
    )
    return Message(text, names={user_id: name})


def alert_text(reply: Reply) -> str:
    """A refused reply as a callback-query alert (plain text, at most 200 characters)."""
    text = "\n".join(plain_text(m) for m in reply.private if m.text).strip() or "✖"
    return text if len(text) <= ALERT_LIMIT else text[: ALERT_LIMIT - 1] + "…"


class Delivery:
    """Sends replies for one bot, reporting undeliverable turn notices to the service."""

    def __init__(self, bot: Bot, service: GameServiceApi, default_language: str) -> None:
        self.bot = bot
        self.service = service
        self.default_language = default_language

    async def reply(
        self,
        reply: Reply,
        *,
        channel_id: str,
        actor_id: str | None = None,
        actor_name: str = "",
        language: str | None = None,
    ) -> None:
        """Deliver everything in `reply`; `channel_id` is the group the public part goes to."""
        await self._reply(reply, channel_id, actor_id, actor_name, language, report_dm=True)

    async def _reply(
        self,
        reply: Reply,
        channel_id: str,
        actor_id: str | None,
        actor_name: str,
        language: str | None,
        *,
        report_dm: bool,
    ) -> None:
        channel = channel_id
        for message in reply.public:
            await self.public(channel, message)
        if reply.private:
            if actor_id is None:
                log.error("private messages with nobody to send them to; dropped")
            elif not await self._private(actor_id, reply.private) and channel != actor_id:
                hint = open_chat_hint(
                    self.bot, actor_id, actor_name, language or self.default_language
                )
                await self.public(channel, hint)
        for direct in reply.direct:
            if await self._private(direct.user_id, [direct.message]):
                continue
            if direct.turn_notice and report_dm:
                follow_up = await self.service.dm_failed(
                    PLATFORM, channel, direct.user_id, deep_link(self.bot)
                )
                # A hint's own undeliverable notices are not reported again: no loops.
                await self._reply(follow_up, channel, None, "", language, report_dm=False)

    async def public(self, channel_id: str, message: Message) -> None:
        """Post in a group; a group upgraded to a supergroup is followed once."""
        try:
            await send(self.bot, channel_id, message)
        except ChatMigrated as migrated:
            log.warning("chat %s moved to %s", channel_id, migrated.new_chat_id)
            try:
                await send(self.bot, migrated.new_chat_id, message)
            except TelegramError:
                log.exception("could not post in %s", migrated.new_chat_id)
        except TelegramError:
            log.exception("could not post in %s", channel_id)

    async def _private(self, user_id: str, messages: Sequence[Message]) -> bool:
        """Send to a user's private chat; False if the user cannot be reached there."""
        for message in messages:
            try:
                await send(self.bot, user_id, message)
            except TelegramError as error:
                if undeliverable(error):
                    log.info("user %s cannot be reached in private: %s", user_id, error)
                    return False
                log.exception("could not send to user %s", user_id)
        return True
