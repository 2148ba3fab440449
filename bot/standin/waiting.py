"""Waiting for the bot to do something, with a timeout that explains what was missing."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class StandInTimeout(AssertionError):
    """The bot did not do what the test waited for in time.  An AssertionError so that
    pytest shows it as a plain test failure with the explanation."""


class UnexpectedResponse(AssertionError):
    """The bot answered, but not in the way the test waited for."""


class Notifier:
    """Wakes every waiter whenever anything in the stand-in changes.

    Waiters re-check their own predicate, so a single pulse serves all of them; this is
    simpler and less error-prone than one future per kind of expectation.
    """

    def __init__(self) -> None:
        self._event = asyncio.Event()

    def notify(self) -> None:
        self._event.set()
        self._event = asyncio.Event()

    async def wait_until(
        self,
        predicate: Callable[[], T | None],
        timeout: float,
        describe: Callable[[], str],
    ) -> T:
        """Return the first non-None value of ``predicate()``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            value = predicate()
            if value is not None:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise StandInTimeout(f"after {timeout:.1f}s: {describe()}")
            event = self._event
            try:
                await asyncio.wait_for(event.wait(), remaining)
            except TimeoutError:
                pass
