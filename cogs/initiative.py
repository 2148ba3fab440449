"""/initiative: join, add, order, next, delay, remove."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot import paging
from bot.interact import reply, run
from bot.places import campaign_key
from rules import registry
from rules.commands import Stored, entered, flags
from rules.errors import InvalidInput
from rules.said import say
from rules.usertext import mark, quoted

from . import autocomplete
from .forwarding import forward, forwarded
from .gm import gm_only
from .play import CARDS, ROLL

DICE = 'Several die results, e.g. "4 6 2"'
GM_ADDS_NPCS = "Only the GM adds NPCs; players use /initiative join."


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
    )
    @app_commands.autocomplete(character=autocomplete.my_campaign_characters)
    async def join(
        self,
        interaction: discord.Interaction,
        character: str,
        roll: int | None = None,
        dice: str | None = None,
        cards: str | None = None,
        surprised: bool = False,
    ) -> None:
        record = await autocomplete.resolve_character(interaction, await campaign_key(interaction), character)
        stored = carried(record)
        await run(
            interaction,
            forward("initiative_join", dict(character=stored, roll=roll, dice=dice, cards=cards, surprised=surprised)),
            "/initiative join",
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
    @app_commands.autocomplete(template=autocomplete.npcs)
    async def add(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 60] | None = None,
        stats: str | None = None,
        count: app_commands.Range[int, 1, 50] = 1,
        side: str | None = None,
        hidden: bool = False,
        roll: int | None = None,
        dice: str | None = None,
        cards: str | None = None,
        surprised: bool = False,
        player: discord.Member | None = None,
        template: app_commands.Range[str, 1, 60] | None = None,
        keep: bool = False,
    ) -> None:
        key = await campaign_key(interaction)
        npc = await npc_template(interaction, key, template)
        label = name or (npc.name if npc else None)
        kept, stored_now = (None, False)
        if keep:
            kept, stored_now = await keep_npc(
                interaction, key, label, stats, npc, count, {"roll": roll, "dice": dice, "cards": cards}
            )
        result = await run(
            interaction,
            forward(
                "initiative_add",
                dict(
                    name=label,
                    stats=stats,
                    count=count,
                    side=side,
                    hidden=hidden,
                    roll=roll,
                    dice=dice,
                    cards=cards,
                    surprised=surprised,
                    player=player.id if player else None,
                    template=(npc.system, npc.name, npc.sheet) if npc else None,
                    kept=carried(kept) if kept else None,
                ),
            ),
            "/initiative add",
        )
        if result is None and stored_now:
            # The fight refused the NPC: a refused command leaves nothing behind.
            await self.bot.core.repo.remove_character_id(key, kept.id)

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


def carried(record) -> Stored:
    """A stored character as it enters a fight: with what it carried out of its last one."""
    return Stored(
        id=record.id,
        name=record.name,
        owner_id=record.owner_id,
        system=record.system,
        sheet=record.sheet,
        lasting=record.lasting or None,
    )


# --- NPC library templates and kept NPCs --------------------------------------------


async def npc_template(interaction: discord.Interaction, key: int, template: str | None):
    if template is None:
        return None
    await gm_only(interaction, GM_ADDS_NPCS)
    record = await interaction.client.core.repo.get_npc(key, template)
    if record is None:
        raise InvalidInput(say("The NPC library has no {name}: /npc list shows it.", name=mark(template[:60])))
    return record


def merged_sheet(system, npc, stats: str | None) -> dict:
    """The template's stat block with the stats given on this add on top of it."""
    if npc is None:
        return system.parse_sheet(stats or "")
    overrides = flags(stats)
    bare = [k for k, v in overrides.items() if v is True]
    if bare:
        raise InvalidInput(say("Write stats as `name=value` ({name} has no value).", name=quoted(bare[0])))
    return system.parse_sheet(dict(npc.sheet) | overrides)


async def keep_npc(interaction: discord.Interaction, key: int, name: str | None, stats, npc, count: int, options: dict):
    """keep:true stores the NPC as the GM's character, so the fight's end saves its lasting state.
    Returns the character and whether it was stored just now (to take back if the fight refuses it)."""
    from bot.repository import DuplicateName

    by = await gm_only(interaction, GM_ADDS_NPCS)
    if count != 1:
        raise InvalidInput("keep:true stores one NPC at a time (count 1).")
    if not name:
        raise InvalidInput("Give the NPC a name, or a template from the NPC library.")
    campaign = await interaction.client.core.campaign(key)
    if campaign is None:
        raise InvalidInput("keep:true needs a campaign: the GM runs /campaign setup first.")
    repo = interaction.client.core.repo
    existing = await repo.get_character(key, name, owner_id=by.user_id)
    if existing is not None:
        return existing, False  # kept before: it comes back as it left
    clean = " ".join(name.split())
    if not clean or len(clean) > 60:
        raise InvalidInput("A kept NPC's name has 1 to 60 characters.")
    entered(options)  # entered dice and cards are checked before anything is stored
    sheet = merged_sheet(registry.get(campaign.system), npc, stats)
    try:
        return await repo.add_character(
            key, by.user_id, clean, campaign.system, sheet, owner_name=interaction.user.display_name
        ), True
    except DuplicateName:
        raise InvalidInput(say("You already have a character called {name}.", name=mark(clean))) from None


async def setup(bot) -> None:
    await bot.add_cog(Initiative(bot))
