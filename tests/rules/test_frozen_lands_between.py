"""Frozen Lands between fights: Stamina, Wounds with their critical injuries, Stress, WP and conditions
outlive the fight; resting resets Stress and brings Stamina back, Wounds stay for the GM."""

from __future__ import annotations

import pytest

from rules.actions import AddCombatants, EndEncounter, NextTurn
from rules.engine import apply
from rules.errors import InvalidInput, NotAllowed
from rules.model import Actor
from rules.randomness import Chance
from rules.said import english
from rules.system import Resting
from rules.systems.frozen_lands import SYSTEM
from rules.systems.frozen_lands.actions import AddCondition, Damage
from tests.helpers import GM

ALICE = Actor(user_id=11)
SHEET = {"body": "3", "class_stamina": "4", "soul": "2", "wp": "1", "agility": "3"}  # Stamina 7


def new():
    return SYSTEM.new_encounter(1, 7)


def join(enc, lasting=None):
    action = AddCombatants(
        by=ALICE,
        name="Sigrid",
        sheet=SHEET,
        npc=False,
        controller_id=ALICE.user_id,
        character_id=2,
        dice=(4,),
        lasting=lasting,
    )
    return apply(enc, action).state


def gm(enc, action):
    return apply(enc, action).state


def resting(lasting, name="Sigrid"):
    return Resting(name=name, owner_id=11, sheet=SYSTEM.parse_sheet(SHEET), lasting=lasting)


def rest(*characters):
    chance = Chance(3)
    out = SYSTEM.rest("rest", tuple(characters), {}, {}, chance)
    chance.finish()
    return out


def test_wounds_injuries_stress_and_conditions_carry_into_the_next_fight():
    enc = join(new())
    enc = gm(enc, AddCombatants(by=GM, name="Wolf", sheet={"stamina": "5", "initiative": "3"}))
    enc = gm(enc, NextTurn(by=GM))
    enc = gm(enc, Damage(by=GM, target="Sigrid", amount="8"))  # Stamina 7 → 0: broken
    enc = gm(enc, Damage(by=GM, target="Sigrid", amount="1"))  # a further hit: 1 Wound
    enc = gm(enc, AddCondition(by=GM, target="Sigrid", condition="injury", text="broken ribs"))
    enc = gm(enc, Damage(by=GM, target="Sigrid", amount="3", stress=True))
    enc = gm(enc, AddCondition(by=GM, target="Sigrid", condition="dazed"))
    enc = gm(enc, EndEncounter(by=GM))
    kept = SYSTEM.lasting(enc, enc.find("Sigrid"))
    assert kept == {
        "stamina": 0,
        "wounds": 1,
        "injuries": ["broken ribs"],
        "stress": 3,
        "wp": 1,
        "exhaustion": 0,
        "dazed": 1,
        "fear": 0,
        "dead": False,
    }
    sigrid = join(new(), lasting=kept).find("Sigrid")
    assert (sigrid.stamina, sigrid.wounds, sigrid.stress, sigrid.dazed) == (0, 1, 3, 1)
    assert sigrid.injuries == ("broken ribs",)
    assert sigrid.broken and sigrid.stress_dice() == 1 and sigrid.max_reactions() == 1


def test_a_dead_character_cannot_join():
    with pytest.raises(NotAllowed, match="is dead: the GM can set `dead` to no"):
        join(new(), lasting={"dead": True})


def test_resting_resets_stress_and_stamina_but_not_wounds():
    out = rest(
        resting({"stamina": 0, "wounds": 1, "injuries": ["broken ribs"], "stress": 4, "dazed": 1}), resting({}, "Fresh")
    )
    assert out.characters[0].lasting == {
        "stamina": 7,
        "wounds": 1,
        "injuries": ["broken ribs"],
        "stress": 0,
        "dazed": 1,
    }
    assert [e.text for e in out.events] == [
        "🛌 Resting:",
        "Sigrid: Stress 4 → 0, Stamina 0 → 7/7; 1 Wound remains (the GM heals Wounds).",
        "Fresh: Stress 0 → 0, Stamina 7 → 7/7.",
    ]


def test_the_gm_heals_wounds_by_hand_and_show_lists_them():
    sheet = SYSTEM.parse_sheet(SHEET)
    state = {"stamina": 7, "wounds": 2, "injuries": ["broken ribs"], "stress": 3, "wp": 1, "fear": 2}
    assert [english(line) for line in SYSTEM.lasting_lines(sheet, state)] == [
        "Stamina 7/7",
        "Wounds 2: broken ribs (1 critical injury not recorded)",
        "Stress 3 (SOUL 2; 1 stress die), WP 1",
        "Conditions: Fear 2",
    ]
    # a healed Wound takes its injury with it, the newest first
    two = SYSTEM.adjust(sheet, state | {"injuries": ["broken ribs", "lost eye"]}, "wounds", "1")
    assert two["wounds"] == 1 and two["injuries"] == ["broken ribs"]
    state = SYSTEM.adjust(sheet, state, "wounds", "0")
    assert state["wounds"] == 0 and state["injuries"] == []
    with pytest.raises(InvalidInput, match="at most 7"):
        SYSTEM.adjust(sheet, state, "stamina", "8")
    with pytest.raises(InvalidInput, match="between 0 and 3"):
        SYSTEM.adjust(sheet, state, "fear", "4")


TROLL = {"stamina": "12", "initiative": "4", "body": "2", "class_stamina": "4"}  # a character's formula: 6


def test_a_kept_enemy_carries_its_own_stamina_not_a_characters():
    enc = gm(new(), AddCombatants(by=GM, name="Troll", sheet=TROLL, character_id=5, lasting={"stamina": 10}))
    assert enc.find("Troll").stamina == 10
    assert enc.find("Troll").stamina_max == 12
    sheet = SYSTEM.parse_sheet(TROLL)
    assert SYSTEM.fit_lasting(sheet, {"stamina": 10}, npc=True) == {"stamina": 10}
    assert SYSTEM.fit_lasting(sheet, {"stamina": 10}) == {"stamina": 6}  # read as a character's sheet
    assert [english(line) for line in SYSTEM.lasting_lines(sheet, {"stamina": 10}, npc=True)] == ["Stamina 10/12"]


def test_a_kept_enemy_rests_back_to_its_own_stamina_and_the_gm_sets_it_up_to_that():
    troll = Resting(name="Troll", owner_id=1, sheet=SYSTEM.parse_sheet(TROLL), lasting={"stamina": 3}, npc=True)
    out = rest(troll)
    assert out.characters[0].lasting == {"stamina": 12}
    assert english(out.events[1].text) == "Troll: Stamina 3 → 12/12."
    sheet = SYSTEM.parse_sheet(TROLL)
    assert SYSTEM.adjust(sheet, {}, "stamina", "12", npc=True) == {"stamina": 12}
    with pytest.raises(InvalidInput, match="at most 12"):
        SYSTEM.adjust(sheet, {}, "stamina", "13", npc=True)
    with pytest.raises(InvalidInput, match="at most 6"):
        SYSTEM.adjust(sheet, {}, "stamina", "7")
