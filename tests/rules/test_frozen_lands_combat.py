"""Frozen Lands: attacks, ranged modifiers, defense, Stamina and Wounds."""

from __future__ import annotations

import json

import pytest

from rules.actions import Choose
from rules.errors import InvalidInput, NotAllowed
from rules.said import english
from rules.systems.frozen_lands import weapons
from rules.systems.frozen_lands.combat import ranged_modifiers
from tests.helpers import answer_by_key
from tests.rules.test_frozen_lands_support import ASTRID, BJORN, GM, act, choose, end_turn, fl, get, outcome, party

SHORT_BOW = weapons.find("Short Bow")
LONG_BOW = weapons.find("Long Bow")


def test_weapon_tables_are_built_in():
    assert (SHORT_BOW.bonus, SHORT_BOW.damage, SHORT_BOW.reach) == (2, 1, "medium")
    assert SHORT_BOW.has("Reload") and SHORT_BOW.has("Two-handed")
    two_hander = weapons.find("two-handed sword")
    assert (two_hander.bonus, two_hander.damage, two_hander.features) == (2, 3, ("Heavy", "Two-handed", "Parrying"))
    assert weapons.find("Unarmed").bonus == 0 and weapons.find("Flail").reach == "short"
    assert weapons.find("dagger", thrown=True).name == "Knife/Dagger"
    assert weapons.find("Heavy Crossbow").features == ("Reload", "Two-handed", "Heavy")
    assert len(weapons.MELEE) == 25 and len(weapons.RANGED) == 9
    with pytest.raises(InvalidInput, match="cannot be thrown"):
        weapons.find("Broadsword", thrown=True)


@pytest.mark.parametrize(
    "weapon, range_name, aimed, size, light, expected",
    [
        (LONG_BOW, "close", False, 0, None, [("close range", -3)]),
        (LONG_BOW, "short", False, 0, None, []),
        (LONG_BOW, "medium", False, 0, None, [("medium range", -1)]),
        (LONG_BOW, "long", False, 0, None, [("long range", -2)]),
        (LONG_BOW, "short", True, 0, None, [("Aim", 2)]),
        (LONG_BOW, "long", True, 0, None, [("long range", -2), ("Aim", 2)]),
        (LONG_BOW, "distant", True, 0, None, [("distant range with Aim", -3)]),
        (SHORT_BOW, "long", True, 0, None, [("long range with Aim", -3)]),
        (LONG_BOW, "short", False, 1, None, [("large target", 1)]),
        (LONG_BOW, "short", False, 2, None, [("large target", 2)]),
        (LONG_BOW, "short", False, -1, None, [("small target", -1)]),
        (LONG_BOW, "short", False, -2, None, [("small target", -2)]),
        (LONG_BOW, "short", False, 0, "dim", [("dim light", -1)]),
        (LONG_BOW, "short", False, 0, "dark", [("darkness", -3)]),
    ],
)
def test_ranged_modifiers_table(weapon, range_name, aimed, size, light, expected):
    parts = ranged_modifiers(weapon, range_name, aimed=aimed, size=size, light=light)
    assert [(english(label), n) for label, n in parts] == expected


def test_a_shot_beyond_the_weapons_range_needs_aim_and_two_categories_are_out_of_reach():
    with pytest.raises(NotAllowed, match="needs an Aim action"):
        ranged_modifiers(LONG_BOW, "distant", aimed=False)
    with pytest.raises(NotAllowed, match="out of reach"):
        ranged_modifiers(SHORT_BOW, "distant", aimed=True)


def test_a_distant_shot_is_refused_without_aim_and_taken_with_it():
    s = party(astrid={"ranged": "Long Bow", "loaded": True})
    with pytest.raises(NotAllowed, match="distant shot is beyond a Long Bow's long range"):
        act(s, fl.Attack(by=ASTRID, target="Wolf", ranged=True, range="distant", dice=(6,)))
    s = act(s, fl.Aim(by=ASTRID))
    # Marksmanship 3 + Long Bow 2 − 3 = 2 dice: one six, 1 + 1 damage − defense 1 = 1
    o = outcome(s, fl.Attack(by=ASTRID, target="Wolf", ranged=True, range="distant", dice=(6, 2)))
    assert o.events[0].text == (
        "Astrid shoots Wolf with Long Bow: Marksmanship 3 + Long Bow 2 − distant range with Aim 3 = 2d6 (6, 2) "
        "→ 1 success; hit: 1 + Long Bow damage 1 = 2 − defense 1 = 1; 1 damage → Stamina 5/6"
    )
    astrid = get(o.state, "Astrid")
    assert not astrid.aimed and not astrid.loaded


