"""The Discord client: start-up, cogs, persistent buttons, the error handler."""

from __future__ import annotations

import asyncio
import contextlib
import gc
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncEngine

from rules.text import Text

from . import interact, lengths, paging, sheet_forms, translation
from .admission import Admission
from .buttons import ChoiceButton, ChoiceSelect, EndEncounterButton, EndTurnButton
from .check_posts import CheckOfferButton
from .command_sets import CommandSets
from .config import Settings
from .core import Core
from .db import create_engine, driver_threads_stopped, upgrade_schema
from .delivery import Pacer, TrackerDelivery, TurnButtons
from .read_through import ReadThrough
from .redelivered import OnceEach
from .reminders import Reminders
from .repository import Repository
from .stages import STAGE_CLOCK, Arrivals
from .web.server import WebPage
from .web.shares import Shares

COGS = (
    "cogs.campaign",
    "cogs.character",
    "cogs.encounter",
    "cogs.initiative",
    "cogs.play",
    "cogs.roll",
    "cogs.check",
    "cogs.npc",
    "cogs.help",
)

TOKEN_REFUSED = (
    "Discord refused the token in DISCORD_TOKEN: open https://discord.com/developers/applications, your "
    "application, Bot → Reset Token, and put the new token in .env as DISCORD_TOKEN=…"
)
NO_COMMANDS_SCOPE = (
    "Discord refused the slash commands in server {guild} (DEV_GUILD_ID): invite the bot there again with the "
    "scopes bot and applications.commands (README, “Creating the Discord application and inviting the bot”), "
    "or leave DEV_GUILD_ID empty"
)


class StartUpError(Exception):
    """Why the bot cannot start, in one line that says what to do."""


class Tree(app_commands.CommandTree["TurnkeeperBot"]):
    """The command tree: every command passes the bot's own length limits, every error its one handler."""

    async def interaction_check(self, interaction: discord.Interaction[TurnkeeperBot], /) -> bool:
        arrived = self.client.arrivals.pop(interaction.id, None)
        if arrived is not None:
            STAGE_CLOCK.add("decode", arrived)
        return await self.client.within_limits(interaction)

    async def on_error(
        self, interaction: discord.Interaction[TurnkeeperBot], error: app_commands.AppCommandError, /
    ) -> None:
        await self.client.on_app_command_error(interaction, error)


class TurnkeeperBot(commands.AutoShardedBot):
    def __init__(self, settings: Settings, *, seed: int | None = None, **options) -> None:
        # Only servers, channels, threads and roles: Turnkeeper reads no messages, so it does not
        # ask to be sent every message of every channel (nor reactions, typing, presences).
        intents = discord.Intents.none()
        intents.guilds = True
        sharding: dict[str, Any] = {}
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
            tree_cls=Tree,
            **sharding,
            **options,
        )
        self.settings = settings
        self.seed = seed
        self.busy = 0
        self.idle = asyncio.Event()
        self.idle.set()
        self._core: Core | None = None
        self.engine: AsyncEngine | None = None
        self.command_sets = CommandSets(self)
        pacer = Pacer(settings.tracker_requests_per_second)
        self.trackers = TrackerDelivery(self, interval=settings.tracker_interval_seconds, pacer=pacer)
        self.turn_buttons = TurnButtons(pacer)
        self._campaign_roles: ReadThrough[int, int | None] = ReadThrough(self._read_gm_role)
        self.web_page: WebPage | None = None
        # The fight's links, made wherever WEB_BASE_URL is set: with shard processes, the page may be
        # served by another process (WEB_PORT), and any process serves every link (bot.web.shares).
        self.shares: Shares | None = None
        self.arrivals = Arrivals(self._connection)
        OnceEach(self._connection)  # after Arrivals: a second delivery is dropped before it is timed
        self.admission = Admission(settings.commands_at_once, settings.busy_after_seconds)

    async def open_database(self) -> None:
        """The database, its schema brought to the newest, before Discord is contacted."""
        if self.engine is not None:
            return
        engine = create_engine(self.settings.database_url)
        try:
            await upgrade_schema(engine)
        except (SQLAlchemyError, OSError, TimeoutError) as error:
            await engine.dispose()
            await driver_threads_stopped()
            raise StartUpError(database_problem(self.settings.database_url, error)) from error
        self.engine = engine
        # One process serving every shard makes links only when it serves the page itself: no dead links.
        settings = self.settings
        if settings.web_base_url and (settings.web_port or settings.shard_ids):
            self.shares = Shares(engine)
        self._core = Core(Repository(engine), seed=self.seed, cache_size=self.settings.encounters_in_memory)

    @property
    def core(self) -> Core:
        """The core over the database, there once `open_database` opened it."""
        if self._core is None:
            raise RuntimeError("the database is not open yet: open_database() first")
        return self._core

    async def setup_hook(self) -> None:
        await self.open_database()
        for name in COGS:
            await self.load_extension(name)
        await self.tree.set_translator(translation.Translator())
        lengths.declare(self.tree.get_commands())
        self.add_dynamic_items(
            EndTurnButton, ChoiceButton, ChoiceSelect, EndEncounterButton, CheckOfferButton, *paging.DYNAMIC_ITEMS
        )
        await self.sync_commands()
        if not self.settings.dev_guild_id:
            self.command_sets.start()
        self.reminders = Reminders(self, poll=self.settings.reminder_poll_seconds)
        self.reminders.start()
        if self.settings.web_port is not None:
            self.web_page = WebPage(
                self.core.repo,
                connections=self.settings.web_max_connections,
                connections_per_address=self.settings.web_max_connections_per_address,
            )
            try:
                await self.web_page.start(self.settings.web_host, self.settings.web_port)
            except OSError as error:
                raise StartUpError(
                    f"cannot serve the fight's web page on {self.settings.web_host}:{self.settings.web_port} "
                    f"({first_line(error)}): choose a free WEB_PORT, or leave it empty to turn the page off"
                ) from error

    async def sync_commands(self) -> None:
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            try:
                await self.tree.sync(guild=guild)
            except (discord.Forbidden, discord.NotFound) as error:
                raise StartUpError(NO_COMMANDS_SCOPE.format(guild=guild.id)) from error
        else:
            await self.command_sets.sync_global()  # each server gets its systems' groups (bot.command_sets)

    async def close(self) -> None:
        reminders = getattr(self, "reminders", None)
        if reminders:
            await reminders.stop()
        await self.command_sets.stop()
        if self.web_page is not None:
            await self.web_page.stop()
        await self.trackers.flush()  # nothing the channel should see is left unsent
        sheet_forms.close_forms()
        await super().close()
        if self._core is not None:
            self._core.repo.close()
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
        command: Text | str,
        *,
        encounter_id: int | None = None,
    ) -> None:
        """A button's click, through the one path every command takes."""
        await interact.run(interaction, build, command, encounter_id=encounter_id)

    # --- who is the GM --------------------------------------------------------
    async def gm_role(self, guild_id: int) -> int | None:
        return await self._campaign_roles.get(guild_id)

    async def _read_gm_role(self, guild_id: int) -> int | None:
        campaign = await self.core.repo.get_campaign(guild_id)
        return campaign.gm_role_id if campaign else None

    def forget_campaign(self, guild_id: int) -> None:
        self._campaign_roles.forget(guild_id)

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
        declared = lengths.declared_limits(interaction.command)
        problem = lengths.too_long(lengths.typed_options(interaction.data), declared)
        if problem is None:
            return True
        await interact.refuse(interaction, ValueError(problem))
        return False

    # --- one error handler for every command ------------------------------------
    async def on_app_command_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        await interact.answer_error(interaction, error)


