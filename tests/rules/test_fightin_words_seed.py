"""Them's Fightin' Words: the seed's worked examples not quoted elsewhere, with the seed's numbers.

Already quoted in test_fightin_words.py: Colonel Mauve's combo (8, 6 and 4 against Toughness 9/3),
the 11-second and 2-second spell delays, the heavy crossbow's range increments, the mount's 2 seconds."""

from __future__ import annotations

import re

import pytest

from rules.actions import DelayTurn
from rules.errors import InvalidInput, NotAllowed
from rules.randomness import Chance
from rules.said import english
from rules.systems.fightin_words import SYSTEM
from rules.systems.fightin_words.sheet import minimum_toughness, toughness
from tests.helpers import GM
from tests.rules.test_fightin_words import PLAYER, Fight, duel
from tests.rules.test_fightin_words_between import resting


def test_bal_ziggaroth_possesses_jack_clancy():
    # "Bal-Ziggaroth makes a Possess check (his bonus is +4) against Jack's Will (9/3). Bal-Ziggaroth
    # rolls a 6, meaning his total Posses check result is 10, so he succeeds." The GM's /save does it.
    fight = Fight()
    fight.add("Bal-Ziggaroth", 4)
    fight.add("Jack Clancy", 1, spirit=3)
    fight.next()
    fight.command("save", actor="Bal-Ziggaroth", kind="possess", dc=9, options="bonus=4", roll=6)
    assert "Bal-Ziggaroth Possess (skill) check: d6 6 +4 = 10 vs DC 9: success." in fight.text()


def test_a_charging_mount_at_18_squares_a_second_adds_3_damage():
    # "a human with strength 3 normally deals 1d8+3 damage with an arming sword. However, from the back
    # of a charging mount moving at 18m/s against a stationary human deals an additional +3 damage
    # (18m divided by 5 1m squares rounds down to 3)."
    fight = duel(strength=3)
    fight.command("attack", target="Goblin", dice="6 5", options="fast=18")
    fight.choose("No defence")
    assert "Goblin: 1d8 (5) + 3 (18 squares/s) + Strength 3 = 11 vs Toughness 9/3" in fight.text()


def test_the_fast_movers_bonus_adds_to_each_hit_of_a_combo_and_shows_when_it_adds_nothing():
    fight = duel(strength=0)
    fight.command("attack", target="Goblin", dice="6 6 2 1", options="combo=2 fast=10")
    fight.choose("No defence")
    assert "Goblin: 1d8 (2) + 2 (10 squares/s) = 4 vs Toughness 9/3" in fight.text()
    assert "1d8 (1) + 2 (10 squares/s) = 3 vs Toughness 9/3" in fight.text()
    fight = duel(strength=0)
    fight.command("attack", target="Goblin", dice="6 2", options="fast=4")
    fight.choose("No defence")
    assert "Goblin: 1d8 (2) + 0 (4 squares/s) = 2 vs Toughness 9/3" in fight.text()


def test_the_fast_movers_bonus_is_for_melee_attacks_only():
    # "A melee attack made against or by an extremely fast-moving creature can deal extra damage."
    fight = duel(weapons="heavy crossbow:1d10:15")
    with pytest.raises(InvalidInput, match="melee"):
        fight.command("attack", target="Goblin", dice="6 5", options="fast=18")


def test_on_the_exhale_plus_1_over_0_and_shoot_from_the_hip_minus_1_over_minus_1():
    # "the Ranged Skill technique On the Exhale grants an attack bonus of +1/0, meaning that a +1 bonus is
    # added to attack rolls, but there is no change to the DC to defend against. Conversely, the technique
    # Shoot from the Hip imposes a -1/-1 penalty". Mauve: skill 3, so the DC is 4 + 3 + Y.
    fight = duel()
    fight.command("attack", target="Goblin", options="mod=+1/0", dice="2 5")
    assert "d6 2 +3 +1 = 6 vs Goblin's Target 4: hit." in fight.text()
    assert "(DC 7)" in fight.text()
    fight = duel()
    fight.command("attack", target="Goblin", options="mod=-1/-1", dice="3 5")
    assert "d6 3 +3 −1 = 5 vs Goblin's Target 4: hit." in fight.text()
    assert "(DC 6)" in fight.text()


# --- the seed's rules an audit found the bot breaking ----------------------------------------


