"""Settings parsing: defaults, durations, secrets and the .env file."""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.__main__ import main
from bot.config import Language, Settings

VARIABLES = [
    "DISCORD_TOKEN",
    "DISCORD_GUILD_ID",
    "TELEGRAM_TOKEN",
    "TELEGRAM_BASE_URL",
    "REDIS_URL",
    "DATA_DIR",
    "DEFAULT_LANGUAGE",
    "REMINDER_AFTER",
    "TURN_LIMIT",
    "ARCHIVE_TTL",
    "RESULTS_MIN_MOVES",
    "LOG_LEVEL",
    "BOT_PAUSE",
    "BOT_THINK_LIMIT",
    "BOT_WORKERS",
    "BOT_ITERATIONS",
    "OPS_PORT",
    "OPS_HOST",
    "DISCORD_API_BASE",
    "DISCORD_SHARD_COUNT",
    "DISCORD_SHARD_IDS",
    "TELEGRAM_WEBHOOK_URL",
    "TELEGRAM_WEBHOOK_SECRET",
    "TELEGRAM_WEBHOOK_LISTEN",
    "TELEGRAM_WEBHOOK_PORT",
    "TELEGRAM_POLL_LEASE",
    "WEB_URL",
    "WEB_PORT",
    "WEB_HOST",
    "WEB_SECRET",
    "DISCORD_ACTIVITY",
    "DISCORD_CLIENT_ID",
    "DISCORD_CLIENT_SECRET",
    "WEB_LINK_TTL",
    "TRUSTED_PROXIES",
    "WEB_MAX_STREAMS",
    "WEB_MAX_STREAMS_PER_ADDRESS",
    "TELEGRAM_MINI_APP",
]


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No variable from the developer's shell or a stray .env leaks into these tests."""
    for name in VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)


def test_defaults() -> None:
    settings = Settings()
    assert settings.discord_token is None
    assert settings.telegram_token is None
    assert settings.telegram_base_url == "https://api.telegram.org/bot"
    assert settings.redis_url is None
    assert settings.web_url is None and settings.web_port == 8080
    assert settings.web_host == "127.0.0.1"
    assert settings.web_secret is None and settings.web_link_ttl == timedelta(days=1)
    assert settings.data_dir == Path("data")
    assert settings.default_language is Language.EN
    assert settings.reminder_after == timedelta(hours=12)
    assert settings.turn_limit == timedelta(hours=72)
    assert settings.archive_ttl == timedelta(days=30)
    assert settings.log_level == "INFO"


def test_environment_overrides(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "discord-secret")
    monkeypatch.setenv("TELEGRAM_BASE_URL", "http://localhost:8081/bot")
    monkeypatch.setenv("REDIS_URL", "redis://:pw@redis:6379/0")
    monkeypatch.setenv("DATA_DIR", "/var/lib/fc-bot")
    monkeypatch.setenv("DEFAULT_LANGUAGE", "FR")
    monkeypatch.setenv("LOG_LEVEL", "debug")
    settings = Settings()
    assert settings.discord_token is not None
    assert settings.discord_token.get_secret_value() == "discord-secret"
    assert settings.telegram_base_url == "http://localhost:8081/bot"
    assert settings.redis_url is not None
    assert settings.redis_url.get_secret_value() == "redis://:pw@redis:6379/0"
    assert settings.data_dir == Path("/var/lib/fc-bot")
    assert settings.default_language is Language.FR
    assert settings.log_level == "DEBUG"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("12h", timedelta(hours=12)),
        ("1d 6h", timedelta(hours=30)),
        ("90m", timedelta(minutes=90)),
        ("2w", timedelta(weeks=2)),
        ("3600", timedelta(hours=1)),
        ("1.5h", timedelta(minutes=90)),
        ("PT2H", timedelta(hours=2)),
    ],
)
def test_durations(monkeypatch: pytest.MonkeyPatch, text: str, expected: timedelta) -> None:
    monkeypatch.setenv("REMINDER_AFTER", text)
    assert Settings().reminder_after == expected


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("TURN_LIMIT", "soon"),
        ("TURN_LIMIT", "0"),
        ("ARCHIVE_TTL", "-1h"),
        ("DEFAULT_LANGUAGE", "es"),
        ("LOG_LEVEL", "LOUD"),
        ("TELEGRAM_BASE_URL", "api.telegram.org"),
        ("REDIS_URL", "localhost:6379"),
        ("OPS_PORT", "70000"),
        ("BOT_WORKERS", "0"),
    ],
)
def test_invalid_values_are_rejected(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ValidationError):
        Settings()


