"""A small stand-in for Discord: its REST API on a local port, and interactions from the gateway.

The bot under test is the real `discord.Client`: only `Route.BASE` points at this server, so
every request is really serialised by discord.py (JSON, multipart with files) and every answer
is really parsed by it, errors included. The server keeps what a Discord user would see: each
message with who may see it (the whole channel, one DM recipient, or only the user of an
ephemeral interaction response), so tests can check that hidden things stay hidden.

Interactions are built from raw gateway payloads and fed to
`ConnectionState.parse_interaction_create`, exactly as the gateway does; `dispatch` then waits
for the tasks discord.py starts for them. A bot in another process connects to the fake's
gateway instead (`GET /gateway/bot`, a websocket): it says HELLO, takes IDENTIFY with
`[shard_id, shard_count]`, answers READY and heartbeats, and `send` delivers each interaction
on the shard Discord would: `(guild_id >> 22) % shard_count`, DMs on shard 0.

Threads are channels of their own (`open_thread`, or the bot's `POST /channels/{id}/threads`),
with their own messages. An archived thread refuses messages with 50083 until it is unarchived
(`PATCH`), which a locked one refuses the bot (it has no Manage Threads); a deleted thread is an
unknown channel (10003). Discord sends bots no thread events without the guilds intent, which
this bot does without: it learns of them when it posts. `delete_thread` deletes one as a
moderator does, and `manage_threads` False takes Manage Threads from the bot.

Every request body the bot sends (JSON, or multipart `payload_json`) to a route vendored in
tests/vendor/discord-api-spec is checked against Discord's OpenAPI description and the rules
Discord states in prose (`tests.vendor.limits`; for command syncs `command_problems` too: more
than 25 subcommands, a name or description too long...). One Discord would refuse is refused
with 400 and 50035, as Discord does (a sync so refused fails the bot's start), and recorded as
a violation that fails the test (`tests.vendor.schemas`), even if the bot swallows the 400.

Every request is paced as Discord paces a bot (`bot.load.pacing.discord_windows`): a channel's
messages are one route bucket of 5 in 5 s whose `X-RateLimit-*` headers each answer carries (so
discord.py waits before it is refused, as it does with Discord), 50 requests a second in all
(interaction answers aside); past a limit the answer is Discord's 429 with `retry_after`, the
`Retry-After` header and the limit's scope, through Discord's proxy (`Via`). An interaction not
answered within 3 s is unknown (10062), its token refuses follow-ups after 15 minutes (50027).
A test that needs speed raises a limit (`allow`); it never turns pacing off. A channel (or DM
channel) made `busy` answers its next posts with the 429 too, as a channel whose limit others
use up does.
"""

from __future__ import annotations

import asyncio
import io
import itertools
import json
import math
import re
import secrets
import time
import unicodedata
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

import discord
from aiohttp import BodyPartReader, web
from aiohttp.test_utils import TestServer
from PIL import Image

from bot.load import pacing
from tests.vendor import schemas

Json = dict[str, Any]
ClientT = TypeVar("ClientT", bound=discord.Client)
Where = Literal["channel", "dm", "ephemeral"]

EPHEMERAL = 1 << 6
API = "/api/v10"
TIMESTAMP = "2025-01-01T12:00:00.000000+00:00"
MEMBER_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    attach_files=True,
    use_application_commands=True,
    send_messages_in_threads=True,
    create_public_threads=True,
)
ADMIN_PERMISSIONS = MEMBER_PERMISSIONS | discord.Permissions(manage_channels=True)


@dataclass(frozen=True)
class Person:
    id: int
    name: str
    locale: str = "en-US"
    admin: bool = False

    def payload(self) -> Json:
        return {
            "id": str(self.id),
            "username": self.name.lower(),
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
        }


Value = str | int | bool | Person  # an option's value; a Person is a user picked for a user option


@dataclass(eq=False)
class Thread:
    """A public thread of a channel, as Discord keeps it."""

    id: int
    parent_id: int
    name: str
    archived: bool = False
    locked: bool = False
    deleted: bool = False


@dataclass
class Sent:
    """One message as Discord shows it, and to whom."""

    id: int
    channel_id: int
    where: Where
    audience: int | None  # the one user who sees it; None: everyone in the channel
    content: str
    files: list[tuple[str, bytes]]
    components: list[Json]
    payload: Json
    interaction: Interaction | None = None
    # Whom Discord notifies for it: "user:<id>", "role:<id>", "everyone" (`pinged`), and the
    # `allowed_mentions` the bot sent with it (None: left out, which lets every mention ping).
    pings: frozenset[str] = frozenset()
    allowed_mentions: Json | None = None

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.walk() if "custom_id" in c]

    def walk(self) -> Iterator[Json]:
        for row in self.components:
            yield from row.get("components", [])

    def button(self, custom_id_prefix: str) -> Json:
        for component in self.walk():
            if component.get("type") == 2 and component["custom_id"].startswith(custom_id_prefix):
                return component
        raise AssertionError(f"no button {custom_id_prefix!r} in {self.custom_ids()}")

    def menu(self) -> Json | None:
        return next((c for c in self.walk() if c.get("type") == 3), None)

    def images(self) -> list[Image.Image]:
        """The attached pictures, decoded (so a broken PNG fails the test)."""
        out: list[Image.Image] = []
        for _name, data in self.files:
            image = Image.open(io.BytesIO(data))
            image.load()
            out.append(image)
        return out


