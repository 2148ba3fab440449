"""/initiative: join, add, order, next, delay, remove."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot import render
from bot.interact import reply, run
from rules import registry
from rules.commands import Stored
from rules.errors import InvalidInput

from . import autocomplete
from .play import forward

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
            raise InvalidInput(f"No character called {character[:60]} here: store one with /character add.")
        stored = Stored(id=record.id, name=record.name, owner_id=record.owner_id, system=record.system,
                        sheet=record.sheet)
        await run(interaction, forward("initiative_join", dict(character=stored, roll=roll, dice=dice, cards=cards,
                                                               surprised=surprised)), "/initiative join")

    @app_commands.command(name="add", description="GM: add NPCs (a count makes a numbered group)")
    @app_commands.describe(name="Name (a count names them Name 1..n)", stats='Stats as name=value', count="How many",
                           side="Side or faction", hidden="Hide their numbers from players", roll=ROLL, dice=DICE,
                           cards=CARDS, surprised="Caught by surprise", player="Give control to this player")
    async def add(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 60], stats: str | None = None,
                  count: app_commands.Range[int, 1, 50] = 1, side: str | None = None, hidden: bool = False,
                  roll: int | None = None, dice: str | None = None, cards: str | None = None,
                  surprised: bool = False, player: discord.Member | None = None) -> None:
        await run(interaction, forward("initiative_add", dict(
            name=name, stats=stats, count=count, side=side, hidden=hidden, roll=roll, dice=dice, cards=cards,
            surprised=surprised, player=player.id if player else None)), "/initiative add")

    @app_commands.command(name="order", description="Show the turn order")
    async def order(self, interaction: discord.Interaction) -> None:
        record, state = await self.bot.core.current(interaction.channel_id)
        embed = render.tracker_embed(registry.get(record.system), state, record.id)
        await reply(interaction, "", embed=embed)

    @app_commands.command(name="next", description="End the current turn (GM: begin round 1)")
    @app_commands.describe(roll=ROLL, dice="Dice for what the new turn or round rolls (e.g. the GM's initiative)", cards=CARDS)
    async def next(self, interaction: discord.Interaction, roll: int | None = None, dice: str | None = None,
                   cards: str | None = None) -> None:
        await run(interaction, forward("initiative_next", dict(roll=roll, dice=dice, cards=cards)), "/initiative next")

    @app_commands.command(name="delay", description="Step out of the order now; use again to step back in")
    @app_commands.describe(combatant="Who delays (default: your acting combatant)")
    @app_commands.autocomplete(combatant=autocomplete.combatants)
    async def delay(self, interaction: discord.Interaction, combatant: str | None = None) -> None:
        await run(interaction, forward("initiative_delay", dict(combatant=combatant)), "/initiative delay")

    @app_commands.command(name="remove", description="GM: take a combatant out of the encounter")
    @app_commands.autocomplete(combatant=autocomplete.combatants)
    async def remove(self, interaction: discord.Interaction, combatant: str) -> None:
        await run(interaction, forward("initiative_remove", dict(combatant=combatant)), "/initiative remove")


async def setup(bot) -> None:
    await bot.add_cog(Initiative(bot))
