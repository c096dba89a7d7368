"""Memory and the garbage collector tuned for a long-running bot process.

The collector: a bot process holds some 150,000 objects (modules, fonts, validators, the games
it keeps replayed), and Python's collector walks all of them in a full collection: about 50 ms,
every few hundred moves, a stall for every command waiting behind it. Objects made at start-up
live as long as the process, so they are frozen out of the collector's walks, and young
collections run ten times less often (every 7,000 objects allocated and not freed, instead of
700); cycles are still collected.

Freed memory: a picture's canvas, its PNG frame and their copies are 1-2 MB each, and glibc
hands a block that big straight back to the kernel when it is freed (and trims the top of its
heap past 128 KB). Every picture then began on fresh pages, faulted in and zeroed: 0.4 ms a
block, three or more blocks a picture, over a third of a late table's drawing. Blocks under
64 MB now stay with the process, to be used again. Where the C library is not glibc nothing
changes.
"""

from __future__ import annotations

import ctypes
import gc

YOUNG = 7000  # the first generation's threshold (Python's default: 700)
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # glibc's mallopt parameters (malloc.h)
KEPT_BLOCK = 64 << 20  # blocks under this come from the heap, not fresh mappings
TRIM_PAST = 128 << 20  # the heap's free top is given back past this


def settle() -> None:
    """Call once the process has started (imports done, connections made)."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG, middle, old)
    keep_freed_blocks()


def keep_freed_blocks() -> bool:
    """Keep freed blocks in the process (see above); False where the C library has no
    `mallopt` (not glibc) or refuses the settings."""
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    return bool(mallopt(M_MMAP_THRESHOLD, KEPT_BLOCK)) and bool(
        mallopt(M_TRIM_THRESHOLD, TRIM_PAST)
    )
