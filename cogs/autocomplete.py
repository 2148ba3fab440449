"""Autocomplete shared by the cogs: the server's characters, the channel's combatants."""

from __future__ import annotations

import discord
from discord import app_commands

from rules import registry
from rules.secrets import conceal


async def characters(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    records = await interaction.client.core.repo.list_characters(interaction.guild_id, prefix=current or None, limit=25)
    return [app_commands.Choice(name=r.name[:100], value=r.name[:100]) for r in records]


async def my_characters(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    records = await interaction.client.core.repo.list_characters(
        interaction.guild_id, owner_id=interaction.user.id, prefix=current or None, limit=25
    )
    return [app_commands.Choice(name=r.name[:100], value=r.name[:100]) for r in records]


async def combatants(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    found = await interaction.client.core.peek(interaction.channel_id)
    if not found:
        return []
    _, state = found
    key = (current or "").casefold()
    names = [c.name for c in state.combatants if key in c.name.casefold()]
    return [app_commands.Choice(name=n[:100], value=n[:100]) for n in names[:25]]


async def acts(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    found = await interaction.client.core.peek(interaction.channel_id)
    if not found:
        return []
    record, _ = found
    key = (current or "").casefold()
    choices = [(v, label) for v, label in registry.get(record.system).act_choices() if key in label.casefold() or key in v]
    return [app_commands.Choice(name=label[:100], value=value[:100]) for value, label in choices[:25]]


async def pending_options(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    found = await interaction.client.core.peek(interaction.channel_id)
    if not found or found[1].pending is None:
        return []
    key = (current or "").casefold()
    options = [o for o in found[1].pending.options if key in conceal(o).casefold()]
    return [app_commands.Choice(name=conceal(o)[:100], value=o[:100]) for o in options[:25]]
