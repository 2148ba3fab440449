"""A campaign file as /campaign export writes it and /campaign import reads it (bot/transfer.py): what the
state carries to another campaign, the limits play can reach, the largest file a campaign makes, and what the
preview says an import deletes."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from types import SimpleNamespace

import pytest

from bot import transfer
from bot.repository import CharacterRecord
from rules import registry
from rules.errors import InvalidInput
from rules.text import english
from rules.usertext import name_key
from tests.rules.lasting_writes import distinct, written

ALICE, BOB = 7, 8
DECK = ["9D", "AS", "10H", "JC"]


def campaign(system="rotted-capes", characters=(), npcs=(), **sections) -> dict:
    data = {"format": transfer.FORMAT, "version": 2, "system": system, "settings": {}, "state": {}}
    return data | {"characters": list(characters), "npcs": list(npcs)} | sections


def read(data: dict) -> transfer.CampaignFile:
    return transfer.read(transfer.dumps(data), expected_system=None)


def stored(name: str, owner: int, **more) -> CharacterRecord:
    fields = dict(sheet={}, lasting={}, system="rotted-capes", owner_name=None, created_at=datetime.now(UTC))
    return CharacterRecord(id=owner, guild_id=1, owner_id=owner, name=name, name_key=name_key(name), **fields | more)


# --- the campaign state ---------------------------------------------------------------------------------
def test_an_export_carries_the_generator_and_the_rules_state_not_what_checks_keep_here():
    """A check counts itself (`checks`) and keeps what it offers next by this database's character ids
    (`offered`): an import refused both as unknown, so a campaign's export after a /check did not import."""
    state = {"rng": 5, "rules": {"deck": DECK}, "checks": 3, "offered": {"12": {"turn": 3, "offers": ["reroll"]}}}
    here = SimpleNamespace(system="99-towers", settings={}, state=state)
    data = transfer.export(here, [], [])
    assert data["state"] == {"rng": 5, "rules": {"deck": DECK}}
    assert read(data).state == {"rng": 5, "rules": {"deck": DECK}}


def test_an_export_written_with_what_checks_keep_imports_without_it():
    state = {"rng": 5, "checks": 1, "offered": {"1": {"turn": 1}}, "rules": {"pool": 2}}
    assert read(campaign(state=state)).state == {"rng": 5, "rules": {"pool": 2}}


@pytest.mark.parametrize(
    "deck",
    [["9D", "9D"], ["1X"], ["kh"], [9], "9D AS", {"9D": 1}, [*sorted(transfer.CARDS), "AS"]],
    ids=["a card twice", "no card", "not a code", "a number", "text", "an object", "53 cards"],
)
def test_a_deck_is_at_most_the_52_cards_each_once(deck):
    with pytest.raises(InvalidInput, match="`deck` is not a list of different cards"):
        read(campaign("99-towers", state={"rules": {"deck": deck}}))


def test_a_whole_deck_and_an_empty_one_are_read():
    for deck in (sorted(transfer.CARDS), []):
        assert read(campaign("99-towers", state={"rules": {"deck": deck}})).state["rules"]["deck"] == deck


# --- the lists play fills -------------------------------------------------------------------------------
def test_lasting_lists_as_long_as_play_makes_them_are_read():
    """A Rotted Capes hero Weakened on 7 stats at 3 severities (21 conditions), 21 conditions of 99 Towers,
    and a Frozen Lands injury of 156 characters recorded in a fight: each was refused as "at most 20 entries"."""
    weakened = [
        {"name": "Weakened", "tags": [stat, severity]}
        for stat in ("Strength", "Dexterity", "Constitution", "Intelligence", "Wisdom", "Charisma", "Pace")
        for severity in ("Mild", "Moderate", "Severe")
    ]
    cursed = [{"name": f"Cursed {n}", "minor": False} for n in range(21)]
    injury = ("Shattered left knee: " + "the leg buckles under any weight, " * 4).strip()
    assert len(injury) == 156
    for system, lasting in (
        ("rotted-capes", {"conditions": weakened}),
        ("99-towers", {"conditions": cursed}),
        ("frozen-lands", {"wounds": 1, "injuries": [injury]}),
    ):
        hero = {"name": "Nova", "owner_id": str(ALICE), "sheet": {}, "lasting": lasting}
        assert read(campaign(system, [hero])).characters[0]["lasting"] == lasting


@pytest.mark.parametrize(
    ("lasting", "said"),
    [
        ({"injuries": ["x"] * (transfer.MAX_LIST + 1)}, f"`injuries` holds more than {transfer.MAX_LIST} entries."),
        ({"injuries": ["x" * (transfer.MAX_ENTRY + 1)]}, f", longer than {transfer.MAX_ENTRY} characters."),
    ],
    ids=["too many", "too long"],
)
def test_a_list_past_what_play_makes_is_refused_saying_why(lasting, said):
    hero = {"name": "Astrid", "owner_id": str(ALICE), "sheet": {}, "lasting": lasting}
    with pytest.raises(InvalidInput) as refused:
        read(campaign("frozen-lands", [hero]))
    assert str(refused.value).startswith("Astrid's lasting state: `injuries`") and said in str(refused.value)


# --- what play stores -------------------------------------------------------------------------------------
@pytest.mark.parametrize("key", sorted(registry.MODULES))
def test_every_lasting_state_play_stores_imports_as_it_was_stored(key):
    """The import takes only the keys a system declares (adjustable, or a flag the GM does not set): every
    key its fights, rests, checks and adjustments write is one, or its campaigns' exports would not import."""
    system = registry.get(key)
    sheet = system.parse_sheet({})
    for state in distinct(system.fit_lasting(sheet, state) for state in written(system)):
        assert transfer._lasting(system, sheet, state, "Nova") == state


