"""The campaign remembers, through real discord.py and the stand-in: lasting state
carried from one fight into the next, rests, GM adjustments with their log and
undo, the NPC library and templates, export and import, several campaigns per
server, and who may do each of these."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta

import pytest

from bot import transfer
from bot.core import utcnow
from bot.standin.commands import InvalidInvocation
from bot.standin.world import default_world
from tests.e2e.conftest import say, serving, turnkeeper, with_far_keep
from tests.reliability.hostile import CAMPAIGN_FILES

KEY = "rotted-capes"
NOVA = "dex=2 con=1 avoidance=14 fortitude=8 stamina=20 wounds=3 attack=5 damage=2d6+3"
BOLT = "dex=3 avoidance=15 fortitude=6 stamina=12 wounds=1 attack=5 damage=1d8+2"
ZOMBIE = "avoidance=10 fortitude=4 stamina=8 wounds=1 attack=2 damage=1d6"
MANAGE_SERVER = 1 << 5


@pytest.fixture
async def standin():
    async with serving(with_far_keep()) as server:
        yield server


async def campaign(standin, **options):
    await say(standin, "gm", "/campaign setup", system=KEY, **options)
    await say(standin, "alice", "/character add", name="Nova", stats=NOVA)
    await say(standin, "bob", "/character add", name="Bolt", stats=BOLT)


async def fight_and_end(standin, bot, damage: str):
    """A fight where Nova takes `damage`; ended, so the campaign keeps what is left of her."""
    await say(standin, "gm", "/encounter start")
    await say(standin, "alice", "/initiative join", character="Nova", roll=14)
    await say(standin, "gm", "/initiative next")
    hit = await say(standin, "gm", "/damage", target="Nova", amount=damage)
    assert not hit.ephemeral, hit.content
    ended = await end_fight(standin)
    assert "over" in ended.content, ended.content


async def end_fight(standin, channel=None):
    """/encounter end asks to confirm; the GM presses the button."""
    question = await say(standin, "gm", "/encounter end", in_channel=channel)
    assert question.ephemeral and question.buttons(), question.content
    return await (await standin.click("gm", "End the encounter", message=question)).response()


async def nova(bot, standin):
    return await bot.core.repo.get_character(standin.world.default_guild.id, "Nova")


async def test_a_character_carries_its_wounds_into_the_next_fight(standin, bot):
    await campaign(standin)
    await fight_and_end(standin, bot, "25")
    carried = (await nova(bot, standin)).lasting
    assert carried["stamina"] == 0 and carried["wounds"] < 3, carried
    shown = await say(standin, "alice", "/character show", name="Nova")
    lines = shown.embeds[0]["fields"][0]["value"]
    assert f"Wounds {carried['wounds']}/3" in lines and "Stamina 0/20" in lines
    # The next fight starts from it, not from the fresh sheet.
    await say(standin, "gm", "/encounter start")
    await say(standin, "alice", "/initiative join", character="Nova", roll=14)
    _, state = await bot.core.current(standin.world.channel("combat").id)
    joined = state.find("Nova")
    assert (joined.stamina, joined.wounds) == (0, carried["wounds"])
    log = await say(standin, "gm", "/campaign log")
    text = log.attachments[0].data.decode()
    assert "/encounter end" in text and "Nova" in text


async def test_the_log_names_who_ended_a_fight_without_the_member_cache(standin, bot):
    await campaign(standin)
    await fight_and_end(standin, bot, "5")
    # The bot has no members intent: the GM who ended the fight is not in its member cache.
    guild = bot.get_guild(standin.world.default_guild.id)
    assert guild.get_member(standin.world.user("gm").id) is None
    log = (await say(standin, "gm", "/campaign log")).attachments[0].data.decode()
    (row,) = [line for line in log.splitlines() if "/encounter end" in line]
    assert "| gm |" in row and "user " not in row, row


async def test_rests_apply_the_seed_and_only_the_gm_rests(standin, bot):
    await campaign(standin)
    await fight_and_end(standin, bot, "25")
    before = (await nova(bot, standin)).lasting
    refused = await say(standin, "alice", "/campaign rest", kind="end_scene")
    assert refused.ephemeral and "Only the GM" in refused.content
    assert (await nova(bot, standin)).lasting == before
    choices = await (await standin.autocomplete("gm", "/campaign rest", "kind", kind="")).choices()
    assert [c["value"] for c in choices] == ["end_scene", "hiatus", "new_issue"]
    rested = await say(standin, "gm", "/campaign rest", kind="end_scene")
    assert not rested.ephemeral and "End of scene" in rested.content and "half" in rested.content
    after = (await nova(bot, standin)).lasting
    assert after["stamina"] == 10, after  # Unconscious from Stamina loss: half of 20
    # Dice entered by hand must all be used, or nothing changes.
    wrong = await say(standin, "gm", "/campaign rest", kind="new_issue", dice="4")
    assert wrong.ephemeral and "not needed" in wrong.content
    assert (await nova(bot, standin)).lasting == after
    unknown = await say(standin, "gm", "/campaign rest", kind="nap")
    assert unknown.ephemeral and "no rest called" in unknown.content
    # the log and an undo name the rest once, then what it did
    undone = await say(standin, "gm", "/campaign undo")
    assert "Undid /campaign rest kind:end_scene: 🛌 End of scene: Bolt recovers" in undone.content, undone.content
    assert ":;" not in undone.content and undone.content.count("End of scene") == 1


async def test_lines_put_in_one_are_parted_by_their_full_stop_not_by_a_semicolon_after_it(standin, bot):
    # What a character carries is a list ("Dead", not "Dead."); a rest's and a check's lines are sentences,
    # which their own stop parts in the log's one line: never "nothing.; Nova".
    await campaign(standin)
    await say(standin, "gm", "/campaign adjust", character="Nova", key="stamina", value="5")
    dead = await say(standin, "gm", "/campaign adjust", character="Bolt", key="dead", value="yes")
    assert "(Dead; Stamina 12/12; Wounds 1/1)" in dead.content, dead.content
    await say(standin, "gm", "/campaign rest", kind="end_scene")
    undone = await say(standin, "gm", "/campaign undo")
    assert "changes nothing. Nova recovers all of their Stamina (20/20)." in undone.content, undone.content
    check = await say(standin, "alice", "/check", character="Nova", kind="save", dc=20, dice="3")
    await (await standin.click("alice", "Spend a Plot Point: reroll", message=check)).response()
    log = (await say(standin, "gm", "/campaign log")).attachments[0].data.decode()
    assert "(0 left; pool 1). Nova CON save: d20" in log, log
    assert ".;" not in log, log


async def test_undoing_a_rest_leaves_the_dice_and_the_offers_of_checks_rolled_since(standin, bot):
    await campaign(standin)
    key = standin.world.default_guild.id
    await say(standin, "gm", "/campaign adjust", character="Nova", key="stamina", value="5")
    await say(standin, "gm", "/campaign rest", kind="end_scene")
    check = await say(standin, "alice", "/check", character="Nova", kind="save", dc=20, dice="3")
    assert check.components, check.content  # a hero with a Plot Point is offered a reroll
    state = (await bot.core.repo.get_campaign(key)).state
    undone = await say(standin, "gm", "/campaign undo")
    assert "Undid /campaign rest kind:end_scene" in undone.content, undone.content
    assert (await nova(bot, standin)).lasting["stamina"] == 5
    assert (await bot.core.repo.get_campaign(key)).state["rng"] == state["rng"]  # no roll comes again
    taken = await (await standin.click("alice", "Spend a Plot Point: reroll", message=check)).response()
    assert not taken.ephemeral and "spends a Plot Point to reroll" in taken.content, taken.content


async def test_an_attribute_lost_on_wound_recovery_outlasts_the_next_fight(standin, bot):
    await campaign(standin)
    await say(standin, "gm", "/campaign adjust", character="Nova", key="wounds", value="2")
    # 5 + CON 1 − 1 Wound = 5 vs DC 15, failed by 10: "permanently reduce a random attribute score by 1", d6 1
    rested = await say(standin, "gm", "/campaign rest", kind="hiatus", dice="5 1")
    assert "Strength" in rested.content, rested.content
    shown = await say(standin, "alice", "/character show", name="Nova")
    assert "Strength −1" in shown.embeds[0]["fields"][0]["value"]
    await say(standin, "gm", "/encounter start")
    await say(standin, "alice", "/initiative join", character="Nova", roll=14)
    await end_fight(standin)
    assert (await nova(bot, standin)).lasting["attribute_losses"] == ["Strength"]
    shown = await say(standin, "alice", "/character show", name="Nova")
    assert "Strength −1" in shown.embeds[0]["fields"][0]["value"]
    # the sheet as its form writes it: yes/no, and a dash for a value left to its default
    sheet = "\n".join(field["value"] for field in shown.embeds[0]["fields"][1:])
    assert "`stamina_defense` = —" in sheet and "`zombie` = no" in sheet, sheet
    assert "None" not in sheet and "False" not in sheet, sheet


async def test_character_show_gives_a_hero_never_in_a_fight_the_plot_points_the_next_fight_starts_them_with(
    standin, bot
):
    await campaign(standin, settings="starting_plot_points=2")
    shown = await say(standin, "alice", "/character show", name="Nova")
    assert "Plot Points 2" in shown.embeds[0]["fields"][0]["value"], shown.embeds
    listed = await say(standin, "alice", "/plotpoint show")
    assert "Nova 2" in listed.content, listed.content
    # what an adjustment shows reads the campaign's settings as well
    done = await say(standin, "gm", "/campaign adjust", character="Bolt", key="wounds", value="0")
    assert "Plot Points 2" in done.content, done.content


async def test_adjust_undo_and_the_log_say_who_changed_what(standin, bot):
    await campaign(standin)
    refused = await say(standin, "alice", "/campaign adjust", character="Nova", key="plot_points", value="5")
    assert refused.ephemeral and "Only the GM" in refused.content
    bad = await say(standin, "gm", "/campaign adjust", character="Nova", key="plot_points", value="-3")
    assert bad.ephemeral
    done = await say(standin, "gm", "/campaign adjust", character="Nova", key="plot_points", value="3")
    assert not done.ephemeral and "Plot Points 3" in done.content
    assert (await nova(bot, standin)).lasting.get("plot_points") == 3
    # The owner sees it; another player does not.
    own = await say(standin, "alice", "/character show", name="Nova")
    assert "Plot Points 3" in own.embeds[0]["fields"][0]["value"]
    other = await say(standin, "bob", "/character show", name="Nova")
    assert not other.embeds[0].get("fields")
    assert (await say(standin, "alice", "/campaign undo")).ephemeral
    undone = await say(standin, "gm", "/campaign undo")
    assert not undone.ephemeral and "Undid /campaign adjust" in undone.content
    assert (await nova(bot, standin)).lasting == {}
    nothing = await say(standin, "gm", "/campaign undo")
    assert nothing.ephemeral and "nothing" in nothing.content.lower() or "no rest" in nothing.content
    log = (await say(standin, "alice", "/campaign log")).attachments[0].data.decode()
    rows = [line for line in log.splitlines() if line.startswith("| 20")]
    assert len(rows) == 2 and "~~/campaign adjust" in rows[0] and "/campaign undo" in rows[1]
    assert all("| gm |" in row for row in rows), rows


async def test_an_undo_that_would_lose_a_later_fights_result_is_refused(standin, bot):
    await campaign(standin)
    await say(standin, "gm", "/campaign adjust", character="Nova", key="plot_points", value="3")
    await fight_and_end(standin, bot, "6")
    after_fight = (await nova(bot, standin)).lasting
    refused = await say(standin, "gm", "/campaign undo")
    assert refused.ephemeral and "cannot be undone" in refused.content and "Nova" in refused.content, refused.content
    assert (await nova(bot, standin)).lasting == after_fight


async def test_the_npc_library_is_the_gms_and_templates_fill_a_fight(standin, bot):
    await campaign(standin)
    assert (await say(standin, "alice", "/npc add", name="Zombie", stats=ZOMBIE)).ephemeral
    added = await say(standin, "gm", "/npc add", name="Zombie", stats=ZOMBIE, notes="slow, hungry")
    assert added.ephemeral and "Zombie" in added.content
    dup = await say(standin, "gm", "/npc add", name="zombie", stats=ZOMBIE)
    assert dup.ephemeral and "already" in dup.content
    for command, options in (("/npc list", {}), ("/npc show", {"name": "Zombie"}), ("/npc remove", {"name": "Zombie"})):
        answer = await say(standin, "alice", command, **options)
        assert answer.ephemeral and "Only the GM" in answer.content and "slow" not in answer.content
    player_choices = await (await standin.autocomplete("alice", "/npc show", "name", name="")).choices()
    assert player_choices == []
    gm_choices = await (await standin.autocomplete("gm", "/initiative add", "template", template="zo")).choices()
    assert [c["value"] for c in gm_choices] == ["Zombie"]
    shown = await say(standin, "gm", "/npc show", name="Zombie")
    assert "slow, hungry" in json.dumps(shown.embeds)
    await say(standin, "gm", "/encounter start")
    player = await say(standin, "alice", "/initiative add", template="Zombie", count=2)
    assert player.ephemeral
    horde = await say(
        standin, "gm", "/initiative add", template="Zombie", count=6, stats="stamina=12", dice="1 2 3 4 5 6"
    )
    assert not horde.ephemeral, horde.content
    _, state = await bot.core.current(standin.world.channel("combat").id)
    zombies = [c for c in state.combatants if c.name.startswith("Zombie")]
    assert len(zombies) == 6 and {z.stamina for z in zombies} == {12} and {z.sheet.attack for z in zombies} == {2}
    # The template itself is unchanged by the fight's override.
    assert (await bot.core.repo.get_npc(standin.world.default_guild.id, "Zombie")).sheet["stamina"] == 8
    removed = await say(standin, "gm", "/npc remove", name="Zombie")
    assert removed.ephemeral and (await say(standin, "gm", "/npc list")).content.startswith("The NPC library is empty")


async def test_npc_notes_take_500_characters_as_the_readme_says(standin, bot):
    await campaign(standin)
    notes = "n" * 500
    added = await say(standin, "gm", "/npc add", name="Zombie", stats=ZOMBIE, notes=notes)
    assert added.ephemeral and "limited to" not in added.content, added.content
    assert (await bot.core.repo.get_npc(standin.world.default_guild.id, "Zombie")).notes == notes
    with pytest.raises(InvalidInvocation, match="max_length 500"):
        await standin.invoke("gm", "/npc add", name="Ghoul", stats=ZOMBIE, notes=notes + "n")


async def test_npcs_are_forgotten_unless_kept(standin, bot):
    await campaign(standin)
    await say(standin, "gm", "/encounter start")
    await say(standin, "gm", "/initiative add", name="Mook", stats=ZOMBIE, roll=3)
    kept = await say(standin, "gm", "/initiative add", name="Doctor Vile", stats=ZOMBIE, roll=5, keep=True)
    assert not kept.ephemeral, kept.content
    await say(standin, "gm", "/initiative next")
    await say(standin, "gm", "/damage", target="Doctor Vile", amount="5")
    await end_fight(standin)
    guild = standin.world.default_guild.id
    assert await bot.core.repo.get_character(guild, "Mook") is None
    vile = await bot.core.repo.get_character(guild, "Doctor Vile")
    assert vile.lasting["stamina"] == 3
    await say(standin, "gm", "/encounter start")
    again = await say(standin, "gm", "/initiative add", name="Doctor Vile", keep=True, roll=5)
    assert not again.ephemeral, again.content
    _, state = await bot.core.current(standin.world.channel("combat").id)
    assert state.find("Doctor Vile").stamina == 3
    # it comes back with the stat block it was kept with, not a blank sheet
    vile = state.find("Doctor Vile")
    assert vile.max_stamina == 8 and vile.sheet.fortitude == 4 and vile.sheet.attack == 2


async def test_a_refused_kept_npc_is_not_stored(standin, bot):
    await campaign(standin)
    refused = await say(standin, "gm", "/initiative add", name="Ghost Villain", stats=ZOMBIE, roll=5, keep=True)
    assert refused.ephemeral and "no encounter" in refused.content, refused.content
    assert await bot.core.repo.get_character(standin.world.default_guild.id, "Ghost Villain") is None


async def test_a_kept_villain_stays_a_villain_without_plot_points(standin, bot):
    """Seed 000: "Every Hero starts each Issue with a set number of Plot Points"; a villain kept from fight to
    fight is the Editor-in-Chief's, whose points are the pool."""
    await campaign(standin)
    await say(standin, "gm", "/encounter start")
    await say(standin, "alice", "/initiative join", character="Nova", roll=12)
    await say(standin, "gm", "/initiative add", name="Dr Rot", stats=ZOMBIE, roll=5, keep=True)
    await say(standin, "gm", "/initiative next")
    await end_fight(standin)
    before = len(standin.messages(include_ephemeral=True))
    await say(standin, "gm", "/campaign rest", kind="new_issue")
    said = [m.content for m in standin.messages(include_ephemeral=True)[before:]]
    assert any("Nova has 1 Plot Point" in m for m in said), said
    guild = standin.world.default_guild.id
    assert "plot_points" not in (await bot.core.repo.get_character(guild, "Dr Rot")).lasting
    # The GM brings the kept villain back with /initiative join: it comes back as the NPC it was.
    await say(standin, "gm", "/encounter start")
    joined = await say(standin, "gm", "/initiative join", character="Dr Rot", roll=5)
    assert not joined.ephemeral, joined.content
    _, state = await bot.core.current(standin.world.channel("combat").id)
    rot = state.find("Dr Rot")
    assert rot.npc and rot.side == "threats" and rot.plot_points == 0
    order = await say(standin, "gm", "/initiative order")
    line = next(x for x in order.embeds[0]["description"].splitlines() if "Dr Rot" in x)
    assert "PP" not in line, line


