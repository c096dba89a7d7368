"""The systemd units: `systemd-analyze verify` in a scratch root holding the paths they name
(and the system's own units, which theirs depend on), and the same command as the image."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

from tests.procs import ROOT

__all__ = ["check_units"]


def check_units(scratch: Path, image_command: list[str]) -> list[str]:
    """What is wrong with the units (nothing: an empty list)."""
    problems = []
    root = scratch / "root"
    system = root / "etc/systemd/system"
    system.mkdir(parents=True)
    shutil.copytree("/lib/systemd/system", root / "usr/lib/systemd/system", symlinks=True)
    names = []
    for unit in sorted((ROOT / "deploy").glob("*.service")):
        text = unit.read_text()
        shutil.copy(unit, system / unit.name)
        names.append(unit.name.replace("@.", "@0."))
        start = re.search(r"^ExecStart=(.*)$", text, re.M)
        if start is None or start[1].split() != image_command:
            problems.append(f"{unit.name}: ExecStart is not the image's {' '.join(image_command)}")
        for path in re.findall(r"^(?:EnvironmentFile|WorkingDirectory)=(.*)$", text, re.M):
            _create(root, path.replace("%i", "0"), folder=not path.endswith(".env"))
        if start is not None:
            program = root / start[1].split()[0].lstrip("/")
            program.parent.mkdir(parents=True, exist_ok=True)
            program.write_text("#!/bin/sh\n")
            program.chmod(0o755)
    done = subprocess.run(
        ["systemd-analyze", "verify", f"--root={root}", *names], capture_output=True, text=True
    )
    said = (done.stdout + done.stderr).strip()
    if done.returncode != 0 or said:
        problems.append(f"systemd-analyze verify: {said or done.returncode}")
    return problems


def _create(root: Path, path: str, folder: bool) -> None:
    where = root / path.lstrip("/")
    if folder:
        where.mkdir(parents=True, exist_ok=True)
    else:
        where.parent.mkdir(parents=True, exist_ok=True)
        where.touch()
