"""The deploy files as files (`make deploy-test` runs them for real on a Docker engine):
they parse, build the project's image, and set only settings the bot knows."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.config import Settings
from tests.procs import ROOT

COMPOSE = sorted((ROOT / "deploy").glob("docker-compose*.yml"))
# The bot's settings, and glibc's: the units keep freed memory in the process with
# GLIBC_TUNABLES (tests/test_heap.py checks its value).
KNOWN = {name.upper() for name in Settings.model_fields} | {"GLIBC_TUNABLES"}


def _services(path: Path) -> dict[str, Any]:
    document = yaml.safe_load(path.read_text())
    services: dict[str, Any] = document["services"]
    return services


@pytest.mark.parametrize("path", COMPOSE, ids=lambda p: p.name)
def test_compose_files_parse_and_set_only_known_settings(path: Path) -> None:
    services = _services(path)
    bots = {name: s for name, s in services.items() if "build" in s}
    assert bots, "no bot service"
    for name, service in bots.items():
        assert service["build"]["dockerfile"] == "deploy/Dockerfile"
        assert (path.parent / service["build"]["context"] / "deploy" / "Dockerfile").is_file()
        unknown = set(service.get("environment", {})) - KNOWN
        assert unknown == set(), f"{name} sets {unknown}"


def test_processes_of_one_deployment_split_the_discord_shards() -> None:
    for path in COMPOSE:
        shards = [
            s["environment"]["DISCORD_SHARD_IDS"]
            for s in _services(path).values()
            if "DISCORD_SHARD_IDS" in s.get("environment", {})
        ]
        assert len(shards) == len(set(shards)), f"{path.name}: a shard served twice"


def test_systemd_units_set_only_known_settings() -> None:
    for path in (ROOT / "deploy").glob("*.service"):
        text = path.read_text()
        assert "ExecStart=/opt/fc-bot/venv/bin/python -m bot" in text
        named = set(re.findall(r"(?:Environment=|\\n|printf ')([A-Z_]+)=", text))
        assert named and named <= KNOWN, f"{path.name}: {named - KNOWN}"


def _dockerfile_command() -> list[str]:
    text = (ROOT / "deploy/Dockerfile").read_text()
    commands = re.findall(r"^CMD (\[.*\])$", text, re.M)
    assert len(commands) == 1, commands
    command: list[str] = json.loads(commands[0])
    return command


def test_the_image_runs_the_units_command_as_a_user_with_a_health_check() -> None:
    """The units and the image start the bot the same way; the image's last stage runs as
    a user of its own and is checked by /healthz."""
    for path in (ROOT / "deploy").glob("*.service"):
        start = re.search(r"^ExecStart=(.*)$", path.read_text(), re.M)
        assert start is not None and start[1].split() == _dockerfile_command(), path.name
    final = (ROOT / "deploy/Dockerfile").read_text().rsplit("\nFROM ", 1)[1]
    assert re.search(r"^USER fcbot$", final, re.M)
    assert "HEALTHCHECK" in final and "/healthz" in final


@pytest.mark.parametrize("path", COMPOSE, ids=lambda p: p.name)
def test_compose_files_take_their_images_and_settings_file_from_the_environment(
    path: Path,
) -> None:
    """Compose 1 (Debian's docker-compose) refuses a top-level `name`; the base images and
    the bots' settings file can be another's (a machine with no registry, the deploy test)."""
    document = yaml.safe_load(path.read_text())
    assert set(document) <= {"services", "volumes", "networks"} | {
        key for key in document if key.startswith("x-")
    }
    services = document["services"]
    redis = [s for s in services.values() if "redis-server" in str(s.get("command", ""))]
    assert redis and all(s["image"] == "${REDIS_IMAGE:-redis:7-alpine}" for s in redis)
    for service in services.values():
        if "build" in service:
            assert service["build"]["args"] == {"PYTHON_IMAGE": "${PYTHON_IMAGE:-python:3.11-slim}"}
            assert service["image"] == "${FC_BOT_IMAGE:-fc-bot}"
            assert service["env_file"] == "${FC_BOT_ENV_FILE:-../.env}"
    for service in redis:
        words = [str(word) for word in service["command"]]
        assert words[words.index("--protected-mode") + 1] == "no"  # Debian's Redis too
    proxies = [s for s in services.values() if "caddy" in str(s.get("command", ""))]
    assert all(s["image"] == "${CADDY_IMAGE:-caddy:2-alpine}" for s in proxies)
