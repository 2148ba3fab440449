"""Frozen Lands: how the seed's rules combine — stress dice on defense and movement rolls, conditions gained
mid-round, broken characters, reactions, out-of-turn and delayed actions, leftover enemies, ranged modifiers."""

from __future__ import annotations

import pytest

from rules.actions import Choose
from rules.errors import NotAllowed
from rules.said import english
from rules.systems.frozen_lands import SYSTEM
from tests.rules.test_frozen_lands_support import (
    ASTRID,
    BJORN,
    GM,
    act,
    begin,
    choose,
    current,
    end_turn,
    enemy,
    fl,
    get,
    hero,
    new,
    outcome,
    party,
)


def texts(o):
    return [english(e.text) for e in o.events]


def summary(s, name):
    return [english(line) for line in SYSTEM.turn_summary(s, get(s, name).id)]


def close_to_wolf(**astrid):
    """Astrid and the Wolf at close range in the Hall, the Loft next door."""
    s = party(astrid=astrid)
    s = act(s, fl.SetZone(by=GM, name="Hall"))
    s = act(s, fl.SetZone(by=GM, name="Loft"))
    for name in ("Astrid", "Wolf"):
        s = act(s, fl.Place(by=GM, target=name, zone="Hall"))
    return act(s, fl.Engage(by=GM, actor="Wolf", target="Astrid"))


def test_a_dodge_rolls_the_stress_dice_and_a_stress_one_costs_an_action_this_round():
    # "Any Stress above the character's SOUL score, adds Stress dice to your rolls." (a defense roll too);
    # "Body/Agility - Exhaustion - Exhaustion reduces your number of actions by 1."
    s = end_turn(party(astrid={"stress": 4}))  # SOUL 2: two stress dice; the Wolf's turn
    s = act(s, fl.Attack(by=GM, target="Astrid"))
    o = outcome(s, Choose(by=ASTRID, pending_id=s.pending.id, option="dodge", dice=(6, 2, 6, 1)))
    assert (
        "Dodge: Mobility 2 = 2d6 (6, 2) + stress 2d6 (6, 1) → 1 success; stress success → +1 WP; "
        "1 critical failure > Exhaustion 0 → Exhaustion 1 (AGILITY: −1 action a round) → damage 3 − 1 = 2"
    ) in texts(o)[-1]
    astrid = get(o.state, "Astrid")
    assert (astrid.wp, astrid.exhaustion, astrid.actions_left, astrid.reactions_left) == (1, 1, 2, 1)
    assert astrid.stamina == 6  # 2 − armour 1


def test_fear_takes_a_success_from_a_block():
    # "on any roll you reduce the total successes by 1"; "The number of success reduces the damage".
    s = act(party(), fl.AddCondition(by=GM, target="Bjorn", condition="fear", text="1"))
    s = end_turn(s)  # the Wolf's turn
    s = act(s, fl.Attack(by=GM, target="Bjorn", damage=5))
    o = outcome(s, Choose(by=BJORN, pending_id=s.pending.id, option="block", dice=(6, 6, 2)))
    assert "Block: Melee 3 = 3d6 (6, 6, 2) → 2 successes − Fear 1 = 1 → damage 5 − 1 = 4" in texts(o)[-1]
    assert get(o.state, "Bjorn").stamina == 7  # 4 − armour 2 from 9


def test_no_reaction_left_once_dazed_takes_the_last_one_armour_alone_cuts_the_hit():
    # "Dazed - Reduces your number of reactions by 1"; "If the character has no reactions left when attacked,
    # the damage is only reduced by armour."
    s = end_turn(party(bjorn={"stress": 3}))  # Bjorn: AGILITY 2, one reaction; one stress die
    s = act(s, fl.Interrupt(by=BJORN, dice=(2, 2, 1)))  # AWARENESS: a stress 1 is Dazed
    bjorn = get(s, "Bjorn")
    assert (bjorn.dazed, bjorn.reactions_left, bjorn.stress) == (1, 0, 4)
    o = outcome(s, fl.Attack(by=GM, target="Bjorn", damage=4))
    assert o.state.pending is None and "no reactions left; armour 2: 4 − 2 = 2" in texts(o)[0]


