"""Users named in a `/fc` command, as the `<@id>` the service reads on every platform.

A user without a username is mentioned by picking them from the member list: Telegram then
sends a `text_mention` entity with the user, and the text shows only their name. A command
sent as a reply to someone's message is about that someone (`/fc stats` under Ann's message
is Ann's). A plain `@username` stays as typed: the Bot API cannot tell whose it is.
"""

from __future__ import annotations

from typing import Final

from telegram import Message, MessageEntity

__all__ = ["ABOUT_A_USER", "about_replied_user", "with_mentions"]

# The commands that take a user, who may be given by replying to one of their messages.
ABOUT_A_USER: Final = ("stats", "history")


def with_mentions(message: Message) -> str:
    """The message's text with each `text_mention` replaced by `<@id>`.

    Entity offsets count UTF-16 code units, so the replacing is done on UTF-16 text."""
    text = message.text or ""
    mentions = [
        entity
        for entity in message.entities
        if entity.type == MessageEntity.TEXT_MENTION and entity.user is not None
    ]
    if not mentions:
        return text
    units = text.encode("utf-16-le")
    for entity in sorted(mentions, key=lambda e: e.offset, reverse=True):
        assert entity.user is not None
        start, end = 2 * entity.offset, 2 * (entity.offset + entity.length)
        units = units[:start] + f"<@{entity.user.id}>".encode("utf-16-le") + units[end:]
    return units.decode("utf-16-le")


def about_replied_user(text: str, message: Message) -> str:
    """`stats` or `history` with no user, sent as a reply to a person's message: about them.

    A reply to a bot (the board, say), to a channel's or an anonymous admin's post, or the
    implicit reply of every message in a forum topic to the topic's first message, names
    nobody."""
    words = text.split()
    if len(words) != 1 or words[0].lower() not in ABOUT_A_USER:
        return text
    replied = message.reply_to_message
    if replied is None or replied.forum_topic_created is not None:
        return text
    author = replied.from_user
    if author is None or author.is_bot or replied.sender_chat is not None:
        return text
    return f"{text} <@{author.id}>"