def test_dodge_rolls_reflex_and_parry_weapon_skill_unless_the_sheet_gives_its_own():
    # "He picks one of his available defence options (typically Block, Dodge, or Parry using the Shield
    # use, Reflex, and Weapon Skill skills respectively) and rolls."
    fight = Fight()
    fight.add("Mauve", 4, player=True, reflex=3, weapon_skill=3, weapons="arming sword:1d8")
    fight.add("Duelist", 2, reflex=3, weapon_skill=2, block=1)
    fight.add("Fencer", 1, reflex=3, weapon_skill=2, dodge=1, parry=0)
    fight.next()
    fight.command("attack", target="Duelist", dice="4 5")
    assert english(fight.enc.pending.prompt).endswith("Block +1, Dodge +3, Parry +2")
    fight.choose("Dodge", 4)
    assert "Duelist dodges: d6 4 +3 = 7 vs DC 7: negated." in fight.text()
    fight.next()  # the Duelist's turn: it attacks the Fencer, whose own dodge= and parry= stand
    fight.command("attack", actor="Duelist", target="Fencer", dice="6 1")
    assert english(fight.enc.pending.prompt).endswith("Block +0, Dodge +1, Parry +0")
    assert SYSTEM.key_help("dodge")[0] == "Dodge defence bonus (empty: Reflex)"
    assert SYSTEM.key_help("parry")[0] == "Parry defence bonus (empty: Weapon Skill)"
    assert "dodge (empty: reflex) parry (empty: weapon_skill)" in SYSTEM.help_text()


def test_a_nonlethal_blow_on_a_dying_character_wounds_but_does_not_kill():
    # "It functions exactly like normal damage with regards to wounds, but in the case of a would-be-fatal
    # attack with nonlethal damage, the target is simply knocked unconscious instead of killed."
    fight = duel()
    fight.command("attack", target="Goblin", dice="6 6")  # 6 + 3 = 9 ≥ Toughness 9: Dying
    fight.choose("No defence")
    assert fight.f("Goblin").dying
    fight.next()
    fight.next(3, 5)  # round 2: the Goblin holds on (d10 3, Endurance d6 5)
    fight.command("attack", target="Goblin", options="nonlethal", dice="1")  # helpless: hit; 1 + 3 = 4
    goblin = fight.f("Goblin")
    assert (goblin.wounds, goblin.dying, goblin.dead) == (2, True, False)
    assert "Goblin was wounded while dying, but nonlethally: still dying, not dead." in fight.text()


def test_a_would_be_fatal_nonlethal_blow_says_knocked_unconscious_not_dying():
    # "in the case of a would-be-fatal attack with nonlethal damage, the target is simply knocked unconscious"
    fight = duel()
    fight.command("attack", target="Goblin", options="nonlethal", dice="6 6")  # 6 + 3 = 9 ≥ Toughness 9
    fight.choose("No defence")
    goblin = fight.f("Goblin")
    assert not goblin.dying and any(c.name == "unconscious" for c in goblin.conditions)
    assert "= 9 vs Toughness 9/3: ≥ Toughness: wound and knocked unconscious." in fight.text()
    assert "Dying" not in fight.text()
    fight.command("damage", target="Goblin", amount="9", options="called=head nonlethal")
    assert "(head): ≥ Toughness: wound and knocked unconscious." in fight.text() and not fight.f("Goblin").dying


def test_staggered_for_one_round_after_the_targets_turn_costs_its_next_turn():
    # Head: "Wound, Fortitude check (DC=damage) or be Staggered for one round"; Staggered: stunned for
    # d6 seconds each round. The Goblin has acted when Mauve staggers it: the round is its next one.
    fight = Fight()
    fight.add("Goblin", 6)
    fight.add("Mauve", 1, player=True, weapon_skill=3, weapons="arming sword:1d8")
    fight.next()
    fight.next()  # the Goblin's turn passes untouched; Mauve's turn
    fight.command("attack", target="Goblin", options="called=head", dice="4 1")  # 1 + 3 = 4 > head Minimum 0
    fight.choose("No defence", 2)  # Fortitude d6 2 vs DC 4 fails
    fight.next(4)  # round 2 opens: the Goblin's turn
    assert "Goblin is Staggered: d6 4 → stunned 4 s." in fight.text()
    assert fight.left("Goblin") == 2
    fight.next()
    fight.next()  # round 2 ends: its one round is over
    assert "Goblin is no longer staggered." in fight.text()
    assert fight.f("Goblin").conditions == ()


def test_waking_after_ones_turn_leaves_one_flat_footed_through_the_next_round():
    # "When a character first wakes up from being unconscious, he is flat-footed for one round."
    fight = Fight()
    fight.add("Goblin", 6)
    fight.add("Mauve", 1, player=True, weapon_skill=3, weapons="arming sword:1d8")
    fight.next()
    fight.next()  # the Goblin has had its turn; Mauve's turn
    fight.command("condition_add", target="Goblin", condition="unconscious")
    fight.command("condition_remove", target="Goblin", condition="unconscious")
    fight.next()  # round 2: the Goblin's turn
    assert "Goblin is no longer flat-footed." not in fight.text()
    fight.next()  # Mauve's turn
    fight.command("attack", target="Goblin", dice="4 1")
    assert "Goblin cannot defend (flat-footed)." in fight.text()
    fight.next()  # round 2 ends
    assert "Goblin is no longer flat-footed." in fight.text()


