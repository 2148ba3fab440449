"""Autocomplete shared by the cogs: the server's characters, the channel's combatants."""

from __future__ import annotations

import discord
from discord import app_commands

from rules import registry
from rules.secrets import conceal
from rules.usertext import mark, plain


async def characters(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    records = await interaction.client.core.repo.list_characters(interaction.guild_id, prefix=current or None, limit=25)
    return [app_commands.Choice(name=r.name[:100], value=r.name[:100]) for r in records]


async def my_characters(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    records = await interaction.client.core.repo.list_characters(
        interaction.guild_id, owner_id=interaction.user.id, prefix=current or None, limit=25
    )
    return [app_commands.Choice(name=r.name[:100], value=r.name[:100]) for r in records]


async def combatants(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    found = await interaction.client.core.peek(interaction.channel_id)
    if not found:
        return []
    _, state = found
    key = (current or "").casefold()
    names = [c.name for c in state.combatants if key in c.name.casefold()]
    return [app_commands.Choice(name=n[:100], value=n[:100]) for n in names[:25]]


async def acts(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    found = await interaction.client.core.peek(interaction.channel_id)
    if not found:
        return []
    record, _ = found
    key = (current or "").casefold()
    choices = [
        (v, label) for v, label in registry.get(record.system).act_choices() if key in label.casefold() or key in v
    ]
    return [app_commands.Choice(name=label[:100], value=value[:100]) for value, label in choices[:25]]


async def pending_options(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    found = await interaction.client.core.peek(interaction.channel_id)
    if not found or found[1].pending is None:
        return []
    key = (current or "").casefold()
    shown = [(o, plain(conceal(o))) for o in found[1].pending.options]  # as the buttons show them
    return [app_commands.Choice(name=s[:100], value=s[:100]) for o, s in shown if key in s.casefold()][:25]


# --- stored characters and NPCs of the channel's campaign --------------------------
# Names are unique per owner, so two players may both have a "Max": the choices show
# the owner and carry the character's id ("#12"), which `resolve_character` reads.


def _owner(interaction: discord.Interaction, record) -> str:
    member = interaction.guild.get_member(record.owner_id) if interaction.guild else None
    if member is not None:
        return member.display_name
    return record.owner_name or f"player …{str(record.owner_id)[-4:]}"


def _character_choices(interaction, records) -> list[app_commands.Choice[str]]:
    # A name only one player uses is its own value (readable in logs); a shared one
    # needs the id. Same-named characters share a prefix, so they are listed together.
    shared = {k for k in (r.name_key for r in records) if sum(r.name_key == k for r in records) > 1}
    choices = []
    for r in records[:25]:
        label = f"{r.name} — {_owner(interaction, r)}"
        value = f"#{r.id}" if r.name_key in shared or len(r.name) > 100 else r.name
        choices.append(app_commands.Choice(name=label[:100], value=value))
    return choices


async def campaign_characters(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    from bot.places import campaign_key

    key = await campaign_key(interaction)
    records = await interaction.client.core.repo.list_characters(key, prefix=current or None, limit=25)
    return _character_choices(interaction, records)


async def my_campaign_characters(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    from bot.places import campaign_key

    key = await campaign_key(interaction)
    records = await interaction.client.core.repo.list_characters(
        key, owner_id=interaction.user.id, prefix=current or None, limit=25
    )
    return _character_choices(interaction, records)


async def resolve_character(interaction: discord.Interaction, key: int, text: str):
    """The stored character an option names: an id from the choices, or a name (the
    caller's own first). Refuses a name several players share."""
    from rules.errors import InvalidInput

    repo = interaction.client.core.repo
    text = (text or "").strip()
    if text.startswith("#") and text[1:].isdigit():
        record = await repo.character_by_id(key, int(text[1:]))  # scoped to this campaign
        if record is None:
            raise InvalidInput("No such character in this campaign.")
        return record
    found = await repo.find_characters(key, text)
    if not found:
        raise InvalidInput(f"No character called {mark(text[:60])} in this campaign.")
    own = [r for r in found if r.owner_id == interaction.user.id]
    if own:
        return own[0]
    if len(found) > 1:
        raise InvalidInput(
            f"Several players have a character called {mark(found[0].name)}: "
            "pick one from the list, which shows their owners."
        )
    return found[0]


async def npcs(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    from bot.places import campaign_key

    if not await interaction.client.is_gm(interaction):
        return []  # players cannot read the NPC library, names included
    key = await campaign_key(interaction)
    records = await interaction.client.core.repo.list_npcs(key, prefix=current or None, limit=25)
    return [app_commands.Choice(name=r.name[:100], value=r.name[:100]) for r in records]


async def rests(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    from bot.places import campaign_key

    campaign = await interaction.client.core.campaign(await campaign_key(interaction))
    if campaign is None:
        return []
    key = (current or "").casefold()
    found = [r for r in registry.get(campaign.system).rests().values() if key in r.label.casefold() or key in r.key]
    return [app_commands.Choice(name=r.label[:100], value=r.key[:100]) for r in found[:25]]


async def adjustable(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    from bot.places import campaign_key

    campaign = await interaction.client.core.campaign(await campaign_key(interaction))
    if campaign is None:
        return []
    key = (current or "").casefold()
    found = [a for a in registry.get(campaign.system).adjustable().values() if key in a.key or key in a.help.casefold()]
    return [app_commands.Choice(name=f"{a.key} — {a.help}"[:100], value=a.key[:100]) for a in found[:25]]
