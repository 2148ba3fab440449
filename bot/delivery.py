"""Getting encounter changes to Discord within its REST budget.

One bot token may make about 50 REST requests a second in all, and a channel's
message edits share a small bucket; interaction callbacks and the interaction's own
webhook (followups, and edits and deletes of the messages they sent) are exempt from
the global limit for the 15 minutes its token lasts. So:

* the turn message and a choice to make go out as followups of the interaction that
  caused them (``announce`` falls back to a channel message when there is none, e.g.
  for a reminder or a choice that timed out); when the turn moves on, the previous
  turn message loses its End-turn button through the webhook that sent it, and so does
  a question its buttons once it is no longer asked;
* the pinned tracker is itself a followup: while its token lasts it is edited through
  that webhook. Before the token runs out (or after a restart, when it is not known),
  a later command's interaction takes over: the old tracker is deleted through its own
  webhook, a fresh one posted and pinned: one bot request every ten minutes or so
  instead of one per change. Without a usable webhook (a reminder, a timed-out choice)
  the bot edits the message itself;
* the tracker is edited at most once per ``interval`` seconds per encounter: the
  first change is shown at once, changes during the interval are coalesced into one edit
  of the newest saved state at its end; an edit that would show what is already there is
  not sent; every request that counts against the global limit waits its turn in a
  token-wide ``Pacer``;
* a pending edit keeps the bot busy (``bot.working``), so ``bot.idle`` means the
  channel shows everything, and ``flush`` (on shutdown too) sends pending edits at once.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from rules import registry

from . import render
from .stages import STAGE_CLOCK, clock

if TYPE_CHECKING:
    from rules.model import Encounter

    from .app import TurnkeeperBot
    from .core import Result

log = logging.getLogger(__name__)

SERVER_ERROR_TRIES = 3
TRACKERS_AT_ONCE = 8
# A channel where the bot may not pin is asked again only this long after a refusal (or for a new tracker).
PIN_RETRY_SECONDS = 10 * 60


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


# Discord honours an interaction's token for 15 minutes. A request is not started
# with less than SAFETY of it left, and a tracker whose token has less than
# RENEW_BELOW left moves to a fresher one when a command brings one.
TOKEN_SECONDS = 15 * 60


def _safety() -> float:
    return TOKEN_SECONDS / 30


def _renew_below() -> float:
    return TOKEN_SECONDS / 3


@dataclass(frozen=True)
class Hook:
    """An interaction's webhook and when its token stops working (on the monotonic clock)."""

    webhook: discord.Webhook
    until: float

    def left(self) -> float:
        return self.until - time.monotonic()

    def usable(self) -> bool:
        return self.left() > _safety()

    def better(self, other: Hook | None) -> Hook:
        return self if other is None or self.until >= other.until else other


def hook_of(interaction: discord.Interaction | None) -> Hook | None:
    """The webhook of an answered interaction (its followups are public from here on)."""
    if interaction is None or not interaction.response.is_done():
        return None
    age = max(0.0, (discord.utils.utcnow() - interaction.created_at).total_seconds())
    return Hook(interaction.followup, time.monotonic() + TOKEN_SECONDS - age)


UNKNOWN_WEBHOOK = 10015
INVALID_WEBHOOK_TOKEN = 50027


def token_unusable(error: discord.HTTPException) -> bool:
    """Discord refused an interaction's webhook itself, not the request: its token ran out early
    or was revoked (401, or 404 Unknown Webhook, 401 Invalid Webhook Token). The bot can still
    do it; unlike 404 Unknown Message, this says nothing about the message."""
    return error.status == 401 or error.code in (UNKNOWN_WEBHOOK, INVALID_WEBHOOK_TOKEN)


