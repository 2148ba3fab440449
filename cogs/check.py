"""/check: a stored character's check from its sheet, as its system's seed writes it. The rolling
is the system's, the log and the campaign's dice are `bot.checks`'; this cog gathers the options and
shows the result, privately to the roller and the GM when asked (`bot.rolls`)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot import translation
from bot.check_posts import check_message, to_the_gm
from bot.checks import Delivery
from bot.interact import actor_of, reply
from bot.places import campaign_key

from . import autocomplete
from .play import DICE


class Check(commands.Cog):
    def __init__(self, bot) -> None:
        self.bot = bot

    @app_commands.command(name="check", description=_("Roll a character's check from its sheet (see /help)"))
    @app_commands.guild_only()
    @app_commands.describe(
        character=_("The stored character who rolls"),
        kind=_("Which check (the list shows the system's)"),
        dc=_("The target number to reach, if the check has one"),
        against=_("Another stored character, for an opposed check"),
        options=_('The check\'s options, e.g. "advantage" (see /help)'),
        private=_("Only you and the GM see the check"),
        dice=_(DICE),
        cards=_('Cards drawn by hand, in order, e.g. "QH 7S"'),
    )
    @app_commands.autocomplete(
        character=autocomplete.campaign_characters,
        kind=autocomplete.check_kinds,
        against=autocomplete.campaign_characters,
    )
    async def check(
        self,
        interaction: discord.Interaction,
        character: app_commands.Range[str, 1, 100],
        kind: app_commands.Range[str, 1, 60],
        dc: app_commands.Range[int, 0, 1000] | None = None,
        against: app_commands.Range[str, 1, 100] | None = None,
        options: app_commands.Range[str, 1, 300] | None = None,
        private: bool = False,
        dice: app_commands.Range[str, 1, 200] | None = None,
        cards: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        translation.speaking(interaction)
        by = await actor_of(interaction)
        key = await campaign_key(interaction)
        record = await autocomplete.resolve_character(interaction, key, character)
        other = await autocomplete.resolve_character(interaction, key, against) if against else None
        deliver: Delivery | None = None
        shown: list[str] = []
        if private:
            deliver, shown = await to_the_gm(interaction)
        checked = await self.bot.core.checks.check(
            key,
            by,
            record,
            kind,
            dc=dc,
            against=other,
            options=options,
            dice=dice,
            cards=cards,
            by_name=interaction.user.display_name,
            private=private,
            deliver=deliver,
        )
        line, buttons = check_message(checked)
        if not private:
            await reply(interaction, line, **buttons)
            return
        await reply(interaction, f"{shown[0]}\n{line}", ephemeral=True, **buttons)


async def setup(bot) -> None:
    await bot.add_cog(Check(bot))
