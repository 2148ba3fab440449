"""/help: how to play each system with the bot."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot import render
from bot.interact import reply
from rules import registry
from rules.errors import RulesError

from .campaign import SYSTEM_CHOICES

GENERAL = (
    "**Turnkeeper** runs the fight in this channel.\n"
    "GM: `/campaign setup`, `/encounter start`, `/initiative add`, `/initiative next` (round 1), "
    "`/encounter undo`, `/encounter end`. Players: `/character add`, `/initiative join`, then act on your turn "
    "(`/attack`, `/act`, …) and press **End turn**. Any roll can be entered by hand with `roll:`/`dice:`/`cards:`."
)


class Help(commands.Cog):
    def __init__(self, bot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="How to run a fight with Turnkeeper, per rule system")
    @app_commands.choices(system=SYSTEM_CHOICES)
    async def help(self, interaction: discord.Interaction, system: app_commands.Choice[str] | None = None) -> None:
        key = system.value if system else None
        if key is None and interaction.guild_id:
            key, _ = await self.bot.core.settings(interaction.guild_id)
        text = GENERAL
        if key:
            try:
                rules_system = registry.get(key)
                text += f"\n\n__**{rules_system.name}**__\n{rules_system.help_text()}"
            except (RulesError, ImportError):
                text += f"\n\n{key} is not available yet."
        await reply(interaction, render.fit(text), ephemeral=True)


async def setup(bot) -> None:
    await bot.add_cog(Help(bot))
