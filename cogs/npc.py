"""/npc: the campaign's NPC library, stat blocks the GM stores once and adds by
template (/initiative add template:…). Only the GM reads or changes it."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot import render
from bot.interact import reply
from bot.places import campaign_key
from bot.repository import DuplicateName
from rules import registry
from rules.errors import InvalidInput
from rules.said import say
from rules.usertext import mark

from . import autocomplete
from .gm import gm_only

MAX_NOTES = 1000


@app_commands.guild_only()
class Npc(commands.GroupCog, group_name="npc", group_description=_("GM: the campaign's NPC library")):
    def __init__(self, bot) -> None:
        self.bot = bot

    async def _gm(self, interaction: discord.Interaction):
        await gm_only(interaction, "Only the GM uses the NPC library.")
        key = await campaign_key(interaction)
        campaign = await self.bot.core.campaign(key)
        if campaign is None:
            raise InvalidInput("This campaign is not set up yet: the GM runs /campaign setup first.")
        return key, registry.get(campaign.system)

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
        try:
            key, system = await self._gm(interaction)
            clean_name = " ".join(name.split())
            if not clean_name or len(clean_name) > 60:
                raise InvalidInput("A template name has 1 to 60 characters.")
            if notes and len(notes) > MAX_NOTES:
                raise InvalidInput(say("Notes are limited to {n} characters.", n=MAX_NOTES))
            sheet = system.parse_sheet(stats or "")
            await self.bot.core.repo.add_npc(key, clean_name, system.key, sheet, notes or "")
        except DuplicateName:
            raise InvalidInput(say("The library already has {name}: /npc remove it first.", name=mark(name))) from None
        stored = say("**{name}** is in the NPC library.", name=render.shown_name(clean_name))
        await reply(interaction, f"📚 {render.own(stored)}", ephemeral=True)

    @app_commands.command(name="list", description=_("GM: the NPC library"))
    async def list_(self, interaction: discord.Interaction) -> None:
        key, _ = await self._gm(interaction)
        records = await self.bot.core.repo.list_npcs(key, limit=1000)
        if not records:
            await reply(interaction, render.words("The NPC library is empty: `/npc add`."), ephemeral=True)
            return
        shown = render.shown_name
        lines = [f"• **{shown(r.name)}**" + (f" — {shown(r.notes[:80])}" if r.notes else "") for r in records]
        await reply(interaction, render.fit("\n".join(lines)), ephemeral=True)

    @app_commands.command(name="show", description=_("GM: one stat block"))
    @app_commands.autocomplete(name=autocomplete.npcs)
    async def show(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 60]) -> None:
        key, _ = await self._gm(interaction)
        record = await self.bot.core.repo.get_npc(key, name)
        if record is None:
            raise InvalidInput(say("The NPC library has no {name}.", name=mark(name[:60])))
        stats = "\n".join(f"`{k}` = {render.shown_name(str(v))}" for k, v in record.sheet.items()) or "—"
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
        key, _ = await self._gm(interaction)
        if not await self.bot.core.repo.remove_npc(key, name):
            raise InvalidInput(say("The NPC library has no {name}.", name=mark(name[:60])))
        left = say("{name} left the NPC library.", name=render.shown_name(name))
        await reply(interaction, f"🗑️ {render.own(left)}", ephemeral=True)


async def setup(bot) -> None:
    await bot.add_cog(Npc(bot))