def test_confusion_14_lays_the_character_prone_and_15_sits_them_down_as_a_crouch():
    # The confusion chart: "14 Character falls prone"; "15 Character sits down (counts as a crouch)".
    fight = Fight()
    fight.add("Mauve", 4, player=True, ranged_skill=2, weapons="bow:1d8:20")
    fight.add("Goblin", 1)
    fight.next()
    fight.command("condition_add", target="Goblin", condition="confused", duration="3 rounds")
    fight.next(14)
    assert fight.f("Goblin").posture == "prone"
    fight.next()  # round 2, Mauve: prone is +2 to the Target against a ranged attack
    fight.command("attack", target="Goblin", dice="3")
    assert "d6 3 +2 = 5 vs Goblin's Target 6 (4 prone +2): miss." in fight.text()
    fight.next(15)
    assert "🌀 Confusion: d20 15: Goblin sits down (counts as a crouch)." in fight.text()
    assert fight.f("Goblin").posture == "crouching"


def rest(kind, *characters, dice=()):
    chance = Chance(3, entered_dice=dice)
    out = SYSTEM.rest(kind, tuple(characters), {}, {}, chance)
    chance.finish()  # every entered die used, and no more
    return out


def lines(out):
    return [english(e.text) for e in out.events][1:]


def test_a_stabilised_character_wakes_after_1d4_hours_per_wound():
    # "A stabilized character is still unconscious, but is no longer in danger of dying." "A character who
    # falls unconscious wakes up in 1d4 hours per wound it has taken". A day holds 4 h × 2 wounds.
    out = rest("bedridden", resting({"wounds": 2, "stable": True, "dying": False}))
    assert out.characters[0].lasting == {"wounds": 0, "stable": False, "dying": False, "locations": []}
    assert lines(out) == [
        "Jack wakes up within 8 h (1d4 h per wound). Jack heals 2 wounds (Endurance 3): 0 wounds left, Toughness 9/3."
    ]
    # knocked out by nonlethal damage: the same, on a day's sleep
    out = rest("sleep", resting({"wounds": 1, "conditions": ["unconscious", "disabled"]}))
    assert out.characters[0].lasting["conditions"] == ["disabled"]
    assert lines(out)[0].startswith("Jack wakes up within 4 h (1d4 h per wound).")


def test_waking_hours_are_rolled_once_and_counted_down_by_the_rests():
    # "wakes up in 1d4 hours per wound it has taken": a calm hour is shorter than 2 wounds may take.
    jack = resting({"wounds": 2, "stable": True})
    out = rest("calm_hour", jack, dice=(1, 2))
    jack = out.characters[0]
    assert jack.lasting["stable"] and jack.lasting["waking_in"] == 2
    assert lines(out)[0].startswith("Jack is still unconscious: 1d4 h per wound, 2d4 (1, 2) = 3 h; wakes in 2 h.")
    assert "Wakes in 2 h" in [english(t) for t in SYSTEM.between.lines(jack.sheet, jack.lasting)]
    out = rest("calm_hour", jack)  # no new roll
    assert lines(out)[0].startswith("Jack is still unconscious: wakes in 1 h.")
    out = rest("calm_hour", out.characters[0])
    assert lines(out)[0].startswith("Jack wakes up.")
    assert not out.characters[0].lasting["stable"] and "waking_in" not in out.characters[0].lasting
    # 7 wounds may take 28 h, more than a day: rolled
    out = rest("sleep", resting({"wounds": 7, "stable": True}), dice=(4, 4, 4, 4, 4, 4, 1))
    assert lines(out)[0].startswith("Jack is still unconscious: 1d4 h per wound, 7d4 (4, 4, 4, 4, 4, 4, 1) = 25 h;")
    assert out.characters[0].lasting["waking_in"] == 1
    # waking them by hand forgets the time rolled for this unconsciousness
    state = SYSTEM.adjust(jack.sheet, jack.lasting, "stable", "no")
    assert "waking_in" not in state


def test_a_dying_character_does_not_rest_until_stabilised():
    # "A dying character is unconscious and must make a DC 4 endurance check every round"
    for kind in ("sleep", "bedridden", "calm_hour"):
        out = rest(kind, resting({"wounds": 3, "dying": True, "morale_penalties": 1}))
        assert out.characters[0].lasting == {"wounds": 3, "dying": True, "morale_penalties": 1}
        assert lines(out) == [
            "Jack is dying and cannot rest: stabilise them first (Medicine, then set `dying` to no "
            "and `stable` to yes)."
        ]