def test_a_stress_one_on_the_disengage_roll_can_take_the_action_the_extra_move_needs():
    # "If you fail, you take one Stress, and must spend an extra action to move. If the character doesn't have
    # any actions left, he cannot move." The Exhaustion from the same roll counts at once.
    s = act(close_to_wolf(stress=3), fl.Aim(by=ASTRID))  # 2 actions left, one stress die
    o = outcome(s, fl.Move(by=ASTRID, to="Loft", dice=(2, 2, 1)))
    assert texts(o)[0].endswith(
        "→ 0 successes, needs 1 → failure; 1 critical failure > Exhaustion 0 → Exhaustion 1 "
        "(AGILITY: −1 action a round); +1 Stress (4); no action left for the extra move: stays put."
    )
    astrid = get(o.state, "Astrid")
    assert (astrid.zone, astrid.actions_left, astrid.stress, astrid.exhaustion) == ("Hall", 0, 4, 1)


def test_a_jump_with_athletics_rolls_the_stress_dice_and_a_stress_one_is_exhaustion():
    # "During your movement you can attempt to jump (roll Athletics)"; Athletics rests on BODY.
    s = act(party(astrid={"stress": 3}), fl.SetZone(by=GM, name="Ledge"))
    o = outcome(s, fl.Move(by=ASTRID, to="Ledge", jump="athletics", dice=(6, 1)))
    assert "jump: Athletics 1 = 1d6 (6) + stress 1d6 (1) → 1 success, needs 1 → success" in texts(o)[0]
    astrid = get(o.state, "Astrid")
    assert (astrid.zone, astrid.exhaustion, astrid.actions_left) == ("Ledge", 1, 1)


def test_exhaustion_from_an_attack_roll_leaves_one_action_fewer_this_round_and_next():
    s = party(astrid={"stress": 3})
    s = act(s, fl.Attack(by=ASTRID, target="Wolf", dice=(1, 1, 1, 1, 1)))  # Melee: BODY
    assert get(s, "Astrid").actions_left == 1
    s = act(s, fl.Aim(by=ASTRID))
    with pytest.raises(NotAllowed, match=r"0 actions left this round \(Exhaustion 1\)"):
        act(s, fl.Reload(by=ASTRID))
    for _ in range(4):
        s = end_turn(s)
    assert s.round == 2 and get(s, "Astrid").actions_left == 2


def test_fear_can_fail_the_out_of_turn_roll_which_costs_its_stress_and_the_one_try_of_the_round():
    # "If you fail the check you get a point of Stress. You can attempt this action only once per round."
    s = act(party(), fl.AddCondition(by=GM, target="Astrid", condition="fear", text="1"))
    s = end_turn(s)  # the Wolf's turn
    o = outcome(s, fl.Interrupt(by=ASTRID, dice=(6, 2, 3)))
    assert texts(o)[0].endswith("→ 1 success − Fear 1 = 0; failure: +1 Stress (1).")
    s = o.state
    assert current(s) == ["Wolf"] and get(s, "Astrid").actions_left == 3
    with pytest.raises(NotAllowed, match="already tried an out-of-turn action this round"):
        act(s, fl.Interrupt(by=ASTRID, dice=(6, 6, 6)))


def test_an_out_of_turn_move_with_a_failed_disengage_costs_two_of_the_3_actions():
    s = end_turn(close_to_wolf())  # the Wolf's turn
    s = act(s, fl.Interrupt(by=ASTRID, dice=(6, 2, 3)))
    o = outcome(s, fl.Move(by=ASTRID, to="Loft", dice=(2, 2)))
    assert "+1 Stress (1); an extra action to get away (1 left)" in texts(o)[0]
    assert get(o.state, "Astrid").zone == "Loft" and current(o.state) == ["Wolf"]