async def _by_webhook_or_bot(
    hook: Hook | None, by_webhook: Callable[[discord.Webhook], Awaitable[Any]], by_bot, pacer: Pacer
) -> tuple[Any, Hook | None]:
    """Through the webhook that sent the message while its token lasts (exempt from
    the global limit), else as the bot (paced). Gives the result and the hook to try next
    time: None once Discord refused it, as Discord bans for a while a token that makes too
    many refused (401/403/429) requests."""
    if hook is not None and hook.usable():
        try:
            return await persist(by_webhook, hook.webhook), hook
        except discord.HTTPException as error:
            if not token_unusable(error):
                raise
            hook = None
    await pacer.acquire()
    return await persist(by_bot), hook


async def edit_message(
    channel, message_id: int, hook: Hook | None, pacer: Pacer, **fields
) -> tuple[discord.Message, Hook | None]:
    """Edit a message the bot sent, and the hook to edit it with next (see ``_by_webhook_or_bot``)."""
    return await _by_webhook_or_bot(
        hook,
        lambda webhook: webhook.edit_message(message_id, **fields),
        lambda: channel.get_partial_message(message_id).edit(**fields),
        pacer,
    )


async def delete_message(channel, message_id: int, hook: Hook | None, pacer: Pacer) -> None:
    await _by_webhook_or_bot(
        hook,
        lambda webhook: webhook.delete_message(message_id),
        lambda: channel.get_partial_message(message_id).delete(),
        pacer,
    )


class TurnButtons:
    """The newest turn message and question of each encounter, so that the buttons left live are those of
    the current turn and the open question. When the turn moves on, the fight ends or an undo goes back
    before round 1, the turn message before loses its End-turn button; when the question is answered,
    replaced or undone, its message loses its buttons (a click on either would be refused)."""

    def __init__(self, pacer: Pacer) -> None:
        self.pacer = pacer
        self._newest: dict[int, tuple[int, Hook | None]] = {}
        self._asked: dict[int, tuple[int, Hook | None]] = {}
        # Encounters whose turn message waits for the answer to the question an undo reopened.
        self._held: set[int] = set()

    async def posted(self, channel, eid: int, message_id: int, hook: Hook | None) -> None:
        previous = self._newest.get(eid)
        self._newest[eid] = (message_id, hook)
        self._held.discard(eid)
        await self._retire(channel, previous)

    async def ended(self, channel, eid: int, *, held: bool = False) -> None:
        """The turn's message goes; ``held``: its turn comes back once the open question is answered."""
        if held:
            self._held.add(eid)
        else:
            self._held.discard(eid)
        await self._retire(channel, self._newest.pop(eid, None))

    def holding(self, eid: int) -> bool:
        """Whether the encounter's turn message waits for a question to be answered (see ``ended``)."""
        return eid in self._held

    async def asked(self, channel, eid: int, message_id: int, hook: Hook | None) -> None:
        previous = self._asked.get(eid)
        self._asked[eid] = (message_id, hook)
        await self._retire(channel, previous)

    async def answered(self, channel, eid: int) -> None:
        await self._retire(channel, self._asked.pop(eid, None))

    async def _retire(self, channel, message: tuple[int, Hook | None] | None) -> None:
        if message is None:
            return
        try:
            await edit_message(channel, message[0], message[1], self.pacer, view=None)
        except discord.NotFound:
            pass
        except discord.HTTPException:
            log.warning("could not take the buttons off an old turn message or question in channel %s", channel.id)


@dataclass(frozen=True, slots=True)
class Due:
    """A change a tracker has yet to show."""

    encounter_id: int
    version: int
    state: Encounter  # as saved at ``version``


def as_shown(embed: discord.Embed) -> str:
    return json.dumps(embed.to_dict(), sort_keys=True)


