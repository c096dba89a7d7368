"""A local stand-in for the Telegram Bot API, so python-telegram-bot runs for real in tests.

It listens on 127.0.0.1, answers the methods the adapter uses the way Telegram documents
them, and records every call (chat, text or caption, the bytes and name of a photo, an
animation or a document, keyboard). Users listed in
`unreachable` have never opened the bot: sending to their private chat fails with the 403
Telegram returns for that. Every message is paced as Telegram paces a bot
(`bot.load.pacing.telegram_windows`: about one a second in a private chat, 20 a minute in a
group, 30 a second in all): past a limit it gets Telegram's 429 with the whole seconds until
one more may go in its `retry_after`. A test that needs speed raises a limit (`allow`), or gives one
chat its own pace (`pace`); it never turns pacing off. A chat can also be `flood`ed: until
the flood ends every message to it gets the 429; a group `migrated` to a supergroup refuses messages
with the new chat's id; a `failing` chat gets 502s for a while. A chat in `forums` is a forum
supergroup with `topics` (`create_topic`, or the bot's `createForumTopic`): a message sent with
a `message_thread_id` goes to that topic, one without it to General; a closed topic refuses
the bot with `TOPIC_CLOSED` (the bot is no admin), a deleted one with "message thread not
found" (Telegram tells bots of no deletion: they learn it so). Updates are built here as the
JSON Telegram would send. A long poll waits at most `poll_limit` seconds (short, so tests end
quickly; raised, it lasts as long as the bot asks, as on Telegram), and a poll the bot gave up
before its answer is marked `abandoned`.

Every call to a method vendored in tests/vendor/telegram-bot-api-spec is checked against that
description (types, required parameters) and the limits Telegram states in prose
(`tests.vendor.limits`: callback_data of 1-64 bytes, text and captions after entity parsing,
the HTML tags Telegram supports, web_app buttons in private chats over https...). One Telegram
would refuse gets a 400 and is recorded as a violation that fails the test
(`tests.vendor.schemas`), even if the bot swallows the 400.

aiohttp is already installed (discord.py needs it); its server parses the multipart uploads.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import itertools
import json
import mimetypes
import re
import time
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from aiohttp import web
from pydantic import SecretStr
from telegram import Update
from telegram.ext import AIORateLimiter

from bot.config import Settings
from bot.load import pacing
from bot.telegram import build_application
from bot.telegram.app import TelegramAdapter, TelegramApp
from bot.telegram.contract import GameServiceApi
from tests.vendor import limits, schemas

BOT_ID = 999_000
BOT_USERNAME = "FcTestBot"
TOKEN = f"{BOT_ID}:TEST-token"
_JSON_FIELDS = {
    "reply_markup",
    "link_preview_options",
    "commands",
    "entities",
    "caption_entities",
    "allowed_updates",
    "reply_parameters",
}
_ADMIN_RIGHTS = (
    "can_be_edited",
    "can_manage_chat",
    "can_delete_messages",
    "can_manage_video_chats",
    "can_restrict_members",
    "can_promote_members",
    "can_change_info",
    "can_invite_users",
    "can_post_stories",
    "can_edit_stories",
    "can_delete_stories",
)
# What a user sees in a chat: texts, pictures, animations (replays), documents (records).
SENDS = ("sendMessage", "sendPhoto", "sendAnimation", "sendDocument")
# A message changed in place (a menu shown again): no new message, but paced as a send.
EDITS = ("editMessageText",)
_CANT_INITIATE = "Forbidden: bot can't initiate conversation with a user"
_UPGRADED = "Bad Request: group chat was upgraded to a supergroup chat"


@dataclass
class Call:
    """One Bot API request as the fake received it."""

    method: str
    params: dict[str, Any]
    files: dict[str, bytes] = field(default_factory=dict)
    filenames: dict[str, str] = field(default_factory=dict)  # form field -> the file's name
    result: Any = None
    failed: str | None = None  # the error description, if the fake refused the call
    abandoned: bool = False  # the client hung up before the answer (a cancelled long poll)
    at: float = field(default_factory=time.monotonic)  # when it arrived

    @property
    def chat_id(self) -> int | None:
        value = self.params.get("chat_id")
        return None if value is None else int(value)

    @property
    def topic(self) -> int | None:
        """The forum topic the call was sent to (None: General, or a chat without topics)."""
        value = self.params.get("message_thread_id")
        return None if value is None else int(value)

    @property
    def text(self) -> str:
        """What the user reads: the text, or a photo's caption."""
        return str(self.params.get("text") or self.params.get("caption") or "")

    @property
    def visible(self) -> str:
        """The text as the user reads it: HTML parsed (tags dropped, entities decoded)."""
        if self.params.get("parse_mode") != "HTML":
            return self.text
        return html.unescape(re.sub(r"<[^>]+>", "", self.text))

    @property
    def reply_to(self) -> int | None:
        """The id of the message this one answers, if it was sent as a reply."""
        parameters = self.params.get("reply_parameters") or {}
        message_id = parameters.get("message_id")
        return None if message_id is None else int(message_id)

    @property
    def photo(self) -> bytes | None:
        return self.files.get("photo")

    @property
    def animation(self) -> bytes | None:
        return self.files.get("animation")

    @property
    def document(self) -> bytes | None:
        return self.files.get("document")

    @property
    def file(self) -> tuple[str, bytes] | None:
        """The file sent (photo, animation or document): its name and bytes."""
        for kind in ("photo", "animation", "document"):
            if kind in self.files:
                return self.filenames.get(kind, ""), self.files[kind]
        return None

    @property
    def keyboard(self) -> list[list[dict[str, Any]]]:
        markup = self.params.get("reply_markup") or {}
        rows: list[list[dict[str, Any]]] = markup.get("inline_keyboard", [])
        return rows

    @property
    def buttons(self) -> list[dict[str, Any]]:
        return [button for row in self.keyboard for button in row]

    @property
    def delivered(self) -> bool:
        return self.failed is None

    @property
    def paced(self) -> bool:
        """Refused for a limit (a 429), to be tried again."""
        return (self.failed or "").startswith("Too Many Requests")


