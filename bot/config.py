"""Bot settings, read once from the environment and an optional `.env` file.

Tokens and the Redis URL (which may carry a password) are `SecretStr` so that logging
or printing a `Settings` never leaks them; call `.get_secret_value()` where needed.
"""

from __future__ import annotations

import os
import re
from datetime import timedelta
from enum import StrEnum
from ipaddress import IPv4Network, IPv6Network, ip_network
from pathlib import Path
from typing import Annotated, Any, Final, Literal
from urllib.parse import urlsplit

from pydantic import (
    BeforeValidator,
    Field,
    SecretStr,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

__all__ = ["Duration", "Language", "LogLevel", "Settings", "parse_duration", "refusal"]

# What Telegram's setWebhook accepts (a local Bot API server, `TELEGRAM_BASE_URL`, takes any
# http(s) URL and port): https on one of these ports, and a secret of 1-256 of these.
TELEGRAM_API_HOST: Final = "api.telegram.org"
WEBHOOK_PORTS: Final = (443, 80, 88, 8443)
WEBHOOK_SECRET: Final = re.compile(r"[A-Za-z0-9_-]{1,256}")


class Language(StrEnum):
    EN = "en"
    FR = "fr"
    IT = "it"
    DE = "de"


LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}
_DURATION_RE = re.compile(r"(\d+(?:\.\d+)?)\s*([smhdw])")


