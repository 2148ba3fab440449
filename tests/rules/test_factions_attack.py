"""Attacks: automatic hits, WIT saves to hit, armour, grit, critical damage, death blows."""

from __future__ import annotations

import pytest

from rules.engine import apply
from rules.errors import DiceError, InvalidInput, NotYourTurn
from rules.systems.factions import SYSTEM
from rules.systems.factions.actions import ApplyDamage, BonusAction, Heal, MainAction, Move
from tests.rules.test_factions_helpers import (
    BALTHASAR,
    GM,
    SYBILLA,
    THEOBALD,
    THEOBALD_ID,
    add,
    attack,
    choose,
    end,
    give_turn,
    mark_acted,
    options,
    pass_move,
    player,
    seed_cast,
    start,
    take,
    texts,
)


def everyone_acted(enc, but):
    """Nobody left to react or guard: each attack resolves at once."""
    return mark_acted(enc, *[c.name for c in enc.combatants if c.name != but])


def test_balthasars_sword_incapacitates_a_bandit_and_sybilla_delivers_the_death_blow():
    enc = start(seed_cast()).state
    enc = end(take(enc, "Bandit 1").state).state  # the bandit has acted: he cannot react
    enc = take(enc, "Balthasar", by=BALTHASAR).state
    enc = mark_acted(enc, "Bandit Leader", "Bandit 2", "Bandit 3")  # and nobody guards him
    out = attack(enc, BALTHASAR, "Bandit 1", "sword", dice=(4,))
    bandit = out.state.find("Bandit 1")
    assert (bandit.health, bandit.incapacitated, bandit.dead) == (4, True, False)
    assert "Bandit 1: 4 damage; health 8 → 4; critical damage: incapacitated." in texts(out)
    assert out.state.find("Balthasar").mains == 1

    enc = end(out.state, by=BALTHASAR).state
    enc = take(enc, "Sybilla", by=SYBILLA).state
    out = attack(enc, SYBILLA, "Bandit 1", "dagger", death_blow=True)
    bandit = out.state.find("Bandit 1")
    assert bandit.dead and bandit.out and bandit.health == 0
    assert "death blow kills" in texts(out)[0]


def test_a_death_blow_needs_an_incapacitated_nearby_target():
    enc = everyone_acted(give_turn(start(seed_cast()).state, "Sybilla"), "Sybilla")
    with pytest.raises(InvalidInput):
        attack(enc, SYBILLA, "Bandit 1", "dagger", death_blow=True)
    enc = enc.update(enc.find("Bandit 1").id, incapacitated=True)
    with pytest.raises(InvalidInput):
        attack(enc, SYBILLA, "Bandit 1", "dagger", death_blow=True, zones=1)


def test_an_ally_may_guard_against_a_death_blow_and_take_the_blow_instead():
    # Seed: a death blow is delivered in an attack ("Sybilla later attacks the same bandit with a dagger.
    # Since he is nearby and incapacitated, she slits his throats"), and "A character who is nearby the
    # target of an attack can react by guarding them. They become the new target of the attack."
    enc = give_turn(start(seed_cast()).state, "Sybilla")
    enc = mark_acted(enc.update(enc.find("Bandit 1").id, incapacitated=True, health=4), "Bandit 2", "Bandit 3")
    out = attack(enc, SYBILLA, "Bandit 1", "dagger", death_blow=True, dice=(3,))
    assert options(out.state.pending) == ("No reaction", "Guard: Bandit Leader")
    guarded = choose(out.state, "Guard: Bandit Leader")
    lines = texts(guarded)
    assert "Bandit Leader guards Bandit 1 and becomes the target." in lines
    assert "Sybilla → Bandit Leader: d4 3." in lines
    assert guarded.state.find("Bandit Leader").health == 7 and not guarded.state.find("Bandit 1").dead
    assert guarded.state.find("Bandit Leader").id in guarded.state.turns.acted
    unguarded = choose(out.state, "No reaction")
    assert unguarded.state.find("Bandit 1").dead and unguarded.state.find("Bandit 1").out
    assert "Nobody guards Bandit 1: the death blow kills them." in texts(unguarded)
    assert "Sybilla's damage die 3 is not used: a death blow rolls no damage." in texts(unguarded)