class TrackerDelivery:
    def __init__(self, bot: TurnkeeperBot, *, interval: float, pacer: Pacer) -> None:
        self.bot = bot
        self.interval = interval
        self.pacer = pacer
        # Encounter → (channel, the newest change to show, hook). Only which change: under a backlog,
        # thousands of whole results (states before and after, events) made every collection of
        # the cycle collector longer, and so the backlog longer still.
        self._pending: dict[int, tuple[Any, Due, Hook | None]] = {}
        self._tasks: dict[int, asyncio.Task] = {}
        self._last_edit: dict[int, float] = {}
        # Encounter → the embed its tracker shows, as sent (as JSON text: kept for every
        # encounter, and a str is nothing for the cycle collector to walk).
        self._shown: dict[int, str] = {}
        self._owners: dict[int, tuple[int, Hook | None]] = {}  # encounter → (tracker message, webhook that sent it)
        self._no_pins: dict[int, float] = {}  # channel → when Discord last refused the bot a pin there
        self._hurry = asyncio.Event()
        # Edits under way at once: past it, trackers wait (and coalesce) while commands go first.
        self._at_once = asyncio.Semaphore(TRACKERS_AT_ONCE)
        self.edits = 0
        self.skipped = 0

    @property
    def waiting(self) -> int:
        """Encounters whose tracker has an edit under way or waiting for its interval."""
        return len(self._tasks)

    def schedule(self, channel, result: Result, hook: Hook | None = None) -> None:
        """Show ``result`` (or anything newer) on the encounter's pinned tracker soon;
        ``hook``: the webhook of the interaction behind it, if any."""
        eid = result.encounter_id
        queued = self._pending.get(eid)
        if queued is not None:
            hook = hook.better(queued[2]) if hook is not None else queued[2]
        if queued is None or queued[1].version <= result.version:
            self._pending[eid] = (channel, Due(eid, result.version, result.state), hook)
        else:
            self._pending[eid] = (*queued[:2], hook)
        if eid not in self._tasks:
            # Busy from now on, not from when the task first runs: bot.idle must not be set in between.
            self.bot.busy += 1
            self.bot.idle.clear()
            self._tasks[eid] = asyncio.create_task(self._deliver(eid), name=f"tracker-{eid}")

    async def _deliver(self, eid: int) -> None:
        try:
            while eid in self._pending:
                await self._wait_turn(eid)
                # Waiting for a slot coalesces: what is shown is the newest change at the time.
                async with self._at_once:
                    channel, due, hook = self._pending.pop(eid)
                    try:
                        await self._show(channel, due, hook)
                    except discord.HTTPException as error:
                        # Discord's refusal (a permission taken away, the channel deleted) or its outage, not a
                        # fault of the bot's: the change is saved, and the next one tries again.
                        log.warning(
                            "could not update the tracker of encounter %s in channel %s (%s)", eid, channel.id, error
                        )
                    except Exception:
                        log.exception("tracker update of encounter %s failed", eid)
                self._last_edit[eid] = time.monotonic()
        finally:
            self._tasks.pop(eid, None)
            self._forget_edit_later(eid)
            self.bot.busy -= 1
            if not self.bot.busy:
                self.bot.idle.set()

    @property
    def remembered(self) -> int:
        """Encounters whose last edit is still kept to space the next one."""
        return len(self._last_edit)

    def _forget_edit_later(self, eid: int) -> None:
        # An edit's time matters only for one interval: kept for every encounter the process
        # ever edited, it grew without end over a long-running bot's fights.
        edited = self._last_edit.get(eid)
        if edited is None:
            return
        asyncio.get_running_loop().call_later(
            max(0.0, edited + self.interval - time.monotonic()), self._forget_edit, eid, edited
        )

    def _forget_edit(self, eid: int, edited: float) -> None:
        if eid not in self._tasks and self._last_edit.get(eid) == edited:
            del self._last_edit[eid]

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

    async def _show(self, channel, due: Due, fresh: Hook | None) -> None:
        started = clock()
        try:
            await self._show_now(channel, due, fresh)
        finally:
            STAGE_CLOCK.add("tracker", started)

    async def _show_now(self, channel, due: Due, fresh: Hook | None) -> None:
        bot = self.bot
        eid = due.encounter_id
        # Changes reach here in any order, not in commit order: render the newest
        # saved state, never an older one over a newer one.
        newest = await bot.core.newest(channel.id, eid, due.version, due.state)
        if newest is None:
            return
        record, state = newest
        system = registry.get(record.system)
        embed = render.tracker_embed(system, state, eid)
        shown = as_shown(embed)
        owner = self._owners.get(eid)
        # The tracker this process posted last; a record kept in memory may predate it.
        message_id = owner[0] if owner is not None else record.tracker_message_id
        if message_id and self._shown.get(eid) == shown:
            self.skipped += 1
            return
        hook = owner[1] if owner is not None and owner[0] == message_id else None
        fresh = fresh if fresh is not None and fresh.left() > _renew_below() else None
        ended = state.status == "ended"
        if message_id and fresh is not None and not ended and (hook is None or hook.left() < _renew_below()):
            await self._replace(channel, message_id, hook)
            message_id = None
        if message_id:
            try:
                message, usable = await edit_message(
                    channel, message_id, hook, self.pacer, embed=embed, allowed_mentions=render.NOBODY
                )
                if usable is not hook:
                    # Refused once, the hook is like one that ran out: the next change with a fresh
                    # token moves the tracker to it, and none is asked of the dead one again.
                    self._owners[eid] = (message_id, usable)
                self._shown[eid] = shown
                self.edits += 1
                # Pinned exactly while the fight lasts: this also mends a pin that a crash
                # or an undone end left out of step.
                if message.pinned == ended:
                    await self._pin(channel, message_id, pin=not ended)
                if ended:  # nothing more to show; an undone end starts afresh
                    self._shown.pop(eid, None)
                    self._owners.pop(eid, None)
                return
            except discord.NotFound:
                pass
        if not ended:
            await self._post(channel, eid, embed, fresh)

    async def _replace(self, channel, message_id: int, hook: Hook | None) -> None:
        """The old tracker goes before its successor is posted: a crash in between
        leaves no tracker (the next change posts one), never two pinned."""
        try:
            await delete_message(channel, message_id, hook, self.pacer)
        except discord.NotFound:
            pass

    async def _post(self, channel, eid: int, embed: discord.Embed, hook: Hook | None) -> None:
        """A new tracker (through ``hook`` when there is one), remembered, then pinned."""
        message = None
        if hook is not None:
            try:
                message = await persist(hook.webhook.send, embed=embed, wait=True, allowed_mentions=render.NOBODY)
            except discord.HTTPException as error:
                if not token_unusable(error):
                    raise
                hook = None  # a tracker owned by a dead webhook would try it on every edit
        if message is None:
            await self.pacer.acquire()
            message = await persist(channel.send, embed=embed, allowed_mentions=render.NOBODY)
        self._shown[eid] = as_shown(embed)
        self._owners[eid] = (message.id, hook)
        self.edits += 1
        await self.bot.core.repo.set_meta(eid, tracker_message_id=message.id)
        await self._pin(channel, message.id, pin=True, again=True)  # the permission may be back

    async def _pin(self, channel, message_id: int, *, pin: bool, again: bool = False) -> None:
        """Pin a running fight's tracker; an ended one leaves the pins (a channel holds only so many).
        ``again``: ask even though the bot was refused a pin in this channel lately."""
        refused = self._no_pins.get(channel.id)
        if refused is not None and not again and time.monotonic() - refused < PIN_RETRY_SECONDS:
            # Asked on every edit, the refusals would add up: Discord bans for a while a
            # token that makes too many refused (401/403/429) requests.
            return
        message = channel.get_partial_message(message_id)
        try:
            await self.pacer.acquire()
            await (message.pin() if pin else message.unpin())
        except discord.NotFound:
            pass
        except discord.Forbidden as error:
            if refused is None:  # once until it works again, not on every edit
                log.warning(
                    "could not %s the tracker in channel %s (%s): the bot needs the Pin Messages permission there",
                    "pin" if pin else "unpin",
                    channel.id,
                    error,
                )
            self._no_pins[channel.id] = time.monotonic()
        except discord.HTTPException:
            log.warning("could not %s the tracker in channel %s", "pin" if pin else "unpin", channel.id)
        else:
            self._no_pins.pop(channel.id, None)
