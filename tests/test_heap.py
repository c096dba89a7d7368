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