def test_size_from_the_enemy_stat_block_and_a_dimly_lit_zone_change_the_pool():
    s = party(astrid={"loaded": True})
    s = act(s, fl.SetZone(by=GM, name="Cave", features=("dim",)))
    s = act(s, fl.Place(by=GM, target="Astrid", zone="Cave"))
    o = outcome(s, fl.Attack(by=ASTRID, target="Wolf", ranged=True, range="medium", size=2, dice=(1, 1, 1, 1)))
    assert o.events[0].text.startswith(
        "Astrid shoots Wolf with Short Bow: Marksmanship 3 + Short Bow 2 − medium range 1 + large target 2 "
        "− dimly lit zone 2 = 4d6 (1, 1, 1, 1) → 0 successes"
    )


def test_melee_damage_is_successes_plus_weapon_damage_minus_defense():
    s = party()
    o = outcome(s, fl.Attack(by=ASTRID, target="Bandit", dice=(6, 6, 6, 3)))
    assert o.events[0].text.endswith("hit: 3 + Shortsword damage 1 = 4; 4 damage → Stamina 0/4: defeated")
    assert get(o.state, "Bandit").out
    o = outcome(s, fl.Attack(by=ASTRID, target="Wolf", dice=(5, 4, 3, 2)))
    assert o.events[0].text.endswith("no success: miss.") and get(o.state, "Wolf").stamina == 6


def test_ranged_and_reach_rules():
    s = party()
    with pytest.raises(NotAllowed, match="only reaches close"):
        act(s, fl.Attack(by=ASTRID, target="Wolf", range="short", weapon="Shortsword", dice=(1,) * 4))
    s2 = act(s, fl.Attack(by=ASTRID, target="Wolf", range="short", weapon="Flail", dice=(1,) * 3))
    assert get(s2, "Astrid").actions_left == 2
    with pytest.raises(NotAllowed, match="not loaded"):
        act(s, fl.Attack(by=ASTRID, target="Wolf", ranged=True, dice=(1,) * 5))
    # a thrown dagger: Marksmanship 3 + Knife/Dagger 1 at short range
    s3 = act(s, fl.Attack(by=ASTRID, target="Wolf", weapon="Dagger", thrown=True, dice=(6, 6, 1, 1)))
    assert get(s3, "Wolf").stamina == 4  # 6 − (2 successes + 1 − defense 1)


def test_bows_must_be_reloaded_each_turn_crossbows_stay_loaded():
    s = party()
    s = act(s, fl.Reload(by=ASTRID))
    with pytest.raises(NotAllowed, match="already loaded"):
        act(s, fl.Reload(by=ASTRID))
    s = end_turn(s)
    assert not get(s, "Astrid").loaded
    s = party(astrid={"ranged": "Light Crossbow"})
    s = act(s, fl.Reload(by=ASTRID))
    s = end_turn(s)
    assert get(s, "Astrid").loaded


def test_dual_wielding_splits_the_melee_pool():
    s = party(astrid={"weapon": "Shortsword", "offhand": "Dagger", "melee": 3})
    # first attack: 2 of the 3 Melee dice + Shortsword 2 = 4 dice
    s = act(s, fl.Attack(by=ASTRID, target="Wolf", split=2, dice=(6, 1, 1, 1)))
    assert get(s, "Wolf").stamina == 5  # 1 + 1 − 1
    # second attack with the dagger: the remaining 1 die + Dagger 1 = 2 dice
    o = outcome(s, fl.Attack(by=ASTRID, target="Wolf", weapon="Dagger", dice=(6, 6)))
    assert "Melee (rest of the split) 1 + Dagger 1 = 2d6 (6, 6)" in o.events[0].text
    assert get(o.state, "Wolf").stamina == 3 and get(o.state, "Astrid").actions_left == 1
    with pytest.raises(NotAllowed, match="already used attack"):
        act(o.state, fl.Attack(by=ASTRID, target="Wolf", weapon="Shortsword", dice=(1, 1)))
    # no light weapon in the pair: no second attack
    s = party(astrid={"weapon": "Shortsword", "offhand": "Mace"})
    s = act(s, fl.Attack(by=ASTRID, target="Wolf", split=1, dice=(1, 1, 1)))
    with pytest.raises(NotAllowed, match="already used attack"):
        act(s, fl.Attack(by=ASTRID, target="Wolf", weapon="Mace", dice=(1, 1, 1)))


