"""/character: the server's stored characters (sheets for joining encounters)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot import render
from bot.interact import actor_of, refuse, reply
from bot.repository import DuplicateName
from rules import registry
from rules.commands import check_owner_or_gm
from rules.errors import InvalidInput

from . import autocomplete


@app_commands.guild_only()
class Character(commands.GroupCog, group_name="character", group_description="Characters stored on this server"):
    def __init__(self, bot) -> None:
        self.bot = bot

    async def _system(self, guild_id: int):
        key, _ = await self.bot.core.settings(guild_id)
        if key is None:
            raise InvalidInput("This server has no campaign yet: the GM runs /campaign setup first.")
        return registry.get(key)

    @app_commands.command(name="add", description="Store your character's sheet (see /help for each system's stats)")
    @app_commands.describe(name="Character name", stats='Stats as name=value, e.g. "dex=3 avoidance=15 stamina=20"')
    async def add(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 60], stats: str | None = None) -> None:
        try:
            system = await self._system(interaction.guild_id)
            sheet = system.parse_sheet(stats or "")
            clean_name = " ".join(name.split())
            if not clean_name:
                raise InvalidInput("A character needs a name.")
            await self.bot.core.repo.add_character(interaction.guild_id, interaction.user.id, clean_name, system.key, sheet)
        except DuplicateName:
            await refuse(interaction, InvalidInput(f"There is already a character called {render.clean(name)} on this server."))
            return
        await reply(interaction, f"✅ **{render.clean(clean_name)}** is stored for <@{interaction.user.id}> ({system.name}).")

    @app_commands.command(name="list", description="List the server's characters")
    @app_commands.describe(mine="Only your own characters")
    async def list_(self, interaction: discord.Interaction, mine: bool = False) -> None:
        owner = interaction.user.id if mine else None
        records = await self.bot.core.repo.list_characters(interaction.guild_id, owner_id=owner, limit=200)
        if not records:
            await reply(interaction, "No characters yet: `/character add`.", ephemeral=True)
            return
        lines = [f"• **{render.clean(r.name)}** — <@{r.owner_id}> ({r.system})" for r in records]
        await reply(interaction, render.fit("\n".join(lines)), ephemeral=True)

    @app_commands.command(name="show", description="Show a character's sheet")
    @app_commands.autocomplete(name=autocomplete.characters)
    async def show(self, interaction: discord.Interaction, name: str) -> None:
        record = await self.bot.core.repo.get_character(interaction.guild_id, name)
        if record is None:
            await refuse(interaction, InvalidInput(f"No character called {render.clean(name[:60])} on this server."))
            return
        stats = "\n".join(f"`{k}` = {render.clean(str(v))}" for k, v in record.sheet.items()) or "—"
        embed = discord.Embed(title=record.name, description=render.fit(stats, 4000), colour=discord.Colour.green())
        embed.set_footer(text=f"{record.system}")
        await reply(interaction, f"Owner: <@{record.owner_id}>", embed=embed, ephemeral=True)

    @app_commands.command(name="remove", description="Delete a stored character (its owner or the GM)")
    @app_commands.autocomplete(name=autocomplete.characters)
    async def remove(self, interaction: discord.Interaction, name: str) -> None:
        by = await actor_of(interaction)
        record = await self.bot.core.repo.get_character(interaction.guild_id, name)
        if record is None:
            raise InvalidInput(f"No character called {name[:60]} on this server.")
        check_owner_or_gm(by, record)
        await self.bot.core.repo.remove_character(interaction.guild_id, record.name)
        await reply(interaction, f"🗑️ **{render.clean(record.name)}** was removed.")


async def setup(bot) -> None:
    await bot.add_cog(Character(bot))