def parse_duration(value: Any) -> Any:
    """Accept "12h", "1d 6h", "90m" or plain seconds, because ISO 8601 ("PT12H") is
    unfriendly in a `.env` file; anything else goes on to pydantic's own parsing."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return timedelta(seconds=value)
    if not isinstance(value, str):
        return value
    text = value.strip().lower()
    if re.fullmatch(r"\d+(?:\.\d+)?", text):
        return timedelta(seconds=float(text))
    compact = text.replace(" ", "")
    if compact and _DURATION_RE.sub("", compact) == "":
        seconds = sum(float(n) * _UNITS[u] for n, u in _DURATION_RE.findall(compact))
        return timedelta(seconds=seconds)
    return value


def _positive(value: timedelta) -> timedelta:
    if value <= timedelta(0):
        raise ValueError("must be a positive duration")
    return value


Duration = Annotated[timedelta, BeforeValidator(parse_duration)]


def parse_ids(value: Any) -> Any:
    """ "0,1" or "2 3" in a `.env` file: a list of shard ids; blank: unset."""
    if isinstance(value, str):
        words = value.replace(",", " ").split()
        return [int(word) for word in words] if words else None
    if isinstance(value, int) and not isinstance(value, bool):
        return [value]
    return value


# NoDecode: pydantic-settings would otherwise read the value as JSON first.
ShardIds = Annotated[list[int] | None, NoDecode, BeforeValidator(parse_ids)]


def parse_networks(value: Any) -> Any:
    """ "127.0.0.1, 10.0.0.0/8" in a `.env` file: addresses or networks; blank: none."""
    if isinstance(value, str):
        return [ip_network(word, strict=False) for word in value.replace(",", " ").split()]
    return value


Networks = Annotated[
    tuple[IPv4Network | IPv6Network, ...], NoDecode, BeforeValidator(parse_networks)
]


class Settings(BaseSettings):
    """Everything the bot reads from its environment; see `.env.example`."""

    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        frozen=True,
    )

    discord_token: SecretStr | None = None
    discord_guild_id: int | None = None  # a development server whose commands update at once
    discord_api_base: str = "https://discord.com/api/v10"  # a stand-in Discord for tests
    discord_shard_count: int | None = Field(default=None, ge=1)  # else Discord's advice
    discord_shard_ids: ShardIds = None  # this process's shards ("0,1"); else all of them
    telegram_token: SecretStr | None = None
    telegram_base_url: str = "https://api.telegram.org/bot"
    telegram_webhook_url: str | None = None  # public https URL; unset: long polling
    telegram_webhook_secret: SecretStr | None = None  # the header Telegram sends back
    telegram_webhook_listen: str = "127.0.0.1"
    telegram_webhook_port: int = Field(default=8443, ge=1, le=65535)
    # How long a killed poller's lease keeps the other processes from polling.
    telegram_poll_lease: Duration = Field(default=timedelta(seconds=30))
    redis_url: SecretStr | None = None
    data_dir: Path = Path("data")
    default_language: Language = Language.EN
    reminder_after: Duration = Field(default=timedelta(hours=12))
    turn_limit: Duration = Field(default=timedelta(hours=72))
    archive_ttl: Duration = Field(default=timedelta(days=30))
    # A game its players ended by a vote is kept and rated after this many actions.
    results_min_moves: int = Field(default=12, ge=0)
    bot_pause: Duration = Field(default=timedelta(seconds=2))  # before a computer player acts
    bot_think_limit: Duration = Field(default=timedelta(seconds=5))  # then the greedy move
    # Processes searching computer moves; unset: one per core this process may run on, so a
    # table's search never queues behind another table's while a core could take it.
    bot_workers: int | None = Field(default=None, ge=1, le=64)
    bot_iterations: int | None = Field(default=None, ge=1)  # a cap on every level (tests)
    log_level: LogLevel = "INFO"
    ops_port: int | None = Field(default=None, ge=1, le=65535)  # GET /healthz and /metrics
    ops_host: str = "127.0.0.1"
    # The tables' web pages: served on WEB_HOST:WEB_PORT when WEB_URL (the public address in
    # front of them, e.g. behind a reverse proxy) is set, or by the console; their links are
    # posted only then.
    web_url: str | None = None
    web_port: int = Field(default=8080, ge=1, le=65535)
    web_host: str = "127.0.0.1"
    # Signs the players' personal links (`bot/links/tokens.py`): changing it ends every link.
    # Unset: no personal links (the console makes one for its run).
    web_secret: SecretStr | None = None
    web_link_ttl: Duration = Field(default=timedelta(days=1))  # how long a personal link works
    # The reverse proxies whose `X-Forwarded-For` names the client (addresses or networks);
    # none by default: then a request's address is its peer's, whatever it says.
    trusted_proxies: Networks = ()
    # Pages following their table (server-sent event streams) a process keeps open, and one
    # address may: each holds a file descriptor, and a move needs some free.
    web_max_streams: int = Field(default=400, ge=1)
    web_max_streams_per_address: int = Field(default=16, ge=1)
    # The bot's Mini App's direct link (https://t.me/<bot>/<app>, made with BotFather): a
    # Telegram table's link then opens the page inside Telegram.
    telegram_mini_app: str | None = None
    # The page as a Discord Activity: the application's OAuth2 client (its id and secret, from
    # the Developer Portal), with which the page's `identify` code is traded for the player.
    discord_activity: bool = False
    discord_client_id: str | None = None
    discord_client_secret: SecretStr | None = None

    @field_validator(
        "discord_token",
        "telegram_token",
        "redis_url",
        "discord_guild_id",
        "discord_shard_count",
        "telegram_webhook_url",
        "telegram_webhook_secret",
        "web_url",
        "web_secret",
        "telegram_mini_app",
        "discord_client_id",
        "discord_client_secret",
        "bot_iterations",
        "bot_workers",
        "ops_port",
        mode="before",
    )
    @classmethod
    def _blank_is_unset(cls, value: Any) -> Any:
        # `KEY=` in a .env file means "not set", not "set to the empty string".
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator("telegram_base_url", "discord_api_base")
    @classmethod
    def _http_url(cls, value: str) -> str:
        if not value.startswith(("http://", "https://")):
            raise ValueError("must be an http(s) URL")
        return value.rstrip("/")

    @field_validator("telegram_webhook_url", "web_url", "telegram_mini_app")
    @classmethod
    def _webhook_url(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(("http://", "https://")):
            raise ValueError("must be an http(s) URL")
        return value

    @property
    def search_workers(self) -> int:
        """`BOT_WORKERS`, else the cores this process may run on."""
        return self.bot_workers or len(os.sched_getaffinity(0))

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        ids = self.discord_shard_ids
        if ids is not None:
            if self.discord_shard_count is None:
                raise ValueError("DISCORD_SHARD_IDS needs DISCORD_SHARD_COUNT")
            if any(not 0 <= i < self.discord_shard_count for i in ids) or len(set(ids)) < len(ids):
                raise ValueError("DISCORD_SHARD_IDS must be distinct, from 0 to the count - 1")
        if self.telegram_webhook_url is not None and self.telegram_webhook_secret is None:
            raise ValueError("TELEGRAM_WEBHOOK_URL needs TELEGRAM_WEBHOOK_SECRET")
        if self.telegram_webhook_url is not None:
            _telegram_takes(self.telegram_webhook_url, self.telegram_base_url)
        if self.discord_activity and (
            self.discord_client_id is None or self.discord_client_secret is None
        ):
            raise ValueError("DISCORD_ACTIVITY needs DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET")
        return self

    @field_validator("telegram_webhook_secret")
    @classmethod
    def _webhook_secret(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not WEBHOOK_SECRET.fullmatch(value.get_secret_value()):
            raise ValueError("must be 1 to 256 of A-Z a-z 0-9 _ -, the only ones Telegram sends")
        return value

    @field_validator("default_language", mode="before")
    @classmethod
    def _lower(cls, value: Any) -> Any:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, value: Any) -> Any:
        return value.strip().upper() if isinstance(value, str) else value

    @field_validator("bot_pause")
    @classmethod
    def _not_negative(cls, value: timedelta) -> timedelta:
        if value < timedelta(0):
            raise ValueError("must not be negative")
        return value

    @field_validator(
        "reminder_after",
        "turn_limit",
        "archive_ttl",
        "bot_think_limit",
        "telegram_poll_lease",
        "web_link_ttl",
    )
    @classmethod
    def _positive_duration(cls, value: timedelta) -> timedelta:
        return _positive(value)

    @field_validator("redis_url")
    @classmethod
    def _redis_scheme(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not value.get_secret_value().startswith(
            ("redis://", "rediss://", "unix://")
        ):
            raise ValueError("must start with redis://, rediss:// or unix://")
        return value


def _telegram_takes(url: str, api: str) -> None:
    """Refuses a webhook URL Telegram's setWebhook would refuse (only at start-up, then, not
    at the first update that never comes)."""
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        raise ValueError("TELEGRAM_WEBHOOK_URL has a port that is no number") from None
    if not parts.hostname:
        raise ValueError("TELEGRAM_WEBHOOK_URL needs a host name")
    if urlsplit(api).hostname != TELEGRAM_API_HOST:
        return  # a local Bot API server posts to any http(s) URL and port
    if parts.scheme != "https":
        raise ValueError("TELEGRAM_WEBHOOK_URL must be https: Telegram posts to nothing else")
    if port is not None and port not in WEBHOOK_PORTS:
        raise ValueError(
            f"TELEGRAM_WEBHOOK_URL's port must be 443, 80, 88 or 8443 for Telegram, not {port}"
        )


def refusal(error: ValidationError) -> str:
    """Settings the bot cannot start with, in one line (no traceback), each problem named by
    its variable; values are never repeated, since some are secrets."""
    problems = []
    for item in error.errors(include_url=False, include_input=False):
        message = str(item["msg"]).removeprefix("Value error, ")
        names = [str(part).upper() for part in item["loc"] if isinstance(part, str)]
        problems.append(f"{names[0]}: {message}" if names else message)
    return "; ".join(problems)
