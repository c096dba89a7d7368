"""Local stand-ins for the Bot API and Discord's REST API that pace the bot as the platforms
do (`pacing`), for `python -m bot load --paced`: the real adapters (python-telegram-bot,
discord.py) talk to them over HTTP, wait where the platforms make a bot wait, and are
answered 429 where they would be.

Only the calls a game's delivery makes are answered (log in, send, edit, open a DM); each
post that reaches a place is handed to `seen` with its picture's bytes, if it has one, so the
run can tell when a move's picture reached its chat. Anything else is answered 404 and
counted in `unexpected`: the run's figures would not be what a platform makes of the bot.
Request bodies are not checked here: the tests' fakes check them against the published
schemas.
"""

from __future__ import annotations

import itertools
import json
import math
import time
from collections.abc import Callable, Hashable
from typing import Any, Final

from aiohttp import BodyPartReader, web

from .pacing import Bucket, Window, discord_windows, telegram_windows, whole_seconds

Seen = Callable[[str, bytes | None], None]  # a place's id, and the picture a post carried
Json = dict[str, Any]

TELEGRAM_TOKEN: Final = "1:paced-load"
DISCORD_TOKEN: Final = "paced-load"
BOT_ID: Final = 1_000_000_001
_TELEGRAM_SENDS: Final = frozenset(
    {"sendMessage", "sendPhoto", "sendAnimation", "sendDocument", "editMessageText"}
)
_FILE_FIELDS: Final = ("photo", "animation", "document")
_TIMESTAMP: Final = "2026-01-01T12:00:00.000000+00:00"


class StandIn:
    """An aiohttp application on a free local port."""

    def __init__(self) -> None:
        self.seen: Seen = lambda place, picture: None  # set by whoever watches the posts
        self.refused = 0  # 429s answered
        self.unexpected: list[str] = []  # calls the stand-in does not answer
        self.ids = itertools.count(1)
        self._runner: web.AppRunner | None = None
        self.port = 0

    def routes(self, app: web.Application) -> None:
        raise NotImplementedError

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024**2)
        self.routes(app)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", 0).start()
        self.port = int(self._runner.addresses[0][1])

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()


def _over(windows: list[tuple[Window | Bucket, Hashable]], now: float) -> float:
    """Seconds until one more request may go through every window (0: now, and counted)."""
    wait = max(window.wait(key, now) for window, key in windows)
    if wait <= 0:
        for window, key in windows:
            window.take(key, now)
    return wait