async def test_a_server_admins_own_hero_is_a_hero_with_plot_points(database_url):
    """Seed 000: "Every Hero starts each Issue with a set number of Plot Points". Anyone with Manage Server is a
    GM; a hero such a member stores with /character add is still a hero, not an NPC the GM kept."""
    world = default_world()
    admin = world.add_role(world.default_guild, "Admin", permissions=MANAGE_SERVER)
    world.add_member(world.default_guild, "dana", roles=[admin])
    async with serving(world) as standin, turnkeeper(standin, database_url) as bot:
        await campaign(standin)
        assert not (await say(standin, "dana", "/character add", name="Paragon", stats=BOLT)).ephemeral
        await say(standin, "gm", "/encounter start")
        joined = await say(standin, "dana", "/initiative join", character="Paragon", roll=12)
        assert not joined.ephemeral, joined.content
        _, state = await bot.core.current(world.channel("combat").id)
        paragon = state.find("Paragon")
        assert not paragon.npc and paragon.side != "threats" and paragon.plot_points == 1
        assert paragon.controller_id == world.user("dana").id
        await end_fight(standin)
        before = len(standin.messages(include_ephemeral=True))
        await say(standin, "dana", "/campaign rest", kind="new_issue")
        said = [m.content for m in standin.messages()[before:]]
        assert any("Paragon has 1 Plot Point" in m for m in said), said
        stored = await bot.core.repo.get_character(world.default_guild.id, "Paragon")
        assert stored.lasting["plot_points"] == 1


