"""Idle-turn reminders and choice timeouts, driven from the database.

Deadlines live in the encounter row (reminder_due, pending_deadline), so they
survive a restart: a fresh process simply finds them due. Each shard looks only
at its own guilds, so a reminder fires once even with several processes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import timedelta
from typing import TYPE_CHECKING

import discord

from rules import registry
from rules.said import say

from . import render, translation, turn_posts
from .core import MAX_REMINDERS
from .interact import announce, answer_content, catch_up, post

if TYPE_CHECKING:
    from .app import TurnkeeperBot

log = logging.getLogger(__name__)

POLL_SECONDS = 5.0


class Reminders:
    def __init__(self, bot: TurnkeeperBot, poll: float = POLL_SECONDS) -> None:
        self.bot = bot
        self.poll = poll
        self._task: asyncio.Task | None = None
        self._refused: dict[int, int] = {}  # encounter → refused lookups of its channel in a row

    def start(self) -> None:
        self._task = asyncio.create_task(self._loop(), name="turnkeeper-reminders")

    async def stop(self) -> None:
        """Stop polling and wait for it, so no query is cut off while the engine closes."""
        if self._task:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _loop(self) -> None:
        await self.bot.wait_until_ready()
        while not self.bot.is_closed():
            try:
                await self.tick()
            except Exception:  # a bad row must not stop every other reminder
                log.exception("reminder pass failed")
            await asyncio.sleep(self.poll)

    def _shards(self) -> tuple[int, list[int]] | None:
        """This process's shards, or None when it runs them all (SHARD_IDS unset) and so serves every server."""
        if not self.bot.shard_ids or not self.bot.shard_count:
            return None
        return self.bot.shard_count, list(self.bot.shard_ids)

    async def tick(self) -> int:
        """One pass: what a killed process left unposted, then the deadlines due. How many deadlines it met."""
        now = self.bot.core.now()
        try:
            await self.catch_up(now)
        except Exception:  # the deadlines are looked up all the same
            log.exception("catch-up pass failed")
        done = 0
        for record in await self.bot.core.due(self._shards()):
            try:
                done += await self._due(record, now)
            except Exception:  # one bad channel or row must not hold up every other server's deadlines
                log.exception("could not handle the deadlines of encounter %s", record.id)
        return done

    async def catch_up(self, now) -> int:
        """Post the turn pings and questions a process killed between a change and its announce left unposted
        (``interact.catch_up``). Only those of a change saved CATCH_UP_AFTER ago or more: a live process (this
        one, or another during a shard hand-over) has posted its own by then. How many it posted."""
        done = 0
        for record in await self.bot.core.repo.unannounced(now - CATCH_UP_AFTER, shards=self._shards()):
            try:
                guild = self.bot.get_guild(record.guild_id)
                if guild is not None and guild.unavailable:
                    continue  # a Discord outage: tried again when the server is back
                channel = self.bot.get_channel(record.channel_id) or await self._looked_up(record.channel_id)
                translation.speaking_in(getattr(channel, "guild", None))
                done += await catch_up(self.bot, channel, record)
            except Exception:  # one bad channel or row must not hold up the others
                log.exception("could not catch up encounter %s", record.id)
        return done

    async def _looked_up(self, channel_id: int):
        """A channel not in the cache (an archived thread), or None when Discord will not give it."""
        try:
            return await self.bot.fetch_channel(channel_id)
        except discord.HTTPException as error:
            log.warning("could not look up channel %s to catch it up (%s)", channel_id, error)
            return None

    async def _due(self, record, now) -> int:
        """What falls due in one encounter: its choice's default, else its reminder. How many did (0 or 1)."""
        core = self.bot.core
        channel = self.bot.get_channel(record.channel_id)
        if channel is None:
            # An archived thread or forum post is not in the cache: ask Discord.
            channel = await self._fetch_channel(record, now)
            if channel is None:
                return 0
        self._refused.pop(record.id, None)
        translation.speaking_in(getattr(channel, "guild", None))
        if record.pending_deadline and record.pending_deadline <= now:
            result = await core.answer_default(record)
            if result is not None:
                await self.timed_out(channel, result)
            # `record` is from before the default: its reminder would ask the answered question again.
            # The default's own change set the next reminder; one still due is sent next pass, read anew.
            return 1
        if record.reminder_due and record.reminder_due <= now:
            await self.remind(channel, record)
            return 1
        return 0

    async def _fetch_channel(self, record, now):
        """The channel, or None when there is none to post to this pass. Only a server the
        bot left or a channel Discord says is gone clears the deadlines: left due, a hundred
        such rows would fill the query's limit and every other reminder and choice deadline
        would wait behind them for ever. A blip (5xx) must not cost them though."""
        guild = self.bot.get_guild(record.guild_id)
        if guild is not None and guild.unavailable:
            return None  # a Discord outage: the channel comes back with its server
        try:
            if guild is not None:
                return await self.bot.fetch_channel(record.channel_id)
        except discord.NotFound:
            pass  # 10003 Unknown Channel: deleted
        except discord.Forbidden:
            # The bot may no longer see the channel; its permissions may come back.
            await self._back_off(record, now)
            return None
        except discord.HTTPException as error:
            log.warning("could not look up channel %s (%s): tried again next pass", record.channel_id, error)
            return None
        self._refused.pop(record.id, None)
        await self.bot.core.repo.set_meta(record.id, reminder_due=None, pending_deadline=None)
        return None

    async def _back_off(self, record, now) -> None:
        """A refused channel is asked again the next pass, then ever less often (its deadlines are
        put off, not dropped): every pass, a lasting refusal would fill each query and count against
        the refused requests for which Discord bans a bot for a while."""
        refusals = self._refused.get(record.id, 0) + 1
        self._refused[record.id] = refusals
        if refusals == 1:
            return
        log.warning("the bot may not see channel %s: its deadlines are put off", record.channel_id)
        later = now + min(BACKOFF_FIRST * 2 ** min(refusals - 2, 16), BACKOFF_MOST)
        for field in ("reminder_due", "pending_deadline"):
            due = getattr(record, field)
            if due is not None and due <= now:
                await self.bot.core.repo.set_meta(record.id, **{field: later}, still={field: due})

    async def timed_out(self, channel, result) -> None:
        """A choice's default, taken when its time ran out: said where the encounter's
        players read (see ``reopened``), pinging whom it means to as a command's answer
        does, then announced like any change."""
        content, mentions = answer_content(result)
        try:
            await post_reopened(channel, content, allowed_mentions=mentions)
        except (discord.HTTPException, discord.ClientException) as error:
            log.warning("could not say in channel %s that a choice timed out (%s)", channel.id, error)
        # Saved all the same: the new turn's ping and the tracker edit are each tried on their own.
        await announce(self.bot, channel, result)

    async def remind(self, channel, record) -> None:
        system = registry.get(record.system)
        state = system.load(record.state)
        users, still = reminder(system, state)
        if state.status != "running" or not users or record.reminders_sent >= MAX_REMINDERS:
            await self.bot.core.repo.set_meta(record.id, reminder_due=None)
            return
        text = f"{render.mention(users)} ⏰ {still}"
        try:
            await post_reopened(channel, text, one=True, allowed_mentions=render.allowed(users))
        except (discord.HTTPException, discord.ClientException):
            # Counted as sent all the same: retried every pass, the row would stay due
            # for ever and crowd out the others (see tick).
            log.warning("could not send a reminder to channel %s", record.channel_id)
        await self.bot.core.reminder_sent(record)