class PacedTelegram(StandIn):
    """The Bot API at `url`: about one message a second into a private chat, 20 a minute into
    a group (its id negative), 30 a second in all; past one, 429 with whole seconds."""

    def __init__(self) -> None:
        super().__init__()
        self.limits = telegram_windows()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/bot"

    def routes(self, app: web.Application) -> None:
        app.router.add_post("/bot{token}/{method}", self._handle)

    async def _handle(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        if request.match_info["token"] != TELEGRAM_TOKEN:
            return _telegram_error(401, "Unauthorized")
        form = await request.post()
        if method == "getMe":
            return _telegram_ok(
                {"id": BOT_ID, "is_bot": True, "first_name": "FC", "username": "fc"}
            )
        if method not in _TELEGRAM_SENDS:
            self.unexpected.append(method)
            return _telegram_error(404, f"Not Found: {method}")
        chat = int(str(form["chat_id"]))
        place = self.limits["group" if chat < 0 else "chat"]
        wait = _over([(self.limits["overall"], "bot"), (place, chat)], time.monotonic())
        if wait > 0:
            self.refused += 1
            seconds = int(whole_seconds(wait))
            return _telegram_error(
                429, f"Too Many Requests: retry after {seconds}", {"retry_after": seconds}
            )
        picture = next(
            (
                field.file.read()
                for name in _FILE_FIELDS
                if isinstance(field := form.get(name), web.FileField)
            ),
            None,
        )
        self.seen(str(chat), picture)
        kind = "supergroup" if chat < 0 else "private"
        message: Json = {
            "message_id": next(self.ids),
            "date": int(time.time()),
            "chat": {"id": chat, "type": kind},
        }
        if picture is not None:
            message["photo"] = [{"file_id": "p", "file_unique_id": "u", "width": 1, "height": 1}]
        else:
            message["text"] = str(form.get("text", ""))
        return _telegram_ok(message)


def _telegram_ok(result: Any) -> web.Response:
    return web.json_response({"ok": True, "result": result})


def _telegram_error(status: int, description: str, parameters: Json | None = None) -> web.Response:
    body: Json = {"ok": False, "error_code": status, "description": description}
    if parameters:
        body["parameters"] = parameters
    return web.json_response(body, status=status)


class PacedDiscord(StandIn):
    """Discord's REST API at `url`: a channel's messages one bucket of 5 in 5 s whose
    `X-RateLimit-*` headers every answer carries (discord.py waits on them), 50 requests a
    second in all; past one, 429 with `retry_after` and `Retry-After`."""

    def __init__(self) -> None:
        super().__init__()
        self.limits = discord_windows()
        self.dms: dict[int, int] = {}  # DM channel id -> recipient

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    def routes(self, app: web.Application) -> None:
        app.router.add_route("*", "/api/v10/{tail:.*}", self._handle)

    async def _handle(self, request: web.Request) -> web.Response:
        now = time.monotonic()
        parts = request.match_info["tail"].strip("/").split("/")
        if _over([(self.limits["global"], "bot")], now) > 0:
            return self._limited("global", self.limits["global"].wait("bot", now))
        body, files = await _read_body(request)
        if request.method == "GET" and parts == ["users", "@me"]:
            return _discord_json(_user(BOT_ID, bot=True))
        if request.method == "GET" and parts == ["oauth2", "applications", "@me"]:
            return _discord_json(_application())
        if request.method == "POST" and parts == ["users", "@me", "channels"]:
            return _discord_json(self._dm(int(body["recipient_id"])))
        if request.method == "POST" and len(parts) == 3 and parts[::2] == ["channels", "messages"]:
            return self._post(int(parts[1]), body, files, now)
        self.unexpected.append(f"{request.method} /{'/'.join(parts)}")
        return _discord_json({"message": "404: Not Found", "code": 0}, status=404)

    def _dm(self, recipient: int) -> Json:
        channel = next((c for c, r in self.dms.items() if r == recipient), None)
        if channel is None:
            channel = 2_000_000_000 + next(self.ids)
            self.dms[channel] = recipient
        return {
            "id": str(channel),
            "type": 1,
            "last_message_id": None,
            "recipients": [_user(recipient)],
        }

    def _post(self, channel: int, body: Json, files: list[bytes], now: float) -> web.Response:
        bucket = self.limits["channel"]
        wait = _over([(bucket, channel)], now)
        if wait > 0:
            return self._headers(self._limited("user", wait), channel, now)
        self.seen(str(channel), files[0] if files else None)
        message: Json = {
            "id": str(next(self.ids)),
            "channel_id": str(channel),
            "author": _user(BOT_ID, bot=True),
            "content": body.get("content") or "",
            "timestamp": _TIMESTAMP,
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "pinned": False,
            "type": 0,
            "flags": 0,
            "components": body.get("components") or [],
        }
        return self._headers(_discord_json(message), channel, now)

    def _limited(self, scope: str, wait: float) -> web.Response:
        self.refused += 1
        wait = round(wait + 0.0005, 3)  # never a wait that ends before the window does
        body = {
            "message": "You are being rate limited.",
            "retry_after": wait,
            "global": scope == "global",
            "code": 0,
        }
        response = _discord_json(body, status=429)
        response.headers.update(
            {"Retry-After": str(max(1, math.ceil(wait))), "X-RateLimit-Scope": scope}
        )
        response.headers["Via"] = "1.1 google"  # Discord's proxy: discord.py waits on it
        if scope == "global":
            response.headers["X-RateLimit-Global"] = "true"
        return response

    def _headers(self, response: web.Response, channel: int, now: float) -> web.Response:
        """The channel's messages bucket as Discord's headers tell it."""
        bucket = self.limits["channel"]
        after = math.ceil(bucket.reset_after(channel, now) * 1000) / 1000  # never too soon
        response.headers.update(
            {
                "X-RateLimit-Limit": str(bucket.limit),
                "X-RateLimit-Remaining": str(bucket.remaining(channel, now)),
                "X-RateLimit-Reset": f"{time.time() + after:.3f}",
                "X-RateLimit-Reset-After": f"{after:.3f}",
                "X-RateLimit-Bucket": f"messages-{channel}",
            }
        )
        return response


def _user(user_id: int, bot: bool = False) -> Json:
    return {
        "id": str(user_id),
        "username": f"u{user_id}",
        "global_name": None,
        "discriminator": "0",
        "avatar": None,
        "bot": bot,
    }


def _application() -> Json:
    return {
        "id": str(BOT_ID),
        "name": "FC",
        "icon": None,
        "description": "",
        "bot_public": True,
        "bot_require_code_grant": False,
        "verify_key": "0" * 64,
        "flags": 0,
        "owner": _user(7),
    }


async def _read_body(request: web.Request) -> tuple[Json, list[bytes]]:
    """JSON, or multipart `payload_json` and its files, as discord.py sends them."""
    if request.content_type == "multipart/form-data":
        body: Json = {}
        files: list[bytes] = []
        async for part in await request.multipart():
            if not isinstance(part, BodyPartReader):
                continue
            data = bytes(await part.read())
            if part.name == "payload_json":
                body = json.loads(data)
            else:
                files.append(data)
        return body, files
    text = await request.text() if request.can_read_body else ""
    return (json.loads(text) if text else {}), []


def _discord_json(data: Any, status: int = 200) -> web.Response:
    """Exactly Discord's content type: discord.py parses JSON only when it matches."""
    body = json.dumps(data).encode()
    return web.Response(body=body, status=status, headers={"Content-Type": "application/json"})
