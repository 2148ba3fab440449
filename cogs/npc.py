"""/npc: the campaign's NPC library, stat blocks the GM stores once and adds by
template (/initiative add template:…). Only the GM reads or changes it."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot import render
from bot.interact import actor_of, reply
from bot.library import MAX_NOTES
from bot.places import campaign_key
from rules import registry
from rules.said import say

from . import autocomplete


@app_commands.guild_only()
class Npc(commands.GroupCog, group_name="npc", group_description=_("GM: the campaign's NPC library")):
    def __init__(self, bot) -> None:
        self.bot = bot

    @app_commands.command(name="add", description=_("GM: store a stat block"))
    @app_commands.describe(
        name=_("Template name, e.g. Zombie"), stats=_("Stats as name=value"), notes=_("Notes for the GM")
    )
    async def add(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 60],
        stats: app_commands.Range[str, 0, 1000] | None = None,
        notes: app_commands.Range[str, 0, MAX_NOTES] | None = None,
    ) -> None:
        by = await actor_of(interaction)
        key = await campaign_key(interaction)
        clean_name = await self.bot.core.library.add(key, by, name, stats, notes)
        stored = say("**{name}** is in the NPC library.", name=render.shown_name(clean_name))
        await reply(interaction, f"📚 {render.own(stored)}", ephemeral=True)

    @app_commands.command(name="list", description=_("GM: the NPC library"))
    async def list_(self, interaction: discord.Interaction) -> None:
        by = await actor_of(interaction)
        key = await campaign_key(interaction)
        records = await self.bot.core.library.entries(key, by)
        if not records:
            await reply(interaction, render.words("The NPC library is empty: `/npc add`."), ephemeral=True)
            return
        shown = render.shown_name
        playing, _ = await self.bot.core.settings(key)
        # A stat block of the campaign's former system is named with it: it joins no fight of this one.
        lines = [
            f"• **{shown(r.name)}**"
            + (f" ({registry.get(r.system).name})" if r.system != playing else "")
            + (f" — {shown(r.notes[:80])}" if r.notes else "")
            for r in records
        ]
        await reply(interaction, "\n".join(lines), ephemeral=True)  # a long library goes as several messages

    @app_commands.command(name="show", description=_("GM: one stat block"))
    @app_commands.autocomplete(name=autocomplete.npcs)
    async def show(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 60]) -> None:
        by = await actor_of(interaction)
        record = await self.bot.core.library.show(await campaign_key(interaction), by, name)
        stats = "\n".join(render.sheet_line(k, v) for k, v in record.sheet.items()) or "—"
        embed = discord.Embed(
            title=render.shown_name(record.name), description=render.fit(stats, 3000), colour=discord.Colour.dark_red()
        )
        if record.notes:
            embed.add_field(
                name=render.words("Notes"), value=render.fit(render.shown_name(record.notes), 1000), inline=False
            )
        await reply(interaction, "", embed=embed, ephemeral=True)

    @app_commands.command(name="remove", description=_("GM: delete a stat block"))
    @app_commands.autocomplete(name=autocomplete.npcs)
    async def remove(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 60]) -> None:
        by = await actor_of(interaction)
        removed = await self.bot.core.library.remove(await campaign_key(interaction), by, name)
        left = say("{name} left the NPC library.", name=render.shown_name(removed))
        await reply(interaction, f"🗑️ {render.own(left)}", ephemeral=True)


async def setup(bot) -> None:
    await bot.add_cog(Npc(bot))
