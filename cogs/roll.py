"""/roll: dice of any notation, in any channel of a server, in a fight or between fights,
whatever the system. The rolling is `rules.roll`'s; this cog gathers the options, finds
the GM a private roll goes to, and shows the result.

A private roll is the roller's ephemeral answer, and a direct message to the GM of the
channel's running encounter (else of its last one): an ephemeral message can only be
seen by the one who used the command, and a server role cannot be written to.
"""

from __future__ import annotations

import os

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot import render, translation
from bot.interact import reply
from rules.dice import parse_entered
from rules.errors import InvalidInput
from rules.roll import roll
from rules.said import say

from .play import DICE


class Roll(commands.Cog):
    def __init__(self, bot) -> None:
        self.bot = bot

    @app_commands.command(name="roll", description=_("Roll dice in any notation, e.g. 4d6kh3, 2d6+3, 2d20kh1"))
    @app_commands.guild_only()
    @app_commands.describe(
        expression=_('Dice notation, e.g. "4d6kh3", "2d6+3", "2d20kh1"'),
        private=_("Only you and the GM see the roll"),
        reason=_("What the roll is for"),
        dice=_(DICE),
    )
    async def roll(
        self,
        interaction: discord.Interaction,
        expression: str,
        private: bool = False,
        reason: str | None = None,
        dice: str | None = None,
    ) -> None:
        translation.speaking(interaction)
        rolled = roll(
            expression,
            int.from_bytes(os.urandom(8), "little"),
            who=interaction.user.display_name,
            reason=reason,
            entered=parse_entered(dice),
        )
        line = render.free_roll(rolled.said, entered=rolled.entered)
        if not private:
            await reply(interaction, line)
            return
        await self._private(interaction, line)

    async def _private(self, interaction: discord.Interaction, line: str) -> None:
        is_gm = await self.bot.is_gm(interaction)
        gm = None if is_gm else await self.bot.core.channel_gm(interaction.channel_id)
        if gm is None and not is_gm:
            raise InvalidInput(
                say(
                    "A private roll is shown to the GM of this channel's encounter, and this channel has had "
                    "none yet: roll in the open, or once the GM has started an encounter here."
                )
            )
        if gm is not None and gm != interaction.user.id:
            # Reaching the GM may take longer than Discord waits for an answer.
            await interaction.response.defer(ephemeral=True, thinking=True)
            where = render.own(say("🔒 A private roll in {channel}:", channel=f"<#{interaction.channel_id}>"))
            try:
                user = self.bot.get_user(gm) or await self.bot.fetch_user(gm)
                await user.send(f"{where}\n{line}", allowed_mentions=render.NOBODY)
            except (discord.Forbidden, discord.NotFound):
                raise InvalidInput(
                    say(
                        "The GM does not accept direct messages from the bot, so a private roll cannot reach "
                        "them: nobody saw this roll. Roll in the open, or ask the GM to allow direct messages."
                    )
                ) from None
            shown = render.own(say("🔒 Only you and the GM see this roll."))
        else:
            shown = render.own(say("🔒 Only you see this roll: you are the GM."))
        await reply(interaction, f"{shown}\n{line}", ephemeral=True)


async def setup(bot) -> None:
    await bot.add_cog(Roll(bot))
