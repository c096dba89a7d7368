"""The built wheel (what `make wheels` and the Docker image install) holds every file the bot
reads at run time besides its code: the web pages' templates, scripts, style, icon and
vendored library, the fonts, the games' data and the translations."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from tests.procs import ROOT

LEFT_OUT = (".git", ".venv", "build", "*.egg-info", "mutants", "*_cache", ".hypothesis")
KEPT = (
    "bot/web/static/**/*",
    "bot/web/templates/*",
    "render/fonts/*",
    "engine/*/data/*",
    "bot/locales/*/LC_MESSAGES/*",
)


def test_the_wheel_holds_every_file_the_bot_reads(tmp_path: Path) -> None:
    # Built from a copy: a checkout's own build/ folder may hold files of an earlier build.
    source = tmp_path / "source"
    left_out = shutil.ignore_patterns(*LEFT_OUT)

    def ignored(folder: str, names: list[str]) -> set[str]:
        top = {"data", "gallery"} if Path(folder) == ROOT else set()  # a run's own files
        return set(left_out(folder, names)) | (top & set(names))

    shutil.copytree(ROOT, source, ignore=ignored)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
         "--wheel-dir", str(tmp_path), str(source)],
        check=True,
        capture_output=True,
    )  # fmt: skip
    [wheel] = tmp_path.glob("fc_bot-*.whl")
    packed = set(zipfile.ZipFile(wheel).namelist())
    for pattern in KEPT:
        files = [str(p.relative_to(ROOT)) for p in ROOT.glob(pattern) if p.is_file()]
        assert files, pattern
        assert [name for name in files if name not in packed] == [], pattern