@dataclass
class Interaction:
    """An interaction sent to the bot and everything the bot answered to it."""

    id: int
    token: str
    kind: str
    user: Person
    channel_id: int
    callbacks: list[Json] = field(default_factory=list)
    deferred_ephemeral: bool | None = None
    original: Sent | None = None
    original_deleted: bool = False
    followups: list[Sent] = field(default_factory=list)
    choices: list[Json] | None = None
    created: float = field(default_factory=time.monotonic)  # when it was sent to the bot
    answered: float | None = None  # when its first callback came back

    @property
    def thinking_forever(self) -> bool:
        """Deferred but never answered nor removed: the user sees 'thinking...' forever."""
        return (
            self.deferred_ephemeral is not None
            and self.original is None
            and not self.original_deleted
        )

    def seen_by_user(self) -> list[Sent]:
        return [m for m in [self.original, *self.followups] if m is not None]


class FakeDiscord:
    """Discord's REST API (the parts a bot uses) plus the bookkeeping of what was shown."""

    def __init__(self) -> None:
        self.ids = itertools.count(1_100_000_000_000_000_000)
        self.bot = Person(next(self.ids), "FC Bot")
        self.app_id = self.bot.id
        self.guild_id = next(self.ids)
        self.channel_id = next(self.ids)
        self.requests: list[tuple[str, str]] = []
        self.unexpected: list[tuple[str, str]] = []
        self.sent: list[Sent] = []
        self.edited: list[Sent] = []  # channel messages changed in place, once per edit
        self.deleted: set[int] = set()  # messages removed from their channel (by a moderator)
        self.interactions: dict[str, Interaction] = {}
        self.dm_channels: dict[int, int] = {}  # DM channel id -> recipient
        self.blocked_dms: set[int] = set()  # users whose DMs are closed to the bot
        self.unwritable: set[int] = set()  # channels where the bot may not post
        self.threads: dict[int, Thread] = {}
        self.no_threads: set[int] = set()  # channels where the bot may not open threads
        self.manage_threads = True  # False: the bot may not delete threads (no Manage Threads)
        self.commands: list[Json] = []
        self.server: TestServer | None = None
        self.recommended_shards = 1  # what GET /gateway/bot advises
        self.shards: dict[int, web.WebSocketResponse] = {}  # shard id -> its open gateway
        self.identified: list[tuple[int, int]] = []  # every IDENTIFY's [shard_id, shard_count]
        self.intents: dict[int, int] = {}  # shard id -> the intents its IDENTIFY asked for
        self.posting = asyncio.Event()  # cleared: channel posts wait (a slow or limited API)
        self.posting.set()
        self.busy: dict[int, int] = {}  # channel id -> how many more posts get a 429
        self.retry_after = 0.05  # seconds a busy channel's 429 asks for
        self.limits = pacing.discord_windows()  # what a channel and the bot may be sent
        self.answer_within = 3.0  # seconds an interaction may wait for its first answer
        self.followups_within = 15 * 60.0  # seconds its token takes follow-ups and edits
        self.limited: list[tuple[str, str]] = []  # (scope, path) of every 429 answered
        self.late: list[Interaction] = []  # answered after `answer_within`: refused
        self.sequence = itertools.count(2)
        self.base = ""
        self._old_base = discord.http.Route.BASE
        # OAuth2 for the Activity: the application's client, the one-time codes Discord would
        # give the page's SDK (code -> who authorised), the access tokens traded for them.
        self.client_secret = "activity-secret"
        self.codes: dict[str, Person] = {}
        self.access: dict[str, Person] = {}

    # ------------------------------------------------------------------ server
    async def start(self) -> str:
        app = web.Application()
        app.router.add_route("*", API + "/{tail:.*}", self._handle)
        app.router.add_get("/gateway", self._gateway)
        self.server = TestServer(app)
        await self.server.start_server()
        self.base = str(self.server.make_url(API))
        # The one change to discord.py: its REST calls (webhooks and followups included) come here.
        discord.http.Route.BASE = self.base
        return self.base

    async def close(self) -> None:
        discord.http.Route.BASE = self._old_base
        for socket in list(self.shards.values()):
            await socket.close()
        if self.server is not None:
            await self.server.close()

    def allow(self, **limits: int) -> None:
        """Raise limits (`channel`, `global`: requests per its period) for a test that plays
        whole games at a machine's speed; never lowered, never off."""
        for name, limit in limits.items():
            window = self.limits[name]
            assert limit >= window.limit, "a test may raise a limit, not lower it"
            window.limit = limit

    def authorise(self, person: Person) -> str:
        """A one-time code, as the Embedded App SDK's authorize gives it after `person` said yes."""
        code = secrets.token_hex(15)  # 30 letters and digits, as Discord's codes are
        self.codes[code] = person
        return code

    def _token(self, form: Any) -> web.Response:
        """`/oauth2/token`: a code traded once, by the application's own client."""
        if (
            form.get("client_id") != str(self.app_id)
            or form.get("client_secret") != self.client_secret
        ):
            return _json({"error": "invalid_client"}, status=401)
        person = self.codes.pop(str(form.get("code", "")), None)
        if form.get("grant_type") != "authorization_code" or person is None:
            return _json({"error": "invalid_grant"}, status=400)
        access = f"access-{next(self.ids)}"
        self.access[access] = person
        return _json({"access_token": access, "token_type": "Bearer", "scope": "identify"})

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        try:
            path = request.path[len(API) :]
            if not path.startswith("/interactions/") and path != "/oauth2/token":
                wait = self.limits["global"].wait("bot")
                if wait > 0:
                    return self._rate_limited(path, "global", wait)
                self.limits["global"].take("bot")
            return await self._route(request)
        except Exception as error:  # a bug in the fake: fail the test, don't let discord retry
            self.unexpected.append((request.method, f"{request.path}: {error!r}"))
            return _error(400, 0, f"fake server error: {error!r}")

    async def _route(self, request: web.Request) -> web.StreamResponse:
        path = request.path[len(API) :]
        self.requests.append((request.method, path))
        body, files = await _read_body(request)
        parts = path.strip("/").split("/")
        method = request.method
        route = schemas.discord_route(method, path)
        if route is not None:
            problems = schemas.discord_problems(method, path, body)
            if route == "PUT /applications/{application_id}/commands" and isinstance(body, list):
                problems += command_problems(body)
            if problems:  # as Discord refuses the whole request; the test fails for it too
                schemas.record("discord", route, problems)
                return _error(400, INVALID_FORM, "Invalid Form Body: " + "; ".join(problems))
        if method == "GET" and path in ("/gateway/bot", "/gateway"):
            return _json(self._gateway_info())
        if method == "POST" and path == "/oauth2/token":
            return self._token(body)
        if method == "GET" and path == "/users/@me":
            auth = request.headers.get("Authorization", "")
            if auth.startswith("Bearer "):
                person = self.access.get(auth.removeprefix("Bearer "))
                return _json(person.payload()) if person else _error(401, 0, "401: Unauthorized")
            return _json({**self.bot.payload(), "bot": True})
        if method == "GET" and path == "/oauth2/applications/@me":
            return _json(self._application())
        if method == "PUT" and parts[0] == "applications" and parts[-1] == "commands":
            self.commands = [
                {**c, "id": str(next(self.ids)), "application_id": str(self.app_id), "version": "1"}
                for c in body
            ]
            return _json(self.commands)
        if method == "POST" and parts[0] == "interactions" and parts[-1] == "callback":
            return self._callback(parts[1], body, files)
        if parts[0] == "webhooks" and len(parts) >= 3:
            return self._webhook(method, parts, body, files)
        if method == "POST" and path == "/users/@me/channels":
            recipient = int(body["recipient_id"])
            channel_id = next(
                (c for c, r in self.dm_channels.items() if r == recipient), next(self.ids)
            )
            self.dm_channels[channel_id] = recipient
            return _json(self._dm_channel(channel_id, recipient))
        if method == "POST" and parts[0] == "channels" and parts[-1] == "messages":
            channel = int(parts[1])
            if self.busy.get(channel, 0) > 0:
                self.busy[channel] -= 1
                return self._rate_limited(path, "shared", self.retry_after)
            bucket = self.limits["channel"]
            wait = bucket.wait(channel)
            if wait > 0:
                return self._bucket_headers(self._rate_limited(path, "user", wait), channel)
            await self.posting.wait()
            answer = self._channel_message(channel, body, files)
            if answer.status == 200:
                bucket.take(channel)
            return self._bucket_headers(answer, channel)
        if method == "PATCH" and parts[0] == "channels" and parts[2:3] == ["messages"]:
            return self._edit_message(int(parts[1]), int(parts[3]), body)
        if method == "POST" and parts[0] == "channels" and parts[-1] == "threads":
            return self._start_thread(int(parts[1]), body)
        if parts[0] == "channels" and len(parts) == 2 and int(parts[1]) in self.threads:
            return self._edit_thread(method, self.threads[int(parts[1])], body)
        self.unexpected.append((method, path))
        return _json({"code": 0, "message": "404: Not Found"}, status=404)

    # ------------------------------------------------------------------ gateway
    def _gateway_info(self) -> Json:
        assert self.server is not None
        url = str(self.server.make_url("/gateway")).replace("http://", "ws://")
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        return {"url": url, "shards": self.recommended_shards, "session_start_limit": limit}

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        await socket.send_json({"op": 10, "d": {"heartbeat_interval": 41250}})
        shard: int | None = None
        async for frame in socket:
            message = json.loads(frame.data)
            if message["op"] == 1:  # heartbeat
                await socket.send_json({"op": 11})
            elif message["op"] == 2:  # identify
                shard, count = message["d"].get("shard", [0, 1])
                self.identified.append((shard, count))
                self.intents[shard] = int(message["d"].get("intents", 0))
                self.shards[shard] = socket
                await socket.send_json(self._ready(shard, count))
            elif message["op"] == 6:  # resume: not kept here, so start a new session
                await socket.send_json({"op": 9, "d": False})
        if shard is not None and self.shards.get(shard) is socket:
            del self.shards[shard]
        return socket

    def _ready(self, shard: int, count: int) -> Json:
        data = {
            "v": 10,
            "user": {**self.bot.payload(), "bot": True},
            "guilds": [],
            "session_id": f"session-{shard}-{next(self.ids)}",
            "resume_gateway_url": self._gateway_info()["url"],
            "application": {"id": str(self.app_id), "flags": 0},
            "shard": [shard, count],
        }
        return {"op": 0, "t": "READY", "s": 1, "d": data}

    def shard_of(self, payload: Json) -> int:
        """The shard Discord delivers this interaction on."""
        count = max((c for _s, c in self.identified), default=1)
        guild = payload.get("guild_id")
        return (int(guild) >> 22) % count if guild is not None else 0

    async def send(self, payload: Json) -> int:
        """Deliver an INTERACTION_CREATE over the gateway, on its shard; returns the shard."""
        shard = self.shard_of(payload)
        socket = self.shards[shard]
        event = {"op": 0, "t": "INTERACTION_CREATE", "s": next(self.sequence), "d": payload}
        await socket.send_json(event)
        return shard

    def use_guild(self, shard: int, count: int) -> int:
        """Make the next interactions come from a new guild (and channel) on this shard."""
        guild = next(self.ids)
        while (guild >> 22) % count != shard:
            guild += 1 << 22
        self.guild_id, self.channel_id = guild, next(self.ids)
        return guild

    def _application(self) -> Json:
        return {
            "id": str(self.app_id),
            "name": "FC Bot",
            "description": "",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": self.bot.payload(),
            "verify_key": "0" * 64,
            "flags": 0,
        }

    def _dm_channel(self, channel_id: int, recipient: int) -> Json:
        user = {"id": str(recipient), "username": f"u{recipient}", "discriminator": "0"}
        return {"id": str(channel_id), "type": 1, "recipients": [{**user, "avatar": None}]}

    # ------------------------------------------------------------------ threads
    def open_thread(self, name: str, parent_id: int | None = None) -> Thread:
        """A public thread someone opened in a channel (the game channel by default)."""
        thread = Thread(next(self.ids), parent_id or self.channel_id, name)
        self.threads[thread.id] = thread
        return thread

    async def delete_thread(self, thread: Thread) -> None:
        """A moderator deletes a thread: later requests to it are 404 Unknown Channel (10003),
        and THREAD_DELETE goes to the shards that asked for the guilds intent (Discord sends
        it no other bot, so this one, without intents, learns of it only when it posts)."""
        thread.deleted = True
        data = {
            "id": str(thread.id),
            "guild_id": str(self.guild_id),
            "parent_id": str(thread.parent_id),
            "type": 11,
        }
        for shard, socket in list(self.shards.items()):
            if self.intents.get(shard, 0) & discord.Intents(guilds=True).value:
                event = {"op": 0, "t": "THREAD_DELETE", "s": next(self.sequence), "d": data}
                await socket.send_json(event)

    def thread_json(self, thread: Thread) -> Json:
        metadata = {
            "archived": thread.archived,
            "auto_archive_duration": 10080,
            "archive_timestamp": TIMESTAMP,
            "locked": thread.locked,
        }
        return {
            "id": str(thread.id),
            "type": 11,
            "guild_id": str(self.guild_id),
            "parent_id": str(thread.parent_id),
            "owner_id": str(self.bot.id),
            "name": thread.name,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "message_count": 0,
            "member_count": 1,
            "flags": 0,
            "thread_metadata": metadata,
        }

    def _start_thread(self, parent_id: int, body: Json) -> web.Response:
        if parent_id in self.no_threads:
            return _error(403, 50013, "Missing Permissions")
        name = str(body.get("name", ""))
        if not 1 <= len(name) <= 100 or body.get("type") != 11:
            return _error(400, 50035, "Invalid Form Body")
        return _json(self.thread_json(self.open_thread(name, parent_id)), status=201)

    def _edit_thread(self, method: str, thread: Thread, body: Json) -> web.Response:
        if thread.deleted:
            return _error(404, 10003, "Unknown Channel")
        if method == "DELETE":
            if not self.manage_threads:
                return _error(403, 50013, "Missing Permissions")
            thread.deleted = True
            return _json(self.thread_json(thread))
        if method == "PATCH" and set(body) <= {"archived"}:
            if thread.locked and body.get("archived") is False:
                return _error(403, 50013, "Missing Permissions")  # needs Manage Threads
            thread.archived = bool(body.get("archived", thread.archived))
            return _json(self.thread_json(thread))
        self.unexpected.append((method, f"/channels/{thread.id}: {body}"))
        return _error(400, 0, "not done by the fake")

    def _rate_limited(self, path: str, scope: str, wait: float) -> web.Response:
        """Discord's 429: a route's bucket used up ("user"), a resource others share used up
        ("shared"), or the bot's 50 requests a second ("global")."""
        self.limited.append((scope, path))
        wait = round(wait + 0.0005, 3)  # never a wait that ends before the window does
        body = {"message": "You are being rate limited.", "retry_after": wait}
        response = _json({**body, "global": scope == "global", "code": 0}, status=429)
        response.headers.update(
            {"Retry-After": str(max(1, math.ceil(wait))), "X-RateLimit-Scope": scope}
        )
        response.headers["Via"] = "1.1 google"
        if scope == "global":
            response.headers["X-RateLimit-Global"] = "true"
        return response

    def _bucket_headers(self, response: web.Response, channel: int) -> web.Response:
        """A channel's messages bucket as Discord's headers tell it, on every answer."""
        bucket = self.limits["channel"]
        after = bucket.reset_after(channel)
        response.headers.update(
            {
                "X-RateLimit-Limit": str(bucket.limit),
                "X-RateLimit-Remaining": str(bucket.remaining(channel)),
                "X-RateLimit-Reset": f"{time.time() + after:.3f}",
                "X-RateLimit-Reset-After": f"{after:.3f}",
                "X-RateLimit-Bucket": f"messages-{channel}",
            }
        )
        return response

    def _channel_message(self, channel_id: int, body: Json, files: list[Any]) -> web.Response:
        thread = self.threads.get(channel_id)
        if thread is not None and thread.deleted:
            return _error(404, 10003, "Unknown Channel")
        if thread is not None and thread.archived:
            return _error(400, 50083, "Thread is archived")
        recipient = self.dm_channels.get(channel_id)
        if recipient is not None and recipient in self.blocked_dms:
            return _error(403, 50007, "Cannot send messages to this user")
        if channel_id in self.unwritable:
            return _error(403, 50013, "Missing Permissions")
        where: Where = "channel" if recipient is None else "dm"
        sent = self._store(channel_id, where, recipient, body, files)
        return _json(sent.payload)

    def _edit_message(self, channel_id: int, message_id: int, body: Json) -> web.Response:
        """A message the bot posted in a channel, changed in place (a menu shown again): one
        it never posted there, or an ephemeral one, is unknown on this route. Its mentions
        ping nobody again, as Discord's edits do not."""
        sent = next(
            (m for m in self.sent if (m.id, m.channel_id) == (message_id, channel_id)), None
        )
        if sent is None or sent.where == "ephemeral" or sent.id in self.deleted:
            return _error(404, 10008, "Unknown Message")
        if "content" in body:
            sent.content = body["content"] or ""
        if "components" in body:
            sent.components = body["components"] or []
        if "allowed_mentions" in body:
            sent.allowed_mentions = body["allowed_mentions"]
        sent.payload.update(
            content=sent.content, components=sent.components, edited_timestamp=TIMESTAMP
        )
        self.edited.append(sent)
        return _json(sent.payload)

    def _callback(self, interaction_id: str, body: Json, files: list[Any]) -> web.Response:
        interaction = next(i for i in self.interactions.values() if str(i.id) == interaction_id)
        if time.monotonic() - interaction.created > self.answer_within:
            self.late.append(interaction)
            took = time.monotonic() - interaction.created
            schemas.record("discord", "interaction callback", [f"answered after {took:.1f} s"])
            return _error(404, 10062, "Unknown interaction")
        if interaction.callbacks:
            return _error(400, 40060, "Interaction has already been acknowledged.")
        interaction.callbacks.append(body)
        interaction.answered = time.monotonic()
        kind = body["type"]
        data = body.get("data") or {}
        ephemeral = bool(data.get("flags", 0) & EPHEMERAL)
        if kind == 5:
            interaction.deferred_ephemeral = ephemeral
        elif kind == 4:
            interaction.original = self._store(
                interaction.channel_id,
                "ephemeral" if ephemeral else "channel",
                interaction.user.id if ephemeral else None,
                data,
                files,
                interaction,
            )
        elif kind == 8:
            interaction.choices = data.get("choices", [])
        return _json(
            {
                "interaction": {
                    "id": str(interaction.id),
                    "type": 2,
                    "response_message_loading": kind == 5,
                    "response_message_ephemeral": ephemeral,
                }
            }
        )

    def _webhook(self, method: str, parts: list[str], body: Json, files: list[Any]) -> web.Response:
        token = parts[2]
        interaction = self.interactions.get(token)
        if interaction is None:
            return _error(404, 10015, "Unknown Webhook")
        if time.monotonic() - interaction.created > self.followups_within:
            return _error(401, 50027, "Invalid Webhook Token")
        original = parts[3:] == ["messages", "@original"]
        if method == "DELETE" and original:
            interaction.original_deleted = True
            return web.Response(status=204)
        first = interaction.original is None and not interaction.original_deleted
        if (method == "PATCH" and original) or (method == "POST" and first):
            # A deferred response's first followup (or an edit) fills the "thinking" message,
            # which keeps the deferral's visibility whatever flags the followup carries.
            if interaction.deferred_ephemeral is None:
                return _error(404, 10008, "Unknown Message")
            ephemeral = interaction.deferred_ephemeral
        elif method == "POST":
            ephemeral = bool(body.get("flags", 0) & EPHEMERAL)
        else:
            self.unexpected.append((method, "/".join(parts)))
            return _error(404, 0, "404: Not Found")
        sent = self._store(
            interaction.channel_id,
            "ephemeral" if ephemeral else "channel",
            interaction.user.id if ephemeral else None,
            body,
            files,
            interaction,
        )
        if method == "PATCH" or first:
            interaction.original = sent
        else:
            interaction.followups.append(sent)
        return _json(sent.payload)

    def _store(
        self,
        channel_id: int,
        where: Where,
        audience: int | None,
        body: Json,
        files: list[tuple[str, bytes]],
        interaction: Interaction | None = None,
    ) -> Sent:
        message_id = next(self.ids)
        attachments = [
            {
                "id": str(next(self.ids)),
                "filename": name,
                "size": len(data),
                "url": f"https://cdn.invalid/{message_id}/{name}",
                "proxy_url": f"https://media.invalid/{message_id}/{name}",
            }
            for name, data in files
        ]
        flags = EPHEMERAL if where == "ephemeral" else 0
        payload: Json = {
            "id": str(message_id),
            "channel_id": str(channel_id),
            "author": {**self.bot.payload(), "bot": True},
            "content": body.get("content") or "",
            "timestamp": TIMESTAMP,
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": attachments,
            "embeds": body.get("embeds") or [],
            "pinned": False,
            "type": 0 if interaction is None else 20,
            "flags": flags,
            "components": body.get("components") or [],
        }
        if interaction is None and where == "channel":
            payload["guild_id"] = str(self.guild_id)
        sent = Sent(
            id=message_id,
            channel_id=channel_id,
            where=where,
            audience=audience,
            content=payload["content"],
            files=list(files),
            components=payload["components"],
            payload=payload,
            interaction=interaction,
            pings=pinged(payload["content"], body.get("allowed_mentions")),
            allowed_mentions=body.get("allowed_mentions"),
        )
        self.sent.append(sent)
        return sent

    # ------------------------------------------------------------------ views of the record
    def channel_messages(self, channel_id: int | None = None) -> list[Sent]:
        """What everybody in the channel sees."""
        wanted = channel_id or self.channel_id
        return [
            m
            for m in self.sent
            if m.where == "channel" and m.channel_id == wanted and m.id not in self.deleted
        ]

    def dms(self, user: Person) -> list[Sent]:
        return [m for m in self.sent if m.where == "dm" and m.audience == user.id]

    def dm_attempts(self, user: Person) -> int:
        """Messages the bot tried to send `user` privately, delivered or refused."""
        return sum(
            1
            for method, path in self.requests
            if method == "POST"
            and path.startswith("/channels/")
            and path.endswith("/messages")
            and self.dm_channels.get(int(path.split("/")[2])) == user.id
        )

    def ephemerals(self, user: Person) -> list[Sent]:
        return [m for m in self.sent if m.where == "ephemeral" and m.audience == user.id]

    def seen_by(self, user: Person, channel_id: int | None = None) -> list[Sent]:
        """Everything `user` can see: the channel, their DMs, their ephemeral responses."""
        wanted = channel_id or self.channel_id
        return [
            m
            for m in self.sent
            if (m.where == "channel" and m.channel_id == wanted) or m.audience == user.id
        ]

    # ------------------------------------------------------------------ gateway payloads
    def _interaction(
        self,
        kind: str,
        user: Person,
        type_: int,
        data: Json,
        *,
        dm: bool,
        message: Json | None,
        thread: Thread | None = None,
    ) -> Json:
        interaction_id = next(self.ids)
        token = f"token-{interaction_id}"
        if dm:
            channel_id = next(
                (c for c, r in self.dm_channels.items() if r == user.id), next(self.ids)
            )
            self.dm_channels[channel_id] = user.id
        else:
            channel_id = self.channel_id if thread is None else thread.id
        self.interactions[token] = Interaction(interaction_id, token, kind, user, channel_id)
        payload: Json = {
            "id": str(interaction_id),
            "application_id": str(self.app_id),
            "type": type_,
            "token": token,
            "version": 1,
            "data": data,
            "channel_id": str(channel_id),
            "locale": user.locale,
            "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024,
            "app_permissions": str(MEMBER_PERMISSIONS.value),
        }
        if dm:
            payload["user"] = user.payload()
            payload["channel"] = self._dm_channel(channel_id, user.id)
            payload["context"] = 1
            payload["authorizing_integration_owners"] = {"0": str(self.guild_id)}
        else:
            permissions = ADMIN_PERMISSIONS if user.admin else MEMBER_PERMISSIONS
            payload["guild_id"] = str(self.guild_id)
            payload["guild_locale"] = "en-US"
            payload["guild"] = {"id": str(self.guild_id), "locale": "en-US", "features": []}
            payload["channel"] = {
                "id": str(channel_id),
                "type": 0,
                "guild_id": str(self.guild_id),
                "name": "forbidden-city",
                "position": 0,
                "permission_overwrites": [],
                "nsfw": False,
                "parent_id": None,
                "permissions": str(permissions.value),
            }
            if thread is not None:
                payload["channel"] = {
                    **self.thread_json(thread),
                    "permissions": str(permissions.value),
                }
            payload["member"] = {
                "user": user.payload(),
                "roles": [],
                "joined_at": TIMESTAMP,
                "deaf": False,
                "mute": False,
                "flags": 0,
                "pending": False,
                "nick": None,
                "avatar": None,
                "permissions": str(permissions.value),
            }
            payload["context"] = 0
            payload["authorizing_integration_owners"] = {"0": str(self.guild_id)}
        if message is not None:
            payload["message"] = message
        return payload

    def command_payload(self, user: Person, subcommand: str, /, **options: Value) -> Json:
        """`/fc <subcommand> option:value ...` typed in the game channel (a `Person` value is
        a user picked for a user option); `subcommand` may name one of a group: "bot add"."""
        return self._command(user, subcommand, options, dm=False)

    def thread_command_payload(
        self, user: Person, thread: Thread, subcommand: str, /, **options: Value
    ) -> Json:
        """The same, typed in a thread."""
        return self._command(user, subcommand, options, dm=False, thread=thread)

    def dm_command_payload(self, user: Person, subcommand: str, /, **options: Value) -> Json:
        """The same, typed in the user's DM with the bot."""
        return self._command(user, subcommand, options, dm=True)

    def _command(
        self,
        user: Person,
        subcommand: str,
        options: dict[str, Value],
        *,
        dm: bool,
        thread: Thread | None = None,
    ) -> Json:
        sub: Json = {"type": 1, "name": subcommand}
        if options:
            sub["options"] = [
                {
                    "type": _option_type(v),
                    "name": k,
                    "value": str(v.id) if isinstance(v, Person) else v,
                }
                for k, v in options.items()
            ]
        group, _, name = subcommand.rpartition(" ")
        if group:  # a subcommand of a group: the group is the option that holds it
            sub = {"type": 2, "name": group, "options": [{**sub, "name": name}]}
        data = self._command_data([sub])
        picked = [v for v in options.values() if isinstance(v, Person)]
        if picked:
            # Discord sends the users an option names along (members too, in a guild).
            resolved: Json = {"users": {str(p.id): p.payload() for p in picked}}
            if not dm:
                resolved["members"] = {str(p.id): _member(p) for p in picked}
            data["resolved"] = resolved
        return self._interaction("command", user, 2, data, dm=dm, message=None, thread=thread)

    def autocomplete_payload(self, user: Person, typed: str, *, dm: bool = False) -> Json:
        sub = {
            "type": 1,
            "name": "play",
            "options": [{"type": 3, "name": "spot", "value": typed, "focused": True}],
        }
        return self._interaction(
            "autocomplete", user, 4, self._command_data([sub]), dm=dm, message=None
        )

    def _command_data(self, options: list[Json]) -> Json:
        command_id = next((c["id"] for c in self.commands if c["name"] == "fc"), "1")
        return {"id": command_id, "name": "fc", "type": 1, "options": options}

    def press_payload(
        self, user: Person, message: Sent, custom_id: str, *, values: list[str] | None = None
    ) -> Json:
        """A click on a component of a message the bot sent (or a select choice)."""
        dm = message.channel_id in self.dm_channels
        data: Json = {"custom_id": custom_id, "component_type": 2 if values is None else 3}
        if values is not None:
            data["values"] = values
        thread = self.threads.get(message.channel_id)
        return self._interaction(
            "component", user, 3, data, dm=dm, message=message.payload, thread=thread
        )

    def last_interaction(self) -> Interaction:
        return list(self.interactions.values())[-1]


