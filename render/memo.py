"""A least-recently-used cache of images bounded by the bytes it holds, not by a count.

Cells, markers and text runs are drawn once and pasted many times; a count bound alone would
let a few large sizes (96-pixel cells, long caption lines) hold a hundred megabytes. Shared by
the bot's render threads, hence the lock.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

from PIL import Image

V = TypeVar("V")

_NAMED: dict[str, ImageCache[Any]] = {}  # the process's shared caches, by name
ENTRY_OVERHEAD = 1000  # bytes around each entry: key, image and core objects, list node


def image_bytes(image: Image.Image) -> int:
    """Pixel bytes of `image` as Pillow holds it: 1 a pixel for L, 4 for RGB (padded) and RGBA."""
    return image.width * image.height * (1 if image.mode in ("1", "L", "P") else 4)


class ImageCache(Generic[V]):
    """Maps a key to a value made on first use; drops the least recently used past `budget`."""

    def __init__(self, budget: int, weigh: Callable[[V], int], name: str = "") -> None:
        self.budget = budget
        if name:
            _NAMED[name] = self
        self._weigh = weigh
        self._entries: OrderedDict[Hashable, tuple[V, int]] = OrderedDict()
        self._lock = threading.Lock()
        self.total = 0  # bytes held, overhead included

    def get(self, key: Hashable, make: Callable[[], V]) -> V:
        with self._lock:
            hit = self._entries.get(key)
            if hit is not None:
                self._entries.move_to_end(key)
                return hit[0]
        value = make()  # outside the lock: two threads may both draw a miss, harmlessly
        weight = self._weigh(value) + ENTRY_OVERHEAD
        with self._lock:
            if key not in self._entries:
                self._entries[key] = (value, weight)
                self.total += weight
            while self.total > self.budget and len(self._entries) > 1:
                _, (_, dropped) = self._entries.popitem(last=False)
                self.total -= dropped
        return value

    def __len__(self) -> int:
        return len(self._entries)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.total = 0


def held() -> dict[str, int]:
    """Bytes each named cache holds now: what a process's memory owes to caches filling (a
    load run prints them beside its memory curve)."""
    return {name: cache.total for name, cache in sorted(_NAMED.items())}
