"""99 Towers between fights: LETHAL, STUN, mana spent and lasting conditions outlive the fight;
five minutes give all STUN back, eight hours without exertion 1 LETHAL."""

from __future__ import annotations

import pytest

from rules import carry
from rules.actions import AddCombatants, EndEncounter
from rules.engine import apply
from rules.errors import InvalidInput, NotAllowed
from rules.model import Actor
from rules.randomness import Chance
from rules.said import english
from rules.system import Resting
from rules.systems.towers import SYSTEM
from rules.systems.towers.actions import AddCondition, Damage, Heal
from tests.helpers import GM

ALICE = Actor(user_id=11)
SHEET = {"stun": "10", "lethal": "5", "mana": "4", "endurance": "2"}


def new():
    return SYSTEM.new_encounter(1, 7)


def join(enc, lasting=None):
    action = AddCombatants(
        by=ALICE,
        name="Tony",
        sheet=SHEET,
        npc=False,
        controller_id=ALICE.user_id,
        character_id=9,
        cards=("KH",),
        lasting=lasting,
    )
    return apply(enc, action).state


def gm(enc, action):
    return apply(enc, action).state


def resting(lasting, name="Tony"):
    return Resting(name=name, owner_id=11, sheet=SYSTEM.parse_sheet(SHEET), lasting=lasting)


def rest(kind, *characters):
    chance = Chance(3)
    out = SYSTEM.rest(kind, tuple(characters), {}, {}, chance)
    chance.finish()
    return out


def texts(out):
    return [e.text for e in out.events]


def test_lethal_stun_mana_and_conditions_carry_into_the_next_fight():
    enc = join(new())
    enc = gm(enc, Damage(by=GM, target="Tony", stun=4, lethal=2))
    enc = gm(enc, AddCondition(by=GM, target="Tony", name="cursed"))
    enc = gm(enc, AddCondition(by=GM, target="Tony", name="dazzled", phases=5))
    enc = enc.update(enc.find("Tony").id, mana=1)  # spent 3 casting
    enc = gm(enc, EndEncounter(by=GM))
    kept = SYSTEM.fit_lasting(SYSTEM.parse_sheet(SHEET), SYSTEM.lasting(enc, enc.find("Tony")))
    assert kept == {
        "lethal": 3,
        "stun": 6,
        "mana": 1,
        "conditions": [{"name": "cursed", "minor": False}],
        "dead": False,
    }
    tony = join(new(), lasting=kept).find("Tony")
    assert (tony.lethal, tony.stun, tony.mana) == (3, 6, 1)
    assert [c.name for c in tony.conditions] == ["cursed"]
    assert tony.wounded


def test_a_dead_character_cannot_join():
    with pytest.raises(NotAllowed, match="Tony is dead"):
        join(new(), lasting={"dead": True, "lethal": -4})


def test_five_minutes_give_all_stun_and_mana_back_but_no_lethal():
    out = rest("five_minutes", resting({"lethal": 3, "stun": 0, "mana": 1}))
    assert out.characters[0].lasting == {"lethal": 3, "stun": 10, "mana": 4}
    assert texts(out) == ["🛌 Five minutes out of combat:", "Tony: STUN 0 → 10/10, mana 1 → 4/4."]


def test_eight_hours_give_one_lethal_back_up_to_the_maximum():
    out = rest("eight_hours", resting({"lethal": -1, "stun": 10}), resting({}, "Fresh"))
    assert out.characters[0].lasting == {"lethal": 0, "stun": 10}
    assert texts(out)[1:] == ["Tony: LETHAL −1 → 0/5.", "Fresh has all their LETHAL (5/5)."]


