"""The baseline: a discord.py bot with one app command that only replies ``ok``.

Same client class, intents and mention policy as Turnkeeper, so the difference
between the two is Turnkeeper's own work.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands


class EchoBot(commands.AutoShardedBot):
    def __init__(self, **options) -> None:
        intents = discord.Intents.default()
        intents.message_content = False
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            allowed_mentions=discord.AllowedMentions.none(),
            help_command=None,
            **options,
        )

    async def setup_hook(self) -> None:
        @app_commands.command(name="echo", description="Replies ok")
        async def echo(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("ok")

        self.tree.add_command(echo)
        await self.tree.sync()
