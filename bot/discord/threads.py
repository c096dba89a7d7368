"""Tables in new threads: `/fc new thread:true` and the *New table in a thread* button.

Several tables in one busy channel each get a thread, so the chatter of one game does not bury
another. The thread is the adapter's to open (the service knows places only by their ids): a
public thread named after the game and its creator, the table opened in it as if `/fc new` had
been typed there, and one line in the channel with its link.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import replace
from typing import Any, Final, Protocol

import discord

from bot.exchange.actor import Actor
from bot.exchange.buttons import NEW_THREAD
from bot.exchange.refused import Refused
from bot.exchange.replies import Message, Reply, mention
from bot.games import DEFAULT, MODULES, GameInfo, module
from bot.service.lobby import opening
from bot.text.i18n import normalize, tr
from bot.text.names import clean_name

from .delivery import Delivery, Service, channel_mention, failure

__all__ = ["THREAD_NAME", "game_of_button", "open_in_thread"]

log = logging.getLogger(__name__)
THREAD_NAME: Final = 100  # the longest name Discord gives a thread
ARCHIVE_AFTER: Final = 10080  # minutes without a message before Discord archives it: a week


class Opener(Protocol):
    """The client's parts a thread needs."""

    http: Any
    service: Service
    delivery: Delivery


def game_of_button(data: str) -> GameInfo | None:
    """The game of a *New table in a thread* button (`fc:nt:<channel>:0:<game>`), None for any
    other button."""
    opening = NEW_THREAD.decode(data)
    if opening is None:
        return None
    games = list(MODULES)
    index = opening.value
    return module(games[index] if 0 <= index < len(games) else DEFAULT)


def _refused_options(text: str, lang: str) -> str | None:
    """What `/fc new` would refuse in `text` (`new [game] [options] [bots:N...]`), or None.
    Checked before a thread opens: deleting a thread takes Manage Threads, which the bot is
    not given, so a refused table must not leave an empty one behind."""
    try:
        opening(text.split()[1:], lang)
    except Refused as refused:
        return str(refused)
    return None


def _refused(actor: Actor, text: str, lang: str) -> str | None:
    """Why no thread opens for `text`: not from a server channel, or options refused."""
    if actor.private or actor.parent:
        return tr(lang, "Open a table in a thread from a server channel.")
    return _refused_options(text, lang)


async def open_in_thread(
    client: Opener,
    interaction: discord.Interaction[Any],
    actor: Actor,
    text: str,
    game: GameInfo,
) -> None:
    """Open a thread where `actor` is and the table `text` (`new ...`) in it; answer the
    deferred `interaction`. Refused in a DM or a thread (threads open from a channel), and
    options the game refuses open no thread; a table the service still refuses (an outage, a
    lost race) takes its new thread along, if the bot may delete it."""
    lang = normalize(actor.locale) or "en"
    refusal = _refused(actor, text, lang)
    if refusal is not None:
        await client.delivery.to_interaction(interaction, Reply.error(refusal), actor.channel_id)
        return
    name = clean_name(f"{game.title} · {actor.name}", longest=THREAD_NAME)
    try:
        made = await client.http.start_thread_without_message(
            actor.channel_id, name=name, auto_archive_duration=ARCHIVE_AFTER, type=11
        )
    except discord.HTTPException:
        log.warning("could not open a thread in %s", actor.channel_id, exc_info=True)
        refusal = tr(
            lang,
            "I cannot open a thread here. Give me the Create Public Threads and Send "
            "Messages in Threads permissions.",
        )
        await client.delivery.to_interaction(interaction, Reply.error(refusal), actor.channel_id)
        return
    thread = str(made["id"])
    inside = replace(
        actor,
        channel_id=thread,
        place=f"#{name}",
        link=f"https://discord.com/channels/{interaction.guild_id}/{thread}",
        parent=actor.channel_id,
        threads=False,  # a thread holds no threads
    )
    try:
        reply = await client.service.command(inside, text)
    except Exception:
        log.exception("the service failed")
        reply = failure()
    if reply.ok:
        line = tr(
            lang,
            "{who} opened a table in {thread}.",
            who=mention(actor.user_id),
            thread=channel_mention(thread),
        )
        await client.delivery.to_channel(
            actor.channel_id, Message(line, names={actor.user_id: actor.name})
        )
    else:  # nothing to play in: the thread goes
        with contextlib.suppress(discord.HTTPException):
            await client.http.delete_channel(thread)
    await client.delivery.to_interaction(interaction, reply, reply.channel_id or thread)
