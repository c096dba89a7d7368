"""Turning a service `Reply` into Bot API calls, and the only place that decides who sees what.

Public messages go to the group, private ones to the acting user's private chat (on Telegram
a user's private chat id is their user id) and directs to other users' private chats. A
private message that cannot be delivered is never posted in the group instead, since it may
hold a hand: the group learns once per game, with a mention, that the user must open the bot
first, and a refused command is answered under it in the group. Everything goes out through
per-chat queues (`outbox.py`), so a chat under Telegram's flood limit holds up no other chat;
what waits for a busy chat is coalesced there into fewer messages, never dropped.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Hashable, Sequence
from dataclasses import replace
from functools import partial
from typing import Final

from telegram import (
    Bot,
    InlineKeyboardMarkup,
    InputFile,
    LinkPreviewOptions,
    ReplyParameters,
)
from telegram.constants import CallbackQueryLimit, ParseMode
from telegram.error import BadRequest, Forbidden, TelegramError

from bot.exchange.replies import Message, Reply, mention
from bot.runtime.metrics import watch_queue
from bot.text.i18n import tr
from bot.text.lengths import cut, utf16_length

from .contract import PLATFORM, GameServiceApi
from .markup import keyboard, plain_text, split_text, to_html, visible_length
from .outbox import Outbox
from .parcels import CAPTION_LIMIT, ChatId, Parcel, Picture, Show, Step, Words, Write
from .places import chat_of, split

log = logging.getLogger(__name__)

ALERT_LIMIT: Final = int(CallbackQueryLimit.ANSWER_CALLBACK_QUERY_TEXT_LENGTH)  # 200
_NO_PREVIEW: Final = LinkPreviewOptions(is_disabled=True)
PHOTO_SUFFIXES: Final = frozenset({"png", "jpg", "jpeg", "webp"})
TABLE_PICTURE: Final = "table.png"  # the name the service gives the table as everyone sees it


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
    bot: Bot,
    message: Message,
    reply_to: int | None = None,
    private: bool = False,
    edits: int | None = None,
) -> list[Step]:
    """One `Message` as the Bot API calls that send it (to a private chat if `private`); the
    keyboard goes on the last one, and the first answers the message `reply_to` (a
    command), if given. A text without buttons is `Words`, and the table's picture in a
    group without buttons a `Picture`, which the outbox may coalesce with their neighbours
    when the chat is busy. A menu shown again (`Message.in_place`) edits the text message
    `edits` it was pressed on, if it is one message without a picture."""
    steps = _plan(bot, message, reply_to, private)
    if edits is not None and message.in_place and message.image is None and len(steps) == 1:
        markup = keyboard(message, private)
        return [_edit(bot, edits, to_html(message), markup, steps[0])]
    return steps


def _edit(
    bot: Bot, message_id: int, html: str, markup: InlineKeyboardMarkup | None, anew: Step
) -> Step:
    """Edit the message `message_id` into `html` and `markup`; one Telegram will not edit
    (gone, too old) is sent `anew`. A 429 is the outbox's to wait out, as for a send."""

    async def call(place: ChatId) -> object:
        chat, _topic = split(place)
        try:
            return await bot.edit_message_text(
                html,
                chat_id=chat,
                message_id=message_id,
                parse_mode=ParseMode.HTML,
                reply_markup=markup,
                link_preview_options=_NO_PREVIEW,
            )
        except BadRequest as error:
            if "not modified" in error.message.lower():  # it shows this already
                return True
            log.info("a menu in chat %s could not be edited (%s): sent anew", chat, error)
            return await anew(place)

    return call


