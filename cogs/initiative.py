"""/initiative: join, add, order, next, delay, remove."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot import paging
from bot.interact import refuse, reply, run
from rules import registry
from rules.actions import AddCombatants, DelayTurn, NextTurn, RemoveCombatant
from rules.commands import entered
from rules.errors import InvalidInput, NotAllowed, RulesError
from rules.usertext import mark

from . import autocomplete

ROLL = "Your die result, if you rolled physical dice"
DICE = 'Several die results, e.g. "4 6 2"'
CARDS = 'Cards flipped by hand, e.g. "KH 4C"'


@app_commands.guild_only()
class Initiative(commands.GroupCog, group_name="initiative", group_description="The turn order in this channel"):
    def __init__(self, bot) -> None:
        self.bot = bot

    @app_commands.command(name="join", description="Bring your character into the fight (rolls initiative)")
    @app_commands.describe(character="Your stored character", roll=ROLL, dice=DICE, cards=CARDS, surprised="Caught by surprise")
    @app_commands.autocomplete(character=autocomplete.my_characters)
    async def join(self, interaction: discord.Interaction, character: str, roll: int | None = None,
                   dice: str | None = None, cards: str | None = None, surprised: bool = False) -> None:
        record = await self.bot.core.repo.get_character(interaction.guild_id, character)
        if record is None:
            missing = f"No character called {mark(character[:60])} here: store one with /character add."
            await refuse(interaction, InvalidInput(missing))
            return
        options = {"roll": roll, "dice": dice, "cards": cards}

        def build(by, system, state):
            if record.owner_id != by.user_id:
                raise NotAllowed(f"{mark(record.name)} belongs to another player.")
            if record.system != system.key:
                raise InvalidInput(f"{mark(record.name)} is a {record.system} character; this fight is {system.name}.")
            return AddCombatants(by=by, name=record.name, sheet=record.sheet, npc=False, controller_id=by.user_id,
                                 character_id=record.id, surprised=surprised, **entered(options))

        await run(interaction, build, "/initiative join")

    @app_commands.command(name="add", description="GM: add NPCs (a count makes a numbered group)")
    @app_commands.describe(name="Name (a count names them Name 1..n)", stats='Stats as name=value', count="How many",
                           side="Side or faction", hidden="Hide their numbers from players", roll=ROLL, dice=DICE,
                           cards=CARDS, surprised="Caught by surprise", player="Give control to this player")
    async def add(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 60], stats: str | None = None,
                  count: app_commands.Range[int, 1, 50] = 1, side: str | None = None, hidden: bool = False,
                  roll: int | None = None, dice: str | None = None, cards: str | None = None,
                  surprised: bool = False, player: discord.Member | None = None) -> None:
        options = {"roll": roll, "dice": dice, "cards": cards}

        def build(by, system, state):
            if not by.is_gm:
                raise NotAllowed("Only the GM adds NPCs; players use /initiative join.")
            return AddCombatants(by=by, name=name, sheet=system.parse_sheet(stats or ""), count=count, side=side,
                                 hidden=hidden, npc=player is None, controller_id=player.id if player else None,
                                 surprised=surprised, **entered(options))

        await run(interaction, build, "/initiative add")

    @app_commands.command(name="order", description="Show the turn order")
    async def order(self, interaction: discord.Interaction) -> None:
        try:
            record, state = await self.bot.core.current(interaction.channel_id)
        except RulesError as error:
            await refuse(interaction, error)
            return
        embed, view = paging.tracker_page(registry.get(record.system), state, record.id)
        await reply(interaction, "", embed=embed, **({"view": view} if view else {}))

    @app_commands.command(name="next", description="End the current turn (GM: begin round 1)")
    @app_commands.describe(roll=ROLL, dice="Dice for what the new turn or round rolls (e.g. the GM's initiative)", cards=CARDS)
    async def next(self, interaction: discord.Interaction, roll: int | None = None, dice: str | None = None,
                   cards: str | None = None) -> None:
        options = {"roll": roll, "dice": dice, "cards": cards}
        await run(interaction, lambda by, system, state: NextTurn(by=by, **entered(options)), "/initiative next")

    @app_commands.command(name="delay", description="Step out of the order now; use again to step back in")
    @app_commands.describe(combatant="Who delays (default: your acting combatant)")
    @app_commands.autocomplete(combatant=autocomplete.combatants)
    async def delay(self, interaction: discord.Interaction, combatant: str | None = None) -> None:
        def build(by, system, state):
            name = combatant
            if name is None:
                acting = [c for c in system.turns.acting(state) if by.is_gm or state.get(c).controller_id == by.user_id]
                delayed = [c for c in getattr(state.turns, "delayed", ()) if state.get(c).controller_id == by.user_id]
                pick = acting or delayed
                if not pick:
                    raise InvalidInput("Name the combatant who delays.")
                name = state.get(pick[0]).name
            return DelayTurn(by=by, actor=name)

        await run(interaction, build, "/initiative delay")

    @app_commands.command(name="remove", description="GM: take a combatant out of the encounter")
    @app_commands.autocomplete(combatant=autocomplete.combatants)
    async def remove(self, interaction: discord.Interaction, combatant: str) -> None:
        await run(interaction, lambda by, system, state: RemoveCombatant(by=by, target=combatant), "/initiative remove")


async def setup(bot) -> None:
    await bot.add_cog(Initiative(bot))
