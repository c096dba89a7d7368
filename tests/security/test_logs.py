"""No token, secret or seat token in the bot's log, at any level, on Telegram and on Discord.

Real `python -m bot` processes on the fake Telegram Bot API and the fake Discord, with the table
pages and personal links on, play until a private turn message carries a player's `#seat=`
link; then their whole output is searched for every secret the run had: the bot token, the
webhook secret, `WEB_SECRET`, the Discord client secret, the seat tokens the fake platform
received (so they existed), a Discord OAuth access token. The libraries log request addresses
(Telegram's carry the bot token) and, at DEBUG, whole requests: the log must still say what
happened, with the secrets replaced by a marker.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import re
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from pydantic import SecretStr

from bot.config import Settings
from bot.local_redis.server import free_port
from bot.runtime.logs import REDACTED, RedactingFormatter, Redactor, secrets_of
from tests.fake_discord import FakeDiscord, Person, fake_discord
from tests.fake_telegram import TOKEN, FakeBotApi, TgUser
from tests.procs import ROOT, bot_environment

GROUP = -100_4242
ANN, BEN = TgUser(7301, "Ann"), TgUser(7302, "Ben")
DISCORD_ANN, DISCORD_BEN = Person(7401, "Ann"), Person(7402, "Ben")
WEB_SECRET = "web-secret-for-the-log-test"
WEBHOOK_SECRET = "webhook-secret-for-the-log-test"
DISCORD_TOKEN = "discord-bot-token-for-the-log-test"
CLIENT_SECRET = "discord-client-secret-for-the-log-test"  # set, unused, on Telegram
SEAT = re.compile(r"#seat=([A-Za-z0-9_.\-]+)")
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


async def until(check: Callable[[], object], timeout: float = 60.0) -> None:
    """Wait for a state with the event loop free (the fakes run in it)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not check():
        if asyncio.get_running_loop().time() > deadline:
            pytest.fail("waited in vain")
        await asyncio.sleep(0.05)


class Bot:
    """One `python -m bot` process; everything it writes (stdout and stderr) goes to a file."""

    def __init__(self, folder: Path, **env: str) -> None:
        self.log_file = folder / "bot.log"
        with self.log_file.open("wb") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "bot"],
                cwd=ROOT,
                env=bot_environment(DATA_DIR=str(folder / "data"), **env),
                stdout=out,
                stderr=out,
            )

    def log(self) -> str:
        return self.log_file.read_text(errors="replace")

    async def stop(self) -> None:
        """SIGTERM, waited for with the loop free (a stopping bot still calls the fake), then
        SIGKILL if it hangs: the log then has the stop's lines too."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            await until(lambda: self.process.poll() is not None, timeout=30)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait(10)


@asynccontextmanager
async def running(folder: Path, **env: str) -> AsyncIterator[Bot]:
    bot = Bot(folder, **env)
    try:
        yield bot
    finally:
        await bot.stop()


def web_settings() -> dict[str, str]:
    """Table pages served and personal links signed, over http: Telegram then posts the link
    itself (an https page would open as the Mini App, without the fragment)."""
    port = free_port()
    return {
        "WEB_URL": f"http://127.0.0.1:{port}",
        "WEB_PORT": str(port),
        "WEB_SECRET": WEB_SECRET,
        "TELEGRAM_MINI_APP": "",
        "BOT_WORKERS": "1",
    }


def seat_tokens(sent: object) -> set[str]:
    """The seat tokens of the personal links in what a fake platform received."""
    return set(SEAT.findall(json.dumps(sent)))


def assert_clean(log: str, secrets: set[str]) -> None:
    leaked = sorted(secret for secret in secrets if secret in log)
    assert leaked == [], f"secrets in the log: {leaked}"


# ------------------------------------------------------------------ Telegram


async def test_telegram_logs_no_secret_at_debug_with_a_webhook(
    api: FakeBotApi, redis_url: str, tmp_path: Path
) -> None:
    port = free_port()
    log = await telegram_game(
        api,
        tmp_path,
        LOG_LEVEL="DEBUG",
        REDIS_URL=redis_url,
        TELEGRAM_WEBHOOK_URL=f"http://127.0.0.1:{port}/telegram",
        TELEGRAM_WEBHOOK_PORT=str(port),
        TELEGRAM_WEBHOOK_SECRET=WEBHOOK_SECRET,
    )
    assert api.webhook is not None and api.webhook[1] == WEBHOOK_SECRET  # Telegram got it
    assert "secret_token" in log  # the setWebhook call was logged, its secret taken out
    assert_telegram_debug(log)


async def test_telegram_logs_no_secret_at_debug_when_polling(
    api: FakeBotApi, redis_url: str, tmp_path: Path
) -> None:
    log = await telegram_game(api, tmp_path, LOG_LEVEL="DEBUG", REDIS_URL=redis_url)
    assert_telegram_debug(log)


async def test_telegram_logs_no_secret_nor_a_line_per_request_at_the_default_level(
    api: FakeBotApi, redis_url: str, tmp_path: Path
) -> None:
    log = await telegram_game(api, tmp_path, REDIS_URL=redis_url)  # LOG_LEVEL unset: INFO
    assert "INFO fc-bot: starting 1 platform(s)" in log
    assert "polling Telegram for updates" in log
    assert "HTTP Request:" not in log  # httpx's line per Bot API call: noise


def assert_telegram_debug(log: str) -> None:
    """At DEBUG the requests are there, their secrets replaced."""
    assert "DEBUG telegram.ext.ExtBot: Calling Bot API endpoint `sendPhoto`" in log
    assert "INFO httpx: HTTP Request: POST http://127.0.0.1:" in log
    assert f"/bot{REDACTED}/sendPhoto" in log  # the address is logged, without its token
    assert f"#seat={REDACTED}" in log  # the turn message is logged, without its link's token


async def telegram_game(api: FakeBotApi, folder: Path, **env: str) -> str:
    """A group's game begun on the fake Bot API until a player's private turn message has
    their personal link; the bot's whole log, checked for every secret the run had."""
    async with running(
        folder,
        TELEGRAM_TOKEN=TOKEN,
        TELEGRAM_BASE_URL=api.base_url,
        DISCORD_CLIENT_SECRET=CLIENT_SECRET,
        **web_settings(),
        **env,
    ) as bot:
        webhook = "TELEGRAM_WEBHOOK_URL" in env
        await until(
            lambda: (
                api.webhook is not None
                if webhook
                else any(c.method == "getUpdates" for c in api.calls)
            )
        )

        async def say(user: TgUser, text: str) -> None:
            update = api.command(GROUP, user, text)
            if api.webhook is None:
                api.serve_update(update)
                return
            url, secret = api.webhook
            status, _ = await api.post_webhook(url, update, secret)
            assert status == 200

        for number, (user, text) in enumerate(((ANN, "/fc new"), (BEN, "/fc join")), 1):
            await say(user, text)
            await until(lambda number=number: len(api.sent(GROUP)) >= number)  # type: ignore[misc]
        await say(ANN, "/fc start")
        await until(lambda: seat_tokens([c.params for c in api.sent()]))
    notices = [
        c for c in api.sent() if c.chat_id in (ANN.id, BEN.id) and SEAT.search(str(c.params))
    ]
    assert notices and "Your turn" in notices[0].text  # a private turn message with the link
    tokens = seat_tokens([c.params for c in api.calls])
    log = bot.log()
    assert log.strip() and "fc-bot:" in log
    bot_secret = TOKEN.split(":", 1)[1]
    assert_clean(log, {TOKEN, bot_secret, WEB_SECRET, WEBHOOK_SECRET, CLIENT_SECRET, *tokens})
    return log


