"""/encounter: start, end, status, undo, log, note."""

from __future__ import annotations

import io

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot import render
from bot.buttons import EndEncounterButton
from bot.core import Result
from bot.interact import (
    actor_of,
    announce,
    answer_result,
    in_time,
    refuse,
    reply,
    show_gm,
    warn_missing_permissions,
)
from bot.places import campaign_key
from rules import registry
from rules.actions import EndEncounter
from rules.said import N_, say

from .campaign import SYSTEM_CHOICES
from .forwarding import forwarded

SHARE_OFF = N_(
    "The fight's web page is off on this bot: its operator turns it on with WEB_PORT and WEB_BASE_URL "
    "(README, “The fight on a second screen”)."
)
SHARE_GM = N_("Only the GM shares the fight's page.")
SHARE_REVOKED = N_("The links to this channel's fights no longer work; /encounter share makes a new one.")
SHARE_NONE = N_("This channel had no shared link.")

CONFIRM_END = N_(
    "End the encounter in this channel? The fight stops for everyone and its turn order cannot be "
    "resumed; its log stays readable with /encounter log. Dismiss this message to keep playing."
)


@app_commands.guild_only()
class Encounter(commands.GroupCog, group_name="encounter", group_description=_("The fight in this channel")):
    def __init__(self, bot) -> None:
        self.bot = bot

    @app_commands.command(name="start", description=_("GM: start an encounter in this channel"))
    @app_commands.describe(system=_("Rule system (default: the campaign's)"))
    @app_commands.choices(system=SYSTEM_CHOICES)
    async def start(self, interaction: discord.Interaction, system: app_commands.Choice[str] | None = None) -> None:
        async with self.bot.working():  # the sandbox waits for the tracker too, not only the reply
            await self._start(interaction, system)

    async def _start(self, interaction: discord.Interaction, system: app_commands.Choice[str] | None) -> None:
        async def started() -> Result:
            return await self.bot.core.start(
                interaction.guild_id,
                interaction.channel_id,
                await actor_of(interaction),
                system=system.value if system else None,
                campaign=await campaign_key(interaction),
            )

        # It waits for the channel's lock like any command: acknowledged privately if that takes long.
        result, deferred = await in_time(interaction, started())
        content, mentions = render.result_content(result.events)
        answered = await answer_result(interaction, content, mentions, deferred)
        await announce(self.bot, interaction.channel, result, interaction=interaction if answered else None)
        if answered:
            await warn_missing_permissions(interaction)

    @app_commands.command(name="end", description=_("GM: end the encounter in this channel (asks to confirm)"))
    async def end(self, interaction: discord.Interaction) -> None:
        by = await actor_of(interaction)
        record = await self.bot.core.trial(interaction.channel_id, EndEncounter(by=by))
        view = discord.ui.View(timeout=None)
        view.add_item(EndEncounterButton(record.id))
        await reply(interaction, f"⚠️ {render.words(CONFIRM_END)}", ephemeral=True, view=view)
        # The button is a dynamic item, found by its id on any message: the view need not be kept
        # (discord.py would otherwise keep a private message's view with a 15-minute timer).
        view.stop()

    @app_commands.command(name="status", description=_("Show the turn order and everyone's state"))
    @app_commands.describe(page=_("Page of a long tracker"))
    async def status(self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 100] = 1) -> None:
        by = await actor_of(interaction)
        record, state = await self.bot.core.current(interaction.channel_id)
        system = registry.get(record.system)
        embed = render.tracker_embed(system, state, record.id, page=page, reveal=by.is_gm, turn=True)
        await reply(interaction, "", embed=embed, ephemeral=True)

    @app_commands.command(name="undo", description=_("GM: undo the last actions, dice and cards included"))
    @app_commands.describe(count=_("How many actions to undo (default 1)"))
    async def undo(self, interaction: discord.Interaction, count: app_commands.Range[int, 1, 50] = 1) -> None:
        by = await actor_of(interaction)
        result, deferred = await in_time(interaction, self.bot.core.undo(interaction.channel_id, by, count))
        answered = await answer_result(interaction, f"↩️ {render.clean(result.summary)}", render.NOBODY, deferred)
        # The values entered for a hidden NPC in the commands undone read "?" above: the GM reads them here.
        await show_gm(interaction, result)
        await announce(self.bot, interaction.channel, result, interaction=interaction if answered else None)

    @app_commands.command(name="log", description=_("Post an encounter's log as a Markdown file (also after it ended)"))
    @app_commands.describe(
        number=_("Which of this channel's encounters: 1 is the first (default: the current or last one)")
    )
    async def log(
        self, interaction: discord.Interaction, number: app_commands.Range[int, 1, 100000] | None = None
    ) -> None:
        core = self.bot.core
        who = await render.readable_names(interaction, await core.log_users(interaction.channel_id, number))
        filename, public, for_gm = await core.log_markdown(interaction.channel_id, number, who)
        await reply(
            interaction,
            f"📜 {render.words('The encounter log:')}",
            file=discord.File(io.BytesIO(public.encode()), filename=filename),
        )
        if for_gm is not None and (await actor_of(interaction)).is_gm:
            await reply(
                interaction,
                f"🔒 {render.words('Only you see this: the log with the hidden numbers.')}",
                ephemeral=True,
                file=discord.File(io.BytesIO(for_gm.encode()), filename=filename),
            )

    @app_commands.command(
        name="share", description=_("GM: a private link to a live page of the fight, for a TV or a stream")
    )
    @app_commands.describe(revoke=_("Turn off every link to this channel's fights"))
    async def share(self, interaction: discord.Interaction, revoke: bool = False) -> None:
        shares = self.bot.shares
        if shares is None:
            await refuse(interaction, ValueError(SHARE_OFF))
            return
        if not (await actor_of(interaction)).is_gm:
            await refuse(interaction, PermissionError(SHARE_GM))
            return
        if revoke:
            gone = await shares.revoke(interaction.channel_id)
            await reply(interaction, f"🔒 {render.words(SHARE_REVOKED if gone else SHARE_NONE)}", ephemeral=True)
            return
        record, _state = await self.bot.core.current(interaction.channel_id)
        locale = interaction.guild_locale.value if interaction.guild_locale else None
        token = await shares.share(record.id, interaction.channel_id, locale)
        link = f"{self.bot.settings.web_base_url}/f/{token}"
        said = say(
            "Only you see this: the fight's live page, for a TV or a phone: {link}\n"
            "For streaming software (transparent background): {overlay}\n"
            "Anyone with the link can watch until a day after the fight ends; "
            "/encounter share revoke:True turns it off.",
            link=link,
            overlay=f"{link}?overlay",
        )
        await reply(interaction, f"🔗 {render.words(said)}", ephemeral=True)

    @app_commands.command(name="note", description=_("Log a narrative ruling or event (not adjudicated)"))
    @forwarded("encounter_note")
    async def note(self, interaction: discord.Interaction, text: app_commands.Range[str, 1, 500]) -> None: ...


async def setup(bot) -> None:
    await bot.add_cog(Encounter(bot))