# Mention syntax in a message's content; a backslash before it shows it as text instead.
_USER_MENTION = re.compile(r"(?<!\\)<@!?(\d+)>")
_ROLE_MENTION = re.compile(r"(?<!\\)<@&(\d+)>")
_EVERYONE = re.compile(r"(?<!\\)@(?:everyone|here)")


def pinged(content: str, allowed: Json | None) -> frozenset[str]:
    """Whom Discord notifies for a message: the mentions in its content that its
    `allowed_mentions` lets through (every kind of them when it is left out)."""
    parse = {"users", "roles", "everyone"} if allowed is None else set(allowed.get("parse", []))
    listed = {} if allowed is None else allowed
    users = set(_USER_MENTION.findall(content))
    roles = set(_ROLE_MENTION.findall(content))
    if "users" not in parse:
        users &= {str(u) for u in listed.get("users", [])}
    if "roles" not in parse:
        roles &= {str(r) for r in listed.get("roles", [])}
    everyone = {"everyone"} if "everyone" in parse and _EVERYONE.search(content) else set()
    return frozenset({f"user:{u}" for u in users} | {f"role:{r}" for r in roles} | everyone)


INVALID_FORM = 50035  # Discord's code for a request body it refuses
COMMANDS_AT_MOST = 100  # global chat-input commands of an application
OPTIONS_AT_MOST = 25  # options of one level (subcommands, groups, parameters), choices too
NAME_AT_MOST = 32
TEXT_AT_MOST = 100  # a description, a choice's name, a string choice's value
COMMAND_AT_MOST = 4000  # a command's names, descriptions and values, summed