def test_computer_searches_run_on_every_core_unless_told(monkeypatch: pytest.MonkeyPatch) -> None:
    cores = len(os.sched_getaffinity(0))
    assert Settings().search_workers == cores
    monkeypatch.setenv("BOT_WORKERS", "")
    assert Settings().search_workers == cores
    monkeypatch.setenv("BOT_WORKERS", "3")
    assert Settings().search_workers == 3


def test_secrets_never_show_in_reprs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "discord-secret")
    monkeypatch.setenv("TELEGRAM_TOKEN", "123:telegram-secret")
    monkeypatch.setenv("REDIS_URL", "redis://:redis-secret@redis:6379/0")
    monkeypatch.setenv("TELEGRAM_WEBHOOK_URL", "https://bot.example/tg")
    monkeypatch.setenv("TELEGRAM_WEBHOOK_SECRET", "webhook-secret")
    monkeypatch.setenv("WEB_SECRET", "links-secret")
    monkeypatch.setenv("DISCORD_CLIENT_SECRET", "oauth-secret")
    settings = Settings()
    for text in (repr(settings), str(settings), settings.model_dump_json()):
        # The secret's field may be named, its value never.
        named = text.replace("SecretStr", "").replace("webhook_secret", "")
        assert "secret" not in named.replace("web_secret", "").replace("client_secret", "")


def test_dotenv_file_and_blank_values(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".env").write_text(
        "TELEGRAM_TOKEN=123:abc\nREDIS_URL=\nTURN_LIMIT=2d\nDEFAULT_LANGUAGE=it\n"
    )
    settings = Settings()
    assert settings.telegram_token is not None
    assert settings.telegram_token.get_secret_value() == "123:abc"
    assert settings.redis_url is None  # `REDIS_URL=` means: use the embedded server
    assert settings.turn_limit == timedelta(days=2)
    assert settings.default_language is Language.IT
    monkeypatch.setenv("TURN_LIMIT", "5h")
    assert Settings().turn_limit == timedelta(hours=5)  # the environment wins


def test_example_env_file_lists_every_variable() -> None:
    example = Path(__file__).resolve().parent.parent / ".env.example"
    names = {
        line.split("=", 1)[0].lstrip("# ").strip()
        for line in example.read_text().splitlines()
        if "=" in line
    }
    assert set(VARIABLES) <= names
    assert set(VARIABLES) == {name.upper() for name in Settings.model_fields}


