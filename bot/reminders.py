"""Idle-turn reminders and choice timeouts, driven from the database.

Deadlines live in the encounter row (reminder_due, pending_deadline), so they
survive a restart: a fresh process simply finds them due. Each shard looks only
at its own guilds, so a reminder fires once even with several processes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

import discord

from rules import registry
from rules.said import say

from . import render, translation
from .interact import announce, post

if TYPE_CHECKING:
    from .app import TurnkeeperBot

log = logging.getLogger(__name__)

POLL_SECONDS = 5.0


class Reminders:
    def __init__(self, bot: TurnkeeperBot, poll: float = POLL_SECONDS) -> None:
        self.bot = bot
        self.poll = poll
        self._task: asyncio.Task | None = None

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

    def _guild_ids(self):
        if self.bot.shard_count in (None, 1) and not self.bot.shard_ids:
            return None
        return [guild.id for guild in self.bot.guilds]

    async def tick(self) -> int:
        core = self.bot.core
        now = core.now()
        done = 0
        for record in await core.due(self._guild_ids()):
            channel = self.bot.get_channel(record.channel_id)
            if channel is None:
                # An archived thread or forum post is not in the cache: ask Discord.
                channel = await self._fetch_channel(record.channel_id)
            if channel is not None:
                translation.speaking_in(getattr(channel, "guild", None))
            if channel is None:
                guild = self.bot.get_guild(record.guild_id)
                if guild is not None and guild.unavailable:
                    continue  # a Discord outage: the channel comes back with its server
                # A server the bot left or a deleted channel. Left due, a hundred such
                # rows fill the query's limit and every other reminder and choice
                # deadline waits behind them for ever.
                await core.repo.set_meta(record.id, reminder_due=None, pending_deadline=None)
                continue
            if record.pending_deadline and record.pending_deadline <= now:
                result = await core.answer_default(record)
                if result is not None:
                    await post(channel, render.event_lines(result.events))
                    await announce(self.bot, channel, result)
                done += 1
            if record.reminder_due and record.reminder_due <= now:
                await self.remind(channel, record)
                done += 1
        return done

    async def _fetch_channel(self, channel_id: int):
        try:
            return await self.bot.fetch_channel(channel_id)
        except discord.HTTPException:
            return None

    async def remind(self, channel, record) -> None:
        system = registry.get(record.system)
        state = system.load(record.state)
        waiting = system.turns.waiting(system, state)
        if state.status != "running" or not waiting.users:
            await self.bot.core.repo.set_meta(record.id, reminder_due=None)
            return
        still = render.clean(say("Still waiting: **{who}**.", who=waiting.title))
        text = f"{render.mention(waiting.users)} ⏰ {still}"
        try:
            try:
                target, said = await reopened(channel, text)
                await target.send(render.fit(said), allowed_mentions=render.allowed(waiting.users))
            except discord.HTTPException as error:
                if error.code != THREAD_ARCHIVED or not isinstance(channel, discord.Thread):
                    raise
                # Archived since the bot last heard of it.
                target, said = await reopened(channel, text, archived=True)
                await target.send(render.fit(said), allowed_mentions=render.allowed(waiting.users))
        except (discord.HTTPException, discord.ClientException):
            # Counted as sent all the same: retried every pass, the row would stay due
            # for ever and crowd out the others (see tick).
            log.warning("could not send a reminder to channel %s", record.channel_id)
        await self.bot.core.reminder_sent(record)


THREAD_ARCHIVED = 50083  # Discord's error code for a message to an archived thread


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
