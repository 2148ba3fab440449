"""The Discord client: start-up, cogs, persistent buttons, the error handler."""

from __future__ import annotations

import asyncio
import contextlib
import gc

import discord
from discord import app_commands
from discord.ext import commands

from . import interact, lengths, paging, translation
from .buttons import ChoiceButton, ChoiceSelect, EndEncounterButton, EndTurnButton
from .command_sets import CommandSets
from .config import Settings
from .core import Core
from .db import create_engine, upgrade_schema
from .delivery import Pacer, TrackerDelivery, TurnButtons
from .reminders import Reminders
from .repository import Repository

COGS = (
    "cogs.campaign",
    "cogs.character",
    "cogs.encounter",
    "cogs.initiative",
    "cogs.play",
    "cogs.npc",
    "cogs.help",
)


class TurnkeeperBot(commands.AutoShardedBot):
    def __init__(self, settings: Settings, *, seed: int | None = None, **options) -> None:
        # Only servers, channels, threads and roles: Turnkeeper reads no messages, so it does not
        # ask to be sent every message of every channel (nor reactions, typing, presences).
        intents = discord.Intents.none()
        intents.guilds = True
        sharding = {}
        if settings.shard_count:
            sharding["shard_count"] = settings.shard_count
        if settings.shard_ids:
            sharding["shard_ids"] = settings.shard_ids
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            allowed_mentions=discord.AllowedMentions.none(),
            help_command=None,
            max_messages=None,  # no message events, nothing to cache
            **sharding,
            **options,
        )
        self.settings = settings
        self.seed = seed
        self.busy = 0
        self.idle = asyncio.Event()
        self.idle.set()
        self.core: Core | None = None
        self.engine = None
        self.command_sets = CommandSets(self)
        pacer = Pacer(settings.tracker_requests_per_second)
        self.trackers = TrackerDelivery(self, interval=settings.tracker_interval_seconds, pacer=pacer)
        self.turn_buttons = TurnButtons(pacer)
        self._campaign_roles: dict[int, int | None] = {}
        self.tree.on_error = self.on_app_command_error
        self.tree.interaction_check = self.within_limits

    async def setup_hook(self) -> None:
        self.engine = create_engine(self.settings.database_url)
        await upgrade_schema(self.engine)
        self.core = Core(Repository(self.engine), seed=self.seed)
        for name in COGS:
            await self.load_extension(name)
        await self.tree.set_translator(translation.Translator())
        lengths.declare(self.tree.get_commands())
        self.add_dynamic_items(EndTurnButton, ChoiceButton, ChoiceSelect, EndEncounterButton, *paging.DYNAMIC_ITEMS)
        await self.sync_commands()
        if not self.settings.dev_guild_id:
            self.command_sets.start()
        self.reminders = Reminders(self, poll=self.settings.reminder_poll_seconds)
        self.reminders.start()

    async def sync_commands(self) -> None:
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.command_sets.sync_global()  # each server gets its systems' groups (bot.command_sets)

    async def close(self) -> None:
        reminders = getattr(self, "reminders", None)
        if reminders:
            await reminders.stop()
        await self.command_sets.stop()
        await self.trackers.flush()  # nothing the channel should see is left unsent
        await super().close()
        if self.core is not None:
            self.core.repo.close()
        if self.engine is not None:
            await self.engine.dispose()

    @contextlib.asynccontextmanager
    async def working(self):
        """Marks a command in progress, so the sandbox can wait until the bot is quiet."""
        self.busy += 1
        self.idle.clear()
        try:
            yield
        finally:
            self.busy -= 1
            if not self.busy:
                self.idle.set()

    async def play(
        self,
        interaction: discord.Interaction,
        build: interact.BuildWithActor,
        command: str,
        *,
        encounter_id: int | None = None,
    ) -> None:
        """A button's click, through the one path every command takes."""
        await interact.run(interaction, build, command, encounter_id=encounter_id)

    # --- who is the GM --------------------------------------------------------
    async def gm_role(self, guild_id: int) -> int | None:
        if guild_id not in self._campaign_roles:
            campaign = await self.core.repo.get_campaign(guild_id)
            self._campaign_roles[guild_id] = campaign.gm_role_id if campaign else None
        return self._campaign_roles[guild_id]

    def forget_campaign(self, guild_id: int) -> None:
        self._campaign_roles.pop(guild_id, None)

    async def is_gm(self, interaction: discord.Interaction) -> bool:
        member = interaction.user
        if interaction.guild_id is None or not isinstance(member, discord.Member):
            return False
        if member.guild_permissions.manage_guild:
            return True
        # A channel bound to a campaign of its own has that campaign's GM role.
        role = await self.gm_role(await self.core.places.key(interaction.guild_id, interaction.channel))
        return role is not None and any(r.id == role for r in member.roles)

    # --- the bot's own length limits, for every command -------------------------
    async def within_limits(self, interaction: discord.Interaction) -> bool:
        """Discord's client enforces declared lengths, a modified client does not."""
        translation.speaking(interaction)
        if interaction.type is not discord.InteractionType.application_command:
            return True
        problem = lengths.too_long(lengths.typed_options(interaction.data))
        if problem is None:
            return True
        await interact.refuse(interaction, ValueError(problem))
        return False

    # --- one error handler for every command ------------------------------------
    async def on_app_command_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        await interact.answer_error(interaction, error)


def create_bot(settings: Settings | None = None, **options) -> TurnkeeperBot:
    return TurnkeeperBot(settings or Settings(), **options)


def freeze_start_up_heap() -> None:
    """What start-up loaded (modules, schemas, the command tree) lives as long as the
    process. Moved out of the cycle collector's sight, it no longer lengthens every full
    collection: under load those stalled the event loop, and so every answer, for up to
    a few hundred milliseconds."""
    gc.collect()
    gc.freeze()
