"""How many commands one process works on at once, and turning away what it cannot serve in time.

Past its capacity a process that took every command would work on all of them at once and
answer each later and later, until the database pool timed them out. Instead at most
``at_once`` commands are under way; the others wait in line, first come first served, and
one that would wait longer than ``patience`` seconds is told the bot is busy, privately,
with nothing changed. Its slot is not used, so the line shortens by itself after a burst.
Memory stays bounded too: nobody waits longer than ``patience``.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from rules.errors import RulesError
from rules.said import say

from .stages import STAGE_CLOCK, clock

BUSY = say("Turnkeeper is very busy right now: please try again in a moment. Nothing was changed.")


class Busy(RulesError):
    """Shown to the user like a refusal: privately, and nothing changed."""


class Admission:
    def __init__(self, at_once: int, patience: float) -> None:
        self.at_once = at_once
        self.patience = patience
        self._slots = asyncio.Semaphore(at_once)
        self.turned_away = 0

    @contextlib.asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        started = clock()
        # The wait is this task's own, not a task wait_for would start: in line from the moment the command
        # arrives, so a command that comes later (the next in its channel) cannot take a slot freed meanwhile.
        try:
            async with asyncio.timeout(self.patience):
                await self._slots.acquire()
        except TimeoutError:
            self.turned_away += 1
            raise Busy(BUSY) from None
        STAGE_CLOCK.add("queue", started)
        try:
            yield
        finally:
            self._slots.release()