# ------------------------------------------------------------------ Discord


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with fake_discord() as server:
        yield server


@pytest.mark.parametrize("level", ["DEBUG", "INFO"])
async def test_discord_logs_no_secret(
    fake: FakeDiscord, redis_url: str, tmp_path: Path, level: str
) -> None:
    web = web_settings()
    async with running(
        tmp_path,
        DISCORD_TOKEN=DISCORD_TOKEN,
        DISCORD_API_BASE=fake.base,
        DISCORD_ACTIVITY="true",
        DISCORD_CLIENT_ID=str(fake.app_id),
        DISCORD_CLIENT_SECRET=fake.client_secret,
        REDIS_URL=redis_url,
        LOG_LEVEL=level,
        **web,
    ) as bot:
        await until(lambda: 0 in fake.shards and fake.commands)
        for user, command in ((DISCORD_ANN, "new"), (DISCORD_BEN, "join"), (DISCORD_ANN, "start")):
            payload = fake.command_payload(user, command)
            await fake.send(payload)
            asked = fake.interactions[payload["token"]]
            await until(lambda a=asked: a.original or a.followups or a.original_deleted)  # type: ignore[misc]
        await until(lambda: any(seat_tokens(m.payload) for m in fake.sent if m.where == "dm"))
        # The Activity: the page's one-time code traded at Discord with the client secret for
        # an OAuth access token, which goes back to the page with a seat token.
        async with (
            aiohttp.ClientSession() as http,
            http.post(
                web["WEB_URL"] + "/activity/open",
                json={"code": fake.authorise(DISCORD_ANN), "channel_id": str(fake.channel_id)},
            ) as answer,
        ):
            assert answer.status == 200
            opened: dict[str, Any] = await answer.json()
        assert opened["access_token"] in fake.access and opened["token"]
    tokens = seat_tokens([m.payload for m in fake.sent])
    assert tokens
    log = bot.log()
    assert log.strip() and "INFO fc-bot: starting 1 platform(s)" in log
    assert_clean(
        log,
        {DISCORD_TOKEN, WEB_SECRET, fake.client_secret, opened["token"], *fake.access, *tokens},
    )
    if level == "DEBUG":  # the requests are there, their secrets replaced
        assert "DEBUG discord.http: POST http://127.0.0.1:" in log
        assert f"#seat={REDACTED}" in log
        assert f"'token': '{REDACTED}'" in log  # an interaction's, as the gateway sent it


