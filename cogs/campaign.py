"""/campaign: the rule system, GM role and settings; between fights: rests,
adjustments, their log and undo; export and import; campaigns bound to channels."""

from __future__ import annotations

import io
import re

import aiohttp
import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot import render, transfer, translation
from bot.campaigns import FightRunning, preview
from bot.checks import CHECK
from bot.core import DEFAULT_SETTINGS
from bot.interact import actor_of, answer_error, in_time, manages_server, reply
from bot.places import campaign_key
from bot.repository import DuplicateName
from bot.setting_values import SHARED_OPTIONS
from rules import registry
from rules.errors import InvalidInput
from rules.said import N_, joined, say
from rules.text import Cut, Secret, Text, english, has_secrets, walk

from . import autocomplete

PRIVATE = N_("(private)")
# An import's preview asks Discord about each owner it does not know yet, one request each: a party's
# players are few, a file's owners need not be (those past this are not asked about).
MAX_OWNER_LOOKUPS = 25
SYSTEM_CHOICES = [app_commands.Choice(name=key, value=key) for key in registry.MODULES]


@app_commands.guild_only()
class Campaign(
    commands.GroupCog,
    group_name="campaign",
    group_description=_("This server's campaign: rule system, GM role, settings"),
):
    def __init__(self, bot) -> None:
        self.bot = bot

    @app_commands.command(
        name="setup", description=_("Choose the rule system and GM role (Manage Server or the current GM)")
    )
    @app_commands.describe(
        system=_("Rule system played on this server"),
        gm_role=_("Members with this role are GMs (Manage Server always is)"),
        reminder_minutes=_("Ping an idle player after this many minutes (0 = off; default 10)"),
        choice_timeout=_("Seconds before an unanswered choice takes its default (default 120)"),
        settings=_("System settings as name=value, e.g. starting_plot_points=2"),
    )
    @app_commands.choices(system=SYSTEM_CHOICES)
    async def setup(
        self,
        interaction: discord.Interaction,
        system: app_commands.Choice[str],
        gm_role: discord.Role | None = None,
        reminder_minutes: app_commands.Range[int, 0, 1440] | None = None,
        choice_timeout: app_commands.Range[int, 0, 86400] | None = None,
        settings: str | None = None,
    ) -> None:
        by = await actor_of(interaction)
        key = await campaign_key(interaction)
        rules_system, role_id = await self.bot.core.campaigns.setup(
            key,
            by,
            system.value,
            manages_server=manages_server(interaction),
            gm_role_id=gm_role.id if gm_role else None,
            reminder_minutes=reminder_minutes,
            choice_timeout=choice_timeout,
            settings=settings,
        )
        self.bot.forget_campaign(key)
        await self.bot.command_sets.refresh_soon(interaction.guild_id)
        role = f"<@&{role_id}>" if role_id else say("Manage Server holders")
        plays = say("This server plays **{system}**. GMs: {role}.", system=rules_system.name, role=role)
        await reply(interaction, f"✅ {render.own(plays)}", allowed=render.NOBODY)

    @app_commands.command(name="show", description=_("Show the campaign's system, GM role and settings"))
    async def show(self, interaction: discord.Interaction) -> None:
        campaign = await self.bot.core.campaign(await campaign_key(interaction))
        if campaign is None:
            await reply(
                interaction,
                render.words("No campaign yet: someone with Manage Server runs `/campaign setup`."),
                ephemeral=True,
            )
            return
        rules_system = registry.get(campaign.system)
        settings = DEFAULT_SETTINGS | rules_system.default_options() | campaign.settings
        title = say("Campaign — {system}", system=rules_system.name)
        embed = discord.Embed(title=render.words(title), colour=discord.Colour.blurple())
        role = f"<@&{campaign.gm_role_id}>" if campaign.gm_role_id else render.words("Manage Server holders")
        embed.add_field(name=render.words("GM role"), value=role)
        # The shared ones under the names /campaign setup takes them by, with what they mean.
        helps = {k: o.help for k, o in rules_system.options.items()} | {k: s.help for k, s in SHARED_OPTIONS.items()}
        named = {k: s.option for k, s in SHARED_OPTIONS.items()}
        lines = [
            f"`{named.get(k, k)}` = {v}" + (f" — {render.words(helps[k])}" if k in helps else "")
            for k, v in settings.items()
        ]
        embed.add_field(name=render.words("Settings"), value=render.fit("\n".join(lines), 1000), inline=False)
        await reply(interaction, "", embed=embed)

    # --- between fights -------------------------------------------------------------
    @app_commands.command(name="rest", description=_("GM: time passes between fights (the system's recovery rules)"))
    @app_commands.describe(
        kind=_("What kind of rest"),
        character=_("Only this character (default: everyone)"),
        dice=_('Dice rolled by hand, in order, e.g. "14 3"'),
        options=_('The rest\'s options, e.g. medic="Nova, Max" (see /help)'),
    )
    @app_commands.autocomplete(kind=autocomplete.rests, character=autocomplete.campaign_characters)
    async def rest(
        self,
        interaction: discord.Interaction,
        kind: app_commands.Range[str, 1, 100],
        character: app_commands.Range[str, 1, 100] | None = None,
        dice: app_commands.Range[str, 1, 200] | None = None,
        options: app_commands.Range[str, 1, 300] | None = None,
    ) -> None:
        by = await actor_of(interaction)  # the rest refuses anyone but the GM
        key = await campaign_key(interaction)
        record = await autocomplete.resolve_character(interaction, key, character) if character else None
        label, public, private = await self.bot.core.between.rest(
            key, by, kind, character=record, dice=dice, options=options, by_name=interaction.user.display_name
        )
        unchanged = say("{rest}: nothing changed.", rest=label)
        body = "\n".join(render.clean(line) for line in public) or render.clean(unchanged)
        await reply(interaction, body)
        if private:
            await reply(interaction, "🔒 " + "\n".join(render.clean(line) for line in private), ephemeral=True)

    @app_commands.command(name="adjust", description=_("GM: set a value a character carries between fights"))
    @app_commands.describe(
        character=_("The stored character"), key=_("What to change (see /character show)"), value=_("The new value")
    )
    @app_commands.autocomplete(character=autocomplete.campaign_characters, key=autocomplete.adjustable)
    async def adjust(
        self,
        interaction: discord.Interaction,
        character: app_commands.Range[str, 1, 100],
        key: app_commands.Range[str, 1, 60],
        value: app_commands.Range[str, 1, 200],
    ) -> None:
        by = await actor_of(interaction)  # the adjustment refuses anyone but the GM
        ckey = await campaign_key(interaction)
        record = await autocomplete.resolve_character(interaction, ckey, character)
        summary = await self.bot.core.between.adjust(ckey, by, record, key, value, interaction.user.display_name)
        # An NPC kept from a fight: its numbers stay with the GM, who alone reads this answer.
        await reply(interaction, f"✏️ {render.clean(summary, gm=record.npc)}", ephemeral=record.npc)

    @app_commands.command(name="undo", description=_("GM: undo the last rest or adjustment"))
    async def undo(self, interaction: discord.Interaction) -> None:
        by = await actor_of(interaction)
        key = await campaign_key(interaction)
        summary = await self.bot.core.between.undo(key, by, interaction.user.display_name)
        await reply(interaction, f"↩️ {render.clean(_undone_openly(summary))}")
        if has_secrets(summary):
            # What was private (a private check, a kept NPC's numbers) the GM who took it back reads, alone.
            await reply(interaction, f"🔒 ↩️ {render.clean(summary, gm=True)}", ephemeral=True)

    @app_commands.command(name="log", description=_("Between-fight changes: rests, adjustments, fights' ends, imports"))
    async def log(self, interaction: discord.Interaction) -> None:
        by = await actor_of(interaction)
        changes = await self.bot.core.repo.changes(await campaign_key(interaction), limit=500)
        if not changes:
            await reply(interaction, render.words("Nothing has changed between fights yet."), ephemeral=True)
            return
        head = " | ".join(
            render.words(cell) for cell in (N_("when (UTC)"), N_("who"), N_("command"), N_("what changed"))
        )
        lines = [f"# {render.words('Between fights')}", "", f"| {head} |", "|---|---|---|---|"]
        for change in reversed(changes):
            mark = "~~" if change.undone else ""
            who = change.user_name or _member_name(interaction, change.user_id)
            person = _cell(who, typed=True) if who else _cell(say("user {id}", id=change.user_id))
            # Anyone reads the log: what was private in it (a private check, a kept NPC's numbers) only the
            # GM does, and whoever rolled a private check their own line, which they were shown.
            gm = by.is_gm or (change.user_id == by.user_id and english(change.command).startswith(CHECK))
            cells = [person, _cell(change.command, command=True, gm=gm), _cell(change.summary, gm=gm)]
            when = f"{change.created_at:%Y-%m-%d %H:%M}"
            lines.append(f"| {when} | {cells[0]} | {mark}{cells[1]}{mark} | {mark}{cells[2]}{mark} |")
        if any(c.undone for c in changes):
            lines += ["", render.words("Struck-through lines were undone.")]
        text = "\n".join(lines) + "\n"
        await reply(
            interaction,
            f"📜 {render.words('Changes between fights:')}",
            ephemeral=True,
            file=discord.File(io.BytesIO(text.encode()), filename="campaign-log.md"),
        )

    # --- export and import ------------------------------------------------------------
    @app_commands.command(name="export", description=_("GM: the whole campaign as one JSON file"))
    async def export(self, interaction: discord.Interaction) -> None:
        by = await actor_of(interaction)
        done, data = await self.bot.core.campaigns.export(await campaign_key(interaction), by)
        system = done.campaign.system
        name = f"campaign-{system}.json"
        exported = say(
            "The {system} campaign ({characters}, {npcs}), format version {version}.",
            system=registry.get(system).name,
            characters=transfer.characters_counted(len(data["characters"])),
            npcs=transfer.npcs_counted(len(data["npcs"])),
            version=transfer.VERSION,
        )
        if done.other_characters or done.other_npcs:
            left_out = say(
                "Left out: {characters} and {npcs} of a system this campaign played before (they stay stored here).",
                characters=transfer.characters_counted(done.other_characters),
                npcs=transfer.npcs_counted(done.other_npcs),
            )
            exported = joined(" ", [exported, left_out])
        await reply(
            interaction,
            f"📦 {render.words(exported)}",
            ephemeral=True,
            file=discord.File(io.BytesIO(transfer.dumps(data)), filename=name),
        )

    @app_commands.command(name="import", description=_("GM: replace this campaign with an exported file (asks first)"))
    @app_commands.describe(file=_("A file made by /campaign export"))
    async def import_(self, interaction: discord.Interaction, file: discord.Attachment) -> None:
        by = await actor_of(interaction)
        key = await campaign_key(interaction)
        # Downloading and checking the file may take longer than the 3 seconds Discord waits for an answer.
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            pending, characters, npcs = await self.bot.core.campaigns.incoming(
                key, by, file.size, lambda: _download(file)
            )
        except FightRunning as running:
            await reply(interaction, _fight_refusal(running), ephemeral=True)
            return
        owners = {c["owner_id"] for c in pending.file.characters if not c["npc"]}
        view = discord.ui.View(timeout=None)
        view.add_item(ImportButton(pending.token, CONFIRM))
        view.add_item(ImportButton(pending.token, CANCEL))
        shown = preview(pending, characters, npcs, await _strangers(interaction, owners))
        await reply(interaction, render.clean(shown), ephemeral=True, view=view)

    # --- several campaigns per server -----------------------------------------------------
    @app_commands.command(name="bind", description=_("Manage Server: give a channel or category a campaign of its own"))
    @app_commands.describe(place=_("The channel or category"), same_as=_("Share this other channel's campaign instead"))
    async def bind(
        self,
        interaction: discord.Interaction,
        place: discord.abc.GuildChannel,
        same_as: discord.abc.GuildChannel | None = None,
    ) -> None:
        await self.bot.core.campaigns.bind(
            interaction.guild_id, place.id, manages_server=manages_server(interaction), same_as=same_as
        )
        await self.bot.command_sets.refresh_soon(interaction.guild_id)
        if same_as:
            plays = say("{place} now plays the campaign of {other}.", place=f"<#{place.id}>", other=f"<#{same_as.id}>")
        else:
            plays = say("{place} now plays a campaign of its own (run /campaign setup there).", place=f"<#{place.id}>")
        await reply(interaction, f"🔗 {render.own(plays)}")

    @app_commands.command(
        name="unbind", description=_("Manage Server: a channel or category goes back to the server's campaign")
    )
    async def unbind(self, interaction: discord.Interaction, place: discord.abc.GuildChannel) -> None:
        await self.bot.core.campaigns.unbind(interaction.guild_id, place.id, manages_server=manages_server(interaction))
        await self.bot.command_sets.refresh_soon(interaction.guild_id)  # its campaign's groups may go
        again = say("{place} plays the server's campaign again (its own campaign is kept).", place=f"<#{place.id}>")
        await reply(interaction, f"🔗 {render.own(again)}")