# --- where the seed's rules meet -------------------------------------------------------------


def test_a_fighter_who_goes_down_on_their_own_turn_can_no_longer_act():
    # "A dying character is unconscious"; Broken: "He cannot take any actions, move, speak, or make defence rolls."
    fight = duel()
    fight.act("move")
    fight.command("damage", target="Mauve", amount="20")  # ≥ Toughness 9 on her own turn: Dying
    with pytest.raises(NotAllowed, match=r"Mauve cannot act \(dying\)\."):
        fight.command("attack", target="Goblin", dice="6 6")
    with pytest.raises(NotAllowed, match=r"Mauve cannot act \(dying\)\."):
        fight.act("talk")
    fight.next()
    assert fight.acting() == ["Goblin"]
    fight.command("condition_add", target="Goblin", condition="broken")
    with pytest.raises(NotAllowed, match=r"Goblin cannot act \(Broken\)\."):
        fight.act("move")


def test_stepping_back_in_the_same_round_rolls_no_second_confusion_chart():
    # Confused: "Roll once on the Confusion chart every round". The delayed turn is the one already rolled for.
    fight = Fight()
    fight.add("Mauve", 4, player=True, reflex=3)
    fight.add("Goblin", 1)
    fight.next()
    fight.command("condition_add", target="Mauve", condition="confused")
    fight.next()  # the Goblin's turn
    fight.next(10)  # round 2: Mauve's chart, d20 10: she stares off into space
    assert "🌀 Confusion: d20 10: Mauve stares off into space." in fight.text()
    fight.do(DelayTurn(by=PLAYER, actor="Mauve"))
    fight.do(DelayTurn(by=GM, actor="Mauve"))  # no die entered: none is rolled
    assert "Confusion" not in fight.text()
    assert fight.acting() == ["Mauve"] and "Mauve's turn continues" in fight.text()


def test_a_staggered_fighter_may_delay_and_steps_back_in_with_the_seconds_the_stun_left():
    # "A character can, on his turn, choose not to act. Instead, he can delay his turn until later."
    # Staggered: "rolls 1d6 every round" — stepping back in rolls it no second time.
    fight = duel()
    fight.command("condition_add", target="Mauve", condition="staggered", duration="3 rounds")
    fight.next()  # the Goblin's turn
    fight.next(2)  # round 2: Mauve is stunned 2 s
    assert fight.left("Mauve") == 4
    fight.do(DelayTurn(by=PLAYER, actor="Mauve"))
    assert fight.acting() == ["Goblin"]
    fight.do(DelayTurn(by=GM, actor="Mauve"))
    assert "Staggered" not in fight.text() and fight.left("Mauve") == 4


def test_a_rider_may_delay_and_steers_the_mount_once_a_turn():
    # "Controlling a mount without special techniques takes the equivalent of 2 seconds of effort every round."
    fight = duel()
    fight.act("mount")
    fight.next()  # the Goblin's turn
    fight.next()  # round 2: Mauve steers, 4 s left
    fight.do(DelayTurn(by=PLAYER, actor="Mauve"))
    fight.act("move")  # the Goblin moves
    fight.do(DelayTurn(by=PLAYER, actor="Mauve"))
    assert "steering the mount" not in fight.text() and fight.left("Mauve") == 4
    assert "Mauve steps back in, interrupting Goblin." in fight.text()


def test_a_casting_carried_into_a_turn_spent_dying_is_broken_off():
    # "actions that take longer than 1 second must use concurrent seconds [...] all 4 seconds must be done
    # successively"; "A dying character is unconscious".
    fight = duel()
    fight.act("move", options="seconds=4")
    fight.act("cast", options="spell=Bolt delay=3")  # 2 s of casting carry into her next turn
    fight.command("damage", target="Mauve", amount="20")  # Dying, in the Goblin's turn
    fight.next(1, 6)  # round 2: she holds on, and her turn passes
    assert "Mauve cannot finish what they were doing (casts Bolt): it is broken off." in fight.text()
    assert "✨ Mauve's Bolt is not cast: the casting was broken off." in fight.text()
    mauve = fight.f("Mauve")
    assert mauve.effects == () and fight.enc.turns.owed == {}
    fight.command("condition_remove", target="Mauve", condition="dying")
    fight.command("condition_remove", target="Mauve", condition="unconscious")
    fight.next()  # round 3: Mauve's whole turn is hers
    assert fight.acting() == ["Mauve"] and fight.left("Mauve") == 6 and "still busy" not in fight.text()


