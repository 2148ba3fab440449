"""/character: the server's stored characters (sheets for joining encounters)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot import paging, render
from bot.between import describe
from bot.interact import actor_of, reply
from bot.lengths import CHOICE_NAME, CHOICE_VALUE, SELECT_OPTIONS, check_form_fits
from bot.places import campaign_key
from bot.roster import may_read
from bot.sheet_forms import Draft, FixFormButton, SheetForm, answer_stored, blank_texts, refuse_closed_form
from rules import registry
from rules.commands import check_owner_or_gm
from rules.errors import RulesError
from rules.said import joined, say, term

from . import autocomplete


def key_line(system, key: str) -> str:
    """A sheet key as an autocomplete suggestion: `key=`, what it means and what it takes."""
    meaning, takes = system.key_help(key)
    if meaning:
        return render.label(
            say("{key}= {meaning} ({takes})", key=key, meaning=term(meaning), takes=term(takes)), CHOICE_NAME
        )
    return render.label(say("{key}= ({takes})", key=key, takes=term(takes)), CHOICE_NAME)


@app_commands.guild_only()
class Character(commands.GroupCog, group_name="character", group_description=_("Characters stored on this server")):
    def __init__(self, bot) -> None:
        self.bot = bot

    async def _named(self, interaction: discord.Interaction, name: str):
        """The caller, the campaign and the stored character the option names."""
        by = await actor_of(interaction)
        key = await campaign_key(interaction)
        return by, key, await autocomplete.resolve_character(interaction, key, name)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        await refuse_closed_form(interaction)

    @app_commands.command(name="add", description=_("Store your character's sheet (see /help for each system's stats)"))
    @app_commands.describe(
        name=_("Character name"), stats=_('Stats as name=value, e.g. "dex=3 avoidance=15 stamina=20"')
    )
    async def add(
        self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 60], stats: str | None = None
    ) -> None:
        by = await actor_of(interaction)
        key = await campaign_key(interaction)
        if stats is None:
            system = await self.bot.core.roster.system(key)
            await self.bot.core.roster.new_name(key, by, name)
            draft = Draft(guild=key, user_id=by.user_id, system=system.key, texts=blank_texts(system), name=name)
            await interaction.response.send_modal(SheetForm(draft))
            return
        clean_name, system = await self.bot.core.roster.add(key, by, name, stats, interaction.user.display_name)
        await answer_stored(interaction, clean_name, system)

    @add.autocomplete("stats")
    async def stats_help(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The next key to type, with what it means and takes."""
        try:
            system = await self.bot.core.roster.system(await campaign_key(interaction))
        except RulesError:
            return []  # no campaign yet: /character add itself says so
        typed = current.rstrip()
        words = typed.split()
        last = words[-1] if words and not current.endswith(" ") else ""
        fields = system.sheet_type.model_fields
        if "=" in last:
            # Typing a value: what its key means and takes, keeping what was typed.
            key = last.partition("=")[0]
            if key not in fields or len(current) > CHOICE_VALUE:
                return []
            return [app_commands.Choice(name=key_line(system, key), value=current)]
        done = {word.partition("=")[0] for word in words if "=" in word}
        stem = typed[: len(typed) - len(last)].rstrip()
        # A suggestion carries all that was typed: past what a choice holds, none is offered.
        offered = ((key, f"{stem} {key}=".lstrip()) for key in fields if key not in done and key.startswith(last))
        choices = [
            app_commands.Choice(name=key_line(system, key), value=value)
            for key, value in offered
            if len(value) <= CHOICE_VALUE
        ]
        return choices[:SELECT_OPTIONS]

    @app_commands.command(name="edit", description=_("Change a character's sheet in a form (its owner or the GM)"))
    @app_commands.autocomplete(name=autocomplete.campaign_characters)
    async def edit(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 100]) -> None:
        by, key, record = await self._named(interaction, name)
        check_owner_or_gm(by, record)
        system = registry.get(record.system)
        check_form_fits(system, record.sheet)
        draft = Draft(
            guild=key,
            user_id=by.user_id,
            system=system.key,
            texts=blank_texts(system, record.sheet),
            name=record.name,
            character_id=record.id,
            opened_on=record.sheet,
        )
        await interaction.response.send_modal(SheetForm(draft))

    @app_commands.command(name="list", description=_("List the server's characters"))
    @app_commands.describe(mine=_("Only your own characters"))
    async def list_(self, interaction: discord.Interaction, mine: bool = False) -> None:
        owner = interaction.user.id if mine else None
        records = await self.bot.core.repo.list_characters(await campaign_key(interaction), owner_id=owner, limit=1000)
        if not records:
            await reply(interaction, render.words("No characters yet: `/character add`."), ephemeral=True)
            return
        content, view = paging.character_page(records, owner)
        await reply(interaction, content, ephemeral=True, **({"view": view} if view else {}))

    @app_commands.command(name="show", description=_("Show a character's sheet and what it carries between fights"))
    @app_commands.autocomplete(name=autocomplete.campaign_characters)
    async def show(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 100]) -> None:
        by, key, record = await self._named(interaction, name)
        # A sheet and what it carries between fights are its owner's and the GM's to read, as the
        # numbers are in a fight: an NPC the GM kept may have fought hidden.
        readable = may_read(by, record)
        system = registry.get(record.system)
        embed = discord.Embed(title=render.fit(render.shown_name(record.name), 256), colour=discord.Colour.green())
        if readable:
            # What it carries between fights first: it is what changes from fight to fight.
            carried = joined("\n", describe(system, record, await self.bot.core.campaign(key)))
            embed.add_field(
                name=render.words("Between fights"), value=render.fit(render.clean(carried) or "—", 1000), inline=False
            )
            # The sheet in its form's sections, so what /character edit asks is what /character show shows.
            for section in system.sheet_form():
                lines = "\n".join(render.sheet_line(k, record.sheet[k]) for k in section.keys if k in record.sheet)
                embed.add_field(name=render.words(section.label), value=render.fit(lines or "—", 1000), inline=False)
        else:
            embed.description = render.words("Only its owner and the GM read its sheet.")
        embed.set_footer(text=f"{record.system}")
        owner = say("Owner: {owner}", owner=f"<@{record.owner_id}>")
        await reply(interaction, render.own(owner), embed=embed, ephemeral=True)

    @app_commands.command(name="remove", description=_("Delete a stored character (its owner or the GM)"))
    @app_commands.autocomplete(name=autocomplete.campaign_characters)
    async def remove(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 100]) -> None:
        by, key, record = await self._named(interaction, name)
        await self.bot.core.roster.remove(key, by, record)
        removed = say("**{name}** was removed.", name=render.shown_name(record.name))
        await reply(interaction, f"🗑️ {render.own(removed)}")


async def setup(bot) -> None:
    bot.add_dynamic_items(FixFormButton)
    await bot.add_cog(Character(bot))