def command_problems(commands: list[Json]) -> list[str]:
    """What Discord refuses in a bulk overwrite of commands, as Discord's documentation of
    application commands states it (an empty list if nothing). Lengths are characters (code
    points); a localized name or description follows the rules of the default one, and the
    combined size counts each field at its longest localization."""
    problems = [] if len(commands) <= COMMANDS_AT_MOST else [f"{len(commands)} commands"]
    for command in commands:
        where = f"/{command.get('name', '?')}"
        problems += _item_problems(command, where)
        problems += _level_problems(command.get("options", []), where, "command")
        size = _size(command)
        if size > COMMAND_AT_MOST:
            problems.append(f"{where}: {size} characters in all (at most {COMMAND_AT_MOST})")
    return problems


def _valid_name(text: object) -> bool:
    """1 to 32 letters, digits, `-`, `_` or `'`, in lowercase where a letter has a case."""
    return (
        isinstance(text, str)
        and 0 < len(text) <= NAME_AT_MOST
        and text == text.lower()
        and all(c in "-_'" or unicodedata.category(c)[0] in "LN" for c in text)
    )


def _item_problems(item: Json, where: str) -> list[str]:
    problems = []
    for name in [item.get("name"), *(item.get("name_localizations") or {}).values()]:
        if not _valid_name(name):
            problems.append(f"{where}: name {name!r}")
    texts = [item.get("description"), *(item.get("description_localizations") or {}).values()]
    for text in texts:
        if not isinstance(text, str) or not 0 < len(text) <= TEXT_AT_MOST:
            problems.append(f"{where}: description {text!r}")
    return problems