def test_eight_hours_without_exertion_hold_five_minutes_out_of_combat_so_all_stun_comes_back_too():
    # "If a character is given 5 minutes outside of combat to catch his breath, he will regain all his STUN."
    # Mana comes back with it, as after five minutes (the bot's default); temporary STUN is not healing's.
    out = rest("eight_hours", resting({"lethal": 3, "stun": 0, "mana": 1, "temp_stun": 2}))
    assert out.characters[0].lasting == {"lethal": 4, "stun": 10, "mana": 4, "temp_stun": 2}
    assert texts(out)[1:] == ["Tony: STUN 0 → 10/10, mana 1 → 4/4, LETHAL 3 → 4/5."]
    out = rest("eight_hours", resting({"lethal": 5, "stun": 4}))
    assert out.characters[0].lasting == {"lethal": 5, "stun": 10}
    assert texts(out)[1:] == ["Tony: STUN 4 → 10/10."]


def test_adjustments_and_what_show_says():
    sheet = SYSTEM.parse_sheet(SHEET)
    state = SYSTEM.adjust(sheet, {}, "lethal", "0")
    state = SYSTEM.adjust(sheet, state, "conditions", "cursed, blinded (minor)")
    assert state["conditions"] == [{"name": "cursed", "minor": False}, {"name": "blinded", "minor": True}]
    with pytest.raises(InvalidInput, match="at most 5"):
        SYSTEM.adjust(sheet, state, "lethal", "6")
    assert [english(line) for line in SYSTEM.lasting_lines(sheet, state)] == [
        "LETHAL 0/5 (disabled)",
        "STUN 10/10",
        "Mana 4/4",
        "Conditions: cursed, blinded (minor)",
    ]


def test_temporary_stun_and_lethal_are_kept_until_used():
    # "If you receive temporary STUN or LETHAL, you keep them until they are used": a fight's end does
    # not use them, and "If you are at zero or lower LETHAL and gain enough temporary LETHAL to bring
    # you back above zero, you are no longer disabled or dying."
    enc = join(new())
    enc = gm(enc, Damage(by=GM, target="Tony", stun=6, lethal=6))
    enc = gm(enc, Heal(by=GM, target="Tony", amount=3, lethal=True, temporary=True))
    enc = gm(enc, Heal(by=GM, target="Tony", amount=4, temporary=True))
    enc = gm(enc, EndEncounter(by=GM))
    kept = SYSTEM.lasting(enc, enc.find("Tony"))
    assert (kept["lethal"], kept["temp_lethal"], kept["stun"], kept["temp_stun"]) == (-1, 3, 4, 4)
    tony = join(new(), lasting=kept).find("Tony")
    assert (tony.lethal, tony.temp_lethal, tony.stun, tony.temp_stun) == (-1, 3, 4, 4)
    assert not tony.dying and tony.wounded
    sheet = SYSTEM.parse_sheet(SHEET)
    assert [english(line) for line in SYSTEM.lasting_lines(sheet, kept)][:2] == [
        "LETHAL −1/5 (wounded) +3 temporary",
        "STUN 4/10 +4 temporary",
    ]
    # "Healing does not recover temporary STUN or LETHAL": a rest leaves them as they are.
    rested = rest("five_minutes", resting(kept)).characters[0].lasting
    assert (rested["stun"], rested["temp_stun"], rested["temp_lethal"]) == (10, 4, 3)
    # The GM can set them between fights, never below zero.
    assert SYSTEM.adjust(sheet, kept, "temp_lethal", "0")["temp_lethal"] == 0
    with pytest.raises(InvalidInput):
        SYSTEM.adjust(sheet, kept, "temp_stun", "-1")


def test_nothing_temporary_is_stored_when_there_is_none():
    enc = gm(join(new()), EndEncounter(by=GM))
    stored = SYSTEM.fit_lasting(SYSTEM.parse_sheet(SHEET), SYSTEM.lasting(enc, enc.find("Tony")))
    assert "temp_stun" not in stored and "temp_lethal" not in stored


