"""/initiative: join, add, order, next, delay, remove."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot import paging
from bot.interact import actor_of, reply, run
from bot.places import fight_campaign_key
from bot.repository import CharacterRecord
from bot.roster import fought_hidden, joined_lasting, system_lasting
from rules import registry
from rules.commands import Stored
from rules.errors import RulesError
from rules.said import N_

from . import autocomplete
from .forwarding import forward, forwarded
from .play import CARDS, ROLL

DICE = N_('Several die results, e.g. "4 6 2"')


@app_commands.guild_only()
class Initiative(commands.GroupCog, group_name="initiative", group_description=_("The turn order in this channel")):
    def __init__(self, bot) -> None:
        self.bot = bot

    @app_commands.command(name="join", description=_("Bring your character into the fight (rolls initiative)"))
    @app_commands.describe(
        character=_("Your stored character"),
        roll=_(ROLL),
        dice=_(DICE),
        cards=_(CARDS),
        surprised=_("Caught by surprise"),
        hidden=_("Hide their numbers from players"),
    )
    @app_commands.autocomplete(character=autocomplete.joinable_characters)
    async def join(
        self,
        interaction: discord.Interaction,
        character: str,
        roll: int | None = None,
        dice: str | None = None,
        cards: str | None = None,
        surprised: bool = False,
        hidden: bool | None = None,
    ) -> None:
        key = await fight_campaign_key(interaction)
        record = await autocomplete.resolve_character(interaction, key, character)
        stored = carried(record, hidden)
        result = await run(
            interaction,
            forward("initiative_join", dict(character=stored, roll=roll, dice=dice, cards=cards, surprised=surprised)),
            "/initiative join",
        )
        if result is not None:  # a refused join leaves nothing behind
            await self.bot.core.roster.remember_joining(
                key, record, stored.hidden, joined_lasting(result.state, record)
            )

    @app_commands.command(name="add", description=_("GM: add NPCs (a count makes a numbered group)"))
    @app_commands.describe(
        name=_("Name (a count names them Name 1..n)"),
        stats=_("Stats as name=value"),
        count=_("How many"),
        side=_("Side or faction"),
        hidden=_("Hide their numbers from players"),
        roll=_(ROLL),
        dice=_(DICE),
        cards=_(CARDS),
        surprised=_("Caught by surprise"),
        player=_("Give control to this player"),
        template=_("A stat block from the NPC library (stats given here override it)"),
        keep=_("Store this NPC so it carries its state into later fights"),
    )
    @app_commands.autocomplete(template=autocomplete.templates)
    async def add(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 60] | None = None,
        stats: str | None = None,
        count: app_commands.Range[int, 1, 50] = 1,
        side: str | None = None,
        hidden: bool | None = None,
        roll: int | None = None,
        dice: str | None = None,
        cards: str | None = None,
        surprised: bool = False,
        player: discord.Member | None = None,
        template: app_commands.Range[str, 1, 60] | None = None,
        keep: bool = False,
    ) -> None:
        by = await actor_of(interaction)
        key = await fight_campaign_key(interaction)
        library = self.bot.core.library
        npc = await library.template(key, by, template)
        label = name or (npc.name if npc else None)
        kept, stored_now = (None, False)
        if keep:
            entered = {"roll": roll, "dice": dice, "cards": cards}
            kept, stored_now = await library.keep(
                key, by, label, stats, npc, count, entered, by_name=interaction.user.display_name
            )
        brought = carried(kept, hidden) if kept else None
        hides = brought.hidden if brought else bool(hidden)
        refused = False
        try:
            result = await run(
                interaction,
                forward(
                    "initiative_add",
                    dict(
                        name=label,
                        stats=stats,
                        count=count,
                        side=side,
                        hidden=hides,
                        roll=roll,
                        dice=dice,
                        cards=cards,
                        surprised=surprised,
                        player=player.id if player else None,
                        template=(npc.system, npc.name, npc.sheet) if npc else None,
                        kept=brought,
                    ),
                ),
                "/initiative add",
            )
            refused = result is None
        except RulesError:  # a slash command's refusal is raised, for the command tree's handler
            refused = True
            raise
        finally:
            if refused and stored_now:
                # The fight refused the NPC: a refused command leaves nothing behind.
                await self.bot.core.repo.remove_character_id(key, kept.id)
        if kept is not None and result is not None:  # not refused
            await self.bot.core.roster.remember_joining(key, kept, hides, joined_lasting(result.state, kept))

    @app_commands.command(name="order", description=_("Show the turn order"))
    async def order(self, interaction: discord.Interaction) -> None:
        record, state = await self.bot.core.current(interaction.channel_id)
        embed, view = paging.tracker_page(registry.get(record.system), state, record.id)
        await reply(interaction, "", embed=embed, **({"view": view} if view else {}))

    @app_commands.command(name="next", description=_("End the current turn (GM: begin round 1)"))
    @app_commands.describe(
        roll=_(ROLL), dice=_("Dice for what the new turn or round rolls (e.g. the GM's initiative)"), cards=_(CARDS)
    )
    @forwarded("initiative_next")
    async def next(
        self,
        interaction: discord.Interaction,
        roll: int | None = None,
        dice: str | None = None,
        cards: str | None = None,
    ) -> None: ...

    @app_commands.command(name="delay", description=_("Step out of the order now; use again to step back in"))
    @app_commands.describe(combatant=_("Who delays (default: your acting combatant)"))
    @app_commands.autocomplete(combatant=autocomplete.combatants)
    @forwarded("initiative_delay")
    async def delay(self, interaction: discord.Interaction, combatant: str | None = None) -> None: ...

    @app_commands.command(name="remove", description=_("GM: take a combatant out of the encounter"))
    @app_commands.autocomplete(combatant=autocomplete.combatants)
    @forwarded("initiative_remove")
    async def remove(self, interaction: discord.Interaction, combatant: str) -> None: ...


def carried(record: CharacterRecord, hidden: bool | None = None) -> Stored:
    """A stored character as it enters a fight: with what it carried out of its last one, and hidden as the
    GM says (`hidden`), else as a kept NPC last fought: a villain kept hidden stays hidden."""
    return Stored(
        id=record.id,
        name=record.name,
        owner_id=record.owner_id,
        system=record.system,
        sheet=record.sheet,
        lasting=system_lasting(record) or None,
        npc=record.npc,
        hidden=fought_hidden(record) if hidden is None else hidden,
    )


async def setup(bot) -> None:
    await bot.add_cog(Initiative(bot))