def create_bot(settings: Settings | None = None, **options) -> TurnkeeperBot:
    return TurnkeeperBot(settings or Settings(), **options)


async def run(settings: Settings) -> None:
    """`python -m bot`: the database first, then Discord, until the bot is closed. A start-up that
    cannot go on raises StartUpError (the settings were checked when ``settings`` was made)."""
    if settings.discord_token is None:
        raise StartUpError("no DISCORD_TOKEN is configured: put the bot's token in .env as DISCORD_TOKEN=…")
    token = settings.discord_token.get_secret_value()
    quiet_voice()
    async with create_bot(settings) as bot:
        await bot.open_database()
        freeze_start_up_heap()
        freezing = asyncio.create_task(freeze_once_ready(bot))
        try:
            await bot.start(token)
        except discord.LoginFailure as error:
            raise StartUpError(TOKEN_REFUSED) from error
        except discord.DiscordServerError as error:
            raise StartUpError(
                f"Discord answered {error.status} ({error.text or 'server error'}): it is having trouble; "
                "see https://discordstatus.com and start again later"
            ) from error
        except (OSError, aiohttp.ClientError, TimeoutError) as error:
            raise StartUpError(
                f"cannot reach Discord ({first_line(error) or 'timed out'}): check this machine's network "
                "connection (DNS, firewall, proxy) and start again"
            ) from error
        finally:
            freezing.cancel()


def quiet_voice() -> None:
    """discord.py warns that voice needs PyNaCl and davey when a client is made; the bot
    never speaks, and an operator never asked for voice."""
    discord.VoiceClient.warn_nacl = False
    if hasattr(discord.VoiceClient, "warn_dave"):
        discord.VoiceClient.warn_dave = False


def database_problem(url: str, error: BaseException) -> str:
    parsed = make_url(url)
    reason = first_line(getattr(error, "orig", None) or error) or type(error).__name__
    where = (
        "that its folder exists and this user may write there"
        if parsed.get_backend_name() == "sqlite"
        else "that the database server is running and this machine may connect to it"
    )
    return (
        f"cannot open the database {parsed.render_as_string(hide_password=True)} ({reason}): "
        f"check DATABASE_URL in .env or the environment, and {where}"
    )


def first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else ""


YOUNG_COLLECTION_AFTER = 20_000


def freeze_start_up_heap() -> None:
    """What start-up loaded (modules, schemas, the command tree) lives as long as the
    process. Moved out of the cycle collector's sight, it no longer lengthens every full
    collection: under load those stalled the event loop, and so every answer, for up to
    a few hundred milliseconds.

    Young collections run after every ``YOUNG_COLLECTION_AFTER`` new objects instead of
    Python's 700: a command makes thousands (its state, its texts, discord.py's objects),
    nearly all gone when it ends, and collecting them every 700 cost as much time as the
    command's own work under load."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_COLLECTION_AFTER, *gc.get_threshold()[1:])


async def freeze_once_ready(bot: discord.Client) -> None:
    """Once every shard is ready, its servers, channels and members are in memory for as long as the
    process runs: frozen like start-up's heap, they no longer lengthen each full collection."""
    await bot.wait_until_ready()
    freeze_start_up_heap()