def test_a_staggered_stun_longer_than_a_disabled_turn_does_not_spill_into_the_next_round():
    # Staggered: "rolls 1d6 every round. He is stunned (as above) for that many seconds"; Disabled: "can only
    # take the equivalent of 3 seconds of action every round". Each round's stun is that round's.
    fight = duel()
    fight.command("condition_add", target="Goblin", condition="disabled")
    fight.command("condition_add", target="Goblin", condition="staggered", duration="1 round")
    fight.next(5)  # the Goblin's turn: stunned 5 s, its 3 s are gone; round 1 ends, and the stagger with it
    assert "Goblin loses 3 s (stunned, staggered d6 5)." in fight.text()
    assert "Goblin is no longer staggered." in fight.text() and fight.acting() == ["Mauve"]
    fight.next()  # round 2: the Goblin's whole 3 s
    assert fight.acting() == ["Goblin"] and fight.left("Goblin") == 3 and "loses" not in fight.text()


def test_steering_a_mount_while_staggered_for_a_whole_turn_costs_the_next_turn_nothing():
    # "Controlling a mount [...] takes the equivalent of 2 seconds of effort every round."
    fight = duel()
    fight.act("mount")
    fight.command("condition_add", target="Mauve", condition="staggered", duration="1 round")
    fight.next()  # the Goblin's turn
    fight.next(6)  # round 2: Mauve steers 2 s and is stunned 6 s: nothing is left of her turn
    assert "Mauve loses 4 s (stunned, staggered d6 6)." in fight.text() and fight.acting() == ["Goblin"]
    fight.next()  # round 3: steering takes its 2 s, and only those
    assert fight.acting() == ["Mauve"] and fight.left("Mauve") == 4


# --- collisions --------------------------------------------------------------------------------


def ogre(**sheet):
    """Mauve (Dodge +3, scale 0) and the Goblin (Dodge +0) with an Ogre of scale 2 (Dodge +1)."""
    fight = duel(**sheet)
    fight.add("Ogre", 1, scale=2, reflex=1)
    return fight


def test_a_collision_dodges_against_4_plus_the_largest_scale_minus_the_smallest_and_spends_no_seconds():
    # "1. Roll to evade: All creatures can make a Dodge roll to avoid taking damage. The DC is 4 + the scale of
    # the largest object or creature - the scale of the smallest object or creature. 2. Damage: All creatures
    # and objects involved that fail their dodge roll take damage equal to 1d6+ (triple the scale of the
    # smallest object involved)+1 per 5 squares/second of speed the fastest-moving object (or creature) is
    # moving at." Scales 0 and 2: DC 6; 12 squares/s: 1d6 + 0 + 2. Dice: the dodges, then the damage.
    fight = ogre()
    fight.command("damage", target="Mauve", amount="collision", options="speed=12 with=Ogre", dice="2 6 4")
    assert fight.text().splitlines() == [
        "💥 Mauve collides with Ogre at 12 squares/s: Dodge DC 6.",
        "Mauve dodges: d6 2 +3 = 5 vs DC 6: fails.",
        "Ogre dodges: d6 6 +1 = 7 vs DC 6: evades.",
        "Mauve: collision damage 1d6 (4) + 2 = 6 vs Toughness 9/3: > Minimum: wound.",
        "Mauve: 1 wound → 1 in all, Toughness 8/2.",
    ]
    assert (fight.f("Mauve").wounds, fight.f("Ogre").wounds) == (1, 0)
    assert fight.left("Mauve") == 6


def test_one_crushed_against_a_hard_surface_takes_damage_by_the_largest_scale():
    # "If they are crushed against a hard surface, they take damage based on the scale of the largest object
    # involved (other than the hard surface)." The Goblin, crushed: 1d6 + 3×2 + 2; the Ogre: 1d6 + 3×0 + 2.
    fight = ogre()
    fight.command("damage", target="Goblin", amount="collision", options="speed=10 with=Ogre crushed", dice="1 1 1 2")
    assert "Goblin: collision damage 1d6 (1) + 8 = 9 vs Toughness 9/3: ≥ Toughness: wound and Dying." in fight.text()
    assert "Ogre: collision damage 1d6 (2) + 2 = 4 vs Toughness 15/9: ≤ Minimum: no wound." in fight.text()


def test_a_collision_with_an_object_not_in_the_fight_takes_its_scale():
    # A scale 1 object and the scale 0 Goblin at 5 squares/s: DC 5, damage 1d6 + 0 + 1.
    fight = duel()
    fight.command("damage", target="Goblin", amount="collision", options="speed=5 object=1", dice="4 3")
    assert fight.text().splitlines()[:3] == [
        "💥 Goblin collides with an object of scale 1 at 5 squares/s: Dodge DC 5.",
        "Goblin dodges: d6 4 +0 = 4 vs DC 5: fails.",
        "Goblin: collision damage 1d6 (3) + 1 = 4 vs Toughness 9/3: > Minimum: wound.",
    ]


