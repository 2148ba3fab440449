"""Which campaign a channel belongs to.

A server has one default campaign, keyed by the server's id. The GM can bind a
channel or a category to a campaign of its own (``/campaign bind``), keyed by the
negated id of the place it was made for. A channel's own binding wins over its
category's; a thread follows its parent channel.
"""

from __future__ import annotations

from typing import Any

from .read_through import ReadThrough


def own_key(place_id: int) -> int:
    """The key of a campaign made for a channel or category (never a server's id)."""
    return -place_id


def candidates(channel: Any) -> list[int]:
    """The places whose binding applies to ``channel``, nearest first."""
    found = []
    for attr in ("id", "parent_id", "category_id"):
        value = getattr(channel, attr, None)
        if isinstance(value, int) and value not in found:
            found.append(value)
    parent = getattr(channel, "parent", None)  # a thread's channel may sit in a category
    category = getattr(parent, "category_id", None)
    if isinstance(category, int) and category not in found:
        found.append(category)
    return found


class Places:
    """Bound places per server, cached: every command asks, bindings rarely change."""

    def __init__(self, repo) -> None:
        self.repo = repo
        self._bound: ReadThrough[int, dict[int, int]] = ReadThrough(repo.places)

    async def of(self, guild_id: int) -> dict[int, int]:
        return await self._bound.get(guild_id)

    def forget(self, guild_id: int) -> None:
        self._bound.forget(guild_id)

    async def key(self, guild_id: int, channel: Any) -> int:
        bound = await self.of(guild_id)
        if bound:
            for place in candidates(channel):
                if place in bound:
                    return bound[place]
        return guild_id


async def campaign_key(interaction) -> int:
    """The campaign key for an interaction's channel."""
    core = interaction.client.core
    return await core.places.key(interaction.guild_id, interaction.channel)


async def fight_campaign_key(interaction) -> int:
    """The campaign the channel's running fight draws its characters and NPCs from: the one it began in,
    though the channel was bound elsewhere since (its end saves them there); else the channel's own."""
    return await interaction.client.core.fighting_for(interaction.channel_id, await campaign_key(interaction))