async def test_two_players_may_each_have_a_max(standin, bot):
    await say(standin, "gm", "/campaign setup", system=KEY)
    assert not (await say(standin, "alice", "/character add", name="Max", stats=BOLT)).ephemeral
    assert not (await say(standin, "bob", "/character add", name="max", stats=NOVA)).ephemeral
    again = await say(standin, "bob", "/character add", name="MAX", stats=NOVA)
    assert again.ephemeral and "already have" in again.content
    choices = await (await standin.autocomplete("gm", "/character show", "name", name="ma")).choices()
    assert len(choices) == 2 and all(c["value"].startswith("#") for c in choices)
    labels = sorted(c["name"] for c in choices)
    assert labels == ["Max — alice", "max — bob"], labels
    ambiguous = await say(standin, "gm", "/character show", name="Max")
    assert ambiguous.ephemeral and "Several players" in ambiguous.content
    bobs = next(c["value"] for c in choices if "bob" in c["name"])
    shown = await say(standin, "gm", "/character show", name=bobs)
    assert "stamina" in json.dumps(shown.embeds) and str(standin.world.user("bob").id) in shown.content
    # Each joins with their own.
    await say(standin, "gm", "/encounter start")
    joined = await say(standin, "bob", "/initiative join", character="Max", roll=3)
    assert not joined.ephemeral
    _, state = await bot.core.current(standin.world.channel("combat").id)
    assert state.find("max").controller_id == standin.world.user("bob").id


