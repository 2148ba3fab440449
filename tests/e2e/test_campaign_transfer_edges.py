"""/campaign export and import at their edges, through real discord.py and the stand-in: a campaign set up
anew for another system, an import's deferred answer, owners who are not members of the server, and an
import while a fight of the campaign runs."""

from __future__ import annotations

import json

import pytest

from tests.e2e.conftest import say, serving, with_far_keep

NOVA = "dex=2 con=1 avoidance=14 fortitude=8 stamina=20 wounds=3 attack=5 damage=2d6+3"
DEFERRED = 5  # Discord's "thinking…" acknowledgement
STRANGER = 424242424242424242  # nobody in the stand-in's world


@pytest.fixture
async def standin():
    async with serving(with_far_keep()) as server:
        yield server


async def exported(standin, channel=None):
    answer = await say(standin, "gm", "/campaign export", in_channel=channel)
    assert answer.ephemeral and answer.attachments, answer.content
    return answer


async def press(standin, preview, label="Import"):
    return await (await standin.click("gm", label, message=preview)).response()


def upload(standin, characters):
    data = {"format": "turnkeeper-campaign", "version": 2, "system": "rotted-capes", "settings": {}, "state": {}}
    return standin.upload("campaign.json", json.dumps(data | {"characters": characters, "npcs": []}).encode())


def hero(name, owner_id):
    sheet = {"stamina": 20, "wounds": 3, "dex": 1}
    return {"name": name, "owner_id": str(owner_id), "sheet": sheet, "lasting": {}, "npc": False}


@pytest.mark.parametrize("second", ["factions", "fightin-words"])
async def test_after_a_system_switch_export_holds_that_system_and_import_says_what_it_deletes(standin, bot, second):
    await say(standin, "gm", "/campaign setup", system="rotted-capes")
    await say(standin, "alice", "/character add", name="Nova", stats="dex=2 stamina=20 wounds=3")
    await say(standin, "gm", "/npc add", name="Zombie", stats="stamina=8 wounds=1 attack=2")
    await say(standin, "gm", "/campaign setup", system=second)
    answer = await exported(standin)
    assert "Left out: 1 character and 1 NPC of a system this campaign played before" in answer.content
    data = json.loads(answer.attachments[0].data)
    assert data["system"] == second and data["characters"] == data["npcs"] == []
    # Its own file imports; the preview names the records of Rotted Capes it deletes, and the import does.
    preview = await say(standin, "gm", "/campaign import", file=answer.attachments[0])
    assert preview.buttons(), preview.content
    assert "It also deletes what this campaign keeps of a system it played before: 1 character (Nova)" in (
        preview.content
    )
    assert "Imported" in (await press(standin, preview)).content
    guild = standin.world.default_guild.id
    assert (
        await bot.core.repo.get_character(guild, "Nova") is None
        and await bot.core.repo.get_npc(guild, "Zombie") is None
    )


async def test_an_import_is_answered_through_a_deferred_response(standin, bot):
    await say(standin, "gm", "/campaign setup", system="rotted-capes")
    file = (await exported(standin)).attachments[0]
    importing = await standin.invoke("gm", "/campaign import", file=file)
    assert await importing.acknowledged() == DEFERRED
    preview = await importing.response()
    assert preview.ephemeral and preview.buttons() and "Import a Rotted Capes campaign?" in preview.content
    # A refusal comes the same way, privately.
    refusing = await standin.invoke("gm", "/campaign import", file=standin.upload("campaign.json", b"not json"))
    assert await refusing.acknowledged() == DEFERRED
    refused = await refusing.response()
    assert refused.ephemeral and "not valid JSON" in refused.content and not refused.buttons(), refused.content


async def test_an_import_preview_warns_of_characters_whose_owners_are_not_members(standin, bot):
    await say(standin, "gm", "/campaign setup", system="rotted-capes")
    alice = standin.world.user("alice").id
    carol = standin.world.user("carol").id
    preview = await say(standin, "gm", "/campaign import", file=upload(standin, [hero("Nova", alice)]))
    assert preview.buttons() and "not a member" not in preview.content and "not members" not in preview.content
    # carol is a member of this server too; nobody knows the stranger here.
    characters = [hero("Ghost", STRANGER), hero("Shade", STRANGER), hero("Nova", alice), hero("Vex", carol)]
    preview = await say(standin, "gm", "/campaign import", file=upload(standin, characters))
    warning = (
        "2 characters in the file belong to people who are not members of this server: "
        "nobody can play them here until their owners join."
    )
    assert preview.buttons() and warning in preview.content, preview.content
    one = await say(standin, "gm", "/campaign import", file=upload(standin, [hero("Ghost", STRANGER)]))
    assert "1 character in the file belongs to someone who is not a member of this server" in one.content