CONFIRM, CANCEL = "go", "no"


class ImportButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"tk:import:(?P<token>[0-9a-f]{1,32}):(?P<answer>go|no)"
):
    """Import or Cancel on a preview. Answered by custom id, so that every press gets an answer:
    a second press, or one after a restart, finds the import gone and says so."""

    def __init__(self, token: str, answer: str) -> None:
        confirm = answer == CONFIRM
        super().__init__(
            discord.ui.Button(
                label=render.label("Import") if confirm else render.label("Cancel"),
                style=discord.ButtonStyle.danger if confirm else discord.ButtonStyle.secondary,
                custom_id=f"tk:import:{token}:{answer}",
            )
        )
        self.token, self.answer = token, answer

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(match["token"], match["answer"])

    async def callback(self, interaction: discord.Interaction) -> None:
        translation.speaking(interaction)
        try:
            if self.answer == CONFIRM:
                await self.confirm(interaction)
            else:
                interaction.client.core.campaigns.cancel(self.token, await actor_of(interaction))
                await _settle(interaction, render.words("Import cancelled: nothing was changed."))
        except Exception as error:  # every press is answered, a failure too (a button has no command tree)
            await answer_error(interaction, error)

    async def confirm(self, interaction: discord.Interaction) -> None:
        bot = interaction.client
        by = await actor_of(interaction)
        try:
            done, _ = await in_time(
                interaction, bot.core.campaigns.replace(self.token, by, interaction.user.display_name)
            )
        except DuplicateName as error:
            refused = say("{refusal}. Nothing was changed.", refusal=error.said)
            await _settle(interaction, f"⛔ {render.clean(refused)}")
            return
        except FightRunning as running:
            await _settle(interaction, _fight_refusal(running))
            return
        bot.forget_campaign(done.key)
        imported = say(
            "Imported the {system} campaign: {characters}, {npcs}.",
            system=registry.get(done.file.system).name,
            characters=transfer.characters_counted(len(done.file.characters)),
            npcs=transfer.npcs_counted(len(done.file.npcs)),
        )
        await _settle(interaction, f"✅ {render.words(imported)}")