@pytest.mark.parametrize(
    "options, refusal",
    [
        ({"reminder_minutes": -5}, "reminder_minutes"),
        ({"choice_timeout": -1}, "choice_timeout"),
        ({"reminder_minutes": 10**9}, "reminder_minutes"),
        ({"settings": "starting_plot_points=99999"}, "starting_plot_points"),
        ({"settings": "starting_plot_points"}, "value"),
        ({"settings": "nonsense=1"}, "no setting"),
        ({"settings": "choice_timeout_seconds=60"}, "Set `choice_timeout` with the `choice_timeout:` option"),
        ({"settings": "reminder_minutes=5"}, "Set `reminder_minutes` with the `reminder_minutes:` option"),
    ],
)
async def test_campaign_settings_are_checked_and_a_refusal_changes_nothing(standin, bot, options, refusal):
    await say(standin, "gm", "/campaign setup", system=KEY, reminder_minutes=7)
    try:
        answer = await say(standin, "gm", "/campaign setup", system=KEY, **options)
    except InvalidInvocation as error:  # the stand-in enforces declared ranges as Discord's client does
        assert "min_value" in str(error) or "max_value" in str(error)
        return
    assert answer.ephemeral and refusal in answer.content, answer.content
    stored = await bot.core.repo.get_campaign(standin.world.default_guild.id)
    assert stored.settings == {"reminder_minutes": 7}


async def exported(standin, user, channel=None):
    answer = await say(standin, user, "/campaign export", in_channel=channel)
    assert answer.ephemeral and answer.attachments, answer.content
    return answer.attachments[0]


async def test_export_then_import_into_a_fresh_server_gives_the_same_campaign(standin, bot):
    await campaign(standin, reminder_minutes=5, settings="starting_plot_points=2")
    await fight_and_end(standin, bot, "25")
    await say(standin, "gm", "/campaign rest", kind="end_scene")
    await say(standin, "gm", "/npc add", name="Zombie", stats=ZOMBIE, notes="slow")
    assert (await say(standin, "alice", "/campaign export")).ephemeral and not standin.messages()[-1].attachments
    original = await exported(standin, "gm")
    data = json.loads(original.data)
    assert data["format"] == "turnkeeper-campaign" and data["version"] == 2 and data["system"] == KEY
    assert [c["name"] for c in data["characters"]] == ["Bolt", "Nova"] and data["npcs"][0]["notes"] == "slow"
    # A player of Far Keep cannot import; its owner sees what will change and confirms.
    assert (await say(standin, "alice", "/campaign import", in_channel="far-hall", file=original)).ephemeral
    preview = await say(standin, "carol", "/campaign import", in_channel="far-hall", file=original)
    assert preview.ephemeral and "2 characters (Bolt, Nova)" in preview.content and "1 NPC." in preview.content
    assert await bot.core.repo.get_campaign(standin.world.guild("Far Keep").id) is None  # nothing before the click
    done = await (await standin.click("carol", "Import", message=preview)).response()
    assert "Imported" in done.content
    again = json.loads((await exported(standin, "carol", "far-hall")).data)
    assert again == data
    # The copy lives on by itself: Far Keep's Nova joins its fights with the carried state.
    far = standin.world.guild("Far Keep").id
    assert (await bot.core.repo.get_character(far, "Nova")).lasting == data["characters"][1]["lasting"]


async def test_export_and_import_keep_which_characters_are_kept_npcs(standin, bot):
    await campaign(standin)
    await say(standin, "gm", "/encounter start")
    await say(standin, "gm", "/initiative add", name="Dr Rot", stats=ZOMBIE, roll=5, keep=True)
    await end_fight(standin)
    original = await exported(standin, "gm")
    data = json.loads(original.data)
    assert {c["name"]: c["npc"] for c in data["characters"]} == {"Bolt": False, "Dr Rot": True, "Nova": False}
    preview = await say(standin, "carol", "/campaign import", in_channel="far-hall", file=original)
    assert "Imported" in (await (await standin.click("carol", "Import", message=preview)).response()).content
    assert json.loads((await exported(standin, "carol", "far-hall")).data) == data
    far = standin.world.guild("Far Keep").id
    assert (await bot.core.repo.get_character(far, "Dr Rot")).npc
    assert not (await bot.core.repo.get_character(far, "Nova")).npc
    # A file written before kept NPCs were marked is still read: its characters are heroes.
    older = data | {"characters": [{k: v for k, v in c.items() if k != "npc"} for c in data["characters"]]}
    file = standin.upload("campaign.json", json.dumps(older).encode())
    preview = await say(standin, "carol", "/campaign import", in_channel="far-hall", file=file)
    assert "Imported" in (await (await standin.click("carol", "Import", message=preview)).response()).content
    assert not (await bot.core.repo.get_character(far, "Dr Rot")).npc


@pytest.mark.parametrize(
    "content, refusal",
    [
        (b"not json", "not valid JSON"),
        (b'{"format": "something-else"}', "not a Turnkeeper campaign"),
        (b'{"format": "turnkeeper-campaign", "version": 99}', "version"),
        (
            json.dumps(
                {
                    "format": "turnkeeper-campaign",
                    "version": 1,
                    "system": "factions",
                    "settings": {},
                    "characters": [],
                    "npcs": [],
                }
            ).encode(),
            "factions campaign",
        ),
        (
            json.dumps(
                {
                    "format": "turnkeeper-campaign",
                    "version": 1,
                    "system": KEY,
                    "settings": {},
                    "state": {},
                    "characters": [{"name": "X", "owner_id": "1", "sheet": {"nonsense": 1}}],
                    "npcs": [],
                }
            ).encode(),
            "Unknown stat",
        ),
        pytest.param(b" " * (transfer.MAX_BYTES + 1), "larger than", id="larger-than-the-limit"),
        *[pytest.param(content, refusal, id=what) for what, content, refusal in CAMPAIGN_FILES],
    ],
)
async def test_a_bad_import_is_refused_and_changes_nothing(standin, bot, content, refusal):
    await campaign(standin)
    before = json.loads((await exported(standin, "gm")).data)
    answer = await say(standin, "gm", "/campaign import", file=standin.upload("campaign.json", content))
    assert answer.ephemeral and refusal in answer.content and not answer.buttons(), answer.content
    assert json.loads((await exported(standin, "gm")).data) == before


