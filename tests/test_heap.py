"""A bot process, once started, keeps its start-up objects out of the collector's walks and
collects young objects less often, and still frees the cycles it makes (`bot.heap`)."""

from __future__ import annotations

import subprocess
import sys

PROBE = """
import gc, weakref
import bot.service
from bot import heap
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


FAULTS = """
import resource, sys
from PIL import Image
from bot import heap
if sys.argv[1] == "kept":
    assert heap.keep_freed_blocks()
Image.new("P", (1000, 1500), 3)  # the first picture's pages are new either way
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for step in range(1, 21):  # a table's canvas, a little wider each move, drawn and freed
    Image.new("P", (1000 + 10 * step, 1500), 3)
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def _faults(kind: str) -> int:
    done = subprocess.run(
        [sys.executable, "-c", FAULTS, kind], capture_output=True, text=True, check=True, timeout=60
    )
    return int(done.stdout)


def test_a_freed_canvas_is_used_again_not_faulted_in_anew() -> None:
    """Twenty canvases of about 1.5 MB one after the other, each a little wider than the last
    (a board grows): each on fresh pages by default (about 370 page faults each), on the pages
    freed before once freed blocks are kept."""
    fresh, kept = _faults("default"), _faults("kept")
    assert fresh > 20 * 250
    assert kept < 20 * 60 and kept * 5 < fresh