@dataclass(frozen=True)
class TgUser:
    id: int
    first_name: str
    last_name: str | None = None
    language_code: str | None = "en"

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}" if self.last_name else self.first_name

    def json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "is_bot": False, "first_name": self.first_name}
        if self.last_name:
            data["last_name"] = self.last_name
        if self.language_code:
            data["language_code"] = self.language_code
        return data


def chat_json(chat_id: int, forum: bool = False) -> dict[str, Any]:
    if chat_id > 0:
        return {"id": chat_id, "type": "private", "first_name": f"user{chat_id}"}
    data: dict[str, Any] = {"id": chat_id, "type": "supergroup", "title": f"group{chat_id}"}
    if forum:
        data["is_forum"] = True
    return data


@dataclass(eq=False)
class Topic:
    """A forum topic: its id is the id of the service message that created it."""

    chat_id: int
    thread_id: int
    name: str
    state: str = "open"  # "open", "closed" or "deleted"


class FakeBotApi:
    """The fake server; `await start()` before use and `await stop()` after."""

    def __init__(self) -> None:
        self.calls: list[Call] = []
        # What each chat shows, by (chat, message id), as last sent or edited; kept by clear().
        self.kept: dict[tuple[int, int], dict[str, Any]] = {}
        self.unreachable: set[int] = set()  # users who never opened the private chat
        self.admins: set[tuple[int, int]] = set()  # (chat id, user id)
        self.floods: dict[int, tuple[float, float]] = {}  # chat id -> (end, retry_after)
        self.limits = pacing.telegram_windows()  # what every chat and the bot may send
        self.paces: dict[int, tuple[pacing.Window, float]] = {}  # chat -> own window, its second
        self.migrated: dict[int, int] = {}  # group id -> the supergroup it became
        self.failing: dict[int, int] = {}  # chat id -> how many more calls fail with 502
        self.forums: set[int] = set()  # forum supergroups
        self.topics: dict[tuple[int, int], Topic] = {}  # (chat id, thread id) -> topic
        self.updates: list[dict[str, Any]] = []  # served by getUpdates
        self.poll_limit = 0.5  # the longest a getUpdates waits for an update
        self.webhook: tuple[str, str | None] | None = None  # (url, secret) of setWebhook
        self._updates_ready = asyncio.Event()
        self._message_ids = itertools.count(1)
        self._update_ids = itertools.count(1)
        self._query_ids = itertools.count(1)
        self._runner: web.AppRunner | None = None
        self.port = 0

    # ------------------------------------------------------------------ server
    async def start(self, host: str = "127.0.0.1") -> None:
        """Listen on `host` (all addresses: "0.0.0.0", for bots in containers)."""
        app = web.Application(client_max_size=20 * 1024 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, 0)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]

    async def stop(self) -> None:
        self.poll_limit = 0.0
        self._updates_ready.set()  # long polls still held end now, not at their timeout
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/bot"

    async def _handle(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != TOKEN:
            return _error(401, "Unauthorized")
        method = request.match_info["method"]
        params: dict[str, Any] = {}
        files: dict[str, bytes] = {}
        filenames: dict[str, str] = {}
        form = await request.post()
        raw: dict[str, str] = {}
        for name, value in form.items():
            if isinstance(value, web.FileField):
                files[name] = value.file.read()
                filenames[name] = value.filename
            elif isinstance(value, str):
                raw[name] = value
                params[name] = json.loads(value) if name in _JSON_FIELDS else value
        call = Call(method, params, files, filenames)
        self.calls.append(call)
        handler = getattr(self, f"_api_{method}", None)
        if handler is None:
            call.failed = f"Not Found: method {method} not implemented by the fake"
            return _error(404, call.failed)
        problems = schemas.telegram_problems(method, raw, files)
        if problems:  # as Telegram refuses the call; the test fails for it too
            schemas.record("telegram", method, problems)
            call.failed = "Bad Request: " + "; ".join(problems)
            return _error(400, call.failed)
        refusal = self._refusal(call)
        if refusal is not None:
            status, call.failed, parameters = refusal
            return _error(status, call.failed, parameters)
        status, result = await handler(call)
        if request.transport is None or request.transport.is_closing():
            call.abandoned = True
            return _error(499, "the client hung up")
        if status != 200:
            call.failed = str(result)
            return _error(status, call.failed)
        call.result = result
        return web.json_response({"ok": True, "result": result})

    # ------------------------------------------------------------------ methods
    async def _api_getMe(self, call: Call) -> tuple[int, Any]:
        return 200, {
            "id": BOT_ID,
            "is_bot": True,
            "first_name": "Forbidden City",
            "username": BOT_USERNAME,
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": False,
        }

    def _refusal(self, call: Call) -> tuple[int, str, dict[str, Any]] | None:
        """Telegram's answer when a message cannot go to its chat right now or any more."""
        chat_id = call.chat_id
        if call.method not in SENDS + EDITS or chat_id is None:
            return None
        if self.failing.get(chat_id, 0) > 0:
            self.failing[chat_id] -= 1
            return 502, "Bad Gateway", {}
        if chat_id in self.migrated:
            new_id = self.migrated[chat_id]
            return 400, _UPGRADED, {"migrate_to_chat_id": new_id}
        if call.topic is not None:
            topic = self.topics.get((chat_id, call.topic))
            if topic is None or topic.state == "deleted":
                return 400, "Bad Request: message thread not found", {}
            if topic.state == "closed":
                return 400, "Bad Request: TOPIC_CLOSED", {}
        end, retry_after = self.floods.get(chat_id, (0.0, 0.0))
        if time.monotonic() < end:
            description = f"Too Many Requests: retry after {retry_after}"
            return 429, description, {"retry_after": retry_after}
        return self._paced(chat_id)

    def _paced(self, chat_id: int) -> tuple[int, str, dict[str, Any]] | None:
        """The 429 for one message too many for its chat, its group or the bot, if it is, with
        the whole seconds until it may go; else the message is counted in each window."""
        now = time.monotonic()
        windows: list[tuple[pacing.Window, Hashable, float]] = [
            (self.limits["overall"], "bot", 1.0)
        ]
        if chat_id in self.paces:
            window, second = self.paces[chat_id]
            windows.append((window, chat_id, second))
        else:  # a group (its id negative) by the minute, a private chat by the second
            windows.append((self.limits["group" if chat_id < 0 else "chat"], chat_id, 1.0))
        waits = [(window.wait(key, now), second) for window, key, second in windows]
        wait, second = max(waits)
        if wait > 0:
            seconds = pacing.whole_seconds(wait, second)
            description = f"Too Many Requests: retry after {round(seconds / second)}"
            return 429, description, {"retry_after": seconds}
        for window, key, _ in windows:
            window.take(key, now)
        return None

    def flood(self, chat_id: int, seconds: float | None, retry_after: float) -> None:
        """Refuse messages to `chat_id` for `seconds` from now with 429 and `retry_after`
        (Telegram sends whole seconds; fractions keep the tests fast). With `seconds=None`
        the flood lasts until `end_flood`: a test then checks what happens during it without
        racing the clock of a busy machine."""
        end = float("inf") if seconds is None else time.monotonic() + seconds
        self.floods[chat_id] = (end, retry_after)

    def end_flood(self, chat_id: int) -> None:
        self.floods.pop(chat_id, None)

    def pace(self, chat_id: int, messages: int = 20, minute: float = 60.0) -> None:
        """Let at most `messages` a minute reach `chat_id`, as Telegram lets a group have about
        20: one more gets 429 and the whole seconds to wait. `minute` is how many seconds a
        minute lasts here (a second a sixtieth of it): shorter, a test floods a chat for minutes
        of this time in a few seconds."""
        self.paces[chat_id] = (pacing.Window(messages, minute), minute / 60)

    def allow(self, **limits: int) -> None:
        """Raise limits (`chat`, `group`, `overall`: messages per its period) for a test that
        plays whole games at a machine's speed; never lowered, never off."""
        for name, limit in limits.items():
            window = self.limits[name]
            assert limit >= window.limit, "a test may raise a limit, not lower it"
            window.limit = limit

    def refused(self, chat_id: int) -> int:
        """Messages to `chat_id` refused so far (floods, 502s, ...)."""
        return sum(1 for c in self.calls if c.chat_id == chat_id and not c.delivered)

    def _message(self, call: Call, **content: Any) -> tuple[int, Any]:
        chat_id = call.chat_id
        assert chat_id is not None, "a message needs a chat_id"
        if chat_id in self.unreachable:
            return 403, _CANT_INITIATE
        message: dict[str, Any] = {
            "message_id": next(self._message_ids),
            "date": int(time.time()),
            "chat": chat_json(chat_id, chat_id in self.forums),
            "from": {"id": BOT_ID, "is_bot": True, "first_name": "Forbidden City"},
            **content,
        }
        if call.topic is not None:
            message.update(message_thread_id=call.topic, is_topic_message=True)
        if "reply_markup" in call.params:
            message["reply_markup"] = call.params["reply_markup"]
        self.kept[(chat_id, message["message_id"])] = message
        return 200, message

    async def _api_sendMessage(self, call: Call) -> tuple[int, Any]:
        text = call.params.get("text", "")
        if not text.strip():
            return 400, "Bad Request: message text is empty"
        if _utf16_length(_parsed(call, text)) > 4096:  # in UTF-16 units, as it does below
            return 400, "Bad Request: message is too long"
        return self._message(call, text=text)

    async def _api_sendPhoto(self, call: Call) -> tuple[int, Any]:
        if not call.photo:
            return 400, "Bad Request: there is no photo in the request"
        caption = call.params.get("caption")
        if caption is not None and _utf16_length(_parsed(call, caption)) > 1024:
            return 400, "Bad Request: message caption is too long"
        size = {"width": 1, "height": 1, "file_size": len(call.photo)}
        photo = [{"file_id": f"p{len(self.calls)}", "file_unique_id": "u", **size}]
        content: dict[str, Any] = {"photo": photo}
        if caption:
            content["caption"] = caption
        return self._message(call, **content)

    async def _api_sendAnimation(self, call: Call) -> tuple[int, Any]:
        return self._file(call, "animation")

    async def _api_sendDocument(self, call: Call) -> tuple[int, Any]:
        return self._file(call, "document")

    def _file(self, call: Call, kind: str) -> tuple[int, Any]:
        """An animation or a document, as Telegram keeps it: its name, type and size."""
        data = call.files.get(kind)
        if not data:
            return 400, f"Bad Request: there is no {kind} in the request"
        caption = call.params.get("caption")
        if caption is not None and _utf16_length(_parsed(call, caption)) > 1024:
            return 400, "Bad Request: message caption is too long"
        name = call.filenames.get(kind, "")
        mime = mimetypes.guess_type(name)[0] or "application/octet-stream"
        content: dict[str, Any] = {
            kind: {
                "file_id": f"{kind[0]}{len(self.calls)}",
                "file_unique_id": "u",
                "file_name": name,
                "mime_type": mime,
                "file_size": len(data),
                **({"width": 1, "height": 1, "duration": 1} if kind == "animation" else {}),
            }
        }
        if caption:
            content["caption"] = caption
        return self._message(call, **content)

    async def _api_editMessageText(self, call: Call) -> tuple[int, Any]:
        """The text and keyboard of a message the bot sent, as Telegram changes them: one
        it never sent is not found, a photo has no text to edit, and the same text and
        keyboard again is refused as not modified."""
        chat_id, wanted = call.chat_id, int(call.params.get("message_id", 0))
        target = self.kept.get((chat_id or 0, wanted))
        if target is None:
            return 400, "Bad Request: message to edit not found"
        if "text" not in target:
            return 400, "Bad Request: there is no text in the message to edit"
        text = call.params.get("text", "")
        markup = call.params.get("reply_markup")
        if text == target["text"] and markup == target.get("reply_markup"):
            return 400, "Bad Request: message is not modified: specified new message content "
            "and reply markup are exactly the same as a current content and reply markup"
        edited = {**target, "text": text, "edit_date": int(time.time())}
        edited.pop("reply_markup", None)
        if markup is not None:
            edited["reply_markup"] = markup
        self.kept[(chat_id or 0, wanted)] = edited
        return 200, edited

    def shown(self, chat_id: int) -> list[dict[str, Any]]:
        """The messages a chat shows now, oldest first, each as last sent or edited."""
        return [m for (chat, _), m in sorted(self.kept.items()) if chat == chat_id]

    def edits(self, chat_id: int | None = None) -> list[Call]:
        """Messages changed in place (to `chat_id` if given), in order."""
        return [
            c
            for c in self.calls
            if c.method in EDITS and c.delivered and chat_id in (None, c.chat_id)
        ]

    async def _api_answerCallbackQuery(self, call: Call) -> tuple[int, Any]:
        if _utf16_length(call.params.get("text", "")) > 200:
            return 400, "Bad Request: MESSAGE_TOO_LONG"
        return 200, True

    async def _api_getChatMember(self, call: Call) -> tuple[int, Any]:
        chat_id, user_id = int(call.params["chat_id"]), int(call.params["user_id"])
        user = {"id": user_id, "is_bot": False, "first_name": f"user{user_id}"}
        if (chat_id, user_id) not in self.admins:
            return 200, {"status": "member", "user": user}
        rights = dict.fromkeys(_ADMIN_RIGHTS, True)
        return 200, {"status": "administrator", "user": user, "is_anonymous": False, **rights}

    async def _api_createForumTopic(self, call: Call) -> tuple[int, Any]:
        chat_id, name = int(call.params["chat_id"]), call.params.get("name", "")
        if chat_id not in self.forums:
            return 400, "Bad Request: the chat is not a forum"
        if not 1 <= len(name) <= 128:
            return 400, "Bad Request: invalid forum topic name specified"
        topic = self.create_topic(chat_id, name)
        return 200, {"message_thread_id": topic.thread_id, "name": name, "icon_color": 7322096}

    def create_topic(self, chat_id: int, name: str) -> Topic:
        """A topic opened in a forum (by a member, or by the bot's `createForumTopic`)."""
        assert chat_id in self.forums, "topics are a forum's"
        topic = Topic(chat_id, next(self._message_ids), name)
        self.topics[(chat_id, topic.thread_id)] = topic
        return topic

    def topic_closed(self, topic: Topic, by: TgUser) -> Any:
        """`by` closes the topic: the update of its service message, in the topic."""
        topic.state = "closed"
        message = self._topic_message(topic, by, {"forum_topic_closed": {}})
        return {"update_id": next(self._update_ids), "message": message}

    def _topic_message(self, topic: Topic, user: TgUser, content: dict[str, Any]) -> Any:
        return {
            "message_id": next(self._message_ids),
            "message_thread_id": topic.thread_id,
            "is_topic_message": True,
            "date": int(time.time()),
            "chat": chat_json(topic.chat_id, True),
            "from": user.json(),
            **content,
        }

    def _topic_created(self, topic: Topic) -> dict[str, Any]:
        """The service message that opened a topic: what a message in it answers."""
        return {
            "message_id": topic.thread_id,
            "message_thread_id": topic.thread_id,
            "date": int(time.time()),
            "chat": chat_json(topic.chat_id, True),
            "forum_topic_created": {"name": topic.name, "icon_color": 7322096},
        }

    async def _api_setMyCommands(self, call: Call) -> tuple[int, Any]:
        return 200, True

    async def _api_deleteWebhook(self, call: Call) -> tuple[int, Any]:
        self.webhook = None
        return 200, True

    async def _api_setWebhook(self, call: Call) -> tuple[int, Any]:
        self.webhook = (call.params["url"], call.params.get("secret_token"))
        return 200, True

    async def post_webhook(
        self, url: str, update: dict[str, Any], secret: str | None
    ) -> tuple[int, str]:
        """Deliver an update to a bot's webhook as Telegram does (the secret in its header)."""
        headers = {} if secret is None else {"X-Telegram-Bot-Api-Secret-Token": secret}
        async with (
            aiohttp.ClientSession() as session,
            session.post(url, json=update, headers=headers) as response,
        ):
            return response.status, await response.text()

    async def _api_getUpdates(self, call: Call) -> tuple[int, Any]:
        offset = int(call.params.get("offset", 0))
        if offset:  # Telegram forgets the updates this confirms: no process gets them again
            self.updates = [u for u in self.updates if u["update_id"] >= offset]
        timeout = min(float(call.params.get("timeout", 0)), self.poll_limit)
        ready = [u for u in self.updates if u["update_id"] >= offset]
        if not ready and timeout:
            self._updates_ready.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._updates_ready.wait(), timeout)
            ready = [u for u in self.updates if u["update_id"] >= offset]
        return 200, ready

    def serve_update(self, update: dict[str, Any]) -> None:
        """Queue an update for the next getUpdates (long polling)."""
        self.updates.append(update)
        self._updates_ready.set()

    # ------------------------------------------------------------------ updates
    def command(
        self,
        chat_id: int,
        user: TgUser,
        text: str,
        *,
        edited: bool = False,
        mentions: dict[str, TgUser] | None = None,
        reply_to: TgUser | None = None,
        topic: Topic | None = None,
    ) -> Any:
        """An update for a user typing `text` (a command at its start) in a chat.

        `mentions`: names in `text` picked from the member list (a `text_mention` of that
        user, offsets in UTF-16 units as Telegram counts); `reply_to`: the command answers a
        message of that user's in the same chat; `topic`: typed in that forum topic (it
        then answers the topic's first message, unless it answers someone)."""
        command = text.split()[0]
        entities = [{"type": "bot_command", "offset": 0, "length": len(command)}]
        for name, person in (mentions or {}).items():
            entities.append(
                {
                    "type": "text_mention",
                    "offset": _utf16_length(text[: text.index(name)]),
                    "length": _utf16_length(name),
                    "user": person.json(),
                }
            )
        message: dict[str, Any] = {
            "message_id": next(self._message_ids),
            "date": int(time.time()),
            "chat": chat_json(chat_id, chat_id in self.forums),
            "from": user.json(),
            "text": text,
            "entities": entities,
        }
        if topic is not None:
            assert topic.chat_id == chat_id, "a topic of another chat"
            message.update(message_thread_id=topic.thread_id, is_topic_message=True)
            message["reply_to_message"] = self._topic_created(topic)
        if reply_to is not None:
            message["reply_to_message"] = {
                "message_id": next(self._message_ids),
                "date": int(time.time()),
                "chat": chat_json(chat_id, chat_id in self.forums),
                "from": reply_to.json(),
                "text": "well played",
            }
            if topic is not None:
                message["reply_to_message"]["message_thread_id"] = topic.thread_id
        key = "edited_message" if edited else "message"
        if edited:
            message["edit_date"] = int(time.time())
        return {"update_id": next(self._update_ids), key: message}

    def press(self, user: TgUser, on: Call, data: str) -> Any:
        """An update for `user` pressing a button with `data` under the message `on`."""
        assert on.result is not None, "the message was never delivered"
        return {
            "update_id": next(self._update_ids),
            "callback_query": {
                "id": str(next(self._query_ids)),
                "from": user.json(),
                "chat_instance": "1",
                "data": data,
                "message": on.result,
            },
        }

    # ------------------------------------------------------------------ reading
    def sent(self, chat_id: int | None = None, topic: Topic | None = None) -> list[Call]:
        """Messages, photos, animations and documents delivered (to `chat_id` if given, and
        then to its General topic, or to `topic`), in order."""
        if topic is not None:
            chat_id = topic.chat_id
        return [
            c
            for c in self.calls
            if c.method in SENDS
            and c.delivered
            and (chat_id is None or c.chat_id == chat_id)
            and (chat_id is None or c.topic == (topic.thread_id if topic else None))
        ]

    def polling(self, since: int = 0) -> Call | None:
        """The long poll under way (a getUpdates not answered yet) among the calls from the
        `since`th on, if any."""
        waiting = [
            c
            for c in self.calls[since:]
            if c.method == "getUpdates" and c.result is None and not c.failed and not c.abandoned
        ]
        return waiting[-1] if waiting else None

    def answers(self) -> list[Call]:
        return [c for c in self.calls if c.method == "answerCallbackQuery"]

    def clear(self) -> None:
        self.calls.clear()


