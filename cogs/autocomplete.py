"""Autocomplete shared by the cogs: the campaign's characters, the channel's combatants."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import islice

import discord
from discord import app_commands

from bot import render
from bot.interact import actor_of
from bot.lengths import CHOICE_NAME, CHOICE_VALUE, SELECT_OPTIONS
from bot.places import campaign_key, fight_campaign_key
from rules import registry
from rules.errors import InvalidInput
from rules.said import say
from rules.usertext import mark


def _choices(offered: Iterable[tuple[str, str]]) -> list[app_commands.Choice[str]]:
    """The first (label, value) pairs Discord shows, both cut to the length it takes."""
    return [
        app_commands.Choice(name=label[:CHOICE_NAME], value=value[:CHOICE_VALUE])
        for label, value in islice(offered, SELECT_OPTIONS)
    ]


def _typed(current: str | None) -> str:
    return (current or "").casefold()


async def combatants(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    found = await interaction.client.core.peek(interaction.channel_id)
    if not found:
        return []
    key = _typed(current)
    return _choices((c.name, c.name) for c in found[1].combatants if key in c.name.casefold())


async def acts(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    found = await interaction.client.core.peek(interaction.channel_id)
    if not found:
        return []
    key = _typed(current)
    shown = ((render.label(label, 100), v) for v, label in registry.get(found[0].system).act_choices())
    return _choices((name, value) for name, value in shown if key in name.casefold() or key in value)


async def pending_options(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    found = await interaction.client.core.peek(interaction.channel_id)
    if not found or found[1].pending is None:
        return []
    key = _typed(current)
    # Shown as the buttons show them (in the readers' language); the value is the option's key.
    shown = ((render.label(o.label, 100), o.key) for o in found[1].pending.options)
    return _choices((name, value) for name, value in shown if key in name.casefold() or key in value.casefold())


# --- stored characters and NPCs of the channel's campaign --------------------------
# Names are unique per owner, so two players may both have a "Max": the choices show
# the owner and carry the character's id ("#12"), which `resolve_character` reads.


def _owner(interaction: discord.Interaction, record) -> str:
    member = interaction.guild.get_member(record.owner_id) if interaction.guild else None
    if member is not None:
        return member.display_name
    return record.owner_name or render.words(say("player …{digits}", digits=str(record.owner_id)[-4:]))


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


async def _campaign_characters(
    interaction: discord.Interaction, current: str, owner_id: int | None
) -> list[app_commands.Choice[str]]:

    key = await campaign_key(interaction)
    records = await interaction.client.core.repo.list_characters(
        key, owner_id=owner_id, prefix=current or None, limit=25
    )
    return _character_choices(interaction, records)


async def campaign_characters(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return await _campaign_characters(interaction, current, None)


async def joinable_characters(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Your own characters, and for a GM every NPC a GM kept (they belong to all of them), from the
    campaign the channel's fight draws on."""
    key = await fight_campaign_key(interaction)
    gm = (await actor_of(interaction)).is_gm
    records = await interaction.client.core.repo.list_characters(
        key, owner_id=interaction.user.id, prefix=current or None, limit=25, with_kept=gm
    )
    return _character_choices(interaction, records)


async def resolve_character(interaction: discord.Interaction, key: int, text: str):
    """The stored character an option names: an id from the choices, or a name (the
    caller's own first). Refuses a name several players share."""

    repo = interaction.client.core.repo
    text = (text or "").strip()
    if text.startswith("#") and text[1:].isascii() and text[1:].isdigit():
        record = await repo.character_by_id(key, int(text[1:]))  # scoped to this campaign
        if record is None:
            raise InvalidInput(say("No such character in this campaign."))
        return record
    found = await repo.find_characters(key, text)
    if not found:
        raise InvalidInput(say("No character called {name} in this campaign.", name=mark(text[:60])))
    own = [r for r in found if r.owner_id == interaction.user.id]
    if own:
        return own[0]
    if len(found) > 1:
        raise InvalidInput(
            say(
                "Several players have a character called {name}: pick one from the list, which shows their owners.",
                name=mark(found[0].name),
            )
        )
    return found[0]


async def _library(interaction: discord.Interaction, current: str, key: int) -> list[app_commands.Choice[str]]:
    records = await interaction.client.core.library.suggestions(key, await actor_of(interaction), current)
    return _choices((r.name, r.name) for r in records)


async def npcs(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return await _library(interaction, current, await campaign_key(interaction))


async def templates(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The NPC library a template for the channel's fight comes from."""
    return await _library(interaction, current, await fight_campaign_key(interaction))


async def _campaign_system(interaction: discord.Interaction):
    """The rule system of the interaction's campaign; None before /campaign setup."""

    campaign = await interaction.client.core.campaign(await campaign_key(interaction))
    return None if campaign is None else registry.get(campaign.system)


async def rests(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    system = await _campaign_system(interaction)
    if system is None:
        return []
    key = _typed(current)
    shown = ((render.label(r.label, 100), r.key) for r in system.rests().values())
    return _choices((name, value) for name, value in shown if key in name.casefold() or key in value)


async def adjustable(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    system = await _campaign_system(interaction)
    if system is None:
        return []
    key = _typed(current)
    shown = ((f"{a.key} — {render.label(a.help, 96)}", a.key) for a in system.adjustable().values())
    return _choices((name, value) for name, value in shown if key in name.casefold())


async def check_kinds(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    system = await _campaign_system(interaction)
    if system is None:
        return []
    key = _typed(current)
    shown = ((render.label(k.label, 40), render.label(k.help, 56), k.key) for k in system.check_kinds())
    return _choices(
        (f"{label} — {meaning}", value) for label, meaning, value in shown if key in value or key in label.casefold()
    )