def _level_problems(options: list[Json], where: str, parent: str) -> list[str]:
    """One level of options: a command's, a subcommand group's or a subcommand's."""
    problems = [] if len(options) <= OPTIONS_AT_MOST else [f"{where}: {len(options)} options"]
    names = [o.get("name") for o in options]
    if len(set(names)) != len(names):
        problems.append(f"{where}: names twice among {names}")
    kinds = {o.get("type") in (1, 2) for o in options}
    if len(kinds) > 1:
        problems.append(f"{where}: subcommands mixed with other options")
    required = [bool(o.get("required")) for o in options]
    if required != sorted(required, reverse=True):
        problems.append(f"{where}: a required option after an optional one")
    for option in options:
        inner = f"{where} {option.get('name', '?')}"
        problems += _item_problems(option, inner)
        kind = option.get("type")
        if kind == 2 and parent != "command":
            problems.append(f"{inner}: a group inside a group")
        if parent == "group" and kind != 1:
            problems.append(f"{inner}: a group holds subcommands only")
        if kind == 1 and parent == "subcommand":
            problems.append(f"{inner}: a subcommand inside a subcommand")
        if kind in (1, 2):
            inside = "group" if kind == 2 else "subcommand"
            problems += _level_problems(option.get("options", []), inner, inside)
        choices = option.get("choices", [])
        if len(choices) > OPTIONS_AT_MOST:
            problems.append(f"{inner}: {len(choices)} choices")
        for choice in choices:
            labels = [choice.get("name"), *(choice.get("name_localizations") or {}).values()]
            if not all(isinstance(t, str) and 0 < len(t) <= TEXT_AT_MOST for t in labels):
                problems.append(f"{inner}: choice {labels!r}")
            value = choice.get("value")
            if isinstance(value, str) and not 0 < len(value) <= TEXT_AT_MOST:
                problems.append(f"{inner}: choice value {value!r}")
    return problems