def test_a_kept_frozen_lands_enemys_own_stamina_exports_and_imports_as_stored():
    """An enemy's Stamina runs to its sheet's `stamina`, past a character's class Stamina + BODY (6 here)."""
    system = registry.get("frozen-lands")
    sheet = system.parse_sheet("initiative=4 stamina=12")
    troll = stored("Troll", ALICE, system="frozen-lands", sheet=sheet, lasting={"stamina": 10}, npc=True)
    here = SimpleNamespace(system=system.key, settings={}, state={})
    (written,) = transfer.export(here, [troll], [])["characters"]
    assert written["lasting"] == {"stamina": 10} and written["npc"] is True
    (back,) = read(campaign("frozen-lands", characters=[written | {"owner_name": None}])).characters
    assert back["lasting"] == {"stamina": 10}


def test_a_kept_factions_npcs_faction_exports_and_imports_as_stored():
    """A kept NPC comes back to the faction it fought for: the file carries it, as the system names it."""
    chief = stored("Chief", ALICE, system="factions", lasting={"health": 5, "faction": "bandits"}, npc=True)
    here = SimpleNamespace(system="factions", settings={}, state={})
    (written,) = transfer.export(here, [chief], [])["characters"]
    assert written["lasting"] == {"health": 5, "faction": "bandits"}
    (back,) = read(campaign("factions", characters=[written | {"owner_name": None}])).characters
    assert back["lasting"] == {"health": 5, "faction": "bandits"}
    spelt = {"name": "Chief", "owner_id": str(ALICE), "sheet": {}, "lasting": {"faction": "GM"}, "npc": True}
    assert read(campaign("factions", [spelt])).characters[0]["lasting"] == {"faction": "gm"}


@pytest.mark.parametrize(
    ("faction", "said"),
    [("", "A faction name is"), ("x" * 31, "A faction name is"), ("**loud**", "A faction name is"), (7, "a name")],
    ids=["empty", "too long", "markup", "a number"],
)
def test_a_faction_no_side_could_have_is_refused(faction, said):
    chief = {"name": "Chief", "owner_id": str(ALICE), "sheet": {}, "lasting": {"faction": faction}, "npc": True}
    with pytest.raises(InvalidInput) as refused:
        read(campaign("factions", [chief]))
    assert str(refused.value).startswith("Chief's lasting state:") and said in str(refused.value)


@pytest.mark.parametrize(
    ("side", "taken"), [("heroes", "heroes"), ("Threats", "threats"), ("bandits", None), (3, None)]
)
def test_a_kept_npcs_side_imports_only_as_one_of_the_systems_sides(side, taken):
    shade = {"name": "Shade", "owner_id": str(ALICE), "sheet": {}, "lasting": {"side": side}, "npc": True}
    if taken is None:
        with pytest.raises(InvalidInput, match="Shade's lasting state:"):
            read(campaign("rotted-capes", [shade]))
    else:
        assert read(campaign("rotted-capes", [shade])).characters[0]["lasting"] == {"side": taken}


# --- the largest campaign ---------------------------------------------------------------------------------
def test_the_largest_npc_library_exports_a_file_its_import_reads():
    """1000 templates (the most a file holds) with names and notes as long as they may be, in characters of
    4 bytes: some 2.6 MB, which the import refused past 1 MB as "not a Turnkeeper campaign"."""
    system = registry.get("frozen-lands")
    sheet = system.parse_sheet("initiative=4 damage=3")
    npcs = [
        SimpleNamespace(name=f"{n:04d}" + "🐺" * 56, name_key=f"{n:04d}", sheet=sheet, notes="🐺" * transfer.MAX_NOTES)
        for n in range(transfer.MAX_ITEMS)
    ]
    here = SimpleNamespace(system=system.key, settings={}, state={})
    raw = transfer.dumps(transfer.export(here, [], npcs))
    assert len(raw) > 2_000_000 and b"\n" not in raw  # compact: no indentation
    assert len(transfer.read(raw, expected_system=None).npcs) == transfer.MAX_ITEMS


def test_an_export_reads_back_as_it_was_written():
    data = campaign(state={"rng": 3}, npcs=[{"name": "Zombie", "sheet": {"stamina": 8}, "notes": "slow"}])
    assert json.loads(transfer.dumps(data)) == data


# --- the preview ----------------------------------------------------------------------------------------------
def test_the_preview_names_another_players_character_of_the_same_name_it_deletes():
    """Two players' Max: a file with alice's alone deletes bob's, which the preview, comparing names, did not say."""
    maxes = [stored("Max", ALICE, owner_name="alice"), stored("Max", BOB, owner_name="bob")]
    incoming = read(campaign(characters=[{"name": "Max", "owner_id": str(ALICE), "sheet": {}}]))
    shown = english(transfer.preview(incoming, SimpleNamespace(system="rotted-capes"), maxes, []))
    assert "Characters not in the file are deleted: Max (bob)." in shown


def test_the_preview_counts_the_deleted_characters_it_does_not_name():
    gone = [stored(f"Hero {n:02d}", ALICE) for n in range(transfer.SHOWN + 5)]
    shown = english(transfer.preview(read(campaign()), SimpleNamespace(system="rotted-capes"), gone, []))
    assert f"Hero {transfer.SHOWN - 1:02d} and 5 more." in shown and f"Hero {transfer.SHOWN:02d}" not in shown