def test_who_may_not_dodge_takes_the_collision_and_the_held_dodge_at_minus_1():
    # Flat-footed: "may not make any defence rolls (block, dodge, parry)"; Held: "can dodge with a -1 penalty".
    fight = ogre()
    fight.command("condition_add", target="Goblin", condition="flat-footed")
    fight.command("condition_add", target="Mauve", condition="held")
    fight.command("damage", target="Goblin", amount="collision", options="speed=0 with=Mauve", dice="3 3")
    assert fight.text().splitlines()[1:] == [
        "Goblin cannot defend (flat-footed).",
        "Mauve dodges: d6 3 +2 = 5 vs DC 4: evades.",
        "Goblin: collision damage 1d6 (3) = 3 vs Toughness 9/3: ≤ Minimum: no wound.",
    ]


@pytest.mark.parametrize(
    "options, refusal",
    [
        ("with=Ogre", "give the fastest mover's speed"),
        ("speed=10", "give the fastest mover's speed"),
        ("speed=10 with=Ogre object=1", "give the fastest mover's speed"),
        ("speed=10 with=Goblin", "Goblin cannot collide with themselves."),
        ("speed=10 object=1 height=20", "`height` does not go with `amount:collision`"),
        ("speed=10 object=1 called=head", "`called` does not go with `amount:collision`"),
    ],
)
def test_a_collision_needs_a_speed_and_one_thing_hit_and_takes_only_its_own_options(options, refusal):
    fight = ogre()
    with pytest.raises(InvalidInput, match=re.escape(refusal)):
        fight.command("damage", target="Goblin", amount="collision", options=options, dice="1 1")


def test_the_collision_options_are_refused_on_other_damage():
    with pytest.raises(InvalidInput, match=re.escape("`speed` is for a collision: `amount:collision`.")):
        ogre().command("damage", target="Goblin", amount="3", options="speed=10")


# --- area attacks ------------------------------------------------------------------------------


def grenadier(scale=0):
    """Mira throws a fire vial (1d6+4, range increment 10 m; Ranged Skill 2) at a Goblin (Reflex 2, Block 1)
    and a scale 1 Ogre (Toughness 12/6) in one square."""
    fight = Fight()
    fight.add("Mira", 4, player=True, reflex=3, ranged_skill=2, scale=scale, weapons="fire vial:1d6+4:10;dagger:1d4")
    fight.add("Goblin", 2, reflex=2, block=1)
    fight.add("Ogre", 1, scale=1)
    fight.next()
    return fight


def test_an_area_attack_rolls_once_against_target_4_and_one_damage_die_for_all():
    # "Step One: ... The target area has a Target score the same as if it were your scale ƒ so, Target 4
    # for a human-sized (scale 0) creature." "A successful dodge without the Evasion technique reduces
    # damage by 3 points." "you only roll one damage die and compare it to all targets' toughness."
    fight = grenadier()
    fight.command("attack", target="Goblin, Ogre", options="area", dice="2 3")  # 2 + 2 = 4: hit; 3 + 4 = 7
    assert "Mira makes an area attack with fire vial on Goblin, Ogre: d6 2 +2 = 4 vs the area's Target 4: hit." in (
        fight.text()
    )
    # Shields block area attacks, dodges reduce the damage; no parry
    assert [english(o.label) for o in fight.enc.pending.options] == ["Block", "Dodge", "No defence"]
    assert "Dodge takes 3 from the damage" in english(fight.enc.pending.prompt)
    fight.choose("Dodge", 5)  # d6 5 + Reflex 2 = 7 vs DC 4 + 2 = 6
    assert "Goblin dodges: d6 5 +2 = 7 vs DC 6: damage −3." in fight.text()
    assert "Goblin: 1d6 (3) + 4 = 7 − 3 dodged = 4 vs Toughness 9/3: > Minimum: wound." in fight.text()
    fight.choose("No defence")
    assert "Ogre: 1d6 (3) + 4 = 7 vs Toughness 12/6: > Minimum: wound." in fight.text()
    assert "Mira makes an area attack (4 s): 2 s left." in fight.text()
    assert (fight.f("Goblin").wounds, fight.f("Ogre").wounds) == (1, 1)


def test_a_failed_dodge_takes_the_full_damage_and_a_block_negates_it():
    fight = grenadier()
    fight.command("attack", target="Ogre, Goblin", options="area", dice="6 6")  # 6 + 4 = 10
    fight.choose("Dodge", 1)  # the Ogre: 1 + 0 = 1 vs DC 6
    assert "Ogre dodges: d6 1 +0 = 1 vs DC 6: fails." in fight.text()
    assert "Ogre: 1d6 (6) + 4 = 10 vs Toughness 12/6: > Minimum: wound." in fight.text()
    fight.choose("Block", 5)  # the Goblin: 5 + 1 = 6 vs DC 6
    assert "Goblin blocks: d6 5 +1 = 6 vs DC 6: negated." in fight.text()
    assert "Goblin takes no damage." in fight.text()


