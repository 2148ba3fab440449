"""Values read from the database once per key and kept until a change forgets them.

A read still under way when its key is forgotten is not kept: it may hold what the change replaced."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class ReadThrough(Generic[K, V]):
    def __init__(self, read: Callable[[K], Awaitable[V]]) -> None:
        self._read = read
        self._kept: dict[K, V] = {}
        self._forgotten: dict[K, int] = {}  # how often each key was forgotten
        self._all_forgotten = 0  # and everything at once

    async def get(self, key: K) -> V:
        if key in self._kept:
            return self._kept[key]
        times = (self._forgotten.get(key, 0), self._all_forgotten)
        value = await self._read(key)
        if (self._forgotten.get(key, 0), self._all_forgotten) == times:
            self._kept[key] = value
        return value

    def forget(self, key: K) -> None:
        self._kept.pop(key, None)
        self._forgotten[key] = self._forgotten.get(key, 0) + 1

    def forget_all(self) -> None:
        self._kept.clear()
        self._all_forgotten += 1