async def _settle(interaction: discord.Interaction, content: str) -> None:
    """The preview becomes its outcome; once acknowledged (a slow import), the outcome follows privately."""
    if interaction.response.is_done():
        await reply(interaction, content, ephemeral=True)
    else:
        await interaction.response.edit_message(content=content, view=None)


def _fight_refusal(running: FightRunning) -> str:
    """The refusal with the fights' channels as links: only the bot's words and channel ids are in it."""
    return f"⛔ {render.words(running.said)}"


async def _strangers(interaction: discord.Interaction, owner_ids: set[int]) -> set[int]:
    """The owners Discord says are not members of this server. Without the members intent the cache knows
    few members, so the others are asked about; one Discord cannot answer for is not counted."""
    guild = interaction.guild
    if guild is None:
        return set()
    unknown = sorted(owner for owner in owner_ids if guild.get_member(owner) is None)
    strangers = set()
    for owner in unknown[:MAX_OWNER_LOOKUPS]:
        try:
            await guild.fetch_member(owner)
        except discord.NotFound:
            strangers.add(owner)
        except discord.HTTPException:
            continue
    return strangers


async def _download(file: discord.Attachment) -> bytes:
    try:
        return await file.read()
    except (TimeoutError, discord.HTTPException, aiohttp.ClientError, OSError):
        raise InvalidInput(say("The file could not be downloaded from Discord: attach it again.")) from None


