"""Private rolls: the roller's ephemeral answer, and a direct message to the GM of the channel's
running encounter (else of its last one). An ephemeral message can only be seen by the one who used
the command, and a server role cannot be written to, so the GM is reached as a person."""

from __future__ import annotations

import discord

from rules.errors import InvalidInput
from rules.said import say

from . import render
from .core import core_of
from .interact import actor_of


async def private_roll(interaction: discord.Interaction, line: str) -> str:
    """Sends a private roll to the GM and gives what the roller is told beside it; refuses (and nobody
    sees the roll) when there is no GM to send it to."""
    return await send_private(interaction, await private_gm(interaction), line)


async def private_gm(interaction: discord.Interaction) -> int | None:
    """Whom a private roll goes to besides the roller (None: the roller is the GM), asked before
    anything is rolled; refuses when the channel has no GM to send it to."""
    is_gm = (await actor_of(interaction)).is_gm
    channel_id = interaction.channel_id
    gm = None if is_gm or channel_id is None else await core_of(interaction).channel_gm(channel_id)
    if gm is None and not is_gm:
        raise InvalidInput(
            say(
                "A private roll is shown to the GM of this channel's encounter, and this channel has had "
                "none yet: roll in the open, or once the GM has started an encounter here."
            )
        )
    return gm


async def send_private(interaction: discord.Interaction, gm: int | None, line: str) -> str:
    """Sends a private roll to `gm` (from `private_gm`) and gives what the roller is told beside it;
    refuses when the GM cannot be written to, and then nobody has seen the roll."""
    if gm is not None and gm != interaction.user.id:
        # Reaching the GM may take longer than Discord waits for an answer.
        await interaction.response.defer(ephemeral=True, thinking=True)
        where = render.own(say("🔒 A private roll in {channel}:", channel=f"<#{interaction.channel_id}>"))
        try:
            user = interaction.client.get_user(gm) or await interaction.client.fetch_user(gm)
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
    return shown
