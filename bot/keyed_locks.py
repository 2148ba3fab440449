"""One asyncio lock per key (a channel, a campaign), kept only while someone holds or waits for it."""

from __future__ import annotations

import asyncio
from weakref import WeakValueDictionary


class KeyedLocks:
    def __init__(self) -> None:
        self._locks: WeakValueDictionary[int, asyncio.Lock] = WeakValueDictionary()

    def __call__(self, key: int) -> asyncio.Lock:
        lock = self._locks.get(key)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[key] = lock
        return lock