def _plan(bot: Bot, message: Message, reply_to: int | None, private: bool) -> list[Step]:
    markup = keyboard(message, private)
    caption = to_html(message)
    answer = ReplyParameters(reply_to, allow_sending_without_reply=True) if reply_to else None
    steps: list[Step] = []
    if message.image is not None:
        table = not private and markup is None and _table_picture(message)
        short = visible_length(message) <= CAPTION_LIMIT and len(caption) <= CAPTION_LIMIT
        if short or not message.text.strip():
            if table:
                words = _words(bot, message, caption, answer) if caption.strip() else None
                return [Picture(message.image, words, _file_sender(bot, message, answer, None))]
            return [_file(bot, message, answer, caption or None, markup)]
        show = _file_sender(bot, message, answer, None)
        steps.append(Picture(message.image, None, show) if table else _file_step(show, None))
        answer = None
    pieces = split_text(message) if message.text.strip() else []
    if not pieces:
        if markup is None:
            return steps
        # Buttons need a text to hang on.
        pieces = [Message(message.choices_placeholder or "…")]
    for index, piece in enumerate(pieces):
        buttons = markup if index == len(pieces) - 1 else None
        html = to_html(piece)
        if buttons is None:
            steps.append(_words(bot, piece, html, answer))
        else:
            steps.append(_text(bot, html, answer, buttons))
        answer = None
    return steps


def _table_picture(message: Message) -> bool:
    """The picture of the table as everyone sees it (not a final table, a replay, a record,
    ratings): a newer one says all an older one did but its words."""
    return message.image_name == TABLE_PICTURE and file_kind(message.image_name) == "photo"


def _words(bot: Bot, message: Message, html: str, answer: ReplyParameters | None) -> Words:
    return Words(html, visible_length(message), _text_sender(bot, answer, None))


def _file(
    bot: Bot,
    message: Message,
    answer: ReplyParameters | None,
    caption: str | None,
    markup: InlineKeyboardMarkup | None,
) -> Step:
    return _file_step(_file_sender(bot, message, answer, markup), caption)


def _file_step(show: Show, caption: str | None) -> Step:
    async def call(place: ChatId) -> object:
        return await show(place, caption)

    return call


def _file_sender(
    bot: Bot,
    message: Message,
    answer: ReplyParameters | None,
    markup: InlineKeyboardMarkup | None,
) -> Show:
    """The message's file with any caption, by its name: a picture as a photo, a GIF as an
    animation (a replay), anything else as a document (an exported record)."""
    image = message.image
    assert image is not None
    kind = file_kind(message.image_name)
    senders: dict[str, Callable[..., Awaitable[object]]] = {
        "photo": bot.send_photo,
        "animation": bot.send_animation,
    }
    send = senders.get(kind, bot.send_document)

    async def call(place: ChatId, caption: str | None) -> object:
        chat, topic = split(place)
        return await send(
            chat,
            InputFile(image, filename=message.image_name),
            message_thread_id=topic,
            caption=caption,
            reply_markup=markup,
            parse_mode=ParseMode.HTML if caption else None,
            reply_parameters=answer,
        )

    return call


def _text(
    bot: Bot, text: str, answer: ReplyParameters | None, markup: InlineKeyboardMarkup | None
) -> Step:
    write = _text_sender(bot, answer, markup)

    async def call(place: ChatId) -> object:
        return await write(place, text)

    return call


def _text_sender(
    bot: Bot, answer: ReplyParameters | None, markup: InlineKeyboardMarkup | None
) -> Write:
    async def call(place: ChatId, text: str) -> object:
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
    """A refused reply as a callback-query alert (plain text, at most 200 UTF-16 units)."""
    text = "\n".join(plain_text(m) for m in reply.private if m.text).strip() or "✖"
    return cut(text, ALERT_LIMIT, utf16_length)


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
        pressed_id: int | None = None,
    ) -> None:
        """Deliver everything in `reply`; `channel_id` is the group the public part goes to,
        `command_id` the command typed there that the reply answers, `pressed_id` the text
        message there whose button made it (a menu shown again edits it)."""
        if pressed_id is not None and reply.public and reply.public[0].in_place:
            await self.public(channel_id, reply.public[0], edits=pressed_id)
            reply = replace(reply, public=reply.public[1:])
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

    async def public(
        self,
        channel_id: str,
        message: Message,
        reply_to: int | None = None,
        edits: int | None = None,
    ) -> None:
        """Post in a group or a forum topic (a group upgraded to a supergroup is followed
        once), or edit its message `edits` (`plan`); a topic found closed or deleted closes
        its table (`place_closed`)."""
        steps = [plan(self.bot, message, reply_to, edits=edits)]
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