def _size(item: Json) -> int:
    """The characters Discord counts of an item: its name, description and value, each at its
    longest localization, and those of its options and choices."""
    size = 0
    for field_name in ("name", "description"):
        texts = [item.get(field_name), *(item.get(f"{field_name}_localizations") or {}).values()]
        size += max((len(t) for t in texts if isinstance(t, str)), default=0)
    if "value" in item:
        size += len(str(item["value"]))
    return size + sum(
        _size(inner) for inner in [*item.get("options", []), *item.get("choices", [])]
    )


def _json(data: Any, status: int = 200) -> web.Response:
    # Exactly Discord's content type: discord.py parses JSON only when it matches.
    body = json.dumps(data).encode()
    return web.Response(body=body, status=status, headers={"Content-Type": "application/json"})


def _error(status: int, code: int, message: str) -> web.Response:
    return _json({"code": code, "message": message}, status=status)


async def _read_body(request: web.Request) -> tuple[Any, list[tuple[str, bytes]]]:
    """JSON body, or multipart `payload_json` and `files[n]` parts, as discord.py sends them
    (or a form, as an OAuth2 client sends one)."""
    if request.content_type == "multipart/form-data":
        body: Any = {}
        files: list[tuple[str, bytes]] = []
        reader = await request.multipart()
        async for part in reader:
            if not isinstance(part, BodyPartReader):
                continue
            data = await part.read()
            if part.name == "payload_json":
                body = json.loads(data)
            else:
                files.append((part.filename or "", bytes(data)))
        return body, files
    if request.content_type == "application/x-www-form-urlencoded":  # OAuth2's token endpoint
        return dict(await request.post()), []
    if request.can_read_body:
        text = await request.text()
        return (json.loads(text) if text else {}), []
    return {}, []


