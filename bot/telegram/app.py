"""The python-telegram-bot application: thin handlers that parse, call the service, deliver.

No game rule lives here. Everything a user sees comes from the service's `Reply`, except
two adapter facts the service cannot know: that a user must open the private chat first,
and that anonymous admins (who all look like one user) cannot play.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable
from typing import Any, Final, TypeAlias

from telegram import BotCommand, Chat, Message, Update, User
from telegram.constants import ChatMemberStatus, ChatType, UpdateType
from telegram.error import BadRequest, RetryAfter, TelegramError
from telegram.ext import (
    AIORateLimiter,
    Application,
    BaseRateLimiter,
    CallbackContext,
    CallbackQueryHandler,
    CommandHandler,
    ExtBot,
    MessageHandler,
    filters,
)

from bot.config import Settings
from bot.exchange.actor import Actor
from bot.exchange.replies import Message as ReplyMessage
from bot.exchange.replies import Reply
from bot.runtime.in_order import InOrder
from bot.text.i18n import normalize, tr

from . import places
from .contract import PLATFORM, GameServiceApi
from .delivery import Delivery, alert_text
from .mentions import about_replied_user, with_mentions

log = logging.getLogger(__name__)

# Every second, so computer players act soon after their pause (`BOT_PAUSE`).
DEADLINE_INTERVAL: Final = 1.0
# At shutdown, how long messages still queued (a flooded chat) may take to leave. A turn
# notice dropped then is sent again by the turn's reminder, which Redis keeps.
DRAIN_GRACE: Final = 5.0
ALLOWED_UPDATES: Final = [UpdateType.MESSAGE, UpdateType.CALLBACK_QUERY]
_ADMIN: Final = {ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER}
# Where the service honours admin rights; looked up only then (one getChatMember call).
ADMIN_COMMANDS: Final = ("abort", "start")

TelegramApp: TypeAlias = Application[
    ExtBot[Any],
    CallbackContext[ExtBot[Any], dict[Any, Any], dict[Any, Any], dict[Any, Any]],
    dict[Any, Any],
    dict[Any, Any],
    dict[Any, Any],
    None,
]
Context: TypeAlias = CallbackContext[ExtBot[Any], dict[Any, Any], dict[Any, Any], dict[Any, Any]]


def file_url(base_url: str) -> str:
    """The file URL that goes with a Bot API URL (a local Bot API server serves both)."""
    head, sep, tail = base_url.rpartition("/bot")
    return f"{head}/file/bot{tail}" if sep else base_url.rstrip("/") + "/file/bot"


def command_text(message_text: str) -> str:
    """What follows `/fc` or `/fc@BotName`, verbatim (`play 2,-1 0` keeps its comma)."""
    parts = message_text.split(maxsplit=1)
    return parts[1].strip() if len(parts) > 1 else ""


def game_channel(reply: Reply, actor: Actor) -> str:
    """The group a reply's public part belongs to: the service names it when a command or a
    press in the private chat acted on a game in a group."""
    return reply.channel_id or actor.channel_id


class TelegramAdapter:
    """Handlers and the deadline poller of one bot, sharing one `Delivery`."""

    def __init__(
        self,
        application: TelegramApp,
        service: GameServiceApi,
        default_language: str,
        deadline_interval: float,
    ) -> None:
        self.application = application
        self.service = service
        self.default_language = default_language
        self.deadline_interval = deadline_interval
        self.delivery = Delivery(application.bot, service, default_language)
        self._deadlines: asyncio.Task[None] | None = None
        self.deadline_posts = InOrder()  # fired deadlines' replies on their way to the outbox

    def language(self, user: User) -> str:
        return normalize(user.language_code) or self.default_language

    async def actor(
        self, chat: Chat, user: User, message: Message | None, *, admin_check: bool = False
    ) -> Actor:
        """Who acts, and where: the chat, or the forum topic `message` was sent in."""
        private = chat.type == ChatType.PRIVATE
        return Actor(
            platform=PLATFORM,
            channel_id=places.of_message(message) if message is not None else str(chat.id),
            user_id=str(user.id),
            name=user.full_name,
            locale=user.language_code,
            is_admin=admin_check and not private and await self._is_admin(chat, user),
            private=private,
            community=None if private else str(chat.id),
            place="" if private else places.title(chat, message),
            link="" if private else places.link(chat, message),
            parent=str(chat.id) if message is not None and places.topic_of(message) else "",
        )

    async def _is_admin(self, chat: Chat, user: User) -> bool:
        try:
            member = await chat.get_member(user.id)
        except TelegramError:
            log.warning("could not check admin rights of %s in %s", user.id, chat.id)
            return False
        return member.status in _ADMIN

    async def on_fc(self, update: Update, context: Context) -> None:
        message, chat, user = update.message, update.effective_chat, update.effective_user
        if message is None or chat is None or user is None or not message.text:
            return
        if await self._refuse_anonymous(message, chat, user):
            return
        text = about_replied_user(command_text(with_mentions(message)), message)
        first = text.split(maxsplit=1)[0].lower() if text else ""
        actor = await self.actor(chat, user, message, admin_check=first in ADMIN_COMMANDS)
        reply = await self.service.command(actor, text)
        await self.deliver(reply, actor, user, command=message)

    async def on_start(self, update: Update, context: Context) -> None:
        """`/start` (or the `?start=fc` deep link) in private: the service's welcome."""
        chat, user = update.effective_chat, update.effective_user
        if chat is None or user is None:
            return
        actor = await self.actor(chat, user, update.message)
        reply = await self.service.command(actor, "help")
        await self.deliver(reply, actor, user)

    async def on_press(self, update: Update, context: Context) -> None:
        query, user = update.callback_query, update.effective_user
        if query is None or user is None:
            return
        on = query.message if isinstance(query.message, Message) else None
        chat = on.chat if on is not None else None
        if chat is None:  # a button on an inline message: treat it as the private chat
            chat = Chat(user.id, ChatType.PRIVATE)
        actor = await self.actor(chat, user, on)
        reply = await self.service.press(actor, query.data or "")
        if not reply.ok:
            await self._answer(query.answer(alert_text(reply), show_alert=True))
            return
        await self._answer(query.answer())
        await self.deliver(reply, actor, user, pressed=on)

    async def on_migrate(self, update: Update, context: Context) -> None:
        """A group became a supergroup, with a new id: its table follows it (Telegram tells
        both chats; the second call finds nothing left to move)."""
        message = update.message
        if message is None:
            return
        if message.migrate_to_chat_id is not None:
            old, new = message.chat.id, message.migrate_to_chat_id
        elif message.migrate_from_chat_id is not None:
            old, new = message.migrate_from_chat_id, message.chat.id
        else:
            return
        if await self.service.chat_moved(PLATFORM, str(old), str(new)):
            log.info("a table followed its group from %s to %s", old, new)

    async def on_topic_closed(self, update: Update, context: Context) -> None:
        """A forum topic was closed: nobody but admins may write there any more, so its table
        closes, and the General topic is told why."""
        message = update.message
        if message is None:
            return
        place = places.of_message(message)
        if places.split(place)[1] is None:
            return
        reply = await self.service.place_closed(PLATFORM, place)
        for public in reply.public:
            await self.delivery.public(reply.channel_id or str(message.chat.id), public)

    @staticmethod
    async def _answer(answering: Awaitable[bool]) -> None:
        # A query older than ~15 s cannot be answered any more, and a flood-limited answer
        # cannot wait: the press still counted.
        with contextlib.suppress(BadRequest, RetryAfter):
            await answering

    async def deliver(
        self,
        reply: Reply,
        actor: Actor,
        user: User,
        command: Message | None = None,
        pressed: Message | None = None,
    ) -> None:
        """Deliver `reply`; its public part answers `command` when it goes to the chat the
        command was typed in (the board photo under `/fc play`), and a menu shown again edits
        the text message `pressed` whose button made it, when it is in that chat."""
        channel = game_channel(reply, actor)
        menu = pressed if pressed is not None and pressed.text is not None else None
        await self.delivery.reply(
            reply,
            channel_id=channel,
            actor_id=actor.user_id,
            actor_name=actor.name,
            language=self.language(user),
            command_id=_there(command, channel),
            pressed_id=_there(menu, channel),
        )

    async def _refuse_anonymous(self, message: Message, chat: Chat, user: User) -> bool:
        """Anonymous admins and channels all share one sender id, so they cannot play;
        other bots are ignored."""
        if message.sender_chat is None:
            return user.is_bot
        note = tr(
            self.language(user),
            "Anonymous admins and channels cannot play: send the command as yourself.",
        )
        where = places.of_message(message)
        await self.delivery.public(where, ReplyMessage(note), reply_to=message.message_id)
        return True

    async def fire_due(self) -> list[asyncio.Task[None]]:
        """Hand the outbox the Telegram replies of deadlines (reminders, turn limits,
        computer players' moves) that fell due, each after what is still being handed to
        its chat (`InOrder`): a chat that waits out its limit holds up neither another chat
        nor the next poll. The tasks doing it."""
        posting = []
        for platform, channel_id, reply in await self.service.fire_due(PLATFORM):
            if platform != PLATFORM:
                log.error("a %s deadline reached the Telegram adapter; dropped", platform)
                continue
            posting.append(
                self.deadline_posts.run(
                    channel_id, self.delivery.reply(reply, channel_id=channel_id)
                )
            )
        return posting

    async def _poll_deadlines(self) -> None:
        while True:
            try:
                await self.fire_due()
            except asyncio.CancelledError:
                raise
            except Exception:  # the service may be briefly down; try again next round
                log.exception("deadline poll failed")
            await asyncio.sleep(self.deadline_interval)

    async def post_init(self, application: TelegramApp) -> None:
        with contextlib.suppress(TelegramError):
            await application.bot.set_my_commands(
                [BotCommand("fc", "Forbidden City, Die Verbotene Stadt: /fc help")]
            )
        if self.deadline_interval > 0 and self._deadlines is None:
            self._deadlines = asyncio.create_task(self._poll_deadlines(), name="fc-deadlines")

    async def post_stop(self, application: TelegramApp) -> None:
        task, self._deadlines = self._deadlines, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self.deadline_posts.settled(DRAIN_GRACE)
        await self.delivery.outbox.close(DRAIN_GRACE)


