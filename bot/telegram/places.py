"""Where a table lives on Telegram: a chat, or one topic of a forum supergroup.

In a forum every message belongs to a topic, and each topic is a place of its own with its own
table. The service knows a place only by its id: the chat's id for a private chat, an ordinary
group and a forum's General topic (so tables stored before topics existed keep their keys),
and `<chat>_<topic>` for any other topic. That id fits the key parts of the store and the
channel part of a button's data (at most 24 characters after a minus sign). A reply thread in
an ordinary group is no topic (`is_topic_message` is false there): such a group keeps one table.
"""

from __future__ import annotations

from typing import Final

from telegram import Chat, Message

from bot.exchange.actor import PLACE_NAME
from bot.text.names import clean_name

__all__ = ["TOPIC", "chat_of", "link", "of_message", "place_id", "split", "title", "topic_of"]

TOPIC: Final = "_"  # between a forum's id and a topic's in a place id
_INTERNAL: Final = "-100"  # a supergroup's id is its internal id behind this prefix


def place_id(chat_id: int | str, topic: int | None = None) -> str:
    """The place of a chat, or of one of its topics (None: the chat itself, or General)."""
    return str(chat_id) if topic is None else f"{chat_id}{TOPIC}{topic}"


def split(place: int | str) -> tuple[int | str, int | None]:
    """The chat to send to and the topic within it (None: none) of a place id."""
    chat, sep, topic = str(place).partition(TOPIC)
    chat_ref: int | str = int(chat) if chat.lstrip("-").isdigit() else chat
    return chat_ref, int(topic) if sep and topic.isdigit() else None


def chat_of(place: int | str) -> str:
    """The chat a place is in: the group of a topic, the chat itself otherwise."""
    return str(split(place)[0])


def topic_of(message: Message) -> int | None:
    """The forum topic a message was sent in; None in General, a private chat or an ordinary
    group (whose reply threads are no topics)."""
    if message.is_topic_message and message.message_thread_id is not None:
        return message.message_thread_id
    return None


def of_message(message: Message) -> str:
    """The place a message was sent in."""
    return place_id(message.chat.id, topic_of(message))


def title(chat: Chat, message: Message | None) -> str:
    """A place's name as its members know it: the group's title, then the topic's name when
    the message tells it (a message in a topic that answers nothing else answers the topic's
    first message, which holds its name), else the topic's number."""
    group = chat.title or chat.full_name or str(chat.id)
    topic = topic_of(message) if message is not None else None
    if topic is None:
        return clean_name(group, str(chat.id), longest=PLACE_NAME)
    assert message is not None
    first = message.reply_to_message
    created = first.forum_topic_created if first is not None else None
    name = created.name if created is not None and first and first.message_id == topic else ""
    return clean_name(f"{group} › {name or f'#{topic}'}", str(chat.id), longest=PLACE_NAME)


def link(chat: Chat, message: Message | None) -> str:
    """A link that opens the place: the topic, or the message that opened the table in a
    chat without topics; "" where Telegram has none (an ordinary group without a public
    name, whose messages cannot be linked)."""
    topic = topic_of(message) if message is not None else None
    if chat.username:
        base = f"https://t.me/{chat.username}"
    elif str(chat.id).startswith(_INTERNAL):
        base = f"https://t.me/c/{str(chat.id)[len(_INTERNAL) :]}"
    else:
        return ""
    if topic is not None:
        return f"{base}/{topic}"
    if message is not None and not chat.username:
        return f"{base}/{message.message_id}"
    return base