async def test_a_cancelled_import_changes_nothing_and_only_the_asker_confirms(standin, bot):
    await campaign(standin)
    before = await exported(standin, "gm")
    await say(standin, "alice", "/character add", name="Extra", stats=BOLT)
    preview = await say(standin, "gm", "/campaign import", file=before)
    assert "Characters not in the file are deleted: Extra" in preview.content
    cancelled = await (await standin.click("gm", "Cancel", message=preview)).response()
    assert "nothing was changed" in cancelled.content
    assert await bot.core.repo.get_character(standin.world.default_guild.id, "Extra") is not None


NO_LONGER_VALID = "This import preview is no longer valid: run /campaign import again."
CHANGED = "The campaign changed since this preview: import again."


async def preview_of(standin, file):
    preview = await say(standin, "gm", "/campaign import", file=file)
    assert preview.ephemeral and preview.buttons(), preview.content
    return preview


async def press(standin, preview, label="Import"):
    return await (await standin.click("gm", label, message=preview)).response()


async def imports_logged(bot, standin) -> int:
    changes = await bot.core.repo.changes(standin.world.default_guild.id)
    return sum(change.command == "/campaign import" for change in changes)


async def test_an_import_is_refused_when_a_character_was_added_after_its_preview(standin, bot):
    await campaign(standin)
    preview = await preview_of(standin, await exported(standin, "gm"))
    assert "deleted" not in preview.content
    await say(standin, "carol", "/character add", name="Late", stats=BOLT)
    refused = await press(standin, preview)
    assert refused.ephemeral and CHANGED in refused.content, refused.content
    assert await bot.core.repo.get_character(standin.world.default_guild.id, "Late") is not None
    assert await imports_logged(bot, standin) == 0


async def test_an_import_is_refused_when_the_campaign_changed_system_after_its_preview(standin, bot):
    await campaign(standin)
    preview = await preview_of(standin, await exported(standin, "gm"))
    await say(standin, "gm", "/campaign setup", system="fightin-words")
    refused = await press(standin, preview)
    assert refused.ephemeral and CHANGED in refused.content, refused.content
    assert (await bot.core.repo.get_campaign(standin.world.default_guild.id)).system == "fightin-words"


async def test_an_older_preview_confirmed_after_a_newer_import_is_refused(standin, bot):
    await campaign(standin)
    original = await exported(standin, "gm")
    newer_file = json.loads(original.data)
    newer_file["characters"].append(dict(newer_file["characters"][0], name="Newer"))
    older = await preview_of(standin, original)
    newer = await preview_of(standin, standin.upload("campaign.json", json.dumps(newer_file).encode()))
    assert "Imported" in (await press(standin, newer)).content
    refused = await press(standin, older)
    assert refused.ephemeral and CHANGED in refused.content, refused.content
    assert await bot.core.repo.get_character(standin.world.default_guild.id, "Newer") is not None
    assert await imports_logged(bot, standin) == 1


async def test_an_import_preview_expires_with_the_choice_timeout(standin, bot):
    await campaign(standin, choice_timeout=60)
    preview = await preview_of(standin, await exported(standin, "gm"))
    bot.core.now = lambda: utcnow() + timedelta(seconds=61)
    refused = await press(standin, preview)
    assert refused.ephemeral and NO_LONGER_VALID in refused.content, refused.content
    assert await imports_logged(bot, standin) == 0


async def test_a_second_press_of_import_is_answered_and_imports_nothing(standin, bot):
    await campaign(standin)
    preview = await preview_of(standin, await exported(standin, "gm"))
    # Two presses before the first is answered, as a double click sends them.
    first = await standin.click("gm", "Import", message=preview)
    second = await standin.click("gm", "Import", message=preview)
    answers = [await first.response(), await second.response()]
    assert "Imported" in answers[0].content, answers[0].content
    assert answers[1].ephemeral and NO_LONGER_VALID in answers[1].content, answers[1].content
    assert await imports_logged(bot, standin) == 1


async def test_an_import_pressed_after_a_restart_is_answered(standin, database_url):
    async with turnkeeper(standin, database_url):
        await campaign(standin)
        preview = await preview_of(standin, await exported(standin, "gm"))
    async with turnkeeper(standin, database_url) as bot:
        for label in ("Import", "Cancel"):
            answer = await press(standin, preview, label)
            assert answer.ephemeral and NO_LONGER_VALID in answer.content, answer.content
        assert await imports_logged(bot, standin) == 0


async def test_a_slow_import_is_acknowledged_within_discords_three_seconds(standin, bot, monkeypatch):
    await campaign(standin)
    preview = await preview_of(standin, await exported(standin, "gm"))
    repo = bot.core.campaigns.repo
    write = repo.replace_campaign

    async def slow(*args, **kwargs):
        await asyncio.sleep(3.5)  # a busy database
        return await write(*args, **kwargs)

    monkeypatch.setattr(repo, "replace_campaign", slow)
    click = await standin.click("gm", "Import", message=preview)
    await click.acknowledged(timeout=3.0)
    done = await click.response(timeout=10)
    assert done.ephemeral and "Imported" in done.content, done.content
    assert await imports_logged(bot, standin) == 1


async def test_a_player_cannot_read_another_servers_campaign(standin, bot):
    await campaign(standin)
    await say(standin, "gm", "/npc add", name="Zombie", stats=ZOMBIE)
    nova_id = (await nova(bot, standin)).id
    # alice is also a member of Far Keep, which has no campaign: nothing of the sandbox's shows there.
    shown = await say(standin, "alice", "/character show", name=f"#{nova_id}", in_channel="far-hall")
    assert shown.ephemeral and "No such character" in shown.content
    listed = await say(standin, "alice", "/character list", in_channel="far-hall")
    assert "Nova" not in listed.content
    typing = await standin.autocomplete("alice", "/character show", "name", name="", in_channel="far-hall")
    choices = await typing.choices()
    assert choices == []
    assert "Campaign" not in (await say(standin, "alice", "/campaign show", in_channel="far-hall")).content
    assert (await say(standin, "carol", "/npc list", in_channel="far-hall")).ephemeral
    log = await say(standin, "alice", "/campaign log", in_channel="far-hall")
    assert not log.attachments


async def test_an_id_no_character_can_have_is_refused_like_any_unknown_one(standin, bot):
    await campaign(standin)
    for typed in ("#2147483648", "#9223372036854775808", "#²"):
        shown = await say(standin, "alice", "/character show", name=typed)
        refused = "No such character" in shown.content or "No character called" in shown.content
        assert shown.ephemeral and refused, (typed, shown.content)


