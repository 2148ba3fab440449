"""Getting encounter changes to Discord within its REST budget.

One bot token may make about 50 REST requests a second in all, and a channel's
message edits share a small bucket; interaction responses and followups are exempt
from the global limit. So:

* the turn message and a choice to make go out as followups of the interaction that
  caused them (``announce`` falls back to a channel message when there is none, e.g.
  for a reminder or a choice that timed out);
* the pinned tracker is edited at most once per ``interval`` seconds per encounter: the
  first change is shown at once, changes during the interval are coalesced into one edit
  of the newest saved state at its end; an edit that would show what is already there is
  not sent; every tracker request waits its turn in a token-wide ``Pacer``;
* a pending edit keeps the bot busy (``bot.working``), so ``bot.idle`` means the
  channel shows everything, and ``flush`` (on shutdown too) sends pending edits at once.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

import discord

from rules import registry

from . import render

if TYPE_CHECKING:
    from .app import TurnkeeperBot
    from .core import Result

log = logging.getLogger(__name__)

SERVER_ERROR_TRIES = 3


async def persist(call, *args, **kwargs):
    """discord.py retries 500, 502 and 504 itself, but gives up at once on 503,
    which Discord answers now and then; a turn ping must not be lost to it."""
    for attempt in range(1, SERVER_ERROR_TRIES + 1):
        try:
            return await call(*args, **kwargs)
        except discord.DiscordServerError:
            if attempt == SERVER_ERROR_TRIES:
                raise
            await asyncio.sleep(attempt)


class Pacer:
    """Spaces every tracker request of this process ``1 / rate`` seconds apart (None: no
    pacing). No bursts: Discord counts the global limit per second, and two shard
    processes bursting together would go over it."""

    def __init__(self, rate: float | None, *, clock=time.monotonic) -> None:
        self.rate = rate
        self.clock = clock
        self._tokens = 1.0
        self._stamp = clock()
        self._lock = asyncio.Lock()

    async def acquire(self) -> None:
        if not self.rate:
            return
        async with self._lock:  # first come, first served
            while True:
                now = self.clock()
                self._tokens = min(1.0, self._tokens + (now - self._stamp) * self.rate)
                self._stamp = now
                if self._tokens >= 1:
                    self._tokens -= 1
                    return
                await asyncio.sleep((1 - self._tokens) / self.rate)


class TrackerDelivery:
    def __init__(self, bot: TurnkeeperBot, *, interval: float, pacer: Pacer) -> None:
        self.bot = bot
        self.interval = interval
        self.pacer = pacer
        self._pending: dict[int, tuple[Any, Result]] = {}  # encounter → (channel, newest result)
        self._tasks: dict[int, asyncio.Task] = {}
        self._last_edit: dict[int, float] = {}
        self._shown: dict[int, dict] = {}  # encounter → the embed its tracker shows, as sent
        self._unpinned: set[int] = set()  # ended encounters whose tracker left the pins
        self._hurry = asyncio.Event()
        self.edits = 0
        self.skipped = 0

    @property
    def waiting(self) -> int:
        """Encounters whose tracker has an edit under way or waiting for its interval."""
        return len(self._tasks)

    def schedule(self, channel, result: Result) -> None:
        """Show ``result`` (or anything newer) on the encounter's pinned tracker soon."""
        eid = result.encounter_id
        queued = self._pending.get(eid)
        if queued is None or queued[1].version <= result.version:
            self._pending[eid] = (channel, result)
        if eid not in self._tasks:
            # Busy from now on, not from when the task first runs: bot.idle must not be set in between.
            self.bot.busy += 1
            self.bot.idle.clear()
            self._tasks[eid] = asyncio.create_task(self._deliver(eid), name=f"tracker-{eid}")

    async def _deliver(self, eid: int) -> None:
        try:
            while eid in self._pending:
                await self._wait_turn(eid)
                channel, result = self._pending.pop(eid)
                try:
                    await self._show(channel, result)
                except discord.HTTPException:
                    log.exception("could not update the tracker of encounter %s", eid)
                except Exception:
                    log.exception("tracker update of encounter %s failed", eid)
                self._last_edit[eid] = time.monotonic()
        finally:
            self._tasks.pop(eid, None)
            self.bot.busy -= 1
            if not self.bot.busy:
                self.bot.idle.set()

    async def _wait_turn(self, eid: int) -> None:
        wait = self._last_edit.get(eid, float("-inf")) + self.interval - time.monotonic()
        if wait > 0 and not self._hurry.is_set():
            try:
                await asyncio.wait_for(self._hurry.wait(), wait)
            except TimeoutError:
                pass

    async def flush(self, timeout: float = 10.0) -> None:
        """Send every pending edit now (the per-encounter interval is skipped)."""
        self._hurry.set()
        try:
            tasks = list(self._tasks.values())
            if tasks:
                await asyncio.wait(tasks, timeout=timeout)
        finally:
            self._hurry.clear()

    async def _show(self, channel, result: Result) -> None:
        bot = self.bot
        system = registry.get(result.state.system)
        record = await bot.core.repo.get_encounter(result.encounter_id)
        if record is None:
            return
        # Results reach here in any order, not in commit order: render the newest
        # saved state, never an older result over a newer one.
        state = result.state if record.version == result.version else system.load(record.state)
        embed = render.tracker_embed(system, state, result.encounter_id)
        shown = embed.to_dict()
        message_id = record.tracker_message_id
        if message_id and self._shown.get(result.encounter_id) == shown:
            self.skipped += 1
            return
        if message_id:
            try:
                await self.pacer.acquire()
                tracker = channel.get_partial_message(message_id)
                await persist(tracker.edit, embed=embed, allowed_mentions=render.NOBODY)
                self._shown[result.encounter_id] = shown
                self.edits += 1
                if state.status == "ended":
                    await self._unpin(result.encounter_id, tracker)
                elif result.encounter_id in self._unpinned:  # undone back to life: pinned again
                    await self.pacer.acquire()
                    await tracker.pin()
                    self._unpinned.discard(result.encounter_id)
                return
            except discord.NotFound:
                pass
        if state.status == "ended":
            return
        await self.pacer.acquire()
        message = await persist(channel.send, embed=embed, allowed_mentions=render.NOBODY)
        self._shown[result.encounter_id] = shown
        self.edits += 1
        try:
            await self.pacer.acquire()
            await message.pin()
        except discord.HTTPException:
            log.warning("could not pin the tracker in channel %s", channel.id)
        await bot.core.repo.set_meta(result.encounter_id, tracker_message_id=message.id)

    async def _unpin(self, eid: int, tracker) -> None:
        """An ended encounter's tracker leaves the pins: a channel holds only so many."""
        try:
            await self.pacer.acquire()
            await tracker.unpin()
            self._unpinned.add(eid)
        except discord.NotFound:
            pass
        except discord.HTTPException:
            log.warning("could not unpin the tracker in channel %s", tracker.channel.id)