def test_heavy_weapons_cannot_be_used_in_a_cramped_zone():
    s = party(astrid={"weapon": "Longsword"})
    s = act(s, fl.SetZone(by=GM, name="Tunnel", features=("cramped",)))
    s = act(s, fl.Place(by=GM, target="Astrid", zone="Tunnel"))
    with pytest.raises(NotAllowed, match="cramped"):
        act(s, fl.Attack(by=ASTRID, target="Wolf", dice=(1,) * 4))


def test_a_melee_attack_needs_the_same_zone():
    """Seed 004: "To attack in Melee the character must be in the same zone as the enemy." """
    s = party()
    s = act(s, fl.SetZone(by=GM, name="Hall"))
    s = act(s, fl.SetZone(by=GM, name="Cellar"))
    s = act(s, fl.Place(by=GM, target="Astrid", zone="Hall"))
    s = act(s, fl.Place(by=GM, target="Wolf", zone="Cellar"))
    with pytest.raises(NotAllowed, match="Astrid is in Hall and Wolf in Cellar: a melee attack needs the same zone"):
        act(s, fl.Attack(by=ASTRID, target="Wolf", dice=(6, 6, 6, 6)))
    with pytest.raises(NotAllowed, match="same zone"):
        act(s, fl.Attack(by=ASTRID, target="Wolf", range="short", weapon="Flail", dice=(6, 6, 6)))
    # a shot still crosses zones
    shot = act(s, fl.Attack(by=ASTRID, target="Wolf", weapon="Dagger", thrown=True, dice=(1, 1, 1, 1)))
    assert get(shot, "Astrid").actions_left == 2
    s = act(s, fl.Place(by=GM, target="Wolf", zone="Hall"))
    s = act(s, fl.Attack(by=ASTRID, target="Wolf", dice=(6, 6, 6, 6)))
    assert get(s, "Wolf").stamina == 2  # 4 successes + 1 − defense 1 = 4


def test_without_zones_a_melee_attack_is_not_checked_for_them():
    s = party()
    s = act(s, fl.Place(by=GM, target="Astrid", zone="Hall"))  # the Wolf's zone is not known
    s = act(s, fl.Attack(by=ASTRID, target="Wolf", dice=(6, 6, 6, 6)))
    assert get(s, "Wolf").stamina == 2


def test_enemy_attack_dodge_reduces_damage_then_armour():
    s = end_turn(party())  # the Wolf
    o = outcome(s, fl.Attack(by=GM, target="Astrid"))
    assert tuple(map(english, o.state.pending.labels)) == ("Dodge", "Block", "No reaction")  # a Shortsword parries
    assert o.events[-1].ping == (10,)
    s = choose(o.state, "Dodge", 6, 1, by=ASTRID)  # Mobility 2: one success
    assert get(s, "Astrid").stamina == 6  # 3 − 1 − armour 1 = 1
    s = act(s, fl.Attack(by=GM, target="Astrid"))
    s = choose(s, "No reaction", by=ASTRID)
    assert get(s, "Astrid").stamina == 4 and get(s, "Astrid").reactions_left == 1


def test_a_defense_is_answered_by_its_key_whatever_its_label_reads():
    s = act(end_turn(party()), fl.Attack(by=GM, target="Astrid"))  # the Wolf's attack
    assert s.pending.keys == ("dodge", "block", "none") and s.pending.default == "none"
    o = answer_by_key(s, "block", by=ASTRID)
    assert "Block: " in o.events[-1].text and get(o.state, "Astrid").reactions_left == 1


def test_a_defense_asked_before_options_had_keys_is_answered_as_the_same_reaction():
    s = act(end_turn(party()), fl.Attack(by=GM, target="Astrid"))
    data = s.model_dump(mode="json")
    labels = [english(label) for label in s.pending.labels]
    data["pending"] |= {"options": labels, "default": english(s.pending.option("none").label)}
    del data["pending"]["former_signature"]
    stored = type(s).model_validate_json(json.dumps(data))
    assert stored.pending.keys == ("dodge", "block", "none") and stored.pending.default == "none"
    o = outcome(stored, Choose(by=ASTRID, pending_id=stored.pending.id, index=1, signature=stored.pending.signature))
    assert "Block: " in o.events[-1].text and get(o.state, "Astrid").reactions_left == 1


