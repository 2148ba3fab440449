"""ProbeBot: a throwaway, unmodified discord.py bot exercising each kind of answer
the stand-in must handle (messages, ephemeral, defer, followups, buttons, files,
pins, autocomplete, modals, typed options, REST fetches)."""

from __future__ import annotations

import asyncio
import io

import discord
from discord import app_commands
from discord.ext import commands

PNG_BYTES = b"\x89PNG\r\n\x1a\n" + b"\x00" * 16
MONSTERS = ["Orc", "Ogre", "Owlbear", "Goblin", "Gnoll"]


class EndTurnView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=60)

    @discord.ui.button(label="End turn", style=discord.ButtonStyle.primary, custom_id="probe:end-turn")
    async def end_turn(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        button.disabled = True
        await interaction.response.edit_message(content=f"Turn ended by {interaction.user.name}", view=self)

    @discord.ui.button(label="Next round", style=discord.ButtonStyle.secondary, custom_id="probe:next")
    async def next_round(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.defer()  # a deferred update (type 6) for components
        await asyncio.sleep(0.01)
        await interaction.edit_original_response(content="Round 2")

    @discord.ui.button(label="Roll", style=discord.ButtonStyle.secondary, custom_id="probe:roll")
    async def roll(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_message(f"{interaction.user.name} rolled 17", ephemeral=True)


class NoteModal(discord.ui.Modal, title="Add a note"):
    note = discord.ui.TextInput(label="Note", custom_id="probe:note-text")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"noted: {self.note.value}")


class ChainModal(discord.ui.Modal, title="Chain"):
    """A form whose submit answers with another form, which Discord refuses."""

    note = discord.ui.TextInput(label="Note", custom_id="probe:chain-text", required=False)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        try:
            await interaction.response.send_modal(NoteModal())
        except discord.HTTPException as error:
            await interaction.response.send_message(f"refused: {error.status} {error.code}")


class LongLabelModal(discord.ui.Modal, title="Long"):
    note = discord.ui.TextInput(label="L" * 46, custom_id="probe:long-text")


def build_probe_group(bot: ProbeBot) -> app_commands.Group:
    probe = app_commands.Group(name="probe", description="stand-in probes")
    gm = app_commands.Group(name="gm", description="GM tools", parent=probe)

    @probe.command(description="answers ok")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("ok")

    @probe.command(description="ephemeral answer")
    async def secret(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("only you", ephemeral=True)

    @probe.command(description="restricted mention")
    async def mention(interaction: discord.Interaction, target: discord.Member) -> None:
        gm_role = discord.utils.get(interaction.guild.roles, name="GM")
        await interaction.response.send_message(
            f"@everyone {target.mention} {gm_role.mention}",
            allowed_mentions=discord.AllowedMentions(everyone=False, users=[target], roles=False),
        )

    @probe.command(description="echo text with default allowed mentions")
    async def echo(interaction: discord.Interaction, text: str) -> None:
        await interaction.response.send_message(text)

    @probe.command(description="message with buttons")
    async def buttons(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Your turn, alice", view=EndTurnView())

    @probe.command(description="defer then edit")
    async def slow(interaction: discord.Interaction, ephemeral: bool = False) -> None:
        await interaction.response.defer(thinking=True, ephemeral=ephemeral)
        await asyncio.sleep(0.02)
        await interaction.edit_original_response(content="done thinking")

    @probe.command(description="defer then followups")
    async def followups(interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        await interaction.followup.send("first")
        await interaction.followup.send("second", ephemeral=True)

    @probe.command(description="send files")
    async def files(interaction: discord.Interaction) -> None:
        log = discord.File(fp=io.BytesIO(b"# Combat log\n- Orc hits\n"), filename="combat-log.md")
        img = discord.File(fp=io.BytesIO(PNG_BYTES), filename="map.png")
        await interaction.response.send_message("log attached", files=[log, img])

    @probe.command(description="post and pin")
    async def pin(interaction: discord.Interaction) -> None:
        note = await interaction.channel.send("Initiative: alice, bob")
        await note.pin()
        pins = [m async for m in interaction.channel.pins()]
        await interaction.response.send_message(f"pinned {len(pins)}")

    @probe.command(description="autocompleted monster")
    @app_commands.describe(name="monster name", count="how many")
    async def monster(interaction: discord.Interaction, name: str, count: app_commands.Range[int, 1, 20] = 1) -> None:
        await interaction.response.send_message(f"{count} x {name}")

    @monster.autocomplete("name")
    async def monster_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=m, value=m) for m in MONSTERS if m.lower().startswith(current.lower())]

    @probe.command(description="channel and role options")
    async def where(interaction: discord.Interaction, channel: discord.TextChannel, role: discord.Role) -> None:
        await interaction.response.send_message(f"{channel.name} / {role.name}")

    @probe.command(description="fetches over REST")
    async def info(interaction: discord.Interaction) -> None:
        channel = await bot.fetch_channel(interaction.channel_id)
        guild = await bot.fetch_guild(interaction.guild_id)
        member = await guild.fetch_member(interaction.user.id)
        user = await bot.fetch_user(interaction.user.id)
        await interaction.response.send_message(f"{channel.name}|{guild.name}|{member.name}|{user.name}")

    @probe.command(description="hits a route the stand-in lacks")
    async def emojis(interaction: discord.Interaction) -> None:
        try:
            await interaction.guild.fetch_emojis()
            text = "fetched"
        except discord.NotFound:
            text = "not found"
        await interaction.response.send_message(text)

    @probe.command(description="never answers")
    async def silent(interaction: discord.Interaction) -> None:
        return None

    @probe.command(description="opens a modal")
    async def note(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NoteModal())

    @probe.command(description="opens a form that answers with a form")
    async def chain(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(ChainModal())

    @probe.command(description="opens a form with a label over Discord's limit")
    async def longlabel(interaction: discord.Interaction) -> None:
        try:
            await interaction.response.send_modal(LongLabelModal())
        except discord.HTTPException as error:
            await interaction.response.send_message(f"refused: {error.status} {error.code} {error.text}")

    @probe.command(description="pick a side")
    @app_commands.choices(
        side=[
            app_commands.Choice(name="Heroes", value="heroes"),
            app_commands.Choice(name="Monsters", value="monsters"),
        ]
    )
    async def side(interaction: discord.Interaction, side: app_commands.Choice[str]) -> None:
        await interaction.response.send_message(f"side={side.value}")

    @gm.command(description="GM roll with typed options")
    async def roll(
        interaction: discord.Interaction,
        dice: int,
        bonus: float = 0.0,
        secret: bool = False,
        target: discord.Member | None = None,
    ) -> None:
        who = target.name if target else "-"
        await interaction.response.send_message(
            f"dice={dice!r} bonus={bonus!r} secret={secret!r} target={who}", ephemeral=secret
        )

    return probe


class ProbeBot(commands.Bot):
    """Unmodified discord.py Bot; commands synced to ``guild_ids`` plus one global /hello.

    ``guild_ready_timeout=0.05`` keeps on_ready fast (discord.py waits this long after
    the last GUILD_CREATE, 2 s by default)."""

    def __init__(self, guild_ids: list[int], *, shard_id: int | None = None, shard_count: int | None = None) -> None:
        intents = discord.Intents.default()
        intents.members = True  # so the member cache is filled from GUILD_CREATE
        super().__init__(
            command_prefix="!", intents=intents, guild_ready_timeout=0.05, shard_id=shard_id, shard_count=shard_count
        )
        self.guild_ids = guild_ids
        self.seen_interactions: list[int] = []  # guild ids of interactions received

    async def setup_hook(self) -> None:
        probe = build_probe_group(self)

        @app_commands.command(name="hello", description="global hello")
        async def hello(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(f"hello from shard {self.shard_id}")

        self.tree.add_command(hello)
        await self.tree.sync()
        for gid in self.guild_ids:
            self.tree.add_command(probe, guild=discord.Object(gid))
            await self.tree.sync(guild=discord.Object(gid))

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        self.seen_interactions.append(interaction.guild_id)


def probe_schemas() -> list[dict]:
    """The /probe schema exactly as a sync would send it, built without connecting."""
    bot = ProbeBot([])
    return [build_probe_group(bot).to_dict(bot.tree)]