def test_the_bow_at_five_zones_needs_a_wit_save_5_passes_20_misses():
    enc = start(seed_cast()).state
    enc = everyone_acted(give_turn(enc, "Bandit 2"), "Bandit 2")
    out = attack(enc, GM, "Balthasar", "bow", dice=(5, 4), zones=5)
    lines = texts(out)
    assert lines[0].endswith("Bandit 2 WIT save to hit (beyond half range): d20 5 vs WIT 10 → pass.")
    assert "Bandit 2 → Balthasar: d6 4." in lines
    balthasar = out.state.find("Balthasar")
    assert (balthasar.grit, balthasar.health, balthasar.incapacitated) == (0, 11, True)

    out = attack(enc, GM, "Balthasar", "bow", dice=(20,), zones=5)
    assert "natural 20: fail" in texts(out)[0] and "Bandit 2 misses." in texts(out)
    assert out.state.find("Balthasar") == enc.find("Balthasar")


def test_within_half_range_the_bow_hits_without_a_save():
    enc = everyone_acted(give_turn(start(seed_cast()).state, "Bandit 2"), "Bandit 2")
    out = attack(enc, GM, "Balthasar", "bow", dice=(2,), zones=4)
    assert out.state.find("Balthasar").grit == 1
    with pytest.raises(DiceError):  # a save is not rolled, so a second die is refused
        attack(enc, GM, "Balthasar", "bow", dice=(2, 3), zones=4)


def test_ranged_limits_beyond_range_unseen_and_moving():
    enc = everyone_acted(give_turn(start(seed_cast()).state, "Bandit 2"), "Bandit 2")
    with pytest.raises(InvalidInput, match="beyond"):
        attack(enc, GM, "Balthasar", "bow", zones=9)
    with pytest.raises(InvalidInput, match="cannot be seen"):
        attack(enc, GM, "Balthasar", "bow", zones=2, unseen=True)
    with pytest.raises(InvalidInput, match="half range"):
        attack(enc, GM, "Balthasar", "bow", zones=5, moving=True)
    out = attack(enc, GM, "Balthasar", "bow", zones=2, moving=True, dice=(3, 1))
    assert "while moving" in texts(out)[0]
    with pytest.raises(InvalidInput, match="nearby"):
        attack(enc, GM, "Balthasar", "axe", zones=1)


def test_theobald_in_complete_darkness_rolls_20_and_misses():
    enc = everyone_acted(give_turn(start(seed_cast()).state, "Theobald"), "Theobald")
    out = attack(enc, THEOBALD, "Bandit 1", "sword", dice=(20,), unseen=True)
    assert "(target unseen): d20 20 vs WIT 10 → natural 20: fail" in texts(out)[0]
    assert out.state.find("Bandit 1").health == 8


def test_armour_cover_and_grit_reduce_damage_in_that_order():
    enc = everyone_acted(give_turn(start(seed_cast()).state, "Bandit 1"), "Bandit 1")
    out = attack(enc, GM, "Theobald", "axe", dice=(6,), cover=True)
    theobald = out.state.find("Theobald")
    assert (theobald.grit, theobald.health) == (0, 12)  # 6 − armour 3 (2 + cover) = 3, all soaked by grit
    assert "Theobald: 6 damage; − armour 3 (cover) = 3; grit soaks 3 (grit 0/3)." in texts(out)


def test_armour_with_cover_never_exceeds_3():
    enc = everyone_acted(give_turn(start(seed_cast()).state, "Bandit 1"), "Bandit 1")
    enc = enc.update(enc.find("Theobald").id, armour=3, grit=0)
    out = attack(enc, GM, "Theobald", "axe", dice=(5,), cover=True)
    assert out.state.find("Theobald").health == 10


def test_health_zero_is_death_and_impaired_or_unarmed_attacks_roll_d4():
    enc = everyone_acted(give_turn(start(seed_cast()).state, "Bandit 1"), "Bandit 1")
    enc = enc.update(enc.find("Sybilla").id, grit=0, health=3)
    with pytest.raises(DiceError):
        attack(enc, GM, "Sybilla", "axe", dice=(5,), impaired=True)  # 5 cannot come from a d4
    out = attack(enc, GM, "Sybilla", "axe", dice=(4,), impaired=True)
    sybilla = out.state.find("Sybilla")
    assert sybilla.dead and sybilla.out and sybilla.health == 0
    out = attack(enc, GM, "Sybilla", "unarmed", dice=(2,))
    assert out.state.find("Sybilla").health == 1