def test_block_needs_a_shield_or_a_parrying_weapon():
    s = end_turn(party(astrid={"weapon": "Mace"}))
    s = act(s, fl.Attack(by=GM, target="Astrid"))
    assert tuple(map(english, s.pending.labels)) == ("Dodge", "No reaction")


def test_stamina_zero_breaks_and_each_further_hit_is_a_wound_with_the_gms_injury():
    s = end_turn(party())
    s = act(s, fl.Attack(by=GM, target="Astrid", damage=10))
    o = outcome(s, Choose(by=ASTRID, pending_id=s.pending.id, option="No reaction"))
    assert o.events[-1].text.endswith(
        "armour 1: 10 − 1 = 9; 9 damage → Stamina 0/7: broken (cannot act until healed; every further hit is a Wound)"
    )
    s = o.state
    astrid = get(s, "Astrid")
    assert astrid.broken and astrid.wounds == 0
    o = outcome(s, fl.Attack(by=GM, target="Astrid", damage=3))  # broken: no reaction offered
    s = o.state
    assert s.pending is None and get(s, "Astrid").wounds == 1
    assert "already broken: 1 Wound (Wounds 1)" in o.events[0].text and o.events[0].ping == (1,)
    s = act(s, fl.AddCondition(by=GM, target="Astrid", condition="injury", text="broken ribs"))
    assert get(s, "Astrid").injuries == ("broken ribs",)
    with pytest.raises(NotAllowed, match="no Wound waiting"):
        act(s, fl.AddCondition(by=GM, target="Astrid", condition="injury", text="more"))
    s = act(s, fl.Attack(by=GM, target="Astrid", damage=1))  # armour stops it all: no wound
    assert get(s, "Astrid").wounds == 1
    # a broken character is skipped on the track
    s = end_turn(s)  # Bjorn
    s = end_turn(s)  # Bandit
    s = end_turn(s)
    assert s.round == 2 and get(s, "Astrid").id not in s.turns.acting


def test_gm_damage_heal_and_rest():
    s = party(astrid={"stress": 4})
    s = act(s, fl.Damage(by=GM, target="Astrid", amount="4"))
    assert get(s, "Astrid").stamina == 4  # 4 − armour 1
    s = act(s, fl.Damage(by=GM, target="Astrid", amount="1d6", direct=True, dice=(2,)))
    assert get(s, "Astrid").stamina == 2
    s = act(s, fl.Damage(by=GM, target="Astrid", amount="2", stress=True))
    assert get(s, "Astrid").stress == 6
    s = act(s, fl.Heal(by=GM, target="Astrid", amount=10, rest=True))
    assert get(s, "Astrid").stamina == 7 and get(s, "Astrid").stress == 0
    with pytest.raises(NotAllowed, match="Only the GM"):
        act(s, fl.Damage(by=ASTRID, target="Astrid", amount="1"))


def test_bjorns_block_with_a_shield():
    s = end_turn(party())
    s = act(s, fl.Attack(by=GM, target="Bjorn", damage=6))
    s = choose(s, "Block", 6, 6, 1, by=BJORN)  # Melee 3: two successes
    assert get(s, "Bjorn").stamina == 7  # 6 − 2 − armour 2 = 2


def test_the_defense_prompt_says_how_many_dice_each_reaction_rolls():
    s = end_turn(party(astrid={"stress": 3}))
    s = act(s, fl.Attack(by=GM, target="Astrid"))
    assert english(s.pending.prompt) == (
        "Wolf hits Astrid for 3: spend a reaction (2 left) on a defense roll? "
        "Dodge rolls Mobility (2 dice), Block rolls Melee (2 dice) (+ 1 stress die)."
    )
    s = choose(s, "Dodge", 6, 6, 1, by=ASTRID)  # the stress die last: a 1 on AGILITY's Mobility
    astrid = get(s, "Astrid")
    assert astrid.stamina == 7 and astrid.exhaustion == 1  # 3 − 2 − armour 1 = 0: no damage
