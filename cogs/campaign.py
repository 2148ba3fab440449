"""/campaign: the server's rule system, GM role and settings."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot import render
from bot.core import DEFAULT_SETTINGS
from bot.interact import actor_of, reply
from rules import registry
from rules.commands import flags
from rules.errors import InvalidInput, NotAllowed

SYSTEM_CHOICES = [app_commands.Choice(name=key, value=key) for key in registry.MODULES]


@app_commands.guild_only()
class Campaign(commands.GroupCog, group_name="campaign", group_description="This server's campaign: rule system, GM role, settings"):
    def __init__(self, bot) -> None:
        self.bot = bot

    @app_commands.command(name="setup", description="Choose the rule system and GM role (Manage Server or the current GM)")
    @app_commands.describe(
        system="Rule system played on this server",
        gm_role="Members with this role are GMs (Manage Server always is)",
        reminder_minutes="Ping an idle player after this many minutes (0 = off; default 10)",
        choice_timeout="Seconds before an unanswered choice takes its default (default 120)",
        settings="System settings as name=value, e.g. starting_plot_points=2",
    )
    @app_commands.choices(system=SYSTEM_CHOICES)
    async def setup(self, interaction: discord.Interaction, system: app_commands.Choice[str], gm_role: discord.Role | None = None,
                    reminder_minutes: app_commands.Range[int, 0, 1440] | None = None,
                    choice_timeout: app_commands.Range[int, 0, 86400] | None = None, settings: str | None = None) -> None:
        by = await actor_of(interaction)
        if not by.is_gm:
            raise NotAllowed("Only someone with Manage Server or the GM role can set up the campaign.")
        rules_system = registry.get(system.value)
        current = await self.bot.core.campaign(interaction.guild_id)
        merged = dict(current.settings) if current and current.system == system.value else {}
        if reminder_minutes is not None:
            merged["reminder_minutes"] = reminder_minutes
        if choice_timeout is not None:
            merged["choice_timeout_seconds"] = choice_timeout
        for key, value in flags(settings).items():
            if key not in rules_system.options:
                known = ", ".join(rules_system.options) or "none"
                raise InvalidInput(f"{rules_system.name} has no setting `{key}` (settings: {known}).")
            merged[key] = _typed(value, rules_system.options[key].default, key)
        role_id = gm_role.id if gm_role else (current.gm_role_id if current else None)
        await self.bot.core.repo.save_campaign(interaction.guild_id, system=system.value, gm_role_id=role_id, settings=merged)
        self.bot.forget_campaign(interaction.guild_id)
        await self.bot.command_sets.refresh_soon(interaction.guild_id)
        role = f"<@&{role_id}>" if role_id else "Manage Server holders"
        await reply(interaction, f"✅ This server plays **{rules_system.name}**. GMs: {role}.", allowed=render.NOBODY)

    @app_commands.command(name="show", description="Show the campaign's system, GM role and settings")
    async def show(self, interaction: discord.Interaction) -> None:
        campaign = await self.bot.core.campaign(interaction.guild_id)
        if campaign is None:
            await reply(interaction, "No campaign yet: someone with Manage Server runs `/campaign setup`.", ephemeral=True)
            return
        rules_system = registry.get(campaign.system)
        settings = DEFAULT_SETTINGS | rules_system.default_options() | campaign.settings
        embed = discord.Embed(title=f"Campaign — {rules_system.name}", colour=discord.Colour.blurple())
        embed.add_field(name="GM role", value=f"<@&{campaign.gm_role_id}>" if campaign.gm_role_id else "Manage Server holders")
        lines = [f"`{k}` = {v}" + (f" — {rules_system.options[k].help}" if k in rules_system.options else "") for k, v in settings.items()]
        embed.add_field(name="Settings", value=render.fit("\n".join(lines), 1000), inline=False)
        await reply(interaction, "", embed=embed)


def _typed(value, default, key):
    if isinstance(default, bool):
        return str(value).lower() in ("1", "true", "yes", "on")
    if isinstance(default, int):
        try:
            return int(value)
        except ValueError:
            raise InvalidInput(f"`{key}` must be a whole number.") from None
    return value


async def setup(bot) -> None:
    await bot.add_cog(Campaign(bot))
