"""Sending commands through the stand-in and waiting until the bot is done with them.

The bot answers first and then posts the consequences (turn ping, tracker edit);
the tracker edit is always its last call for a command. A command is *settled*
when the channel's pinned tracker has been edited once more, so the next
measured command never races the previous one's follow-up work. The bot sends no
edit that would leave the tracker as it is (a miss, damage a threshold stops), so
for such a command, foreseen with the rules core, the answer is the last call. A
tracker the bot has posted afresh (its interaction's token ran low) is followed.
"""

from __future__ import annotations

import asyncio
from typing import Any

from bot.render import tracker_embed
from bot.repository import Repository
from bot.standin import InteractionHandle, RecordedMessage
from rules.engine import apply

from .fights import Fight, Step
from .observed import ObservedStandIn

GM = "gm"
TIMEOUT = 60.0


class Refused(RuntimeError):
    """The bot refused a benchmark command: the scenario is wrong, the figures would be too."""


class Driver:
    def __init__(self, standin: ObservedStandIn, repo: Repository | None = None) -> None:
        self.standin = standin
        self.repo = repo
        self._trackers: dict[int, RecordedMessage] = {}
        self._edits: dict[int, int] = {}  # tracker revisions each channel should reach

    # -- sending ----------------------------------------------------------------
    async def send(
        self, channel: str, command: str | None, options: dict[str, Any], *, edits: bool = True
    ) -> InteractionHandle:
        """Inject one interaction (a slash command, or the End turn click when ``command`` is None);
        ``edits``: whether it changes the channel's tracker."""
        if command is None:
            handle = await self.standin.click(GM, "End turn", in_channel=channel)
        else:
            handle = await self.standin.invoke(GM, command, dict(options), in_channel=channel)
        ch = self.standin.channel(channel)
        if edits and ch.id in self._edits:
            self._edits[ch.id] += 1
        return handle

    async def send_step(self, fight: Fight, step: Step) -> InteractionHandle:
        return await self.send(fight.channel, step.command, step.options)

    async def answered(self, handle: InteractionHandle) -> float:
        """Wait for the visible answer; its latency in seconds. Refusals raise."""
        message = await handle.response(timeout=TIMEOUT)
        if message.ephemeral:
            raise Refused(f"{handle.label!r} was refused: {message.content}")
        latency = self.standin.latency(handle)
        assert latency is not None
        return latency

    async def settled(self, channel: str) -> None:
        """Wait until the bot has edited the channel's tracker for every command sent."""
        ch = self.standin.channel(channel)
        if ch.id not in self._trackers:
            tracker = await self.standin.wait_for(lambda: self._pinned(ch), TIMEOUT, f"the tracker in #{channel}")
            self._trackers[ch.id] = tracker
            self._edits[ch.id] = len(tracker.revisions)
            return
        await self.standin.wait_for(
            lambda: self._caught_up(ch) or None, TIMEOUT, f"the tracker edit #{self._edits[ch.id]} in #{channel}"
        )

    def _pinned(self, channel) -> RecordedMessage | None:
        return next((m for m in reversed(self.standin.messages(channel)) if m.pinned), None)

    def _caught_up(self, channel) -> bool:
        tracker = self._trackers[channel.id]
        if tracker.deleted:
            # Once the token of the interaction that posted it runs low, the bot posts the tracker
            # afresh through a newer one (bot.delivery): the new tracker shows every change so far.
            newer = self._pinned(channel)
            if newer is None:
                return False
            self._trackers[channel.id] = newer
            self._edits[channel.id] = len(newer.revisions)
            return True
        return len(tracker.revisions) >= self._edits[channel.id]

    async def quiet(self, for_seconds: float = 0.3) -> None:
        """Wait until the bot has made no REST call for a while."""
        while True:
            seen = len(self.standin.requests)
            await asyncio.sleep(for_seconds)
            if len(self.standin.requests) == seen:
                return

    def forget_trackers(self) -> None:
        """Count tracker edits afresh, after a burst (its edits may be merged, a failed command edits nothing)."""
        for channel_id, tracker in self._trackers.items():
            self._edits[channel_id] = len(tracker.revisions)

    async def run(self, channel: str, command: str | None, options: dict[str, Any], *, tracked: bool = True) -> float:
        """Send, wait for the answer and (for commands that change an encounter's tracker) the tracker edit."""
        handle = await self.send(channel, command, options, edits=tracked)
        latency = await self.answered(handle)
        if tracked:
            await self.settled(channel)
        return latency

    async def step(self, fight: Fight, *, buttons: bool = True) -> tuple[str, float]:
        """Send the fight's next command, wait until settled; (label, latency)."""
        step = fight.next_step(buttons=buttons)
        latency = await self.run(fight.channel, step.command, step.options, tracked=changes_tracker(fight, step))
        fight.advance(step)
        return step.label, latency

    # -- setting up -----------------------------------------------------------------
    async def set_up(self, fight: Fight) -> None:
        for command, options in fight.setup():
            await self.run(fight.channel, command, options)
        await self.resync(fight)

    async def resync(self, fight: Fight) -> None:
        record = await self.repo.active_encounter(self.standin.channel(fight.channel).id)
        fight.load(record.state)


def changes_tracker(fight: Fight, step: Step) -> bool:
    """Whether the bot's tracker will look different after ``step`` (rendered as the bot renders it)."""
    after = apply(fight.state, step.action).state
    return tracker_embed(fight.system, fight.state, 0).to_dict() != tracker_embed(fight.system, after, 0).to_dict()


def deferred(answer) -> bool:
    """Whether an answer is the private "done" of a command slower than 2 s, which was carried out."""
    return answer.ephemeral and answer.content.startswith("✅ Done")


def refused(answer) -> bool:
    """Whether an answer turned its command away: a private answer other than a slow command's "done"."""
    return answer.ephemeral and not deferred(answer)


async def wait_for_callbacks(standin: ObservedStandIn, handles: list[InteractionHandle]) -> float:
    """Wait until every handle has had its callback; the perf_counter time of the last."""
    await standin.wait_for(
        lambda: all(h.id in standin.callback_at for h in handles) or None, TIMEOUT, f"{len(handles)} callbacks"
    )
    return max(standin.callback_at[h.id] for h in handles)


async def set_up_all(driver: Driver, fights: list[Fight], at_once: int = 8) -> None:
    """Set up many fights, several channels at a time (each channel's commands in order)."""
    gate = asyncio.Semaphore(at_once)

    async def one(fight: Fight) -> None:
        async with gate:
            await driver.set_up(fight)

    await asyncio.gather(*(one(f) for f in fights))
