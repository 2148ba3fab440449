"""The GM's own commands: who may run them."""

from __future__ import annotations

import discord

from bot.interact import actor_of
from rules.errors import NotAllowed
from rules.model import Actor
from rules.said import say


async def gm_only(interaction: discord.Interaction, refusal: str) -> Actor:
    """The caller, refused with `refusal` (what only the GM does) unless a GM."""
    by = await actor_of(interaction)
    if not by.is_gm:
        raise NotAllowed(say(refusal))
    return by
