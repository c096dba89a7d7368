"""The first `make run` of a newcomer installs everything, and its screen holds nothing that
looks like an error: setuptools' framed note on every editable install read as a failure."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.procs import ROOT, bot_environment
from tests.test_make_run import _tracked_files

# What this machine's own pip configuration adds (local package folders it does not have):
# the machine's, not the project's.
MACHINE = re.compile(r"^WARNING: Location 'file://\S+' is ignored: it is neither a file nor a")


def test_the_first_install_says_nothing_that_looks_wrong(tmp_path: Path) -> None:
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    clone = tmp_path / "fc-bot"
    for name in _tracked_files():
        (clone / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, clone / name)
    done = subprocess.run(
        ["make", ".venv/.installed-stamp"],
        cwd=clone,
        env=bot_environment(),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    said = [line for line in (done.stdout + done.stderr).splitlines() if not MACHINE.match(line)]
    alarming = [line for line in said if re.search(r"warning\b|error|!!|\*\*\*", line, re.I)]
    assert alarming == [], "\n".join(said)
    assert (clone / ".venv" / ".installed-stamp").exists()