async def test_several_campaigns_in_one_server(standin, bot):
    await campaign(standin)  # the server's default: Rotted Capes
    assert (await say(standin, "alice", "/campaign bind", place="combat-2")).ephemeral
    bound = await say(standin, "gm", "/campaign bind", place="combat-2")
    assert not bound.ephemeral, bound.content
    # combat-2 has a campaign of its own: its own system, characters and NPCs.
    await say(standin, "gm", "/campaign setup", system="99-towers", in_channel="combat-2")
    await say(standin, "alice", "/character add", name="Nova", stats="init=2", in_channel="combat-2")
    await say(standin, "gm", "/npc add", name="Goblin", stats="init=1", in_channel="combat-2")
    shown = await say(standin, "gm", "/campaign show", in_channel="combat-2")
    assert "99 Towers" in shown.embeds[0]["title"]
    assert "Rotted Capes" in (await say(standin, "gm", "/campaign show")).embeds[0]["title"]
    assert [c["name"] for c in json.loads((await exported(standin, "gm", "combat-2")).data)["characters"]] == ["Nova"]
    default = json.loads((await exported(standin, "gm")).data)
    assert [c["name"] for c in default["characters"]] == ["Bolt", "Nova"] and default["npcs"] == []
    # A fight in combat-2 plays its campaign's system with its characters.
    started = await say(standin, "gm", "/encounter start", in_channel="combat-2")
    assert "99 Towers" in started.content, started.content
    joined = await say(standin, "alice", "/initiative join", character="Nova", in_channel="combat-2")
    assert not joined.ephemeral, joined.content
    # The existing commands work unchanged for the server's default campaign elsewhere.
    await fight_and_end(standin, bot, "5")
    assert (await nova(bot, standin)).lasting["stamina"] == 15
    # Unbinding hands the channel back to the default campaign; the bound one is kept.
    await say(standin, "gm", "/campaign unbind", place="combat-2")
    assert "Rotted Capes" in (await say(standin, "gm", "/campaign show", in_channel="combat-2")).embeds[0]["title"]


async def test_help_explains_the_system_the_channel_plays(standin, bot):
    await campaign(standin)  # the server's default: Rotted Capes
    await say(standin, "gm", "/campaign bind", place="combat-2")
    await say(standin, "gm", "/campaign setup", system="99-towers", in_channel="combat-2")
    title = lambda answer: answer.embeds[0]["title"]  # noqa: E731
    assert "99 Towers" in title(await say(standin, "alice", "/help", in_channel="combat-2"))
    assert "Rotted Capes" in title(await say(standin, "alice", "/help"))
    # A fight started in another system than the campaign's: its own system's help.
    started = await say(standin, "gm", "/encounter start", system="frozen-lands", in_channel="combat-3")
    assert not started.ephemeral, started.content
    assert "Frozen Lands" in title(await say(standin, "alice", "/help", in_channel="combat-3"))
    chosen = await say(standin, "alice", "/help", system="factions", in_channel="combat-3")
    assert "Factions" in title(chosen)


async def test_binding_a_channel_to_the_campaign_it_is_bound_to_is_refused_privately(standin, bot):
    await campaign(standin)
    guild = standin.world.default_guild.id
    assert not (await say(standin, "gm", "/campaign bind", place="combat-2")).ephemeral
    again = await say(standin, "gm", "/campaign bind", place="combat-2")
    assert again.ephemeral and "already bound" in again.content, again.content
    assert not (await say(standin, "gm", "/campaign bind", place="combat-3", same_as="combat-2")).ephemeral
    bound = await bot.core.repo.places(guild)
    shared = await say(standin, "gm", "/campaign bind", place="combat-3", same_as="combat-2")
    assert shared.ephemeral and "already bound" in shared.content, shared.content
    itself = await say(standin, "gm", "/campaign bind", place="combat-2", same_as="combat-2")
    assert itself.ephemeral and "already bound" in itself.content, itself.content
    assert await bot.core.repo.places(guild) == bound


async def test_unbinding_a_channel_that_is_not_bound_is_refused_privately_in_words(standin, bot):
    await campaign(standin)
    refused = await say(standin, "gm", "/campaign unbind", place="combat-2")
    assert refused.ephemeral and "not bound to a campaign of its own" in refused.content, refused.content
    assert "<#" not in refused.content, refused.content  # a refusal's mentions are escaped: it names no channel


async def test_a_kept_npcs_numbers_stay_with_the_gm_between_fights(standin, bot):
    await campaign(standin)
    await say(standin, "alice", "/character add", name="Nova", stats=NOVA)
    await say(standin, "gm", "/encounter start")
    await say(standin, "alice", "/initiative join", character="Nova", roll=12)
    added = await say(
        standin, "gm", "/initiative add", name="Doctor Vile", stats=ZOMBIE, roll=5, keep=True, hidden=True
    )
    assert not added.ephemeral, added.content
    await say(standin, "gm", "/initiative next")
    await say(standin, "gm", "/damage", target="Doctor Vile", amount="3")  # below Fortitude: Stamina only
    await end_fight(standin)
    before = len(standin.messages(include_ephemeral=True))

    await say(standin, "gm", "/campaign rest", kind="end_scene")

    said = standin.messages(include_ephemeral=True)[before:]
    public = [m for m in said if not m.ephemeral]
    assert public and all("Doctor Vile" not in m.content for m in public), [m.content for m in public]
    assert any("Nova" in m.content for m in public)
    adjusted = await say(standin, "gm", "/campaign adjust", character="Doctor Vile", key="stamina", value="4")
    assert adjusted.ephemeral, adjusted.content
    shown = await say(standin, "bob", "/character show", name="Doctor Vile")
    assert "stamina" not in shown.embeds[0]["description"] and not shown.embeds[0].get("fields")
    # The log anyone reads keeps them too: the GM reads them there, a player reads "?".
    for_bob = (await say(standin, "bob", "/campaign log")).attachments[0].data.decode()
    for_gm = (await say(standin, "gm", "/campaign log")).attachments[0].data.decode()
    assert "Stamina 4/8" in for_gm and "Doctor Vile" in for_gm, for_gm
    assert "Stamina 4/8" not in for_bob and "8/8" not in for_bob and "stamina set to ? (?)" in for_bob, for_bob
    assert "Nova" in for_bob.split("/campaign rest")[1], for_bob  # a hero's lines stay readable
    undone = await say(standin, "gm", "/campaign undo")  # in the channel
    assert not undone.ephemeral and "Stamina 4/8" not in undone.content, undone.content


