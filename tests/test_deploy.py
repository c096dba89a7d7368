"""The deploy files are written here and run elsewhere (no container engine on this machine):
they parse, build the project's image, and set only settings the bot knows."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.config import Settings
from tests.procs import ROOT

COMPOSE = sorted((ROOT / "deploy").glob("docker-compose*.yml"))
KNOWN = {name.upper() for name in Settings.model_fields}


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
