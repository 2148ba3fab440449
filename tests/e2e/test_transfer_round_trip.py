"""A campaign's export imports into another campaign as it was, whatever play left in it: the state a /check
keeps, lasting lists as long as fights make them, an NPC library as large as a campaign holds. Through real
discord.py and the stand-in, from the sandbox into a second server's campaign."""

from __future__ import annotations

import json

import pytest

from bot import transfer
from tests.e2e.conftest import say, serving, with_far_keep

NOVA = "dex=2 con=1 avoidance=14 fortitude=8 stamina=20 wounds=3 attack=5 damage=2d6+3"


@pytest.fixture
async def standin():
    async with serving(with_far_keep()) as server:
        yield server


async def exported(standin, user="gm", channel=None):
    answer = await say(standin, user, "/campaign export", in_channel=channel)
    assert answer.ephemeral and answer.attachments, answer.content
    return answer.attachments[0]


async def imported_in_far_keep(standin):
    """The sandbox's export, imported into Far Keep and exported from there again."""
    original = await exported(standin)
    preview = await say(standin, "carol", "/campaign import", in_channel="far-hall", file=original)
    assert preview.buttons(), preview.content
    done = await (await standin.click("carol", "Import", message=preview)).response()
    assert "Imported" in done.content, done.content
    again = await exported(standin, "carol", "far-hall")
    return json.loads(original.data), json.loads(again.data)


async def end_fight(standin):
    question = await say(standin, "gm", "/encounter end")
    return await (await standin.click("gm", "End the encounter", message=question)).response()


async def fight(standin, system, name, stats, conditions):
    """A fight in which `name` takes each condition of `conditions` ((condition, tags) pairs) and ends it."""
    await say(standin, "gm", "/campaign setup", system=system)
    await say(standin, "alice", "/character add", name=name, stats=stats)
    await say(standin, "gm", "/encounter start")
    await say(standin, "alice", "/initiative join", character=name)
    for condition, tags in conditions:
        given = {"tags": tags} if tags else {}
        added = await say(standin, "gm", "/condition add", target=name, condition=condition, **given)
        assert not added.ephemeral, added.content
    await end_fight(standin)


@pytest.mark.parametrize(
    ("system", "stats", "check"),
    [
        ("rotted-capes", NOVA, dict(kind="challenge", dc=15, dice="3", options="dex")),
        ("99-towers", "", dict(kind="ss", dc=8)),
    ],
    ids=["Rotted Capes", "99 Towers"],
)
async def test_a_campaign_after_a_check_imports_as_it_was(standin, bot, system, stats, check):
    """A check keeps its count and offer in the campaign state (and 99 Towers its deck): the import refused
    its own export ("unknown entry `checks`", "`deck` must be a whole number")."""
    await say(standin, "gm", "/campaign setup", system=system)
    await say(standin, "alice", "/character add", name="Nova", stats=stats)
    checked = await say(standin, "alice", "/check", character="Nova", **check)
    assert not checked.ephemeral, checked.content
    original, again = await imported_in_far_keep(standin)
    assert "rng" in original["state"] and set(original["state"]) <= {"rng", "rules"} and again == original
    if system == "99-towers":
        assert len(original["state"]["rules"]["deck"]) < 52


async def test_a_hero_weakened_in_21_ways_imports_as_it_was(standin, bot):
    """Weakened on another stat or at another severity stands beside the first: 21 lasting conditions."""
    stats = ("Strength", "Dexterity", "Constitution", "Intelligence", "Wisdom", "Charisma", "Pace")
    weakened = [("Weakened", f"{stat}, {severity}") for stat in stats for severity in ("Mild", "Moderate", "Severe")]
    await fight(standin, "rotted-capes", "Nova", NOVA, weakened)
    original, again = await imported_in_far_keep(standin)
    assert len(original["characters"][0]["lasting"]["conditions"]) == 21 and again == original


async def test_21_conditions_of_99_towers_import_as_they_were(standin, bot):
    await fight(standin, "99-towers", "Nova", "", [(f"Cursed {n}", "") for n in range(21)])
    original, again = await imported_in_far_keep(standin)
    assert len(original["characters"][0]["lasting"]["conditions"]) == 21 and again == original


async def test_a_long_critical_injury_imports_as_it_was(standin, bot):
    """A fight records an injury of up to 200 characters, commas and all (/campaign adjust keeps 80)."""
    injury = ("Shattered left knee: " + "the leg buckles under any weight, " * 4).strip()
    await fight(standin, "frozen-lands", "Astrid", "body=3 agility=3 soul=2 wounds=1", [("injury", injury)])
    original, again = await imported_in_far_keep(standin)
    assert original["characters"][0]["lasting"]["injuries"] == [injury] and again == original


async def test_a_large_npc_library_imports_as_it_was(standin, bot):
    """700 templates with 500 characters of Japanese notes: 1.5 MB, which the import refused past 1 MB."""
    notes = ("ゾンビは遅いが、噛まれると感染する。" * 28)[:500]
    await say(standin, "gm", "/campaign setup", system="frozen-lands")
    added = await say(standin, "gm", "/npc add", name="Wolf 000", stats="initiative=4 damage=3", notes=notes)
    assert not added.content.startswith("⛔"), added.content
    guild = standin.world.default_guild.id
    sheet = (await bot.core.repo.list_npcs(guild))[0].sheet
    for n in range(1, 700):
        await bot.core.repo.add_npc(guild, f"Wolf {n:03d}", "frozen-lands", sheet, notes)
    original, again = await imported_in_far_keep(standin)
    assert len(original["npcs"]) == 700 and again == original
    assert 1_000_000 < len(transfer.dumps(original)) <= transfer.MAX_BYTES
