"""A bot process, once started, keeps its start-up objects out of the collector's walks and
collects young objects less often, and still frees the cycles it makes (`bot.runtime.heap`); the
systemd units and the image keep freed memory in the process (`GLIBC_TUNABLES`)."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest

from bot.runtime.heap import TUNABLES

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import gc, weakref
import bot.service
from bot.runtime import heap
assert gc.get_freeze_count() == 0
heap.settle()
print(gc.get_freeze_count(), gc.get_threshold()[0])
class Node: pass
a, b = Node(), Node()
a.other, b.other = b, a
gone = []
weakref.finalize(a, gone.append, "a")
del a, b
gc.collect()
print(gone)
"""


def test_start_up_objects_are_frozen_and_cycles_still_freed() -> None:
    out = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, timeout=60
    ).stdout.split("\n")
    frozen, young = (int(word) for word in out[0].split())
    assert frozen > 50_000  # the service's modules and everything they made
    assert young == 7000
    assert out[1] == "['a']"


UNITS = ("deploy/fc-bot.service", "deploy/fc-bot@.service")


def _unit_tunables(text: str) -> str:
    (line,) = [line for line in text.splitlines() if line.startswith("Environment=GLIBC_TUNABLES=")]
    return line.removeprefix("Environment=GLIBC_TUNABLES=")


def test_the_units_and_the_image_keep_freed_blocks_with_the_same_tunables() -> None:
    """Blocks under 64 MB are not handed back to the kernel when freed, and the heap's free top
    only past 128 MB: glibc's settings, in every unit and in the image."""
    for unit in UNITS:
        assert _unit_tunables((ROOT / unit).read_text()) == TUNABLES, unit
    final = (ROOT / "deploy/Dockerfile").read_text().rsplit("\nFROM ", 1)[1]
    assert f"GLIBC_TUNABLES={TUNABLES}\n" in final


FAULTS = """
import resource
from PIL import Image
Image.new("P", (1000, 1500), 3)  # the first picture's pages are new either way
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for step in range(1, 21):  # a table's canvas, a little wider each move, drawn and freed
    Image.new("P", (1000 + 10 * step, 1500), 3)
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def _faults(tunables: str | None) -> int:
    env = {key: value for key, value in os.environ.items() if key != "GLIBC_TUNABLES"}
    if tunables is not None:
        env["GLIBC_TUNABLES"] = tunables
    done = subprocess.run(
        [sys.executable, "-c", FAULTS],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
        env=env,
    )
    return int(done.stdout)


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="GLIBC_TUNABLES is glibc's")
def test_with_the_units_tunables_a_freed_canvas_is_used_again_not_faulted_in_anew() -> None:
    """Twenty canvases of about 1.5 MB one after the other, each a little wider than the last
    (a board grows): each on fresh pages by default (about 370 page faults each), on the pages
    freed before with the units' `GLIBC_TUNABLES`."""
    fresh = _faults(None)
    kept = _faults(_unit_tunables((ROOT / UNITS[0]).read_text()))
    assert fresh > 20 * 250
    assert kept < 20 * 60 and kept * 5 < fresh