async def test_a_kept_npc_is_every_gms_and_not_its_keepers_once_no_longer_gm(standin, bot):
    world = standin.world
    guild = world.default_guild
    gm_role = next(r for r in guild.roles.values() if r.name == "GM")
    carol = world.user("carol")
    guild.members[carol.id].role_ids.append(gm_role.id)
    await say(standin, "gm", "/campaign setup", system=KEY, gm_role=gm_role.id)
    # carol, a GM by role, keeps Doctor Vile; it leaves the fight at 5/8 Stamina
    await say(standin, "carol", "/encounter start")
    await say(standin, "carol", "/initiative add", name="Doctor Vile", stats=ZOMBIE, roll=5, keep=True)
    await say(standin, "carol", "/initiative next")
    await say(standin, "carol", "/damage", target="Doctor Vile", amount="3")
    await end_fight(standin)
    # another GM brings it back, with /initiative join or /initiative add keep:true, as it left; join offers it
    await say(standin, "gm", "/encounter start")
    offered = await (await standin.autocomplete("gm", "/initiative join", "character", character="doc")).choices()
    assert [c["value"] for c in offered] == ["Doctor Vile"]
    offered = await (await standin.autocomplete("bob", "/initiative join", "character", character="")).choices()
    assert offered == [], "a player is offered only their own characters"
    joined = await say(standin, "gm", "/initiative join", character="Doctor Vile", roll=5)
    assert not joined.ephemeral, joined.content
    _, state = await bot.core.current(world.channel("combat").id)
    assert state.find("Doctor Vile").npc and state.find("Doctor Vile").stamina == 5
    await end_fight(standin)
    await say(standin, "gm", "/encounter start")
    added = await say(standin, "gm", "/initiative add", name="Doctor Vile", keep=True, roll=5)
    assert not added.ephemeral, added.content
    _, state = await bot.core.current(world.channel("combat").id)
    assert state.find("Doctor Vile").stamina == 5
    assert [c.name for c in await bot.core.repo.list_characters(guild.id)] == ["Doctor Vile"]  # never a second
    assert not (await say(standin, "gm", "/character show", name="Doctor Vile")).embeds[0].get("description")
    # carol steps down: the villain is the GMs', not hers
    guild.members[carol.id].role_ids.remove(gm_role.id)
    shown = await say(standin, "carol", "/character show", name="Doctor Vile")
    assert not shown.embeds[0].get("fields"), shown.embeds[0]
    removed = await say(standin, "carol", "/character remove", name="Doctor Vile")
    assert removed.ephemeral and "only a GM" in removed.content, removed.content
    assert await bot.core.repo.get_character(guild.id, "Doctor Vile") is not None


async def test_an_undo_of_a_change_to_a_character_no_longer_stored_is_refused(standin, bot):
    # Undid and marked undone, it would write nowhere and say it had taken the change back.
    await campaign(standin)
    await say(standin, "gm", "/campaign adjust", character="Nova", key="plot_points", value="3")
    await say(standin, "alice", "/character remove", name="Nova")
    undo = await say(standin, "gm", "/campaign undo")
    assert undo.ephemeral and "1 character no longer stored" in undo.content, undo.content


async def test_an_undo_does_not_reach_past_an_import(standin, bot):
    await campaign(standin)
    await say(standin, "gm", "/campaign adjust", character="Nova", key="plot_points", value="3")
    file = await exported(standin, "gm")
    done = await (await standin.click("gm", "Import", message=await preview_of(standin, file))).response()
    assert "Imported" in done.content, done.content
    undo = await say(standin, "gm", "/campaign undo")
    assert undo.ephemeral and "There is no rest, adjustment or check to undo." in undo.content, undo.content
    assert (await nova(bot, standin)).lasting["plot_points"] == 3


async def nova_fights(standin):
    await say(standin, "gm", "/encounter start")
    joined = await say(standin, "alice", "/initiative join", character="Nova", roll=14)
    assert not joined.ephemeral, joined.content
    await say(standin, "gm", "/initiative next")


async def test_a_fights_end_keeps_what_changed_meanwhile_and_writes_what_the_fight_changed(standin, bot):
    await campaign(standin)
    await nova_fights(standin)
    guild = standin.world.default_guild.id
    await say(standin, "gm", "/damage", target="Nova", amount="10")  # the fight's own change
    await say(standin, "gm", "/campaign adjust", character="Nova", key="plot_points", value="3")  # meanwhile
    checked = await say(standin, "alice", "/check", character="Nova", kind="save", dc=20, dice="2")
    reroll = next(b["label"] for b in checked.buttons() if "Plot" in b["label"])
    await (await standin.click("alice", reroll, message=checked)).response()  # a point to the pool, meanwhile
    await end_fight(standin)
    kept = (await nova(bot, standin)).lasting
    assert kept["plot_points"] == 2 and kept["stamina"] == 10, kept  # 3, less the reroll; the fight's damage
    assert (await bot.core.repo.get_campaign(guild)).state["rules"]["pool"] == 1


async def test_a_new_issue_empties_the_pool_in_a_fight_and_between_fights(standin, bot):
    """SYSTEMS.md's default, the seed being silent: the Editor-in-Chief's pool "is kept between fights of one
    Issue and emptied by a new Issue"; a fight's end leaves the campaign's pool as the fight emptied it."""
    await campaign(standin)
    guild = standin.world.default_guild.id

    async def a_point_to_the_pool():
        checked = await say(standin, "alice", "/check", character="Nova", kind="save", dc=30, dice="2")
        reroll = next(b["label"] for b in checked.buttons() if "Plot" in b["label"])
        await (await standin.click("alice", reroll, message=checked)).response()
        assert (await bot.core.repo.get_campaign(guild)).state["rules"]["pool"] == 1

    await a_point_to_the_pool()
    await nova_fights(standin)
    issue = await say(standin, "gm", "/plotpoint issue")
    assert "the Editor-in-Chief's pool is emptied (it held 1)" in issue.content, issue.content
    await end_fight(standin)
    assert (await bot.core.repo.get_campaign(guild)).state["rules"]["pool"] == 0
    await a_point_to_the_pool()
    rested = await say(standin, "gm", "/campaign rest", kind="new_issue")
    assert "the Editor-in-Chief's pool is emptied (it held 1)" in rested.content, rested.content
    assert (await bot.core.repo.get_campaign(guild)).state["rules"]["pool"] == 0


