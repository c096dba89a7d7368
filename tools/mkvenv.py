"""Create the project's virtual environment, even where Debian ships Python without ensurepip.

Debian and Ubuntu split `ensurepip` into the python3-venv package; a fresh machine may lack it.
Then the venv is made without pip and pip is installed from its wheel on PyPI, so that `make`
needs nothing but python3.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import urllib.request
import venv
from pathlib import Path


def _bootstrap_pip(python: Path) -> None:
    with urllib.request.urlopen("https://pypi.org/pypi/pip/json", timeout=60) as reply:
        release = json.load(reply)
    wheel = next(u for u in release["urls"] if u["filename"].endswith(".whl"))
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / wheel["filename"]
        urllib.request.urlretrieve(wheel["url"], target)
        subprocess.run([str(python), f"{target}/pip", "install", "-q", str(target)], check=True)


def main(where: str) -> None:
    root = Path(where)
    python = root / "bin" / "python"
    if python.exists():
        return
    try:
        venv.create(root, with_pip=True)
    except (subprocess.CalledProcessError, OSError):
        venv.create(root, with_pip=False, clear=True)
        _bootstrap_pip(python)
    if not (root / "bin" / "pip").exists():
        _bootstrap_pip(python)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".venv")
