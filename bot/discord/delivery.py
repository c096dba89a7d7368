"""Turn a service `Reply` into Discord API calls, the same way for commands, buttons and deadlines.

Routing is the whole point of this module: `public` goes to the game's channel, `private` only
to the acting user as ephemeral followups, `direct` to other users by DM. Nothing hidden may ever
reach a channel message, so every send here is explicit about where it goes.

Nothing waits here to be coalesced: each handler sends its own messages in turn, and discord.py
holds a send back while its channel's rate limit is used up. A channel that stays busy (other
processes, or Discord's shared limits, using it up) still makes discord.py give up after five
429s; such a post is sent again after the wait Discord asks for, as long as it takes, and never
dropped.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Protocol

import discord

from bot.exchange.actor import Actor
from bot.exchange.replies import Direct, Message, Reply
from bot.runtime.in_order import InOrder
from bot.runtime.metrics import watch_queue
from bot.text.i18n import normalize, tr

from .components import MENU_ID
from .markup import MAX_CONTENT, channel_mention, chunks, pieces, render_view

__all__ = [
    "MAX_CONTENT",
    "MENU_ID",
    "PLATFORM",
    "Delivery",
    "Service",
    "channel_mention",
    "chunks",
    "failure",
    "render_view",
]

log = logging.getLogger(__name__)

PLATFORM = "discord"
# Discord error code for "Cannot send messages to this user" (DMs closed or bot blocked).
CANNOT_DM = 50007
UNKNOWN_CHANNEL = 10003  # a deleted channel or thread
TOO_MANY = 429  # a rate limit used up: try again after `Retry-After` seconds
BUSY_WAIT = 1.0  # seconds to wait on a 429 that does not say how long
ARCHIVED = 50083  # a thread Discord archived after a while without messages


class Service(Protocol):
    """The part of `bot.service.GameService` the adapter uses (a Protocol so tests may wrap it)."""

    async def command(self, actor: Actor, text: str) -> Reply: ...

    async def press(self, actor: Actor, data: str) -> Reply: ...

    async def complete(self, actor: Actor, text: str) -> list[tuple[str, str]]: ...

    async def dm_failed(
        self, platform: str, channel_id: str, user_id: str, link: str | None = None
    ) -> Reply: ...

    async def dms_closed(self, platform: str, user_id: str) -> bool: ...

    async def dms_refused(self, platform: str, user_id: str) -> None: ...

    async def fire_due(self, platform: str | None = None) -> list[tuple[str, str, Reply]]: ...

    async def place_closed(self, platform: str, channel_id: str) -> Reply: ...


class _Locked(Exception):
    """A thread a moderator locked: only moderators may open it again."""


class _Gone(Exception):
    """A post found its place deleted or locked, and its table is closed now: whatever else
    the reply holds (a new tile, the next player's turn notice) is for a table nobody can play
    at. `closed` is what closing it says, empty if it was closed already (or over)."""

    def __init__(self, closed: Reply) -> None:
        super().__init__("the place is gone")
        self.closed = closed


class Delivery:
    """Sends replies for one client; DM failures of turn notices go back to the service."""

    def __init__(self, client: discord.Client, service: Service) -> None:
        self.client = client
        self.service = service
        self.sending = 0  # messages handed to discord.py and not sent yet (rate limits)
        self.deadlines = InOrder()  # what deadline polls found, still being posted
        watch_queue(PLATFORM, lambda: self.sending)

    async def _send(self, channel: discord.abc.Messageable, message: Message, index: int) -> None:
        """Send piece `index` of `message`, again after each 429 discord.py gave up on (its
        files read anew each time)."""
        self.sending += 1
        try:
            while True:
                try:
                    await channel.send(**list(pieces(message))[index])
                    return
                except (discord.HTTPException, discord.RateLimited) as error:
                    wait = _busy_wait(error)
                    if wait is None:
                        raise
                    where = getattr(channel, "id", "?")
                    log.warning("channel %s is busy: a message sent again in %.1f s", where, wait)
                    await asyncio.sleep(wait)
        finally:
            self.sending -= 1

    # -------------------------------------------------------------- interactions
    async def to_interaction(
        self, interaction: discord.Interaction[Any], reply: Reply, channel_id: str
    ) -> None:
        """Deliver the reply to a deferred (ephemeral, thinking) interaction.

        `channel_id` is the game's channel, where `public` goes: for presses made in a DM it
        is not the interaction's channel.
        """
        for message in reply.public:
            if await self._edited(interaction, channel_id, message):
                continue
            try:
                posted = await self._publish(channel_id, message)
            except _Gone as gone:  # the user learns why, and nobody is asked to play there
                for closed in gone.closed.public or [_place_closed(interaction)]:
                    await self._ephemeral(interaction, closed)
                return
            if not posted:
                await self._ephemeral(interaction, _cannot_post())
        for message in reply.private:
            await self._ephemeral(interaction, message)
        if not reply.private and not interaction.extras.get("answered"):
            # Nothing for the user alone: remove the "thinking..." placeholder.
            try:
                await interaction.delete_original_response()
            except discord.HTTPException:
                log.warning("could not remove the thinking placeholder", exc_info=True)
        await self.directs(channel_id, reply.direct)

    async def _edited(
        self, interaction: discord.Interaction[Any], channel_id: str, message: Message
    ) -> bool:
        """A menu shown again (`Message.in_place`) edits the channel message whose button was
        pressed, so the channel gets no new message; False when it is not that (a picture, a
        long text, a press in a DM or on an ephemeral message) or Discord will not edit it,
        and the caller posts it anew."""
        pressed = interaction.message
        if not message.in_place or message.image is not None or pressed is None:
            return False
        if str(pressed.channel.id) != channel_id or pressed.flags.ephemeral:
            return False
        parts = list(pieces(message))
        if len(parts) != 1:
            return False
        channel = self.client.get_partial_messageable(int(channel_id))
        try:
            await channel.get_partial_message(pressed.id).edit(**parts[0])
        except discord.HTTPException as error:
            log.info("a menu in channel %s could not be edited (%s): sent anew", channel_id, error)
            return False
        return True

    async def _ephemeral(self, interaction: discord.Interaction[Any], message: Message) -> None:
        # The first followup replaces the ephemeral "thinking..." placeholder.
        for kwargs in pieces(message):
            await interaction.followup.send(ephemeral=True, **kwargs)
            interaction.extras["answered"] = True

    # -------------------------------------------------------------- channels and DMs
    async def to_channel(self, channel_id: str, message: Message) -> bool:
        """Post in a channel or a thread; False if the bot may not (missing access or
        permissions), or if the place is gone (its table is closed then, see `_publish`)."""
        try:
            return await self._publish(channel_id, message)
        except _Gone:
            return False

    async def _publish(self, channel_id: str, message: Message) -> bool:
        """`to_channel`, but a deleted channel or thread, or a locked one, raises `_Gone`
        once its table is closed (`_place_gone`): not a permission the bot lacks, so the
        caller drops the rest of the reply. A thread Discord archived while a turn waited is
        opened again."""
        channel = self.client.get_partial_messageable(int(channel_id))
        try:
            await self._post(channel, message)
        except discord.NotFound as error:
            log.warning("cannot post in channel %s: %s", channel_id, error)
            if error.code == UNKNOWN_CHANNEL:
                raise _Gone(await self._place_gone(channel_id)) from error
            return False
        except _Locked as error:
            log.warning("thread %s is locked: its table closes", channel_id)
            raise _Gone(await self._place_gone(channel_id)) from error
        except discord.Forbidden:
            log.warning("cannot post in channel %s", channel_id, exc_info=True)
            return False
        return True

    async def _post(self, channel: discord.PartialMessageable, message: Message) -> None:
        """Send every piece of `message`; an archived thread is unarchived once (which Discord
        lets anyone who may post there do, unless it is locked), and the piece sent again."""
        for index in range(len(list(pieces(message)))):
            try:
                await self._send(channel, message, index)
            except discord.HTTPException as error:
                if error.code != ARCHIVED:
                    raise
                try:
                    await self.client.http.edit_channel(channel.id, archived=False)
                except discord.Forbidden:
                    raise _Locked from error
                await self._send(channel, message, index)

    async def _place_gone(self, channel_id: str) -> Reply:
        """A channel or thread is gone or locked under its table: the table closes, and the
        channel around a thread is told why. What closing it said."""
        closed = await self.service.place_closed(PLATFORM, channel_id)
        if closed.channel_id is not None and closed.channel_id != channel_id:
            for message in closed.public:
                await self.to_channel(closed.channel_id, message)
        return closed

    async def directs(self, channel_id: str, directs: list[Direct]) -> None:
        """DM each user; a turn notice that cannot be delivered is reported to the service."""
        for direct in directs:
            if await self.to_user(direct.user_id, direct.message) or not direct.turn_notice:
                continue
            hint = await self.service.dm_failed(PLATFORM, channel_id, direct.user_id)
            for message in hint.public:
                await self.to_channel(channel_id, message)

    async def to_user(self, user_id: str, message: Message) -> bool:
        """DM one user; False if Discord refuses (DMs closed, bot blocked, unknown user).

        After a refusal the bot stops asking for a while (the service says how long): Discord
        counts every refused request against the bot, and nothing changes between turns."""
        if await self.service.dms_closed(PLATFORM, user_id):
            return False
        try:
            channel = await self.client.create_dm(discord.Object(int(user_id)))
            for index in range(len(list(pieces(message)))):
                await self._send(channel, message, index)
        except discord.Forbidden as error:
            if error.code == CANNOT_DM:
                await self.service.dms_refused(PLATFORM, user_id)
            else:
                log.warning("DM to %s refused: %s", user_id, error)
            return False
        except (discord.NotFound, ValueError):
            log.warning("no such user %s", user_id)
            return False
        return True

    # -------------------------------------------------------------- deadlines
    async def fire_due(self) -> int:
        """Deliver due reminders, turn limits and computer players' moves of Discord games;
        how many replies went out, once they have."""
        posting = await self.post_due()
        if posting:
            await asyncio.wait(posting)
        return len(posting)

    async def post_due(self) -> list[asyncio.Task[None]]:
        """Claim what fell due and start posting it, each reply after what is still being
        posted to its channel (`InOrder`): a channel whose rate limit holds its posts back
        holds up neither another channel nor the next poll."""
        posting = []
        for platform, channel_id, reply in await self.service.fire_due(PLATFORM):
            if platform != PLATFORM:
                log.error("deadline for %s:%s claimed by the Discord adapter", platform, channel_id)
                continue
            posting.append(self.deadlines.run(channel_id, self.to_reply_channel(channel_id, reply)))
        return posting

    async def to_reply_channel(self, channel_id: str, reply: Reply) -> None:
        """A reply nobody asked for (deadlines): public to the channel, directs by DM."""
        for message in reply.public:
            try:
                await self._publish(channel_id, message)
            except _Gone:  # its table is closed: nobody is asked to play there
                return
        if reply.private:
            log.warning("private messages without an acting user dropped in %s", channel_id)
        await self.directs(channel_id, reply.direct)


def _busy_wait(error: discord.HTTPException | discord.RateLimited) -> float | None:
    """How long Discord asked to wait, if `error` is a rate limit; None for another error."""
    if isinstance(error, discord.RateLimited):
        return error.retry_after
    if error.status != TOO_MANY:
        return None
    try:
        return max(0.0, float(error.response.headers.get("Retry-After", BUSY_WAIT)))
    except ValueError:
        return BUSY_WAIT


def failure() -> Reply:
    """What a user is told when the service failed on them."""
    # English only until the catalogues have this text (tests/test_i18n.py wants every
    # msgid translated); then wrap it in `tr` with the interaction's language.
    return Reply.error("Something went wrong on my side. Nothing was changed.")


def _place_closed(interaction: discord.Interaction[Any]) -> Message:
    """For the user whose move found its place gone when its table was closed already (by
    another post, or by the end of its game)."""
    lang = normalize(str(interaction.locale)) or "en"
    return Message(
        tr(lang, "That table's place was closed or deleted: nothing more is played there.")
    )


def _cannot_post() -> Message:
    return Message(
        "I cannot post in this channel. Give me the View Channel, Send Messages and "
        "Attach Files permissions here (and Send Messages in Threads in a thread)."
    )
