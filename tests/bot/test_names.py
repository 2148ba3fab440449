"""Typed names on the Discord side: one comparison key for stored names, a right-to-left override kept
to its own name, refusals quoting names as typed, control characters and blank names refused in
options, stored characters and campaign files."""

from __future__ import annotations

import unicodedata

import pytest

from bot import lengths, render, transfer
from bot.repository import Repository, name_key
from bot.roster import Roster
from rules import registry
from rules.actions import AddCombatants
from rules.engine import apply
from rules.errors import InvalidInput
from rules.model import Actor
from rules.said import say
from rules.text import english
from rules.usertext import mark, quoted
from tests.helpers import GM

ALICE = Actor(user_id=2)
KEY = 10**18
RLO, FSI, PDI = "\u202e", "\u2068", "\u2069"


# --- stored names -----------------------------------------------------------------------------------
@pytest.fixture
async def roster(repo: Repository) -> Roster:
    await repo.save_campaign(KEY, system="rotted-capes")
    return Roster(repo)


def test_stored_names_compare_as_a_fight_does():
    assert name_key("No\u200bva") == name_key("nova") == name_key("Nova")
    assert name_key(unicodedata.normalize("NFD", "Zoë")) == name_key("ZOË")


async def test_a_look_alike_of_a_stored_name_is_the_same_name(roster: Roster, repo: Repository) -> None:
    await roster.add(KEY, ALICE, "Nova", None, "alice")
    with pytest.raises(InvalidInput, match="already have a character"):
        await roster.add(KEY, ALICE, "No\u200bva", None, "alice")
    assert [r.name for r in await repo.find_characters(KEY, "NO\u2060VA")] == ["Nova"]


@pytest.mark.parametrize("name", ["No\x00va", "Nova\x1b[31m"])
async def test_a_stored_name_with_a_control_character_is_refused(roster: Roster, repo: Repository, name) -> None:
    with pytest.raises(InvalidInput, match="control character"):
        await roster.add(KEY, ALICE, name, None, "alice")
    assert await repo.list_characters(KEY) == []


async def test_a_stored_name_that_shows_nothing_is_refused(roster: Roster, repo: Repository) -> None:
    with pytest.raises(InvalidInput, match="character that shows"):
        await roster.add(KEY, ALICE, "\u3164\u200b", None, "alice")


# --- typed options ------------------------------------------------------------------------------------
def test_an_option_with_a_control_character_is_refused():
    refused = lengths.too_long([("name", "No\x00va")])
    assert refused is not None
    assert english(refused) == "`name`: a control character (U+0000) cannot be stored."
    assert lengths.too_long([("stats", "stamina=5\x07")]) is not None
    # text of several lines may hold line breaks and tabs
    assert lengths.too_long([("notes", "slow\n\tgroaning"), ("name", "Nova")]) is None


# --- campaign files ----------------------------------------------------------------------------------
def campaign(characters=(), npcs=()) -> bytes:
    data = {"format": transfer.FORMAT, "version": 2, "system": "rotted-capes", "settings": {}, "state": {}}
    return transfer.dumps(data | {"characters": list(characters), "npcs": list(npcs)})


def character(name="Nova", **more):
    return {"name": name, "owner_id": "7", "sheet": {"stamina": 20}, "lasting": {}} | more


@pytest.mark.parametrize(
    ("file", "refusal"),
    [
        (campaign([character("No\x00va")]), "The name of a character in the file: a control character (U+0000)"),
        (campaign([character(owner_name="ali\x00ce")]), "Character Nova's owner name: a control character (U+0000)"),
        (campaign(npcs=[{"name": "Zombie", "sheet": {}, "notes": "slow\x00"}]), "NPC Zombie's notes: a control"),
        (campaign([character("\u200b\u3164")]), "The file has a character without a name."),
        (campaign([character("Nova"), character("No\u200bva")]), "twice for the same player"),
        (campaign(npcs=[{"name": "Café", "sheet": {}}, {"name": unicodedata.normalize("NFD", "Café")}]), "twice"),
    ],
    ids=["name", "owner name", "notes", "blank name", "look-alike characters", "look-alike NPCs"],
)
def test_a_campaign_file_is_checked_like_typed_names(file, refusal):
    with pytest.raises(InvalidInput) as refused:
        transfer.read(file, expected_system=None)
    assert refusal in str(refused.value)


def test_npc_notes_in_a_file_may_run_over_lines():
    read = transfer.read(
        campaign(npcs=[{"name": "Zombie", "sheet": {}, "notes": "slow\n\tgroaning"}]), expected_system=None
    )
    assert read.npcs[0]["notes"] == "slow\n\tgroaning"


# --- shown ---------------------------------------------------------------------------------------------
def test_a_right_to_left_override_stays_in_its_own_name():
    system = registry.get("rotted-capes")
    enc = system.new_encounter(1, 99)
    for name in (f"{RLO}Goblin", "Orc"):
        enc = apply(enc, AddCombatants(by=GM, name=name, sheet={"stamina": "5"}, dice=(10,))).state
    lines = "\n".join(render.tracker_lines(system, enc)[0])
    assert f"{FSI}{RLO}Goblin{PDI}" in lines and "Orc" in lines
    assert render.shown_name(f"{RLO}Goblin") == f"{FSI}{RLO}Goblin{PDI}"
    assert render.shown_name("Goblin") == "Goblin"
    said = say("{who} attacks {target}.", who=mark(f"{RLO}a*b"), target=mark("Orc"))
    assert render.clean(said) == f"{FSI}{RLO}a\\*b{PDI} attacks Orc."
    assert render.log_cell(f"{RLO}Goblin", typed=True) == f"{FSI}{RLO}Goblin{PDI}"


def test_a_refusal_shows_a_quoted_name_as_typed():
    # Discord shows a backslash in a code span as a backslash: nothing in one is escaped.
    for name in ("a__b", "[x](https://evil.example)", "<#123>", "x||y||"):
        shown = render.clean(say("There is no combatant called {name} in this encounter.", name=quoted(name)))
        assert f"`{name}`" in shown and "\\" not in shown
    # outside the code span the markup is still neutralised
    shown = render.clean(say("{name} and [x](https://evil.example)", name=quoted("a__b")))
    assert shown == "`a__b` and \\[x](https\\://evil.example)"
