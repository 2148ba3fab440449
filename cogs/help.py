"""/help: how to play each system with the bot, one section at a time.

The answer is an embed with a select menu of sections (getting started, then each
**Section** of the system's help text), so a system's help can grow past the 2,000
characters of a plain message.
"""

from __future__ import annotations

import re

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot import render, translation
from bot.buttons import menu_index
from bot.interact import let_go, reply
from bot.lengths import SELECT_LABEL, SELECT_OPTIONS
from bot.places import campaign_key
from rules import registry
from rules.errors import RulesError
from rules.said import N_, say

from .campaign import SYSTEM_CHOICES

GENERAL = N_(
    "**Turnkeeper** runs the fight in this channel.\n"
    "GM: `/campaign setup`, `/encounter start`, `/initiative add`, `/initiative next` (round 1), "
    "`/encounter undo`, `/encounter end`. Players: `/character add`, `/initiative join`, then act on your turn "
    "(`/attack`, `/act`, …) and press **End turn**. Any roll can be entered by hand with `roll:`/`dice:`/`cards:`; "
    "a result that used entered dice or cards is marked ✍️.\n"
    "Anyone, in a fight or between fights: `/roll 4d6kh3` rolls any dice notation (`2d6+3`, `2d20kh1`) with each die, "
    "the total and a `reason:`; `private:true` shows it only to you and the GM.\n"
    "A stored character's own check: `/check character:… kind:…` rolls it from the sheet as the system's "
    "rules write it (the system's section **Checks** lists them), written to the campaign log; "
    "`/campaign undo` takes back one that spent or gained something."
)
NO_SYSTEM = "general"
_TITLE = re.compile(r"^\*\*(?P<title>[^*]{1,60})\*\*:?\s*")


def sections(key: str | None) -> list[tuple[str, str]]:
    """(title, text) of each help section, in the readers' language: getting started, then the system's own."""
    found = [(render.words("Getting started"), render.words(GENERAL))]
    if not key:
        return found
    try:
        system = registry.get(key)
    except (RulesError, ImportError):
        return found + [(render.words("Not available"), render.words(say("{key} is not available yet.", key=key)))]
    current_title, current = render.words("Overview"), []
    for line in render.words(system.help_text()).splitlines():
        match = _TITLE.match(line)
        if match and current:
            found.append((current_title, "\n".join(current)))
            current = []
        if match:
            current_title = match["title"].strip()
        current.append(line)
    if current:
        found.append((current_title, "\n".join(current)))
    return found[:SELECT_OPTIONS]


def help_message(key: str | None, index: int = 0):
    """(embed, view) showing section `index` of the help for system `key`."""
    parts = sections(key)
    index = max(0, min(index, len(parts) - 1))
    title, text = parts[index]
    name = NO_SYSTEM
    heading = "Turnkeeper"
    if key and len(parts) > 1:
        try:
            heading = f"Turnkeeper · {registry.get(key).name}"
            name = key
        except (RulesError, ImportError):
            pass
    embed = discord.Embed(
        title=render.fit(f"{heading} — {title}", 256), description=text, colour=discord.Colour.blurple()
    )
    embed.set_footer(text=render.words(say("Section {n}/{total} · pick another below", n=index + 1, total=len(parts))))
    view = discord.ui.View(timeout=None)
    if len(parts) > 1:
        view.add_item(SectionSelect(name, parts, index))
    return render.fit_embed(embed), view


class SectionSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"tk:help:(?P<key>[a-z0-9-]+)"):
    def __init__(self, key: str, parts=(), index: int = 0) -> None:
        # The titles are read in the readers' language already (see `sections`).
        options = [
            discord.SelectOption(label=render.fit(title, SELECT_LABEL), value=str(number), default=number == index)
            for number, (title, _) in enumerate(parts)
        ] or [discord.SelectOption(label=render.select_label("Getting started"), value="0")]
        placeholder = render.select_label("Section…")
        super().__init__(discord.ui.Select(custom_id=f"tk:help:{key}", options=options, placeholder=placeholder))
        self.key = key

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(match["key"])

    async def callback(self, interaction: discord.Interaction) -> None:
        translation.speaking(interaction)
        values = (interaction.data or {}).get("values") or ["0"]
        key = None if self.key == NO_SYSTEM else self.key
        embed, view = help_message(key, max(0, menu_index(str(values[0]))))
        await interaction.response.edit_message(embed=embed, view=view)
        let_go(view)


class Help(commands.Cog):
    def __init__(self, bot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description=_("How to run a fight with Turnkeeper, per rule system"))
    @app_commands.choices(system=SYSTEM_CHOICES)
    async def help(self, interaction: discord.Interaction, system: app_commands.Choice[str] | None = None) -> None:
        key = system.value if system else None
        if key is None and interaction.guild_id:
            key = await self.bot.core.system_here(interaction.channel_id, await campaign_key(interaction))
        embed, view = help_message(key)
        await reply(interaction, "", embed=embed, view=view, ephemeral=True)


async def setup(bot) -> None:
    bot.add_dynamic_items(SectionSelect)
    await bot.add_cog(Help(bot))
