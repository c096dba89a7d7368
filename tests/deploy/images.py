"""The images: the base images from Debian's packages (deploy/local/build-images.sh, cached
by Docker once built) and the bot's image from deploy/Dockerfile and the wheelhouse."""

from __future__ import annotations

import json
import os
import subprocess
import time

from tests.procs import ROOT

__all__ = [
    "LOCAL_CADDY",
    "LOCAL_PYTHON",
    "LOCAL_REDIS",
    "base_images",
    "build_bot",
    "command_of",
    "id_of",
    "size_of",
]

LOCAL_CADDY = "fc-bot-local/caddy:2"
LOCAL_PYTHON = "fc-bot-local/python:3.11"
LOCAL_REDIS = "fc-bot-local/redis:7"


def base_images(docker: str) -> float:
    """Seconds it took (next to nothing once they exist)."""
    began = time.monotonic()
    done = subprocess.run(
        [str(ROOT / "deploy/local/build-images.sh")],
        env={**os.environ, "DOCKER": docker},
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise RuntimeError(f"the base images: {done.stderr.strip()[-2000:]}")
    return time.monotonic() - began


def build_bot(docker: str, tag: str, revision: str) -> float:
    """Seconds to build deploy/Dockerfile from the wheelhouse; `revision` labels the image,
    so a rebuild is a new image even with every layer cached."""
    began = time.monotonic()
    done = subprocess.run(
        [
            docker,
            "build",
            "-q",
            "--force-rm",  # a failed step leaves no container behind
            "-f",
            "deploy/Dockerfile",
            "--build-arg",
            f"PYTHON_IMAGE={LOCAL_PYTHON}",
            "--label",
            f"org.opencontainers.image.revision={revision}",
            "-t",
            tag,
            ".",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise RuntimeError(f"docker build: {done.stderr.strip()[-2000:]}")
    return time.monotonic() - began


def _inspect(docker: str, tag: str) -> dict[str, object]:
    out = subprocess.run(
        [docker, "image", "inspect", tag], capture_output=True, text=True, check=True
    ).stdout
    found: dict[str, object] = json.loads(out)[0]
    return found


def id_of(docker: str, tag: str) -> str:
    return str(_inspect(docker, tag)["Id"])


def size_of(docker: str, tag: str) -> int:
    return int(str(_inspect(docker, tag)["Size"]))


def command_of(docker: str, tag: str) -> list[str]:
    config = _inspect(docker, tag)["Config"]
    assert isinstance(config, dict)
    return [str(word) for word in config["Cmd"]]