def test_temporary_stun_and_lethal_used_up_in_a_fight_are_gone_after_it():
    # "If someone takes damage, they lose temporary STUN and/or temporary LETHAL first": used up in the
    # fight, they were stored again at the fight's end, the fight's "nothing left" never written.
    sheet = SYSTEM.parse_sheet(SHEET)
    stored = {"lethal": 4, "stun": 10, "mana": 4, "temp_stun": 3, "temp_lethal": 2, "conditions": [], "dead": False}
    enc = join(new(), lasting=stored)
    began = SYSTEM.lasting(enc, enc.find("Tony"))
    enc = gm(enc, Damage(by=GM, target="Tony", stun=5, lethal=3))
    enc = gm(enc, EndEncounter(by=GM))
    ended = SYSTEM.lasting(enc, enc.find("Tony"))
    # What the fight's end stores (bot.core: the stored state, what the fight changed, fitted to the sheet).
    after = SYSTEM.fit_lasting(sheet, carry.after(stored, began, ended))
    assert after == {"lethal": 3, "stun": 8, "mana": 4, "conditions": [], "dead": False}
    assert [english(line) for line in SYSTEM.lasting_lines(sheet, after)][:2] == ["LETHAL 3/5 (wounded)", "STUN 8/10"]


def test_a_dead_character_reads_dead_only_not_also_dying_or_unconscious():
    sheet = SYSTEM.parse_sheet(SHEET)  # Endurance 2: LETHAL −4 is death
    dead = SYSTEM.fit_lasting(sheet, SYSTEM.adjust(sheet, {"stun": 0}, "lethal", "-4"))
    assert [english(line) for line in SYSTEM.lasting_lines(sheet, dead)][:3] == [
        "Dead",
        "LETHAL −4/5",
        "STUN 0/10",
    ]
    # Killed in a fight: the same.
    enc = gm(join(new()), Damage(by=GM, target="Tony", stun=10, lethal=9))
    kept = SYSTEM.lasting(enc, enc.find("Tony"))
    assert [english(line) for line in SYSTEM.lasting_lines(sheet, kept)][:2] == ["Dead", "LETHAL −4/5"]


def test_dead_set_to_no_brings_the_character_back_one_lethal_above_death():
    sheet = SYSTEM.parse_sheet(SHEET)  # Endurance 2: LETHAL −4 is death
    dead = SYSTEM.fit_lasting(sheet, SYSTEM.adjust(sheet, {}, "lethal", "-4"))
    assert dead["dead"] is True
    back = SYSTEM.fit_lasting(sheet, SYSTEM.adjust(sheet, dead, "dead", "no"))
    assert back["dead"] is False and back["lethal"] == -3
    assert english(SYSTEM.lasting_lines(sheet, back)[0]) == "LETHAL −3/5 (dying)"
    join(new(), lasting=back)  # no longer refused
    # A death in a fight that left LETHAL past the threshold comes back at the same place.
    assert SYSTEM.adjust(sheet, {"lethal": -9, "dead": True}, "dead", "no")["lethal"] == -3
    assert SYSTEM.adjust(sheet, {"lethal": 2, "dead": False}, "dead", "no")["lethal"] == 2


def test_temporary_lethal_that_makes_up_the_loss_leaves_no_one_wounded_as_in_a_fight():
    stored = {"lethal": 3, "stun": 10, "mana": 4, "temp_lethal": 2, "conditions": [], "dead": False}
    tony = join(new(), lasting=stored).find("Tony")
    assert not tony.wounded
    lines = [english(line) for line in SYSTEM.lasting_lines(SYSTEM.parse_sheet(SHEET), stored)]
    assert lines[0] == "LETHAL 3/5 +2 temporary"
    stored["temp_lethal"] = 1
    assert join(new(), lasting=stored).find("Tony").wounded
    assert english(SYSTEM.lasting_lines(SYSTEM.parse_sheet(SHEET), stored)[0]) == "LETHAL 3/5 (wounded) +1 temporary"