@asynccontextmanager
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    await fake.start()
    try:
        yield fake
    finally:
        await fake.close()


@asynccontextmanager
async def logged_in(client: ClientT) -> AsyncIterator[ClientT]:
    """Log in against the fake (runs `setup_hook`: command sync, dynamic items); no gateway."""
    await client.login("test-token")
    try:
        yield client
    finally:
        await client.close()


async def dispatch(client: discord.Client, payload: Json, timeout: float = 30.0) -> None:
    """Feed an INTERACTION_CREATE to the client and wait for everything it started for it."""
    await dispatch_all(client, [payload], timeout)


async def dispatch_all(client: discord.Client, payloads: list[Json], timeout: float = 30.0) -> None:
    """Feed many INTERACTION_CREATEs at once, as a busy gateway does, and wait for them all."""
    before = asyncio.all_tasks()
    for payload in payloads:
        client._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
    started = asyncio.all_tasks() - before
    if started:
        await asyncio.wait_for(asyncio.gather(*started), timeout)


def _member(person: Person) -> Json:
    """A guild member as `resolved.members` has it (without the user, sent beside)."""
    return {
        "roles": [],
        "joined_at": TIMESTAMP,
        "flags": 0,
        "pending": False,
        "nick": None,
        "avatar": None,
        "permissions": str(MEMBER_PERMISSIONS.value),
    }


def _option_type(value: Value) -> int:
    """Discord's application command option types: user 6, boolean 5, integer 4, string 3."""
    if isinstance(value, Person):
        return 6
    if isinstance(value, bool):
        return 5
    return 4 if isinstance(value, int) else 3