# ------------------------------------------------------------------ the formatter itself

SECRET = "hunter2-the-web-secret"


@pytest.fixture
def logged() -> Iterator[tuple[logging.Logger, io.StringIO]]:
    """A logger of its own writing through the redacting formatter (the root logger is
    pytest's), with `SECRET` among the settings' secrets."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(RedactingFormatter(FORMAT, Redactor([SECRET])))
    logger = logging.getLogger("tests.security.logs")
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    yield logger, out
    logger.removeHandler(handler)
    logger.propagate = True


def test_a_secret_passed_as_an_argument_is_redacted(
    logged: tuple[logging.Logger, io.StringIO],
) -> None:
    logger, out = logged
    logger.info("connecting with %s to %s", SECRET, "the table pages")
    line = out.getvalue()
    assert SECRET not in line
    assert f"INFO tests.security.logs: connecting with {REDACTED} to the table pages" in line


def test_a_secret_in_the_message_is_redacted(logged: tuple[logging.Logger, io.StringIO]) -> None:
    logger, out = logged
    logger.warning(f"WEB_SECRET={SECRET} read")
    assert SECRET not in out.getvalue() and f"WEB_SECRET={REDACTED} read" in out.getvalue()


def test_a_secret_in_a_traceback_is_redacted(logged: tuple[logging.Logger, io.StringIO]) -> None:
    logger, out = logged
    seat = "WyJ0ZWxlZ3JhbSIsIi0xIiwiZyIsIjIiLDE3OTYyNDY0NTAsIiJd." + "A" * 43
    try:
        raise ValueError(f"refused {SECRET} and http://h/bot123456:AAH-x_y/getMe #seat={seat}")
    except ValueError:
        logger.exception("the call failed")
    text = out.getvalue()
    assert "Traceback (most recent call last)" in text and "ValueError: refused" in text
    assert SECRET not in text and "123456:AAH-x_y" not in text and seat not in text
    assert f"/bot{REDACTED}/getMe #seat={REDACTED}" in text


@pytest.mark.parametrize(
    ("line", "secret", "kept"),
    [
        (
            "HTTP Request: POST https://api.telegram.org/bot123456:ABC-def_GHI/getUpdates",
            "123456:ABC-def_GHI",
            f"https://api.telegram.org/bot{REDACTED}/getUpdates",
        ),
        ("sending {'url': 'http://h/t/x#seat=abc.def'}", "abc.def", f"#seat={REDACTED}'"),
        (
            "a token alone: WyJkaXNjb3JkIiwiMSIsImciLCIyIiwxLCIiXQ." + "z" * 43,
            "WyJkaXNjb3JkIiwiMSIsImciLCIyIiwxLCIiXQ",
            f"a token alone: {REDACTED}",
        ),
        ("headers {'Authorization': 'Bearer AbC.123'}", "AbC.123", f"'Bearer {REDACTED}'"),
        ("Authorization: Bot MTk4.Cl2FMQ.ZnCjm1", "MTk4.Cl2FMQ.ZnCjm1", f"Bot {REDACTED}"),
        ('{"access_token": "6qrZcUqja7812RVdnEKjpzOL4CvHBFG"}', "6qrZ", f'": "{REDACTED}"'),
    ],
)
def test_what_looks_like_a_token_is_redacted_whoever_made_it(
    line: str, secret: str, kept: str
) -> None:
    redacted = Redactor()(line)
    assert secret not in redacted and kept in redacted


@pytest.mark.parametrize(
    "line",
    [
        "Calling Bot API endpoint `getMe` with parameters `{}`",
        "a seat token was refused: expired",
        "Shard ID 0 has connected to Gateway (Session ID: session-0-11).",
        "table pages on http://127.0.0.1:8080",
    ],
)
def test_ordinary_lines_stay_as_they_are(line: str) -> None:
    """The log must still say what happened: words near tokens are not tokens."""
    assert Redactor(["not in these lines"])(line) == line


def test_the_secrets_are_the_settings_secret_values_and_the_redis_password() -> None:
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        telegram_token=SecretStr("42:tg-token"),
        redis_url=SecretStr("redis://fc:p%40ss@redis.internal:6379/0"),
        web_secret=SecretStr("a b/c"),
    )
    found = secrets_of(settings)
    assert {"42:tg-token", "p@ss", "a b/c", "a%20b%2Fc"} <= found
    assert not any("redis.internal" in secret for secret in found)  # the address stays legible