async def _log_error(update: object, context: Context) -> None:
    log.error("error while handling %r", update, exc_info=context.error)


def build_application(
    settings: Settings,
    service: GameServiceApi,
    *,
    rate_limiter: BaseRateLimiter[Any] | None = None,
    deadline_interval: float = DEADLINE_INTERVAL,
) -> TelegramApp:
    """The bot, ready for `run()` (or `process_update` in tests).

    Updates are handled concurrently: one slow game must not hold up the others, and the
    store's versioned writes already settle two presses racing for the same game.
    `deadline_interval` 0 turns the deadline poller off.
    """
    if settings.telegram_token is None:
        raise ValueError("TELEGRAM_TOKEN is not set")
    application: TelegramApp = (
        Application.builder()
        .token(settings.telegram_token.get_secret_value())
        .base_url(settings.telegram_base_url)
        .base_file_url(file_url(settings.telegram_base_url))
        # No retries there: it would pause every chat while one waits out its flood
        # limit. The per-chat queues of `Delivery` retry instead.
        .rate_limiter(rate_limiter or AIORateLimiter(max_retries=0))
        .concurrent_updates(32)
        .job_queue(None)
        .build()
    )
    adapter = TelegramAdapter(
        application, service, settings.default_language.value, deadline_interval
    )
    application.bot_data["adapter"] = adapter  # its outbox, for a caller that waits on it
    application.post_init = adapter.post_init
    application.post_stop = adapter.post_stop
    only_messages = filters.UpdateType.MESSAGE  # an edited `/fc play` must not play again
    application.add_handler(CommandHandler("fc", adapter.on_fc, filters=only_messages))
    application.add_handler(
        CommandHandler("start", adapter.on_start, filters=only_messages & filters.ChatType.PRIVATE)
    )
    application.add_handler(CallbackQueryHandler(adapter.on_press))
    application.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, adapter.on_migrate))
    application.add_handler(
        MessageHandler(filters.StatusUpdate.FORUM_TOPIC_CLOSED, adapter.on_topic_closed)
    )
    application.add_error_handler(_log_error)
    return application


def _there(message: Message | None, channel: str) -> int | None:
    """The id of `message` if it is in the chat (and topic) `channel`, else None: a reply
    answers or edits only a message of the place it goes to."""
    return (
        message.message_id
        if message is not None and places.of_message(message) == channel
        else None
    )
