"""A hero whose conditions in play have no bound (Rotted Capes' Weakened on ever new tags, 99 Towers' ever new
names) came out of the fight with more lasting conditions than a campaign file's import takes: the campaign
exported a file its own import refused. Play stops at MAX_CONDITIONS, which the import takes."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from types import SimpleNamespace

import pytest

from bot import transfer
from bot.repository import CharacterRecord
from rules import registry
from rules.actions import AddCombatants, EndEncounter
from rules.common import MAX_CONDITIONS
from rules.engine import apply
from rules.errors import InvalidInput
from rules.model import Actor
from rules.usertext import name_key
from tests.helpers import GM

ALICE = Actor(user_id=7)
# Each system's hero and the /condition add options naming its nth new condition.
SYSTEMS = {
    "rotted-capes": ("stamina=20 wounds=3", {"dice": (15,)}, lambda n: {"condition": "Weakened", "tags": f"Str, {n}"}),
    "99-towers": ("stun=10 lethal=5", {"cards": ("KH",)}, lambda n: {"condition": f"cursed {n}"}),
}


def hero(system) -> CharacterRecord:
    sheet = system.parse_sheet(SYSTEMS[system.key][0])
    return CharacterRecord(
        id=1,
        guild_id=1,
        owner_id=ALICE.user_id,
        owner_name="alice",
        name="Nova",
        name_key=name_key("Nova"),
        system=system.key,
        sheet=sheet,
        lasting={},
        created_at=datetime.now(UTC),
    )


def joined(system, record: CharacterRecord):
    _, entry, _ = SYSTEMS[system.key]
    action = AddCombatants(
        by=ALICE,
        name=record.name,
        sheet=record.sheet,
        npc=False,
        controller_id=ALICE.user_id,
        character_id=record.id,
        lasting=record.lasting,
        **entry,
    )
    return apply(system.new_encounter(1, 5), action).state


def add(system, enc, n: int):
    options = {"target": "Nova"} | SYSTEMS[system.key][2](n)
    return apply(enc, system.command("condition_add", GM, options)).state


@pytest.mark.parametrize("key", list(SYSTEMS))
def test_a_hero_given_ever_new_conditions_leaves_the_fight_with_a_file_its_import_reads(key):
    system = registry.get(key)
    record = hero(system)
    enc = joined(system, record)
    refused = 0
    for n in range(transfer.MAX_LIST + 1):
        try:
            enc = add(system, enc, n)
        except InvalidInput:
            refused += 1
    assert refused == transfer.MAX_LIST + 1 - MAX_CONDITIONS
    enc = apply(enc, EndEncounter(by=GM)).state
    record = replace(record, lasting=record.lasting | system.lasting(enc, enc.find("Nova")))
    raw = transfer.dumps(transfer.export(SimpleNamespace(system=key, settings={}, state={}), [record], []))
    imported = transfer.read(raw, expected_system=key).characters[0]["lasting"]
    assert len(imported["conditions"]) == MAX_CONDITIONS
    # the next fight starts from it, and still takes no new condition past the bound
    enc = joined(system, replace(record, lasting=imported))
    assert len(enc.find("Nova").conditions) == MAX_CONDITIONS
    with pytest.raises(InvalidInput):
        add(system, enc, transfer.MAX_LIST + 1)


def test_the_most_conditions_play_gives_a_hero_fit_a_campaign_file():
    assert MAX_CONDITIONS <= transfer.MAX_LIST
