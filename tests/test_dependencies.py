"""Dependencies: pyproject.toml's ranges admit what the code uses, and every build installs
the exact versions of constraints.txt."""

from __future__ import annotations

import re
import sys
import tomllib
from importlib import metadata

import telegram
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from tests.procs import ROOT


def _declared() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return [Requirement(r) for r in project["dependencies"]] + [
        Requirement(r) for r in project["optional-dependencies"]["dev"]
    ]


def _pins() -> dict[str, Version]:
    pins: dict[str, Version] = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, version = line.partition("==")
            assert version, f"not an exact pin: {line}"
            pins[canonicalize_name(name)] = Version(version)
    return pins


def _applies(requirement: Requirement, extras: set[str]) -> bool:
    if requirement.marker is None:
        return True
    return any(requirement.marker.evaluate({"extra": extra}) for extra in extras | {""})


def _pinned_for_this_python() -> bool:
    made = re.search(r"Made with Python (\d+\.\d+)", (ROOT / "constraints.txt").read_text())
    assert made is not None
    return made[1] == f"{sys.version_info.major}.{sys.version_info.minor}"


def test_every_installed_dependency_is_pinned_within_its_ranges() -> None:
    pins = _pins()
    complete = _pinned_for_this_python()
    todo = [(r, {""}) for r in _declared()]
    seen: set[str] = set()
    while todo:
        requirement, extras = todo.pop()
        if not _applies(requirement, extras):
            continue
        name = canonicalize_name(requirement.name)
        if name not in pins and not complete:
            continue  # a package this Python needs and the pinned one did not
        assert name in pins, f"{requirement.name} is installed but not pinned"
        assert requirement.specifier.contains(pins[name], prereleases=True), (
            f"constraints.txt pins {name}=={pins[name]}, outside {requirement}"
        )
        if name in seen:
            continue
        seen.add(name)
        for text in metadata.requires(requirement.name) or []:
            todo.append((Requirement(text), set(requirement.extras)))
    assert "redis" in seen and "pytest" in seen


def test_the_telegram_minimum_knows_every_button_argument_we_pass() -> None:
    """The adapter passes `style=` to InlineKeyboardButton; the library documents the
    release that added it, and the declared minimum must not be older."""
    doc = telegram.InlineKeyboardButton.__doc__ or ""
    added = re.search(r"\n\s*style \(.*?versionadded:: ([\d.]+)", doc, re.S)
    assert added is not None
    (ptb,) = (r for r in _declared() if r.name == "python-telegram-bot")
    minimum = min(Version(s.version) for s in ptb.specifier if s.operator == ">=")
    assert minimum >= Version(added[1]), f"{ptb} admits releases without style="


def test_every_build_installs_from_the_constraints() -> None:
    for recipe in ("Makefile", "deploy/Dockerfile"):
        installs = [
            line for line in (ROOT / recipe).read_text().splitlines() if "pip install" in line
        ]
        assert installs, recipe
        for line in installs:
            assert "-c constraints.txt" in line, f"{recipe}: {line.strip()}"
    assert (
        "COPY pyproject.toml README.md constraints.txt" in (ROOT / "deploy/Dockerfile").read_text()
    )