def test_enhanced_damage_rolls_d12():
    enc = everyone_acted(give_turn(start(seed_cast()).state, "Bandit 1"), "Bandit 1")
    out = attack(enc, GM, "Balthasar", "axe", dice=(11,), enhanced=True)
    assert "d12 11" in " ".join(texts(out))
    assert out.state.find("Balthasar").health == 4


def test_critical_damage_can_be_resisted_with_a_str_save_as_a_campaign_option():
    enc = start(seed_cast(critical_str_save=True)).state
    enc = everyone_acted(give_turn(enc, "Balthasar"), "Balthasar")
    out = attack(enc, GM, "Bandit 1", "sword", dice=(4, 7))  # the GM rolls the bandit's save
    bandit = out.state.find("Bandit 1")
    assert bandit.health == 4 and not bandit.incapacitated
    assert "critical damage resisted" in texts(out)[-1]
    out = attack(enc, GM, "Bandit 1", "sword", dice=(4, 15))
    assert out.state.find("Bandit 1").incapacitated
    # Balthasar's player enters the sword's damage, not the bandit's save.
    with pytest.raises(DiceError, match="not needed"):
        attack(enc, BALTHASAR, "Bandit 1", "sword", dice=(4, 7))
    assert (
        "Bandit 1 STR save against critical damage" in texts(attack(enc, BALTHASAR, "Bandit 1", "sword", dice=(4,)))[-1]
    )


def test_one_main_action_a_turn_and_half_a_move_with_it():
    enc = everyone_acted(give_turn(start(seed_cast()).state, "Balthasar"), "Balthasar")
    enc = apply(enc, Move(by=BALTHASAR, zones=1)).state
    enc = attack(enc, BALTHASAR, "Bandit 1", "sword", dice=(1,)).state
    with pytest.raises(InvalidInput, match="main action"):
        attack(enc, BALTHASAR, "Bandit 2", "sword", dice=(1,))
    with pytest.raises(InvalidInput, match="more zone"):
        apply(enc, Move(by=BALTHASAR, zones=1))
    fresh = everyone_acted(give_turn(start(seed_cast()).state, "Balthasar"), "Balthasar")
    moved = apply(fresh, Move(by=BALTHASAR, zones=2)).state
    with pytest.raises(InvalidInput, match="full speed"):
        apply(moved, MainAction(by=BALTHASAR, text="intimidates"))
    sprint = apply(fresh, Move(by=BALTHASAR, zones=2, sprint=True)).state
    assert apply(sprint, MainAction(by=BALTHASAR, text="taunts")).state.find("Balthasar").mains == 1


def test_a_second_bonus_action_takes_the_place_of_the_main_action_and_the_refusal_says_so():
    # Seed: "a bonus action and a main action (or a second bonus action)": no main action was taken,
    # so the refusal does not say one was.
    enc = everyone_acted(give_turn(start(seed_cast()).state, "Balthasar"), "Balthasar")
    enc = apply(enc, BonusAction(by=BALTHASAR, text="draws a knife")).state
    enc = apply(enc, BonusAction(by=BALTHASAR, text="opens the door")).state
    with pytest.raises(InvalidInput) as refused:
        attack(enc, BALTHASAR, "Bandit 1", "sword", dice=(1,))
    assert str(refused.value) == (
        "Balthasar took two bonus actions this turn: the second took the place of the main action."
    )


def test_only_the_acting_character_attacks():
    enc = start(seed_cast()).state
    enc = take(enc, "Bandit 1").state
    with pytest.raises(NotYourTurn):
        attack(enc, GM.model_copy(), "Balthasar", actor="Bandit 2")


def test_gm_damage_direct_skips_armour_and_grit_and_heal_restores():
    enc = start(seed_cast()).state
    out = apply(enc, ApplyDamage(by=GM, target="Theobald", amount="d4", direct=True, dice=(3,)))
    theobald = out.state.find("Theobald")
    assert (theobald.grit, theobald.health, theobald.incapacitated) == (3, 9, True)
    healed = apply(out.state, Heal(by=GM, target="Theobald", amount="5")).state.find("Theobald")
    assert healed.health == 12


