"""Commands shared by every rule system; each system maps them to its actions.

The cog only gathers options: `system.command(name, by, options, state)` decides
what they mean in the channel's system, through the commands the system declares
(and refuses commands the system lacks). Refusals go to the command tree's handler.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot import render
from bot.interact import reply
from bot.places import campaign_key
from rules import registry
from rules.errors import NotRunning
from rules.said import N_

from . import autocomplete
from .forwarding import forwarded

ROLL = N_("Your die result, if you rolled physical dice")
DICE = N_('Die results in the order rolled, e.g. "14 3 5"')
CARDS = N_('Cards flipped by hand, e.g. "KH 4C"')
OPTIONS = N_('Extra options, e.g. "adv cover=half range=9" (see /help)')


class Play(commands.Cog):
    def __init__(self, bot) -> None:
        self.bot = bot

    @app_commands.command(name="attack", description=_("Attack a target under this channel's rules"))
    @app_commands.guild_only()
    @app_commands.describe(
        target=_("Who is attacked"),
        actor=_("Attacker (default: your acting combatant)"),
        weapon=_("Weapon name"),
        modifier=_("Attack modifier"),
        damage=_('Damage dice, e.g. "2d6+3"'),
        damage_type=_("Damage type"),
        defense=_("Defense to roll against"),
        options=_(OPTIONS),
        roll=_(ROLL),
        dice=_(DICE),
        cards=_(CARDS),
    )
    @app_commands.autocomplete(target=autocomplete.combatants, actor=autocomplete.combatants)
    @forwarded("attack")
    async def attack(
        self,
        interaction: discord.Interaction,
        target: str,
        actor: str | None = None,
        weapon: str | None = None,
        modifier: app_commands.Range[int, -100, 100] | None = None,
        damage: str | None = None,
        damage_type: str | None = None,
        defense: str | None = None,
        options: str | None = None,
        roll: int | None = None,
        dice: str | None = None,
        cards: str | None = None,
    ) -> None: ...

    @app_commands.command(name="act", description=_("Take one of your system's actions (Dodge, Aim, Shift Position…)"))
    @app_commands.guild_only()
    @app_commands.describe(
        action=_("The action"),
        actor=_("Who acts (default: your acting combatant)"),
        target=_("Target, if any"),
        options=_(OPTIONS),
        roll=_(ROLL),
        dice=_(DICE),
        cards=_(CARDS),
    )
    @app_commands.autocomplete(action=autocomplete.acts, actor=autocomplete.combatants, target=autocomplete.combatants)
    @forwarded("act", label="/act {action:.40}")
    async def act(
        self,
        interaction: discord.Interaction,
        action: str,
        actor: str | None = None,
        target: str | None = None,
        options: str | None = None,
        roll: int | None = None,
        dice: str | None = None,
        cards: str | None = None,
    ) -> None: ...

    @app_commands.command(name="damage", description=_("GM: apply damage outside an attack"))
    @app_commands.guild_only()
    @app_commands.describe(
        target=_("Who takes it"),
        amount=_('A number or dice, e.g. "2d6"'),
        damage_type=_("Damage type"),
        options=_(OPTIONS),
        roll=_(ROLL),
        dice=_(DICE),
        cards=_(CARDS),
    )
    @app_commands.autocomplete(target=autocomplete.combatants)
    @forwarded("damage")
    async def damage(
        self,
        interaction: discord.Interaction,
        target: str,
        amount: str,
        damage_type: str | None = None,
        options: str | None = None,
        roll: int | None = None,
        dice: str | None = None,
        cards: str | None = None,
    ) -> None: ...

    @app_commands.command(name="heal", description=_("GM: restore health, stamina or the like"))
    @app_commands.guild_only()
    @app_commands.describe(target=_("Who is healed"), amount=_("A number or dice"), options=_(OPTIONS))
    @app_commands.autocomplete(target=autocomplete.combatants)
    @forwarded("heal")
    async def heal(
        self, interaction: discord.Interaction, target: str, amount: str, options: str | None = None
    ) -> None: ...

    @app_commands.command(name="save", description=_("Roll a save or check for a combatant"))
    @app_commands.guild_only()
    @app_commands.describe(
        kind=_('What is rolled, e.g. "con", "agi", "perception" (see /help)'),
        actor=_("Who rolls (default: your acting combatant)"),
        dc=_("Difficulty, if the rules do not set it"),
        options=_(OPTIONS),
        roll=_(ROLL),
        dice=_(DICE),
        cards=_(CARDS),
    )
    @app_commands.autocomplete(actor=autocomplete.combatants)
    @forwarded("save")
    async def save(
        self,
        interaction: discord.Interaction,
        kind: str,
        actor: str | None = None,
        dc: app_commands.Range[int, -100, 100] | None = None,
        options: str | None = None,
        roll: int | None = None,
        dice: str | None = None,
        cards: str | None = None,
    ) -> None: ...

    @app_commands.command(
        name="choose", description=_("Answer the choice the fight waits on, with your own dice if you like")
    )
    @app_commands.guild_only()
    @app_commands.describe(
        option=_("One of the offered choices (the buttons' labels)"), roll=_(ROLL), dice=_(DICE), cards=_(CARDS)
    )
    @app_commands.autocomplete(option=autocomplete.pending_options)
    @forwarded("choose")
    async def choose(
        self,
        interaction: discord.Interaction,
        option: str,
        roll: int | None = None,
        dice: str | None = None,
        cards: str | None = None,
    ) -> None: ...

    condition = app_commands.Group(name="condition", description=_("Conditions on combatants"), guild_only=True)

    @condition.command(name="add", description=_("Put a condition on a combatant"))
    @app_commands.describe(
        target=_("Who"),
        condition=_("Condition name"),
        duration=_('"3 rounds", "end of <name>\'s next turn", "save", "scene"'),
        tags=_('Free tags, e.g. "Lesser Fire"'),
        options=_(OPTIONS),
    )
    @app_commands.autocomplete(target=autocomplete.combatants)
    @forwarded("condition_add")
    async def condition_add(
        self,
        interaction: discord.Interaction,
        target: str,
        condition: str,
        duration: str | None = None,
        tags: str | None = None,
        options: str | None = None,
    ) -> None: ...

    @condition.command(name="remove", description=_("Remove a condition from a combatant"))
    @app_commands.autocomplete(target=autocomplete.combatants)
    @forwarded("condition_remove")
    async def condition_remove(self, interaction: discord.Interaction, target: str, condition: str) -> None: ...

    @condition.command(name="list", description=_("Everyone's conditions"))
    async def condition_list(self, interaction: discord.Interaction) -> None:
        await self._report(interaction, "condition_list", {})

    turn = app_commands.Group(
        name="turn", description=_("Faction turns: take a turn with a character, or pass"), guild_only=True
    )

    @turn.command(name="take", description=_("Your faction activates one of its characters"))
    @app_commands.autocomplete(character=autocomplete.combatants)
    @forwarded("turn_take")
    async def turn_take(self, interaction: discord.Interaction, character: str) -> None: ...

    @turn.command(name="pass", description=_("Your faction passes its move"))
    @app_commands.describe(dice=_("Dice for what the pass sets off (e.g. end-of-round morale saves)"))
    @forwarded("turn_pass")
    async def turn_pass(self, interaction: discord.Interaction, dice: str | None = None) -> None: ...

    @turn.command(
        name="first", description=_("The faction holding the initiative lets another faction move first this round")
    )
    @forwarded("turn_first")
    async def turn_first(self, interaction: discord.Interaction, faction: str) -> None: ...

    @turn.command(name="initiative", description=_("GM, before round 1: the faction that started the fight"))
    @forwarded("turn_initiative")
    async def turn_initiative(self, interaction: discord.Interaction, faction: str) -> None: ...

    plotpoint = app_commands.Group(name="plotpoint", description=_("Rotted Capes: Plot Points"), guild_only=True)

    @plotpoint.command(name="show", description=_("Every hero's Plot Points and the Editor-in-Chief's pool"))
    async def plotpoint_show(self, interaction: discord.Interaction) -> None:
        await self._report(interaction, "plotpoint_show", {})

    @plotpoint.command(name="spend", description=_("Spend a Plot Point"))
    @app_commands.describe(
        use=_("What for"),
        actor=_("Whose point (default: yours)"),
        target=_("Ally, if the use names one"),
        text=_("Your words, for narrative uses"),
        dice=_(DICE),
    )
    @app_commands.choices(
        use=[
            app_commands.Choice(name=_(n), value=v)
            for n, v in (
                (N_("Reroll the last d20 check or damage roll"), "reroll"),
                (N_("Aid another (give a point to an ally)"), "aid"),
                (N_("Narrative: alter a scene, endure, influence…"), "narrative"),
            )
        ]
    )
    @app_commands.autocomplete(actor=autocomplete.combatants, target=autocomplete.combatants)
    @forwarded("plotpoint_spend")
    async def plotpoint_spend(
        self,
        interaction: discord.Interaction,
        use: app_commands.Choice[str],
        actor: str | None = None,
        target: str | None = None,
        text: str | None = None,
        dice: str | None = None,
    ) -> None: ...

    @plotpoint.command(name="award", description=_("GM: award Plot Points to a hero"))
    @app_commands.autocomplete(target=autocomplete.combatants)
    @forwarded("plotpoint_award")
    async def plotpoint_award(
        self,
        interaction: discord.Interaction,
        target: str,
        amount: app_commands.Range[int, 1, 10] = 1,
        text: str | None = None,
    ) -> None: ...

    @plotpoint.command(name="pool", description=_("GM: spend from the Editor-in-Chief's pool"))
    @forwarded("plotpoint_pool")
    async def plotpoint_pool(
        self, interaction: discord.Interaction, text: str, amount: app_commands.Range[int, 1, 10] = 1
    ) -> None: ...

    @plotpoint.command(name="issue", description=_("GM: a new Issue — every hero back to the starting Plot Points"))
    @forwarded("plotpoint_issue")
    async def plotpoint_issue(self, interaction: discord.Interaction) -> None: ...

    async def _report(self, interaction: discord.Interaction, name: str, options: dict) -> None:
        try:
            record, state = await self.bot.core.current(interaction.channel_id)
        except NotRunning:
            # Between fights, a report that has a version of its own reads the stored characters.
            text = await self.bot.core.between.report(await campaign_key(interaction), name)
            if text is None:
                raise
        else:
            text = registry.get(record.system).report(name, state, options)
        await reply(interaction, render.clean(text), ephemeral=True)


async def setup(bot) -> None:
    await bot.add_cog(Play(bot))
