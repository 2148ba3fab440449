"""What a character carries between fights is stored as its sheet reads it, whatever writes either: a
sheet edited down, an adjustment that lowers a bound, an undo after an edit, a rest. A campaign's export
then passes its own import's checks (bot/transfer.py), which stay as strict as they are."""

from __future__ import annotations

import pytest

from bot import transfer
from bot.core import Core
from bot.repository import NewChange, Repository
from rules import registry
from rules.errors import InvalidInput
from rules.model import Actor
from rules.said import english
from tests.helpers import GM

KEY = 10**18
ALICE = Actor(user_id=2)
SYSTEM = registry.get("rotted-capes")


async def alices(repo: Repository, system, name: str, stats: str, lasting: dict) -> tuple[Core, int]:
    """Alice's character `name` of `system`'s campaign, carrying `lasting` as a fight's end would store it."""
    await repo.save_campaign(KEY, system=system.key)
    record = await repo.add_character(KEY, ALICE.user_id, name, system.key, system.parse_sheet(stats))
    if lasting:
        await repo.save_lasting({record.id: lasting}, NewChange(KEY, 1, "/encounter end", "fight", {}))
    return Core(repo), record.id


async def nova(repo: Repository, stats: str, lasting: dict) -> tuple[Core, int]:
    return await alices(repo, SYSTEM, "Nova", stats, lasting)


async def stored(repo: Repository, character_id: int) -> dict:
    """The stored lasting state, after checking that an import of it takes it."""
    record = await repo.character_by_id(KEY, character_id)
    return transfer._lasting(SYSTEM, record.sheet, record.lasting, record.name)


async def test_a_sheet_edited_down_between_fights_brings_down_what_it_bounds(repo: Repository) -> None:
    core, nova_id = await nova(repo, "stamina=20 wounds=3", {"stamina": 18, "wounds": 3, "plot_points": 2})
    record = await repo.character_by_id(KEY, nova_id)
    await core.roster.edit(KEY, ALICE, record, SYSTEM.parse_sheet("stamina=10 wounds=2"))
    assert await stored(repo, nova_id) == {"stamina": 10, "wounds": 2, "plot_points": 2}
    # Edited up again, she holds what she was shown holding, not what the sheet before last allowed.
    await core.roster.edit(KEY, ALICE, await repo.character_by_id(KEY, nova_id), SYSTEM.parse_sheet("stamina=20"))
    assert (await stored(repo, nova_id))["stamina"] == 10


async def test_a_flaw_adjusted_brings_the_wounds_held_down_to_the_most_it_leaves(repo: Repository) -> None:
    core, nova_id = await nova(repo, "stamina=20 wounds=3", {"wounds": 3})
    await core.between.adjust(KEY, GM, await repo.character_by_id(KEY, nova_id), "flaws", "1")
    assert await stored(repo, nova_id) == {"wounds": 2, "flaws": 1}


async def test_an_undo_after_an_edit_puts_back_what_the_sheet_now_allows(repo: Repository) -> None:
    core, nova_id = await nova(repo, "stamina=20 wounds=3", {"stamina": 20})
    await core.between.adjust(KEY, GM, await repo.character_by_id(KEY, nova_id), "stamina", "5")
    await core.roster.edit(KEY, ALICE, await repo.character_by_id(KEY, nova_id), SYSTEM.parse_sheet("stamina=10"))
    await core.between.undo(KEY, GM)
    assert (await stored(repo, nova_id))["stamina"] == 10


async def test_a_rest_stores_a_state_held_past_the_sheet_as_it_reads_it(repo: Repository) -> None:
    # As a state stored before fitting was may hold it.
    core, nova_id = await nova(repo, "stamina=20 wounds=2", {"stamina": 20, "wounds": 3})
    await core.between.rest(KEY, GM, "hiatus")
    assert (await stored(repo, nova_id))["wounds"] == 2