async def test_a_fight_keeps_drawing_on_the_campaign_it_began_in_after_its_channel_is_rebound(standin, bot):
    # Its end saves its characters in that campaign: one of the new campaign joining would be lost.
    await campaign(standin)
    await say(standin, "gm", "/encounter start", in_channel="combat-2")
    await say(standin, "gm", "/campaign bind", place="combat-2")
    await say(standin, "gm", "/campaign setup", system=KEY, in_channel="combat-2")
    await say(standin, "bob", "/character add", name="Vega", stats=BOLT, in_channel="combat-2")
    await say(standin, "gm", "/npc add", name="Ghoul", stats=ZOMBIE, in_channel="combat-2")
    # what the fight can draw on is what is offered
    offered = await (
        await standin.autocomplete("bob", "/initiative join", "character", character="", in_channel="combat-2")
    ).choices()
    assert [c["value"] for c in offered] == ["Bolt"]  # not Vega, whom the fight cannot draw on
    offered = await (
        await standin.autocomplete("alice", "/initiative join", "character", character="", in_channel="combat-2")
    ).choices()
    assert [c["value"] for c in offered] == ["Nova"]
    offered = await (
        await standin.autocomplete("gm", "/initiative add", "template", template="", in_channel="combat-2")
    ).choices()
    assert offered == [], offered  # the Ghoul is the new campaign's
    refused = await say(standin, "bob", "/initiative join", character="Vega", roll=12, in_channel="combat-2")
    assert refused.ephemeral and "No character called" in refused.content, refused.content
    joined = await say(standin, "alice", "/initiative join", character="Nova", roll=14, in_channel="combat-2")
    assert not joined.ephemeral, joined.content
    await say(standin, "gm", "/initiative next", in_channel="combat-2")
    await say(standin, "gm", "/damage", target="Nova", amount="5", in_channel="combat-2")
    await end_fight(standin, "combat-2")
    assert (await nova(bot, standin)).lasting["stamina"] == 15


async def edit_novas_stamina(standin, stamina: int):
    """Nova's owner edits her sheet's Stamina in the /character edit form."""
    edit = await standin.invoke("alice", "/character edit", name="Nova")
    form = await edit.form()
    label = next(t.label for t in form.inputs if "stamina=20" in t.value.splitlines())
    typed = form.field(label).value.replace("stamina=20", f"stamina={stamina}")
    edited = await (await standin.submit("alice", edit, {label: typed})).response()
    assert "is updated" in edited.content, edited.content


async def test_a_sheet_edited_down_mid_fight_stores_what_the_bot_shows_and_its_export_imports(standin, bot):
    await campaign(standin)
    await nova_fights(standin)
    await edit_novas_stamina(standin, 10)  # while she fights at 20
    await end_fight(standin)
    assert (await nova(bot, standin)).lasting["stamina"] == 10  # as /character show and the next join read her
    shown = await say(standin, "alice", "/character show", name="Nova")
    assert "Stamina 10/10" in shown.embeds[0]["fields"][0]["value"]
    preview = await say(standin, "gm", "/campaign import", file=await exported(standin, "gm"))
    assert preview.buttons(), preview.content  # its own export is not refused
    assert "Imported" in (await (await standin.click("gm", "Import", message=preview)).response()).content
    assert (await nova(bot, standin)).lasting["stamina"] == 10


async def test_campaign_show_names_each_setting_as_setup_takes_it(standin, bot):
    await say(standin, "gm", "/campaign setup", system=KEY, choice_timeout=60, settings="ongoing_dc=12")
    shown = (await say(standin, "alice", "/campaign show")).embeds[0]["fields"][1]["value"]
    assert "`choice_timeout` = 60 — Seconds before an unanswered choice takes its default." in shown, shown
    assert "`reminder_minutes` = 10 — Minutes before" in shown and "`ongoing_dc` = 12 — Save DC" in shown
    assert "choice_timeout_seconds" not in shown


async def test_a_character_of_the_campaigns_former_system_is_neither_rested_nor_adjusted(standin, bot):
    await campaign(standin)
    await say(standin, "gm", "/campaign adjust", character="Nova", key="plot_points", value="3")
    await say(standin, "gm", "/campaign setup", system="frozen-lands")
    await say(standin, "carol", "/character add", name="Astrid", stats="body=3")
    await say(standin, "gm", "/campaign adjust", character="Astrid", key="stress", value="3")
    kept = (await nova(bot, standin)).lasting
    other = "That character belongs to another rule system than this campaign's."
    checked = await say(standin, "alice", "/check", character="Nova", kind="melee")
    rested = await say(standin, "gm", "/campaign rest", kind="rest", character="Nova")
    adjusted = await say(standin, "gm", "/campaign adjust", character="Nova", key="stress", value="3")
    for refused in (checked, rested, adjusted):
        assert refused.ephemeral and other in refused.content, refused.content
    everyone = await say(standin, "gm", "/campaign rest", kind="rest")
    assert not everyone.ephemeral and "Astrid" in everyone.content and "Nova" not in everyone.content
    assert "Bolt" not in everyone.content, everyone.content
    assert (await nova(bot, standin)).lasting == kept
    astrid = await bot.core.repo.get_character(standin.world.default_guild.id, "Astrid")
    assert astrid.lasting.get("stress", 0) == 0, astrid.lasting


@pytest.mark.parametrize(
    ("system", "stats", "key", "value", "back"),
    [
        ("factions", "health=10", "health", "0", "Health 1/10"),
        ("99-towers", "endurance=2 lethal=6", "lethal", "-4", "LETHAL −3/6"),
    ],
)
async def test_the_gm_brings_a_dead_character_back_as_the_refused_join_says(
    standin, bot, system, stats, key, value, back
):
    await say(standin, "gm", "/campaign setup", system=system)
    await say(standin, "alice", "/character add", name="Syb", stats=stats)
    await say(standin, "gm", "/campaign adjust", character="Syb", key=key, value=value)
    await say(standin, "gm", "/encounter start")
    refused = await say(standin, "alice", "/initiative join", character="Syb")
    assert refused.ephemeral and "set `dead` to no" in refused.content, refused.content
    revived = await say(standin, "gm", "/campaign adjust", character="Syb", key="dead", value="no")
    assert not revived.ephemeral and back in revived.content and "Dead" not in revived.content, revived.content
    joined = await say(standin, "alice", "/initiative join", character="Syb")
    assert not joined.ephemeral, joined.content


async def test_settings_changed_during_a_fight_take_effect_from_the_next_one_as_the_readme_says(standin, bot):
    await campaign(standin, reminder_minutes=10)
    await say(standin, "gm", "/encounter start")
    changed = await say(standin, "gm", "/campaign setup", system=KEY, reminder_minutes=0)
    assert "⛔" not in changed.content, changed.content
    _, running = await bot.core.current(standin.world.channel("combat").id)
    assert running.options["reminder_minutes"] == 10
    await end_fight(standin)
    await say(standin, "gm", "/encounter start")
    _, next_one = await bot.core.current(standin.world.channel("combat").id)
    assert next_one.options["reminder_minutes"] == 0


async def test_the_npc_library_names_the_system_of_a_stat_block_the_campaign_no_longer_plays(standin, bot):
    await campaign(standin)
    await say(standin, "gm", "/npc add", name="Zombie", stats=ZOMBIE)
    await say(standin, "gm", "/campaign setup", system="factions")
    await say(standin, "gm", "/npc add", name="Bandit", stats="str=10")
    listed = (await say(standin, "gm", "/npc list")).content
    assert "**Zombie** (Rotted Capes)" in listed, listed
    assert "Bandit** (" not in listed, listed