def test_the_area_takes_the_attackers_scale_and_may_hold_the_attacker():
    # "everything (friend or foe unless otherwise specified) that is even partly in the target area is affected"
    fight = grenadier(scale=1)  # Target 4 − 1 = 3; both caught flat-footed: neither defends
    fight.command("attack", target="Goblin, Mira", options="area flat_footed", dice="1")  # 1 + 2 − 1 = 2
    assert "d6 1 +1 = 2 vs the area's Target 3 (4 − scale 1): miss." in fight.text()
    assert fight.enc.pending is None
    fight = grenadier(scale=1)
    fight.command("attack", target="Goblin, Mira", options="area flat_footed", dice="2 1")
    assert "vs the area's Target 3 (4 − scale 1): hit." in fight.text()
    assert "Goblin: 1d6 (1) + 4 = 5 vs Toughness 9/3: > Minimum: wound." in fight.text()
    assert "Mira: 1d6 (1) + 4 = 5 vs Toughness 12/6: ≤ Minimum: no wound." in fight.text()


def test_a_missed_area_attack_scatters_where_the_gm_places_it_and_rolls_no_damage():
    # "If you miss, your attack still has to go somewhere. Roll a scatter die and 1d6 per range increment".
    fight = grenadier()
    fight.command("attack", target="Goblin, Ogre", options="area range=15", dice="2")  # 2 + 2 − 1 = 3
    text = fight.text()
    assert "d6 2 +2 range −1 = 3 vs the area's Target 4: miss." in text
    assert "scatters" in text and "/damage" in text
    assert fight.enc.pending is None and fight.left("Mira") == 2
    assert (fight.f("Goblin").wounds, fight.f("Ogre").wounds) == (0, 0)


@pytest.mark.parametrize(
    ("options", "refusal"),
    [
        ("area", "ranged or magic weapon"),  # the dagger
        ("area called=head", "no called shot"),
        ("area cover=light", "no called shot"),
        ("area combo=2", "`combo=N`"),
    ],
)
def test_an_area_attack_refuses_what_does_not_apply(options, refusal):
    fight = grenadier()
    weapon = "dagger" if options == "area" else None
    target = "Goblin" if "combo" in options else "Goblin, Ogre"
    with pytest.raises(InvalidInput, match=re.escape(refusal)):
        fight.command("attack", target=target, weapon=weapon, options=options, dice="6 6")


def test_an_area_holds_each_creature_once():
    fight = grenadier()
    with pytest.raises(InvalidInput, match="Goblin is listed twice"):
        fight.command("attack", target="Goblin, Goblin", options="area", dice="6 6")


def test_a_disabled_thrower_may_still_make_an_area_attack_which_is_no_combo():
    # Disabled: "single attacks only"; an area attack is one attack roll.
    fight = grenadier()
    fight.command("condition_add", target="Mira", condition="disabled")
    fight.command("attack", target="Goblin, Ogre", options="area", dice="1")
    assert "vs the area's Target 4: miss." in fight.text()


# --- the seed's rules no test asserted -----------------------------------------------------
# (seed: /work/shared/seeds/001_3773d6e3df5e1e5b.txt, line numbers as `001:N`)


@pytest.mark.parametrize(
    "action, seconds",
    [("grab", 2), ("draw", 1), ("sheathe", 1), ("crouch", 1), ("prone", 1), ("talk", 0), ("drop", 0)],
)
def test_the_time_tables_short_actions_cost_their_seconds(action, seconds):
    # 001:61-85, the example actions: "2SA / Grab an object from a pack or pocket", "1SA / [...] Draw or
    # sheathe a weapon [...] Crouch or go to prone", "0SA / Talk / Drop a held object".
    fight = duel()
    fight.act(action)
    assert fight.left("Mauve") == 6 - seconds


def test_reloading_takes_4_seconds_and_4_more_for_every_scale_the_weapon_is_larger():
    # 001:326: "Reloading a weapon of your scale or smaller is a 4SA unless otherwise specified. The time it
    # takes to reload a larger weapon increases by 4 seconds for every scale larger than you it is."
    fight = duel(ranged_skill=2, weapons="heavy crossbow:1d10:15")
    fight.act("reload")
    assert fight.left("Mauve") == 2
    fight = duel(ranged_skill=2, weapons="ballista:3d6:30")
    fight.act("reload", options="larger=1")  # 8 s: the turn's 6, and 2 carried into the next
    assert "2 s carry into the next turn" in fight.text() and fight.acting() == ["Goblin"]
    fight.next()  # Mauve's next turn: 2 s still reloading
    assert fight.acting() == ["Mauve"] and fight.left("Mauve") == 4


