"""The Docker engine the deploy test needs: its packages installed when missing, `dockerd`
started when none answers (and stopped at the end if this run started it)."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["SKIPPED", "EngineUnavailable", "docker_binary", "install_missing", "running_engine"]

# Exit status of a run that could not test anything (no engine here), as automake's tests use.
SKIPPED = 77
# Debian package -> a command it provides.
PACKAGES = {
    "docker.io": "dockerd",
    "docker-compose": "docker-compose",
    "debootstrap": "debootstrap",
    "systemd": "systemd-analyze",
}


class EngineUnavailable(Exception):
    """No Docker engine can run on this machine: the test cannot be made here."""


def install_missing() -> None:
    """apt-get the packages whose commands are missing (as root, once)."""
    missing = [package for package, command in PACKAGES.items() if not shutil.which(command)]
    if not missing:
        return
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        raise EngineUnavailable(f"missing {', '.join(missing)}, and no root apt-get to install it")
    print(f"installing {' '.join(missing)}", flush=True)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", *missing]):
        done = subprocess.run(command, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            raise EngineUnavailable(f"{' '.join(command)} failed: {done.stderr.strip()[-500:]}")


def docker_binary() -> str:
    """Debian's client, matched to Debian's engine, before any other on the PATH."""
    if Path("/usr/bin/docker").exists():
        return "/usr/bin/docker"
    found = shutil.which("docker")
    if found is None:
        raise EngineUnavailable("no docker command")
    return found


def _answers(docker: str) -> bool:
    return subprocess.run([docker, "info"], capture_output=True).returncode == 0


@contextmanager
def running_engine(log: Path, timeout: float = 60.0) -> Iterator[str]:
    """The docker command, with an engine answering it until the block ends."""
    docker = docker_binary()
    if _answers(docker):
        yield docker
        return
    dockerd = shutil.which("dockerd")
    if dockerd is None:
        raise EngineUnavailable("no dockerd")
    with log.open("wb") as out:
        process = subprocess.Popen([dockerd], stdout=out, stderr=out, start_new_session=True)
    try:
        deadline = time.monotonic() + timeout
        while not _answers(docker):
            if process.poll() is not None or time.monotonic() > deadline:
                tail = log.read_text(errors="replace").strip().splitlines()[-5:]
                raise EngineUnavailable("dockerd could not start: " + " / ".join(tail))
            time.sleep(0.5)
        print("started dockerd (stopped again at the end)", flush=True)
        yield docker
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)