def reminder(system, state) -> tuple[list[int], str]:
    """Whom a reminder pings, and what it says. While a choice is pending nobody else may act:
    its choosers are reminded, with its question as the choice message asks it."""
    users = turn_posts.waited_on(system, state)
    if state.pending is not None:
        return users, render.clean(state.pending.prompt)
    return users, render.clean(say("Still waiting: **{who}**.", who=system.turns.waiting(system, state).title))


THREAD_ARCHIVED = 50083  # Discord's error code for a message to an archived thread
# A channel the bot may not see is asked again after this, then twice as long each time up to the most.
BACKOFF_FIRST = timedelta(minutes=1)
BACKOFF_MOST = timedelta(hours=1)
# A change's turn ping or question still unposted this long after it was saved was left by a killed process.
CATCH_UP_AFTER = timedelta(seconds=30)


async def post_reopened(
    channel, text: str, *, one: bool = False, allowed_mentions: discord.AllowedMentions = render.NOBODY
) -> None:
    """Post where the encounter's players read it (see ``reopened``); ``one``: in one message, cut to fit."""

    async def send(archived: bool) -> None:
        target, said = await reopened(channel, text, archived=archived)
        if one:
            await target.send(render.fit(said), allowed_mentions=allowed_mentions)
        else:
            await post(target, said, allowed_mentions=allowed_mentions)

    try:
        await send(archived=False)
    except discord.HTTPException as error:
        if error.code != THREAD_ARCHIVED or not isinstance(channel, discord.Thread):
            raise
        await send(archived=True)  # archived since the bot last heard of it


async def reopened(channel, text: str, *, archived: bool = False):
    """Where a reminder can go, and what it says. An archived thread (or forum post) is
    reopened; one the bot may not reopen gets the reminder in its parent channel, saying why."""
    if not isinstance(channel, discord.Thread) or not (archived or channel.archived):
        return channel, text
    try:
        return await channel.edit(archived=False), text
    except discord.HTTPException as error:
        log.warning("could not reopen thread %s: %s", channel.id, error)
    parent = channel.parent or await channel.guild.fetch_channel(channel.parent_id)
    if not isinstance(parent, discord.TextChannel):
        raise discord.ClientException(f"thread {channel.id} is archived and its parent takes no messages")
    why = say(
        "(The encounter is in {thread}, but it is archived and locked, and I may not reopen it (Manage Threads).)",
        thread=channel.mention,
    )
    return parent, f"{text}\n{render.own(why)}"
