"""Turning a service `Reply` into Bot API calls, and the only place that decides who sees what.

Public messages go to the group, private ones to the acting user's private chat (on Telegram
a user's private chat id is their user id) and directs to other users' private chats. A
private message that cannot be delivered is never posted in the group instead, since it may
hold a hand: the group learns once per game, with a mention, that the user must open the bot
first, and a refused command is answered under it in the group. Everything goes out through
per-chat queues (`outbox.py`), so a chat under Telegram's flood limit holds up no other chat.
"""

from __future__ import annotations

import html
import logging
import re
from collections.abc import Awaitable, Callable, Hashable, Sequence
from functools import partial
from typing import Final

from telegram import (
    Bot,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputFile,
    LinkPreviewOptions,
    ReplyParameters,
    WebAppInfo,
)
from telegram.constants import CallbackQueryLimit, MessageLimit, ParseMode
from telegram.error import BadRequest, Forbidden, TelegramError

from bot.i18n import tr
from bot.metrics import watch_queue
from bot.replies import Button, Message, Reply, mention

from .contract import PLATFORM, GameServiceApi
from .outbox import ChatId, Outbox, Parcel, Step
from .places import chat_of, split

log = logging.getLogger(__name__)

CHOICES_PER_ROW: Final = 4
TEXT_LIMIT: Final = int(MessageLimit.MAX_TEXT_LENGTH)  # 4096
CAPTION_LIMIT: Final = int(MessageLimit.CAPTION_LENGTH)  # 1024
ALERT_LIMIT: Final = int(CallbackQueryLimit.ANSWER_CALLBACK_QUERY_TEXT_LENGTH)  # 200
CALLBACK_DATA_LIMIT: Final = 64
_STYLES: Final = {"primary": "primary", "success": "success", "danger": "danger"}
_NO_PREVIEW: Final = LinkPreviewOptions(is_disabled=True)
PHOTO_SUFFIXES: Final = frozenset({"png", "jpg", "jpeg", "webp"})


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


# Telegram's words for a chat or a forum topic that is gone, or closed to the bot.
_GONE: Final = ("chat not found", "message thread not found", "topic_closed", "topic_deleted")


def undeliverable(error: TelegramError) -> bool:
    """The user never started the bot, blocked it, or is gone, or the topic is closed or
    deleted: retrying will not help."""
    if isinstance(error, Forbidden):
        return True
    return isinstance(error, BadRequest) and any(w in error.message.lower() for w in _GONE)


def file_kind(name: str) -> str:
    """How Telegram is sent a file called `name`: "photo", "animation" or "document"."""
    suffix = name.rpartition(".")[2].lower()
    if suffix in PHOTO_SUFFIXES:
        return "photo"
    return "animation" if suffix == "gif" else "document"


def plan(
    bot: Bot, message: Message, reply_to: int | None = None, private: bool = False
) -> list[Step]:
    """One `Message` as the Bot API calls that send it (to a private chat if `private`); the
    keyboard goes on the last one, and the first answers the message `reply_to` (a
    command), if given."""
    markup = keyboard(message, private)
    caption = to_html(message)
    answer = ReplyParameters(reply_to, allow_sending_without_reply=True) if reply_to else None
    steps: list[Step] = []
    if message.image is not None:
        short = visible_length(message) <= CAPTION_LIMIT and len(caption) <= CAPTION_LIMIT
        if short or not message.text.strip():
            return [_file(bot, message, answer, caption or None, markup)]
        steps.append(_file(bot, message, answer, None, None))
        answer = None
    pieces = split_text(message) if message.text.strip() else []
    if not pieces:
        if markup is None:
            return steps
        # Buttons need a text to hang on.
        pieces = [Message(message.choices_placeholder or "…")]
    for index, piece in enumerate(pieces):
        last = index == len(pieces) - 1
        steps.append(_text(bot, to_html(piece), answer, markup if last else None))
        answer = None
    return steps


def _file(
    bot: Bot,
    message: Message,
    answer: ReplyParameters | None,
    caption: str | None,
    markup: InlineKeyboardMarkup | None,
) -> Step:
    """The message's file, by its name: a picture as a photo, a GIF as an animation (a
    replay), anything else as a document (an exported record)."""
    image = message.image
    assert image is not None
    kind = file_kind(message.image_name)
    mode = ParseMode.HTML if caption else None

    senders: dict[str, Callable[..., Awaitable[object]]] = {
        "photo": bot.send_photo,
        "animation": bot.send_animation,
    }
    send = senders.get(kind, bot.send_document)

    async def call(place: ChatId) -> object:
        chat, topic = split(place)
        return await send(
            chat,
            InputFile(image, filename=message.image_name),
            message_thread_id=topic,
            caption=caption,
            reply_markup=markup,
            parse_mode=mode,
            reply_parameters=answer,
        )

    return call