def test_a_called_shot_to_a_critical_region_is_target_plus_3_toughness_minus_3_and_dying_at_toughness():
    # 001:520-528, the called-shot chart: "Critical Region (ex. Heart, throat) / +3 / -3 / Wound / Target
    # starts Dying" — and, unlike the head, no Fortitude check on a Minimum hit. Toughness 9/3 − 3 = 6/0.
    fight = duel()
    fight.command("attack", target="Goblin", options="called=critical", dice="4 1")  # 4 + 3 = 7 vs 4 + 3
    assert "d6 4 +3 = 7 vs Goblin's Target 7 (4 critical +3): hit." in fight.text()
    fight.choose("No defence")
    assert "Goblin: 1d8 (1) + Strength 3 = 4 vs Toughness 6/0 (critical): > Minimum: wound." in fight.text()
    assert "Fortitude" not in fight.text() and not fight.f("Goblin").dying
    fight.next()
    fight.next()  # round 2, Mauve: Toughness 8/2 − 3 = 5/−1
    fight.command("attack", target="Goblin", options="called=critical", dice="4 2")  # 2 + 3 = 5
    fight.choose("No defence")
    assert "= 5 vs Toughness 5/−1 (critical): ≥ Toughness: wound and Dying." in fight.text()
    assert fight.f("Goblin").dying


def test_armour_worse_than_none_does_not_lower_toughness():
    # 001:765: "armour bonuses lower than +0 can't decrease your toughness. If you are wearing a paper shirt
    # (defence 'bonus' -3), you don't decrease your toughness. Your natural armour takes over, with its +0."
    fight = Fight()
    fight.add("Jack", 3, defence=-3)
    jack = fight.f("Jack")
    assert (toughness(jack), minimum_toughness(jack)) == (9, 3)


def test_the_attackers_scale_comes_off_the_attack_roll_but_not_off_the_defence_dc():
    # 001:290: "Your attack bonus is generally equal to your bonus in the skill involved [...], minus your
    # scale." 001:296: "Attackers do not subtract their scale from the DC to defend against their attacks."
    # A scale 1 Ogre with Weapon Skill 3: d6 + 2 against the Target, and DC 4 + 3 = 7 to defend.
    fight = Fight()
    fight.add("Ogre", 4, reflex=3, weapon_skill=3, strength=0, scale=1, weapons="club:1d8")
    fight.add("Goblin", 1)
    fight.next()
    fight.command("attack", target="Goblin", dice="2 1")
    assert "d6 2 +2 = 4 vs Goblin's Target 4: hit." in fight.text()
    assert "(DC 7)" in fight.text()


def test_crouching_in_an_open_field_is_plus_1_target_against_ranged_and_minus_1_against_melee():
    # 001:432: "a character crouching in an open field gains +1 Target from ranged attacks but -1 from melee
    # attacks". Light cover alone is +1 (001:436: "Increase the target's Target score by +1").
    fight = duel(ranged_skill=0, weapons="arming sword:1d8; bow:1d6:20")
    fight.command("condition_add", target="Goblin", condition="crouching")
    fight.command("attack", target="Goblin", weapon="bow", options="cost=0 range=10", dice="4")
    assert "d6 4 +0 = 4 vs Goblin's Target 5 (4 crouching +1): miss." in fight.text()
    fight.command("attack", target="Goblin", weapon="arming sword", options="cost=0", dice="1 1")
    assert "d6 1 +3 = 4 vs Goblin's Target 3 (4 crouching −1): hit." in fight.text()
    fight.choose("No defence")
    fight = duel()
    fight.command("attack", target="Goblin", options="cover=light", dice="1")
    assert "d6 1 +3 = 4 vs Goblin's Target 5 (4 cover +1): miss." in fight.text()


def test_a_raging_character_cannot_cast_a_spell():
    # 001:608: "Any activity that requires focus or concentration (such as casting a spell) cannot be done
    # while raging."
    fight = duel(magic_skill=2, weapons="arming sword:1d8; firebolt:1d6:10:magic")
    fight.command("damage", target="Mauve", amount="10", damage_type="rage")
    with pytest.raises(NotAllowed, match="raging and cannot focus on a spell"):
        fight.act("cast", options="spell=Fireball")
    with pytest.raises(NotAllowed, match="raging and cannot focus on a spell"):
        fight.command("attack", target="Goblin", weapon="firebolt", options="range=5", dice="6 6")
    fight.command("attack", target="Goblin", weapon="arming sword", dice="1 1")  # a blow is no spell
    assert "Mauve makes an attack with arming sword" in fight.text()
