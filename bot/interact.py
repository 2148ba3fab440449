"""One path for every command that changes an encounter.

run(): who is asking (GM or player) → the core applies the action under the
channel's lock → the answer goes back to the interaction → then the channel
sees the consequences (a new turn's ping, a choice to make, the tracker edit).
Refusals come back ephemeral and change nothing.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Callable

import discord

from rules import registry
from rules.errors import RulesError
from rules.model import Actor, Encounter
from rules.system import System

from . import render
from .core import Result

if TYPE_CHECKING:
    from .app import TurnkeeperBot

log = logging.getLogger(__name__)

BuildWithActor = Callable[[Actor, System, Encounter], object]


async def actor_of(interaction: discord.Interaction) -> Actor:
    bot: TurnkeeperBot = interaction.client  # type: ignore[assignment]
    return Actor(user_id=interaction.user.id, is_gm=await bot.is_gm(interaction))


async def reply(interaction: discord.Interaction, content: str, *, ephemeral: bool = False,
                allowed: discord.AllowedMentions = render.NOBODY, **kwargs) -> None:
    content = render.fit(content)
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=ephemeral, allowed_mentions=allowed, **kwargs)
    else:
        await interaction.response.send_message(content, ephemeral=ephemeral, allowed_mentions=allowed, **kwargs)


async def refuse(interaction: discord.Interaction, error: Exception) -> None:
    await reply(interaction, f"⛔ {render.clean(str(error))}", ephemeral=True)


async def run(interaction: discord.Interaction, build: BuildWithActor, command: str) -> Result | None:
    bot: TurnkeeperBot = interaction.client  # type: ignore[assignment]
    async with bot.working():
        return await _run(bot, interaction, build, command)


async def _run(bot, interaction: discord.Interaction, build: BuildWithActor, command: str) -> Result | None:
    try:
        by = await actor_of(interaction)
        result = await bot.core.act(interaction.channel_id, lambda system, state: build(by, system, state), command)
    except RulesError as error:
        await refuse(interaction, error)
        return None
    pending = result.state.pending
    asked = (pending.users or (result.state.gm_id,)) if result.pending_opened else ()
    content, mentions = render.result_content(result.events, leave_out=asked)
    await reply(interaction, content, allowed=mentions)
    await announce(bot, interaction.channel, result)
    return result


async def announce(bot: "TurnkeeperBot", channel, result: Result) -> None:
    """Turn pings, choices and the pinned tracker after a committed change."""
    system = registry.get(result.state.system)
    state = result.state
    try:
        if state.status == "running" and result.turn_changed:
            content, embed, view, mentions, picture = render.turn_message(system, state, result.encounter_id)
            files = [picture] if picture else []
            message = await channel.send(content, embed=embed, view=view, allowed_mentions=mentions, files=files)
            await bot.core.repo.set_meta(result.encounter_id, turn_message_id=message.id)
        if state.pending is not None and result.pending_opened:
            content, view, mentions = render.choice_message(state, result.encounter_id)
            await channel.send(content, view=view, allowed_mentions=mentions)
        await update_tracker(bot, channel, result)
    except discord.HTTPException:
        # The change is saved; a failed ping or edit must not turn into an error reply.
        log.exception("could not announce encounter %s", result.encounter_id)


async def update_tracker(bot: "TurnkeeperBot", channel, result: Result) -> None:
    """Edit the one pinned tracker message; post and pin it the first time."""
    system = registry.get(result.state.system)
    embed = render.tracker_embed(system, result.state, result.encounter_id)
    lock = bot.tracker_locks.setdefault(result.encounter_id, asyncio.Lock())
    async with lock:
        record = await bot.core.repo.get_encounter(result.encounter_id)
        message_id = record.tracker_message_id if record else None
        if message_id:
            try:
                await channel.get_partial_message(message_id).edit(embed=embed, allowed_mentions=render.NOBODY)
                return
            except discord.NotFound:
                pass
        if result.state.status == "ended":
            return
        message = await channel.send(embed=embed, allowed_mentions=render.NOBODY)
        try:
            await message.pin()
        except discord.HTTPException:
            log.warning("could not pin the tracker in channel %s", channel.id)
        await bot.core.repo.set_meta(result.encounter_id, tracker_message_id=message.id)
