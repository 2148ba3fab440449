"""/roll: dice of any notation, in any channel of a server, in a fight or between fights,
whatever the system. The rolling is `rules.roll`'s; this cog gathers the options, finds
and shows the result; `bot.rolls` takes a private roll to the GM."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot import render, translation
from bot.interact import reply
from bot.rolls import private_roll
from bot.seeds import generator_seed
from rules.dice import parse_entered
from rules.roll import roll

from .play import DICE


class Roll(commands.Cog):
    def __init__(self, bot) -> None:
        self.bot = bot
        self.rolled = 0  # with the bot's fixed seed (the sandbox, tests), the nth roll replays the same

    def _rng_state(self) -> int:
        self.rolled += 1
        return generator_seed(self.bot.seed, self.rolled)

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
            self._rng_state(),
            who=interaction.user.display_name,
            reason=reason,
            entered=parse_entered(dice),
        )
        line = render.free_roll(rolled.said, entered=rolled.entered)
        if not private:
            await reply(interaction, line)
            return
        shown = await private_roll(interaction, line)
        await reply(interaction, f"{shown}\n{line}", ephemeral=True)


async def setup(bot) -> None:
    await bot.add_cog(Roll(bot))