def test_shards_of_a_process(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings().discord_shard_ids is None  # every shard Discord advises
    monkeypatch.setenv("DISCORD_SHARD_COUNT", "4")
    monkeypatch.setenv("DISCORD_SHARD_IDS", "1, 3")
    settings = Settings()
    assert (settings.discord_shard_count, settings.discord_shard_ids) == (4, [1, 3])
    for wrong in ("4", "1,1", "-1", "one"):
        monkeypatch.setenv("DISCORD_SHARD_IDS", wrong)
        with pytest.raises(ValidationError):
            Settings()
    monkeypatch.delenv("DISCORD_SHARD_COUNT")
    monkeypatch.setenv("DISCORD_SHARD_IDS", "0")
    with pytest.raises(ValidationError, match="DISCORD_SHARD_COUNT"):
        Settings()


def test_a_webhook_needs_its_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = Settings()
    assert settings.telegram_webhook_url is None  # long polling
    assert (settings.telegram_webhook_listen, settings.telegram_webhook_port) == (
        "127.0.0.1",
        8443,
    )
    monkeypatch.setenv("TELEGRAM_WEBHOOK_URL", "https://bot.example/tg")
    with pytest.raises(ValidationError, match="TELEGRAM_WEBHOOK_SECRET"):
        Settings()
    monkeypatch.setenv("TELEGRAM_WEBHOOK_SECRET", "s3cret")
    assert Settings().telegram_webhook_url == "https://bot.example/tg"
    monkeypatch.setenv("TELEGRAM_WEBHOOK_URL", "bot.example/tg")
    with pytest.raises(ValidationError):
        Settings()


@pytest.mark.parametrize(
    ("url", "secret", "said"),
    [
        (
            "http://bot.example/tg",
            "s3cret",
            "TELEGRAM_WEBHOOK_URL must be https: Telegram posts to nothing else",
        ),
        (
            "https://bot.example:8080/tg",
            "s3cret",
            "TELEGRAM_WEBHOOK_URL's port must be 443, 80, 88 or 8443 for Telegram, not 8080",
        ),
        (
            "https://bot.example:84x/tg",
            "s3cret",
            "TELEGRAM_WEBHOOK_URL has a port that is no number",
        ),
        ("https:///tg", "s3cret", "TELEGRAM_WEBHOOK_URL needs a host name"),
        (
            "https://bot.example/tg",
            "s3cret!",
            "TELEGRAM_WEBHOOK_SECRET: must be 1 to 256 of A-Z a-z 0-9 _ -, the only ones "
            "Telegram sends",
        ),
        (
            "https://bot.example/tg",
            "x" * 257,
            "TELEGRAM_WEBHOOK_SECRET: must be 1 to 256 of A-Z a-z 0-9 _ -, the only ones "
            "Telegram sends",
        ),
    ],
)
def test_a_webhook_telegram_refuses_stops_the_start_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    url: str,
    secret: str,
    said: str,
) -> None:
    """Telegram's setWebhook takes https only, on 443, 80, 88 or 8443, with a secret of 1-256
    of A-Z a-z 0-9 _ -: anything else is said at start-up, not found when no update comes.
    The secret itself is never printed."""
    monkeypatch.setenv("TELEGRAM_TOKEN", "123:abc")
    monkeypatch.setenv("TELEGRAM_WEBHOOK_URL", url)
    monkeypatch.setenv("TELEGRAM_WEBHOOK_SECRET", secret)
    assert main([]) == 1
    out = capsys.readouterr()
    assert (out.out, out.err) == ("", f"fc-bot: {said}\n")


def test_a_webhook_telegram_takes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TELEGRAM_WEBHOOK_SECRET", "A-z_09" + "x" * 250)  # 256, the most
    for url in ("https://bot.example/tg", "https://bot.example:8443/tg", "https://b.example:88"):
        monkeypatch.setenv("TELEGRAM_WEBHOOK_URL", url)
        assert Settings().telegram_webhook_url == url
    # A local Bot API server (`telegram-bot-api --local`) posts to any http URL and port.
    monkeypatch.setenv("TELEGRAM_BASE_URL", "http://127.0.0.1:8081/bot")
    monkeypatch.setenv("TELEGRAM_WEBHOOK_URL", "http://127.0.0.1:9000/tg")
    assert Settings().telegram_webhook_url == "http://127.0.0.1:9000/tg"


def test_the_polling_lease(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings().telegram_poll_lease == timedelta(seconds=30)
    monkeypatch.setenv("TELEGRAM_POLL_LEASE", "2m")
    assert Settings().telegram_poll_lease == timedelta(minutes=2)
    for wrong in ("0", "0s", "soon"):
        monkeypatch.setenv("TELEGRAM_POLL_LEASE", wrong)
        with pytest.raises(ValidationError, match="telegram_poll_lease"):
            Settings()


def test_an_activity_needs_its_oauth_client(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_ACTIVITY", "on")
    with pytest.raises(ValidationError, match="DISCORD_ACTIVITY needs DISCORD_CLIENT_ID"):
        Settings()
    monkeypatch.setenv("DISCORD_CLIENT_ID", "1234")
    monkeypatch.setenv("DISCORD_CLIENT_SECRET", "oauth-secret")
    assert Settings().discord_activity is True


def test_trusted_proxies_are_addresses_or_networks(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings().trusted_proxies == ()  # nobody's X-Forwarded-For counts by default
    monkeypatch.setenv("TRUSTED_PROXIES", "127.0.0.1, ::1 10.0.0.0/8")
    assert [str(n) for n in Settings().trusted_proxies] == ["127.0.0.1/32", "::1/128", "10.0.0.0/8"]
    monkeypatch.setenv("TRUSTED_PROXIES", "localhost")
    with pytest.raises(ValidationError):
        Settings()