def test_an_out_of_turn_action_while_a_released_delayed_action_waits_is_one_of_the_3_and_the_delayed_one_is_paid():
    # "this action still count as one of your 3 actions"; "A delayed action happens after the current character
    # or enemy turn": until then the released action waits, and an out-of-turn action is not it.
    s = act(party(), fl.Delay(by=ASTRID))  # paid: 2 left
    s = end_turn(s)  # the Wolf's turn
    s = act(s, fl.Release(by=ASTRID))
    s = act(s, fl.Interrupt(by=ASTRID, dice=(6, 2, 3)))
    assert summary(s, "Astrid")[:2] == [
        "Out of turn: one action (one of the 3), then Wolf's turn goes on",
        "Actions left: 2 of 3",
    ]
    s = act(s, fl.Aim(by=ASTRID))
    astrid = get(s, "Astrid")
    assert current(s) == ["Wolf"] and astrid.actions_left == 1 and astrid.held
    s = end_turn(s)  # the Wolf's turn ends: the delayed action
    assert current(s) == ["Astrid"]
    assert summary(s, "Astrid")[:2] == [
        "Delayed action: one action, already paid when it was held",
        "Actions left: 1 of 3",
    ]
    s = act(s, fl.Attack(by=ASTRID, target="Wolf", dice=(1, 1, 1, 1)))
    assert get(s, "Astrid").actions_left == 1 and current(s) == ["Bjorn"]


def test_a_broken_character_takes_each_further_hit_as_one_wound_whatever_its_damage_and_has_no_reaction():
    # "If the character's Stamina reaches 0, the character is broken and any futher damage causes 1 Wound."
    s = end_turn(party())  # the Wolf's turn
    s = act(s, fl.Attack(by=GM, target="Astrid", damage=8))
    s = choose(s, "No reaction", by=ASTRID)  # 8 − 1 = 7: Stamina 0, the overflow is no Wound
    assert get(s, "Astrid").broken and get(s, "Astrid").wounds == 0
    s = act(s, fl.Attack(by=GM, target="Astrid", damage=20))
    s = act(s, fl.Attack(by=GM, target="Astrid", damage=2))
    assert s.pending is None and get(s, "Astrid").wounds == 2
    with pytest.raises(NotAllowed, match="broken"):
        act(s, fl.Interrupt(by=ASTRID, dice=(6, 6, 6)))


def test_a_delayed_action_released_in_the_last_leftover_enemys_turn_happens_before_the_next_round():
    # "Any remaining enemies act at the end of the round."; "At any time before the end of the round, the player
    # can interrupt to use his delayed action."
    s = hero(new(), "Astrid", 3)
    for name, score in (("Wolf", 4), ("Bear", 2), ("Raven", 1)):
        s = enemy(s, name, score)
    s = begin(s, 6, 1)  # 6 beats Astrid's 3: the GM side first
    assert [s.get(c).name for c in s.turns.track] == ["Wolf", "Astrid", "Bear", "Raven"]
    s = act(end_turn(s), fl.Delay(by=ASTRID))
    s = end_turn(end_turn(s))  # Bear, then Raven
    s = act(s, fl.Release(by=ASTRID))
    s = end_turn(s)
    assert current(s) == ["Astrid"] and s.round == 1
    s = act(s, fl.Aim(by=ASTRID))
    assert s.round == 2 and current(s) == ["Wolf"] and get(s, "Astrid").actions_left == 3


def test_aim_close_range_size_and_light_add_up_and_one_range_past_the_weapon_is_a_total_minus_three():
    # "If the character is close to the enemy, there is a -3 modifier"; "one range category farther than the max
    # allowed by the weapon, you must use an Aim action, with a total -3 modifier".
    s = party(astrid={"loaded": True})
    s = act(s, fl.Engage(by=GM, actor="Wolf", target="Astrid"))
    s = act(s, fl.Aim(by=ASTRID))
    o = outcome(s, fl.Attack(by=ASTRID, target="Wolf", ranged=True, size=2, light="dim", dice=(6, 1, 1, 1, 1)))
    assert "Marksmanship 3 + Short Bow 2 − close range 3 + Aim 2 + large target 2 − dim light 1 = 5d6" in texts(o)[0]
    s = act(party(), fl.Aim(by=ASTRID))
    o = outcome(s, fl.Attack(by=ASTRID, target="Wolf", thrown=True, weapon="Handaxe", range="long", dice=(6,)))
    assert "throws the Axe at Wolf: Marksmanship 3 + Axe 1 − long range with Aim 3 = 1d6 (6)" in texts(o)[0]
    assert "hit: 1 + Axe damage 2 = 3 − defense 1 = 2" in texts(o)[0]