async def test_the_import_still_refuses_a_state_past_the_sheet(repo: Repository) -> None:
    with pytest.raises(InvalidInput, match="at most 10"):
        transfer._lasting(SYSTEM, SYSTEM.parse_sheet("stamina=10"), {"stamina": 20}, "Nova")


async def test_a_state_stored_past_its_sheet_before_this_is_exported_as_the_bot_reads_it(repo: Repository) -> None:
    core, nova_id = await nova(repo, "stamina=20 wounds=3", {})
    stale = {"stamina": 20, "wounds": 3}
    await repo.set_character_sheet(KEY, nova_id, SYSTEM.parse_sheet("stamina=10 wounds=3"), lasting=stale)
    _, data = await core.campaigns.export(KEY, GM)
    assert data["characters"][0]["lasting"] == {"stamina": 10, "wounds": 3}
    assert transfer.read(transfer.dumps(data), expected_system=None).characters[0]["lasting"]["stamina"] == 10


async def test_a_check_that_counts_past_what_the_gm_may_set_stores_it_within_that_range(repo: Repository) -> None:
    # Stress 50 is the most `/campaign adjust` sets and an import takes; a failed disengage adds one.
    frozen = registry.get("frozen-lands")
    await repo.save_campaign(KEY, system=frozen.key)
    record = await repo.add_character(KEY, ALICE.user_id, "Astrid", frozen.key, frozen.parse_sheet("soul=2"))
    await repo.save_lasting({record.id: {"stress": 50}}, NewChange(KEY, 1, "/encounter end", "fight", {}))
    core = Core(repo)
    no_success = " ".join(["4"] * 48)  # Mobility 0, and a stress die for each Stress above SOUL
    record = await repo.character_by_id(KEY, record.id)
    checked = await core.checks.check(KEY, ALICE, record, "disengage", dc=2, dice=no_success)
    assert "+1 Stress (50)" in english(checked.lines[0])  # said as it is stored
    now = await repo.character_by_id(KEY, record.id)
    assert transfer._lasting(frozen, now.sheet, now.lasting, now.name)["stress"] == 50


async def test_a_waking_time_a_rest_rolled_is_stored_as_an_import_takes_it(repo: Repository) -> None:
    words = registry.get("fightin-words")
    await repo.save_campaign(KEY, system=words.key)
    record = await repo.add_character(KEY, ALICE.user_id, "Jack", words.key, words.parse_sheet(""))
    knocked_out = {"wounds": 2, "conditions": ["unconscious"]}
    await repo.save_lasting({record.id: knocked_out}, NewChange(KEY, 1, "/encounter end", "fight", {}))
    await Core(repo).between.rest(KEY, GM, "calm_hour", dice="3 2")  # 2d4 h, one of them gone
    now = await repo.character_by_id(KEY, record.id)
    assert transfer._lasting(words, now.sheet, now.lasting, now.name)["waking_in"] == 4


async def test_a_rest_of_kept_npcs_alone_tells_the_channel_so(repo: Repository) -> None:
    await repo.save_campaign(KEY, system=SYSTEM.key)
    await repo.add_character(KEY, GM.user_id, "Dr Rot", SYSTEM.key, SYSTEM.parse_sheet("stamina=20"), npc=True)
    _, public, private = await Core(repo).between.rest(KEY, GM, "end_scene")
    assert [english(line) for line in public] == [
        "🛌 End of scene:",
        "Only NPCs the GM kept rested: what changed is the GM's to read.",
    ]
    assert private


# --- Frozen Lands: "For each Wound you suffer, roll on the physical critical injuries table" ------------
FROZEN = registry.get("frozen-lands")


async def astrid(repo: Repository, stats: str, lasting: dict) -> tuple[Core, int]:
    return await alices(repo, FROZEN, "Astrid", stats, lasting)


