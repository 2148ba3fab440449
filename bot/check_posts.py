"""A check's result as the channel reads it, with a button for each thing the check offers next
(a Plot Point reroll), which keeps working after a restart: its custom id names the character and
the check it was made for (`bot.checks` refuses it once another check of that character came after)."""

from __future__ import annotations

import re
from typing import Any

import discord

from rules.errors import RulesError

from . import render
from .checks import Checked, Delivery
from .core import core_of
from .interact import actor_of, refuse, reply
from .places import campaign_key
from .rolls import private_gm, send_private


def check_lines(checked: Checked) -> str:
    mark = f"{render.ENTERED} " if checked.entered else ""
    return "\n".join(f"🎲 {mark}{render.clean(line)}" for line in checked.lines)


async def to_the_gm(interaction: discord.Interaction) -> tuple[Delivery, list[str]]:
    """How a private check reaches the GM, found before anything is rolled (a check nobody can be shown is
    never rolled, saved or logged), and what the roller is told beside it, filled in as it is sent."""
    gm = await private_gm(interaction)
    shown: list[str] = []

    async def deliver(checked: Checked) -> None:
        shown.append(await send_private(interaction, gm, check_lines(checked)))

    return deliver, shown


def check_message(checked: Checked) -> tuple[str, dict[str, Any]]:
    """The check's lines, and the buttons of what it offers next as `reply`'s keywords (none: no view at all)."""
    if not checked.offers:
        return check_lines(checked), {}
    view = discord.ui.View(timeout=None)
    for offer in checked.offers[:5]:
        view.add_item(CheckOfferButton(checked.character_id, checked.turn, offer.key, render.label(offer.label)))
    return check_lines(checked), {"view": view}


class CheckOfferButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"tk:check:(?P<cid>\d+):(?P<turn>\d+):(?P<offer>[a-z_]{1,40})"
):
    def __init__(self, character_id: int, turn: int, offer: str, label: str = "?") -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                style=discord.ButtonStyle.secondary,
                custom_id=f"tk:check:{character_id}:{turn}:{offer}",
            )
        )
        self.character_id = character_id
        self.turn = turn
        self.offer = offer

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(int(match["cid"]), int(match["turn"]), match["offer"])

    async def callback(self, interaction: discord.Interaction) -> None:
        private = bool(interaction.message and interaction.message.flags.ephemeral)  # a private check stays private
        shown: list[str] = []
        try:
            deliver: Delivery | None = None
            if private:
                # As for /check: a reroll changes the result (and spends what it costs), so the GM who was
                # sent the check is sent the reroll before it is saved, or it is refused unsaved.
                deliver, shown = await to_the_gm(interaction)
            checked = await core_of(interaction).checks.follow(
                await campaign_key(interaction),
                await actor_of(interaction),
                self.character_id,
                self.turn,
                self.offer,
                interaction.user.display_name,
                deliver,
            )
        except RulesError as error:
            await refuse(interaction, error)
            return
        line, buttons = check_message(checked)
        await reply(interaction, "\n".join([*shown, line]), ephemeral=private, **buttons)
