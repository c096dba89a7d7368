"""One compose project of the deploy files, brought up with the test's settings: the images
built here, the bots' settings for the fake Telegram, and health checked every 2 s."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import yaml

from tests.procs import ROOT

__all__ = ["Project", "compose_command"]

DEPLOY = ROOT / "deploy"


def compose_command(docker: str) -> list[str]:
    """`docker compose` (the plugin) where it is installed, else `docker-compose`."""
    if subprocess.run([docker, "compose", "version"], capture_output=True).returncode == 0:
        return [docker, "compose"]
    found = shutil.which("docker-compose")
    if found is None:
        raise RuntimeError("neither `docker compose` nor docker-compose is installed")
    return [found]


class Project:
    """`docker compose -p NAME -f deploy/FILE -f <the test's overrides>`."""

    def __init__(
        self,
        docker: str,
        name: str,
        file: str,
        folder: Path,
        variables: dict[str, str],
        bot_environment: dict[str, str],
    ) -> None:
        self.docker, self.name = docker, name
        self.file = DEPLOY / file
        services: dict[str, Any] = yaml.safe_load(self.file.read_text())["services"]
        self.services = sorted(services)
        self.bots = sorted(name for name, service in services.items() if "build" in service)
        override = folder / f"{name}.override.yml"
        bots = {
            bot: {
                "environment": bot_environment,
                "extra_hosts": ["host.docker.internal:host-gateway"],
                "healthcheck": {"interval": "2s", "start_period": "60s"},
            }
            for bot in self.bots
        }
        override.write_text(yaml.safe_dump({"services": bots}))
        self.command = [
            *compose_command(docker),
            "-p",
            name,
            "-f",
            str(self.file),
            "-f",
            str(override),
        ]
        self.env = variables

    def run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            [*self.command, *args],
            env={**os.environ, **self.env},
            capture_output=True,
            text=True,
        )
        if check and done.returncode != 0:
            raise RuntimeError(f"{' '.join(args)}: {done.stderr.strip()[-2000:]}")
        return done

    def up(self, *services: str) -> None:
        self.run("up", "-d", "--no-build", *services)

    def down(self) -> None:
        self.run("down", "-v", "--remove-orphans", "--timeout", "10", check=False)

    def container(self, service: str) -> str:
        """The id of the service's running container (by compose's labels: quicker than
        `compose ps`, and the same for compose 1 and 2)."""
        found = subprocess.run(
            [
                self.docker,
                "ps",
                "-q",
                "--filter",
                f"label=com.docker.compose.project={self.name}",
                "--filter",
                f"label=com.docker.compose.service={service}",
            ],
            capture_output=True,
            text=True,
        ).stdout.split()
        if not found:
            raise RuntimeError(f"no running container for {service}")
        return found[0]

    def inspect(self, service: str) -> dict[str, Any]:
        out = subprocess.run(
            [self.docker, "inspect", self.container(service)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        found: dict[str, Any] = json.loads(out)[0]
        return found

    def address(self, service: str) -> str:
        """The container's address on the project's network (the host reaches it directly)."""
        networks = self.inspect(service)["NetworkSettings"]["Networks"]
        return str(next(iter(networks.values()))["IPAddress"])

    def address_or_none(self, service: str) -> str | None:
        """The address of the service's running container, if one runs."""
        try:
            return self.address(service) or None
        except (RuntimeError, subprocess.CalledProcessError):
            return None

    def health(self, service: str) -> str:
        try:
            state = self.inspect(service)["State"]
        except (RuntimeError, subprocess.CalledProcessError):
            return "absent"
        return str(state.get("Health", {}).get("Status", state["Status"]))

    def healthy(self, services: list[str]) -> bool:
        return all(self.health(service) == "healthy" for service in services)

    def kill(self, container: str) -> None:
        """`docker kill` (SIGKILL) a container by its id, at once."""
        done = subprocess.run([self.docker, "kill", container], capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"docker kill: {done.stderr.strip()}")

    def service_at(self, address: str) -> str:
        """The service whose container has `address`."""
        for service in self.services:
            if self.address_or_none(service) == address:
                return service
        raise RuntimeError(f"no container has the address {address}")

    def logs(self) -> str:
        return self.run("logs", "--no-color", check=False).stdout

    def left(self) -> list[str]:
        """Containers, networks and volumes of the project still there."""
        label = f"label=com.docker.compose.project={self.name}"
        found = []
        for kind in ("container", "network", "volume"):
            listing = [self.docker, kind, "ls", "-q", "--filter", label]
            if kind == "container":
                listing.insert(3, "-a")
            found += subprocess.run(listing, capture_output=True, text=True).stdout.split()
        return found
