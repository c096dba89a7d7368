"""The garbage collector tuned for a long-running bot process.

A bot process holds some 150,000 objects (modules, fonts, validators, the games it keeps
replayed), and Python's collector walks all of them in a full collection: about 50 ms, every
few hundred moves, a stall for every command waiting behind it. Objects made at start-up live
as long as the process, so they are frozen out of the collector's walks, and young collections
run ten times less often (every 7,000 objects allocated and not freed, instead of 700); cycles
are still collected.

Freed memory is kept in the process by glibc's own settings, not by code: the systemd units
and the image set `GLIBC_TUNABLES` (docs/operations.md).
"""

from __future__ import annotations

import gc

YOUNG = 7000  # the first generation's threshold (Python's default: 700)
# What the units and the image set: blocks up to 64 MiB from the heap (not each its own
# mapping, which the kernel zeroes page by page), and 128 MiB kept after a free.
TUNABLES = "glibc.malloc.mmap_threshold=67108864:glibc.malloc.trim_threshold=134217728"


def settle() -> None:
    """Call once the process has started (imports done, connections made)."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG, middle, old)