async def test_an_import_is_refused_while_a_fight_of_the_campaign_runs_and_the_fight_keeps_its_end(standin, bot):
    await say(standin, "gm", "/campaign setup", system="rotted-capes")
    await say(standin, "alice", "/character add", name="Nova", stats=NOVA)
    file = (await exported(standin)).attachments[0]
    before_the_fight = await say(standin, "gm", "/campaign import", file=file)
    assert before_the_fight.buttons(), before_the_fight.content
    await say(standin, "gm", "/encounter start", in_channel="combat-2")
    await say(standin, "alice", "/initiative join", character="Nova", roll=14, in_channel="combat-2")
    await say(standin, "gm", "/initiative next", in_channel="combat-2")
    fight = standin.world.channel("combat-2").id
    refusal = f"A fight of this campaign is running in <#{fight}>: its end keeps what happened to its characters"
    refused = await say(standin, "gm", "/campaign import", file=file)
    assert refused.ephemeral and refusal in refused.content and not refused.buttons(), refused.content
    # A preview made before the fight began is refused when pressed, too.
    pressed = await press(standin, before_the_fight)
    assert refusal in pressed.content, pressed.content
    # A fight of another campaign (Far Keep's) does not hold this one's import up.
    await say(standin, "carol", "/campaign setup", system="rotted-capes", in_channel="far-hall")
    assert (await say(standin, "carol", "/campaign import", in_channel="far-hall", file=file)).buttons()
    hit = await say(standin, "gm", "/damage", target="Nova", amount="25", in_channel="combat-2")
    assert not hit.ephemeral, hit.content
    question = await say(standin, "gm", "/encounter end", in_channel="combat-2")
    await (await standin.click("gm", "End the encounter", message=question)).response()
    guild = standin.world.default_guild.id
    assert (await bot.core.repo.get_character(guild, "Nova")).lasting["stamina"] == 0
    # Once it is over the import goes through.
    assert "Imported" in (await press(standin, await say(standin, "gm", "/campaign import", file=file))).content


HOSTILE = {
    "an owner id of 5,000 digits": (
        {"characters": [hero("Nova", "9" * 5000)]},
        "Character Nova has no valid owner id.",
    ),
    "a system that is a list": ({"system": ["rotted-capes"]}, "The file is for an unknown rule system"),
    "true as Stamina": (
        {"characters": [hero("Nova", 7) | {"sheet": {"stamina": True}}]},
        "Nova's sheet: `stamina` takes a whole number.",
    ),
    "a NUL in a stat": (
        {"npcs": [{"name": "Zombie", "sheet": {"companion_of": "Nova\x00"}}]},
        "Zombie's sheet: Stat `companion_of`: a control character (U+0000) cannot be stored.",
    ),
    "a made-up campaign value": (
        {"state": {"rules": {"cursed": 1}}},
        "The file's state has an unknown entry `cursed`.",
    ),
}


@pytest.mark.parametrize("case", list(HOSTILE))
async def test_a_hostile_file_is_refused_privately_saying_what_and_changes_nothing(standin, bot, case):
    """Each made an internal error ("Something went wrong on our side") or was stored as no play stores it."""
    await say(standin, "gm", "/campaign setup", system="rotted-capes")
    await say(standin, "alice", "/character add", name="Nova", stats="stamina=20")
    before = (await exported(standin)).attachments[0].data
    sections, refusal = HOSTILE[case]
    data = {"format": "turnkeeper-campaign", "version": 2, "system": "rotted-capes", "settings": {}, "state": {}}
    file = standin.upload("campaign.json", json.dumps(data | {"characters": [], "npcs": []} | sections).encode())
    refused = await say(standin, "gm", "/campaign import", file=file)
    assert refused.ephemeral and refusal in refused.content and not refused.buttons(), refused.content
    assert (await exported(standin)).attachments[0].data == before


async def test_one_character_and_one_npc_are_counted_in_the_singular(standin, bot):
    await say(standin, "gm", "/campaign setup", system="rotted-capes")
    await say(standin, "alice", "/character add", name="Nova", stats=NOVA)
    await say(standin, "gm", "/npc add", name="Zombie", stats="stamina=8 wounds=1 attack=2")
    answer = await exported(standin)
    assert "The Rotted Capes campaign (1 character, 1 NPC), format version" in answer.content
    preview = await say(standin, "gm", "/campaign import", file=answer.attachments[0])
    assert "Now: Rotted Capes, 1 character, 1 NPC." in preview.content
    assert "From the file: 1 character (Nova), 1 NPC." in preview.content
    assert "Imported the Rotted Capes campaign: 1 character, 1 NPC." in (await press(standin, preview)).content