def test_surrendering_characters_fight_on_when_harmed():
    enc = everyone_acted(give_turn(start(seed_cast()).state, "Balthasar"), "Balthasar")
    enc = enc.update(enc.find("Bandit 1").id, surrendered=True)
    out = attack(enc, BALTHASAR, "Bandit 1", "sword", dice=(2,))
    assert not out.state.find("Bandit 1").surrendered


def test_a_surrendering_character_hit_by_an_allys_blast_stays_surrendered():
    # "Surrendering characters who are harmed by the enemy can resume fighting normally": an ally's firebomb
    # landing on their zone harms them, but it is no enemy's.
    enc = add(seed_cast(), "Alchemist", "weapons='firebomb:d6:2:blast'", user=SYBILLA.user_id)
    enc = everyone_acted(give_turn(start(enc).state, "Alchemist"), "Alchemist")
    enc = enc.update(enc.find("Balthasar").id, surrendered=True).update(enc.find("Bandit 1").id, surrendered=True)
    out = attack(enc, SYBILLA, ["Balthasar", "Bandit 1"], "firebomb", dice=(5,), zones=1)
    assert out.state.find("Balthasar").health == 10 and out.state.find("Balthasar").surrendered
    assert not out.state.find("Bandit 1").surrendered
    assert not any(line.startswith("Balthasar:") and "fights on" in line for line in texts(out))


def test_a_surrendering_character_shoved_by_a_larger_ally_stays_surrendered():
    enc = add(seed_cast(), "Ogre", "size=large", user=SYBILLA.user_id)
    enc = everyone_acted(give_turn(start(enc).state, "Ogre"), "Ogre")
    enc = enc.update(enc.find("Balthasar").id, surrendered=True)
    out = attack(enc, SYBILLA, "Balthasar", mode="shove", dice=(3,))  # the larger shover's d4
    assert out.state.find("Balthasar").health == 9 and out.state.find("Balthasar").surrendered


def test_a_passing_faction_cannot_attack_out_of_turn():
    enc = start(seed_cast()).state
    enc = pass_move(enc).state
    with pytest.raises(NotYourTurn):
        attack(enc, GM, "Balthasar", "axe", actor="Bandit 1")


def test_a_concealed_target_cannot_be_shot_and_needs_a_wit_save_in_melee():
    enc = everyone_acted(give_turn(start(seed_cast()).state, "Bandit 1"), "Bandit 1")
    enc = enc.update(enc.find("Sybilla").id, concealed=True)
    with pytest.raises(InvalidInput, match="cannot be seen"):
        attack(enc, GM, "Sybilla", "bow", zones=2)
    out = attack(enc, GM, "Sybilla", "axe", dice=(11,))
    assert "(target unseen): d20 11 vs WIT 10 → fail" in texts(out)[0]


def test_a_declared_fist_weapon_keeps_its_own_die():
    # Seed: "Unarmed attacks inflict d4 impaired damage. Armed attacks inflict damage depending on the weapon used."
    enc = add(seed_cast(), "Brawler", "weapons='fist:d6'", user=THEOBALD_ID + 1)
    enc = everyone_acted(give_turn(start(enc).state, "Brawler"), "Brawler")
    out = attack(enc, player(THEOBALD_ID + 1), "Bandit 1", "fist", dice=(6,))
    assert "Brawler attacks Bandit 1 with fist (d6)." in texts(out)
    assert out.state.find("Bandit 1").health == 2


def test_a_weapon_named_unarmed_is_refused_with_the_reason():
    # Seed: "Unarmed attacks inflict d4 impaired damage": the word names bare hands, not a sheet's weapon.
    with pytest.raises(InvalidInput, match="bare hands"):
        SYSTEM.parse_sheet("weapons='Unarmed:d6'")


def test_two_sheet_weapons_of_one_name_are_refused_with_the_reason():
    # Seed: "Armed attacks inflict damage depending on the weapon used": a second sword could never be the one used.
    with pytest.raises(InvalidInput, match="named twice"):
        SYSTEM.parse_sheet("weapons='sword:d6, Sword:d8'")
