"""Commands through their systems' declarations, and one error path: every
refusal, from any cog, is answered privately by the command tree's handler."""

from __future__ import annotations

import pytest

from bot.standin import InvalidInvocation
from rules import registry
from tests.e2e.conftest import say


async def test_act_autocomplete_comes_from_the_channels_declarations(standin, bot):
    await say(standin, "gm", "/campaign setup", system="99-towers")
    await say(standin, "gm", "/encounter start")
    offered = await (await standin.autocomplete("gm", "/act", "action", action="")).choices()
    declared = registry.get("99-towers").commands.acts.choices
    assert [c["value"] for c in offered] == [value for value, _ in declared][:25]
    found = await (await standin.autocomplete("gm", "/act", "action", action="grap")).choices()
    assert found and all("grap" in c["name"].casefold() or "grap" in c["value"] for c in found)


async def test_refusals_from_every_kind_of_command_are_private(standin, bot):
    no_encounter = await say(standin, "alice", "/encounter log")
    assert no_encounter.ephemeral and no_encounter.content.startswith("⛔ This channel has had no encounter")
    await say(standin, "gm", "/campaign setup", system="99-towers")
    no_character = await say(standin, "alice", "/initiative join", character="Nobody")
    assert no_character.ephemeral and "No character called Nobody" in no_character.content
    await say(standin, "gm", "/encounter start")
    player_start = await say(standin, "bob", "/encounter start")
    assert player_start.ephemeral and player_start.content == "⛔ Only the GM starts an encounter."
    # Rotted Capes' and factions' groups are not even offered in a 99 Towers server (bot.command_sets).
    with pytest.raises(InvalidInvocation):
        await standin.invoke("gm", "/plotpoint issue")
    not_gm = await say(standin, "bob", "/initiative add", name="Ogre")
    assert not_gm.ephemeral and "Only the GM adds NPCs" in not_gm.content
    with pytest.raises(InvalidInvocation):
        await standin.invoke("gm", "/turn pass")
    assert not [m for m in standin.messages(include_ephemeral=False) if "⛔" in m.content]


async def test_factions_turns_run_through_the_declarations(standin, bot):
    await say(standin, "gm", "/campaign setup", system="factions")
    await say(standin, "gm", "/encounter start")
    await say(standin, "gm", "/initiative add", name="Bandit", side="bandits")
    await say(standin, "gm", "/initiative add", name="Guard", side="players")
    held = await say(standin, "gm", "/turn initiative", faction="bandits")
    assert not held.ephemeral and "bandits" in held.content.casefold()
    await say(standin, "gm", "/initiative next")
    taken = await say(standin, "gm", "/turn take", character="Bandit")
    assert not taken.ephemeral, taken.content
    assert "Bandit" in taken.content
