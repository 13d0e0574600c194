"""A small bounded cache (the variant registry's look-ups by name use it)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, TypeVar

_K = TypeVar("_K")
_V = TypeVar("_V")


class RecentlyUsed(Generic[_K, _V]):
    """A cache of at most ``size`` entries that forgets the least recently used one first.

    Names come from outside (a web form may send any number of distinct composed texts), so
    the caches of variants found by name are bounded: a name forgotten is worked out again
    when next asked for. Safe to use from several threads."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[_K, _V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: _K) -> _V | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: _K, value: _V) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)