def _text(
    bot: Bot, text: str, answer: ReplyParameters | None, markup: InlineKeyboardMarkup | None
) -> Step:
    async def call(place: ChatId) -> object:
        chat, topic = split(place)
        return await bot.send_message(
            chat,
            text,
            message_thread_id=topic,
            parse_mode=ParseMode.HTML,
            reply_markup=markup,
            link_preview_options=_NO_PREVIEW,
            reply_parameters=answer,
        )

    return call


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
    """Sends replies for one bot through its per-chat `Outbox`, and decides what the group
    learns when a private message cannot be delivered."""

    def __init__(self, bot: Bot, service: GameServiceApi, default_language: str) -> None:
        self.bot = bot
        self.service = service
        self.default_language = default_language
        self.outbox = Outbox(undeliverable)
        watch_queue(PLATFORM, self.outbox.pending)

    async def reply(
        self,
        reply: Reply,
        *,
        channel_id: str,
        actor_id: str | None = None,
        actor_name: str = "",
        language: str | None = None,
        command_id: int | None = None,
    ) -> None:
        """Deliver everything in `reply`; `channel_id` is the group the public part goes to,
        `command_id` the command typed there that the reply answers."""
        await self._reply(
            reply, channel_id, actor_id, actor_name, language, command_id, report_dm=True
        )

    async def _reply(
        self,
        reply: Reply,
        channel: str,
        actor_id: str | None,
        actor_name: str,
        language: str | None,
        command_id: int | None,
        *,
        report_dm: bool,
    ) -> None:
        for message in reply.public:
            await self.public(channel, message, reply_to=command_id)
        if reply.private:
            if actor_id is None:
                log.error("private messages with nobody to send them to; dropped")
            else:
                unreachable = partial(
                    self._actor_unreachable,
                    reply,
                    channel,
                    actor_id,
                    actor_name,
                    language,
                    command_id,
                    report_dm,
                )
                await self.private(
                    actor_id,
                    reply.private,
                    # In the private chat itself there is no group to tell.
                    on_unreachable=unreachable if channel != actor_id else None,
                )
        for direct in reply.direct:
            notice = direct.turn_notice
            await self.private(
                direct.user_id,
                [direct.message],
                # A newer turn notice of the same game replaces one still waiting.
                key=(channel, "turn") if notice else None,
                on_unreachable=partial(self._dm_failed, channel, direct.user_id, language)
                if notice and report_dm
                else None,
            )

    async def _actor_unreachable(
        self,
        reply: Reply,
        channel: str,
        actor_id: str,
        actor_name: str,
        language: str | None,
        command_id: int | None,
        report_dm: bool,
    ) -> None:
        """The answer to what a user did could not reach them privately.

        A refused command is answered in the group, under the command (a refusal holds no
        secret); a command with nothing public to show gets the hint there, since its author
        waits for an answer; anything else tells the group once per game (`dm_failed`).
        """
        if command_id is not None and not reply.ok:
            for message in reply.private:
                refusal = Message(message.text, names=message.names)
                await self.public(channel, refusal, reply_to=command_id)
        elif command_id is not None and not reply.public:
            hint = open_chat_hint(self.bot, actor_id, actor_name, language or self.default_language)
            await self.public(channel, hint, reply_to=command_id)
        elif report_dm:
            await self._dm_failed(channel, actor_id, language)

    async def _dm_failed(self, channel: str, user_id: str, language: str | None) -> None:
        follow_up = await self.service.dm_failed(PLATFORM, channel, user_id, deep_link(self.bot))
        # A hint's own undeliverable messages are not reported again: no loops.
        await self._reply(follow_up, channel, None, "", language, None, report_dm=False)

    async def public(self, channel_id: str, message: Message, reply_to: int | None = None) -> None:
        """Post in a group or a forum topic (a group upgraded to a supergroup is followed
        once); a topic found closed or deleted closes its table (`place_closed`)."""
        steps = [plan(self.bot, message, reply_to)]
        gone = partial(self._place_gone, channel_id) if split(channel_id)[1] else None
        await self.outbox.send(Parcel(channel_id, steps, on_unreachable=gone))

    async def _place_gone(self, place: str) -> None:
        """A topic refused a message as closed or deleted: its table closes, and the group's
        General topic is told why the game stopped."""
        closed = await self.service.place_closed(PLATFORM, place)
        for message in closed.public:
            await self.public(closed.channel_id or chat_of(place), message)

    async def private(
        self,
        user_id: str,
        messages: Sequence[Message],
        *,
        key: Hashable | None = None,
        on_unreachable: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        """Send to a user's private chat; if they cannot be reached there, the rest of
        `messages` is not tried and `on_unreachable` runs."""
        steps = [plan(self.bot, message, private=True) for message in messages]
        await self.outbox.send(Parcel(user_id, steps, key=key, on_unreachable=on_unreachable))