def _member_name(interaction: discord.Interaction, user_id: int) -> str | None:
    member = interaction.guild.get_member(user_id) if interaction.guild else None
    return member.display_name if member else None


def _opened(text: Text | str) -> Text | None:
    """A logged text kept private whole (as stored: cut to its column's length), with what it hides
    shown; None for any other text."""
    if isinstance(text, Cut) and isinstance(text.text, Secret) and text.text.hidden:
        return Cut(text.text.value, text.limit)
    if isinstance(text, Secret) and text.hidden:
        return text.value
    return None


def _undone_openly(summary: Text) -> Text:
    """An undo as the channel reads it: a private check's command and result are its roller's and the
    GM's, so it is said to be one and no more; anything else as it reads with its secrets hidden."""
    if any(
        isinstance(node, Secret) and node.hidden and english(node.value).startswith(CHECK) for node in walk(summary)
    ):
        return say("Undid a private check.")
    return summary


def _cell(text: Text | str, *, typed: bool = False, command: bool = False, gm: bool = False) -> str:
    """`typed`: a name as its user wrote it, shown literally; `command`: a command as it was given;
    `gm`: what was private shown. An entry kept private whole reads as private to everyone else."""
    opened = _opened(text)
    if opened is not None:
        if not gm:
            return render.words(PRIVATE)
        text = opened
    if typed:
        shown = render.shown_name(str(text))
    else:
        shown = render.clean_command(text) if command else render.clean(text, gm=gm)
    return shown.replace("|", "\\|").replace("\n", " ")


async def setup(bot) -> None:
    bot.add_dynamic_items(ImportButton)
    await bot.add_cog(Campaign(bot))