def edited_in(calls: list[Call], chat_id: int) -> list[Call]:
    """The messages of `chat_id` that `calls` changed in place (menus shown again)."""
    return [c for c in calls if c.method in EDITS and c.delivered and c.chat_id == chat_id]


def _parsed(call: Call, text: str) -> str:
    """What Telegram counts of a text or caption: the text "after entities parsing"."""
    return limits.parse_html(text)[0] if call.params.get("parse_mode") == "HTML" else text


def _utf16_length(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _error(status: int, description: str, parameters: dict[str, Any] | None = None) -> web.Response:
    body: dict[str, Any] = {"ok": False, "error_code": status, "description": description}
    if parameters:
        body["parameters"] = parameters
    return web.json_response(body, status=status)


def settings_for(api: FakeBotApi) -> Settings:
    return Settings(
        _env_file=None,  # type: ignore[call-arg]
        telegram_token=SecretStr(TOKEN),
        telegram_base_url=api.base_url,
    )


@dataclass
class Harness:
    """The real application wired to the fake server, and the errors its handlers raised."""

    app: TelegramApp
    api: FakeBotApi
    errors: list[BaseException] = field(default_factory=list)

    @classmethod
    @asynccontextmanager
    async def running(
        cls,
        api: FakeBotApi,
        service: GameServiceApi,
        *,
        production_limits: bool = False,
        rate_limiter: AIORateLimiter | None = None,
    ) -> AsyncIterator[Harness]:
        """Initialised (getMe done) and without rate limits, so a whole game runs quickly,
        or with the limits the bot runs with, or with `rate_limiter` (the bot's limits on a
        test's shorter clock); fails the test if a handler raised."""
        unlimited = AIORateLimiter(overall_max_rate=0, group_max_rate=0)
        app = build_application(
            settings_for(api),
            service,
            rate_limiter=rate_limiter or (None if production_limits else unlimited),
            deadline_interval=0,
        )
        harness = cls(app, api)

        async def record(update: object, context: Any) -> None:
            harness.errors.append(context.error)

        app.add_error_handler(record)
        async with app:
            api.clear()
            try:
                yield harness
            finally:
                assert app.post_stop is not None
                await app.post_stop(app)
        assert harness.errors == [], harness.errors

    async def feed(self, update: dict[str, Any]) -> list[Call]:
        """Dispatch one update through the application; the API calls it caused, once all
        it sent has reached its chats (after the waits Telegram's limits asked for), without the
        tries Telegram's limits refused (`Call.paced`): what the chats show."""
        start = len(self.api.calls)
        await self.app.process_update(Update.de_json(update, self.app.bot))
        await self.delivered()
        return [c for c in self.api.calls[start:] if not c.paced]

    async def delivered(self) -> None:
        """Wait until the bot's outbox is empty: every message sent, however paced; but for
        the chats a test floods until it says (`flood(chat, None, ...)`)."""
        adapter: TelegramAdapter = self.app.bot_data["adapter"]
        flooded = {str(c) for c, (end, _) in self.api.floods.items() if end == float("inf")}
        await adapter.delivery.outbox.drained(lambda chat: str(chat) not in flooded)


def init_data(bot_token: str, user: TgUser, auth_date: float, **more: str) -> str:
    """A Mini App's `initData` as Telegram signs it for the bot with `bot_token`: the key is
    HMAC-SHA256("WebAppData", token), the hash HMAC-SHA256 under it of the sorted fields
    (core.telegram.org/bots/webapps, "Validating data received via the Mini App")."""
    import hashlib
    import hmac
    from urllib.parse import urlencode

    person = {"id": user.id, "first_name": user.first_name, "language_code": "en"}
    fields = {
        "query_id": "AAHdF6IQAAAAAN0XohDhrOrc",
        "user": json.dumps(person, separators=(",", ":")),
        "auth_date": str(int(auth_date)),
        **more,
    }
    secret = hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()
    check = "\n".join(f"{key}={fields[key]}" for key in sorted(fields))
    fields["hash"] = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    return urlencode(fields)