async def test_more_critical_injuries_than_wounds_are_refused_by_the_adjustment(repo: Repository) -> None:
    core, astrid_id = await astrid(repo, "soul=2", {})
    with pytest.raises(InvalidInput, match="one per Wound"):
        await core.between.adjust(KEY, GM, await repo.character_by_id(KEY, astrid_id), "injuries", "a, b, c")
    assert (await repo.character_by_id(KEY, astrid_id)).lasting == {}
    await core.between.adjust(KEY, GM, await repo.character_by_id(KEY, astrid_id), "wounds", "2")
    with pytest.raises(InvalidInput, match="one per Wound"):
        await core.between.adjust(KEY, GM, await repo.character_by_id(KEY, astrid_id), "injuries", "a, b, c")
    await core.between.adjust(KEY, GM, await repo.character_by_id(KEY, astrid_id), "injuries", "cracked ribs, b")
    # A Wound healed takes its critical injury with it, the newest first.
    await core.between.adjust(KEY, GM, await repo.character_by_id(KEY, astrid_id), "wounds", "1")
    assert await stored_frozen(repo, astrid_id) == {"wounds": 1, "injuries": ["cracked ribs"]}


async def test_the_wounds_a_sheet_carries_in_bound_its_injuries(repo: Repository) -> None:
    core, astrid_id = await astrid(repo, "wounds=2", {})
    await core.between.adjust(KEY, GM, await repo.character_by_id(KEY, astrid_id), "injuries", "a, b")
    # The sheet edited down to 1 Wound carried in: its newest critical injury goes with the Wound.
    record = await repo.character_by_id(KEY, astrid_id)
    await core.roster.edit(KEY, ALICE, record, FROZEN.parse_sheet("wounds=1"))
    assert await stored_frozen(repo, astrid_id) == {"injuries": ["a"]}


@pytest.mark.parametrize(
    ("stats", "lasting"),
    [("", {"injuries": ["broken arm"]}), ("wounds=3", {"wounds": 1, "injuries": ["broken arm", "lost eye"]})],
    ids=["no wound", "more than the wounds"],
)
async def test_the_import_refuses_more_critical_injuries_than_wounds(stats: str, lasting: dict) -> None:
    with pytest.raises(InvalidInput, match="one per Wound"):
        transfer._lasting(FROZEN, FROZEN.parse_sheet(stats), lasting, "Astrid")
    # The Wounds the sheet carries in count, as the fight reads them.
    assert transfer._lasting(FROZEN, FROZEN.parse_sheet("wounds=1"), {"injuries": ["broken arm"]}, "Astrid")


async def test_a_state_stored_with_more_injuries_than_wounds_is_exported_as_the_bot_reads_it(
    repo: Repository,
) -> None:
    core, astrid_id = await astrid(repo, "", {"wounds": 1, "injuries": ["a", "b", "c"]})
    _, data = await core.campaigns.export(KEY, GM)
    assert data["characters"][0]["lasting"] == {"wounds": 1, "injuries": ["a"]}
    assert transfer.read(transfer.dumps(data), expected_system=None).characters[0]["lasting"]["injuries"] == ["a"]


async def test_a_state_stored_with_more_injuries_than_wounds_takes_an_adjustment_of_another_value(
    repo: Repository,
) -> None:
    # Stored before injuries were bounded: the GM's change to another value is made, and the state fitted with it,
    # not refused for injuries the GM did not touch.
    core, astrid_id = await astrid(repo, "", {"wounds": 1, "injuries": ["a", "b", "c"]})
    await core.between.adjust(KEY, GM, await repo.character_by_id(KEY, astrid_id), "stress", "1")
    assert await stored_frozen(repo, astrid_id) == {"wounds": 1, "injuries": ["a"], "stress": 1}


async def stored_frozen(repo: Repository, character_id: int) -> dict:
    """The stored lasting state, after checking that an import of it takes it."""
    record = await repo.character_by_id(KEY, character_id)
    return transfer._lasting(FROZEN, record.sheet, record.lasting, record.name)
