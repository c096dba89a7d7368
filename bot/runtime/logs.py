"""The process's logging: one handler on the root logger, whose every line is scrubbed of secrets.

Libraries log what they send: httpx every request's address (a Telegram address carries the bot
token), python-telegram-bot and discord.py whole requests and answers at DEBUG (turn messages
whose personal links carry seat tokens, interaction tokens, headers). So the secrets are taken
out of the final text of each line, tracebacks included, whatever the level: the settings' own
secret values, and what has the shape of a token whoever made it.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from types import TracebackType
from urllib.parse import quote, unquote, urlsplit

from pydantic import SecretStr

from ..config import Settings

__all__ = ["REDACTED", "RedactingFormatter", "Redactor", "install", "secrets_of"]

REDACTED = "<redacted>"

# Loggers whose INFO lines are one per HTTP request: noise, and addresses with tokens in them.
CHATTY = ("httpx", "httpcore")

_B64 = r"[A-Za-z0-9_\-]"  # one character of base64url, what tokens are written in
_ALONE = r"(?<![A-Za-z0-9_\-])", r"(?![A-Za-z0-9_\-])"  # not part of a longer such word


def _shape(pattern: str, keep: str = "", flags: int = 0) -> tuple[re.Pattern[str], str]:
    """A secret's shape; `keep`: the part before it (a group) that stays in the line."""
    return re.compile(pattern, flags), keep + REDACTED


# What looks like a secret whoever made it, and what the line keeps in its place.
_SHAPES = (
    # A Telegram bot token in a Bot API address: .../bot<id>:<secret>/getUpdates
    _shape(rf"\bbot\d+:{_B64}+", "bot"),
    # A Telegram bot token on its own: <id>:<35 characters>
    _shape(rf"\b\d{{5,}}:{_B64}{{30,}}"),
    # A personal link's fragment, plain or percent-encoded (`bot/links/tokens.py`).
    _shape(r"\b(seat(?:=|%3D))[^\s&'\"<>()\[\]{},\\]+", r"\1", re.IGNORECASE),
    # A seat token anywhere: <base64url body>.<base64url HMAC-SHA256: 43 characters>
    _shape(rf"{_ALONE[0]}{_B64}{{16,}}\.{_B64}{{43}}{_ALONE[1]}"),
    # A Discord bot token: three base64url parts.
    _shape(rf"{_ALONE[0]}{_B64}{{20,}}\.{_B64}{{5,7}}\.{_B64}{{27,}}"),
    # Authorization values: OAuth's `Bearer <token>`, and `Bot <token>` (a word with a digit,
    # dot, dash or underscore, so that "Bot API" stays).
    _shape(r"\b(Bearer\s+)[A-Za-z0-9._~+/=\-]+", r"\1", re.IGNORECASE),
    _shape(r"\b(Bot\s+)(?=[\w.~+/=\-]*[\d._\-])[A-Za-z0-9._~+/=\-]{6,}", r"\1"),
    # Named secrets in a request or an answer (JSON, a dict's repr, a form): OAuth's tokens, the
    # client secret, Telegram's webhook secret, Discord's interaction tokens.
    _shape(
        r"(?<!\w)([\"']?(?:access_token|refresh_token|client_secret|secret_token|token)"
        r"[\"']?\s*[:=]\s*[\"']?)[^\s\"'&,}]+",
        r"\1",
        re.IGNORECASE,
    ),
    # Discord's interaction token in its webhook's and its callback's addresses.
    _shape(r"(/(?:webhooks|interactions)/\d+/)[A-Za-z0-9_.\-]+", r"\1"),
)


class Redactor:
    """Takes secrets out of a text: the exact values given, then every secret-shaped thing."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        # Longest first, so that a secret containing another is taken out whole.
        self.secrets = sorted({s for s in secrets if s}, key=len, reverse=True)

    def __call__(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, REDACTED)
        for pattern, replacement in _SHAPES:
            text = pattern.sub(replacement, text)
        return text


class RedactingFormatter(logging.Formatter):
    """A formatter whose lines are redacted once whole: the message with its arguments, the
    traceback, the stack. The traceback it keeps on the record is redacted too, for any other
    handler that reuses it."""

    def __init__(self, fmt: str, redactor: Redactor) -> None:
        super().__init__(fmt)
        self.redactor = redactor

    def format(self, record: logging.LogRecord) -> str:
        return self.redactor(super().format(record))

    def formatException(
        self,
        ei: tuple[type[BaseException], BaseException, TracebackType | None]
        | tuple[None, None, None],
    ) -> str:
        return self.redactor(super().formatException(ei))

    def formatStack(self, stack_info: str) -> str:
        return self.redactor(super().formatStack(stack_info))


def secrets_of(settings: Settings) -> set[str]:
    """The values of the settings' `SecretStr` fields, as they are and percent-encoded (as a form
    or an address carries them); of a URL (`REDIS_URL`) only its password is secret."""
    found: set[str] = set()
    for name in type(settings).model_fields:
        value = getattr(settings, name)
        if not isinstance(value, SecretStr):
            continue
        text = value.get_secret_value()
        if "://" in text:
            password = urlsplit(text).password
            text = unquote(password) if password else ""
        if text:
            found |= {text, quote(text, safe="")}
    return found


def install(settings: Settings, fmt: str) -> None:
    """Log to stderr at `settings.log_level` through the redacting formatter, replacing any
    handler an import may have put on the root logger (it would print lines unredacted). The
    per-request loggers are quiet unless the operator asked for DEBUG."""
    handler = logging.StreamHandler()
    handler.setFormatter(RedactingFormatter(fmt, Redactor(secrets_of(settings))))
    logging.basicConfig(level=settings.log_level, handlers=[handler], force=True)
    for name in CHATTY:
        logging.getLogger(name).setLevel(
            logging.NOTSET if settings.log_level == "DEBUG" else logging.WARNING
        )
