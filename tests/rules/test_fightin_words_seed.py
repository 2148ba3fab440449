"""Them's Fightin' Words: the seed's worked examples not quoted elsewhere, with the seed's numbers.

Already quoted in test_fightin_words.py: Colonel Mauve's combo (8, 6 and 4 against Toughness 9/3),
the 11-second and 2-second spell delays, the heavy crossbow's range increments, the mount's 2 seconds."""

from __future__ import annotations

from tests.rules.test_fightin_words import Fight, duel


def test_bal_ziggaroth_possesses_jack_clancy():
    # "Bal-Ziggaroth makes a Possess check (his bonus is +4) against Jack's Will (9/3). Bal-Ziggaroth
    # rolls a 6, meaning his total Posses check result is 10, so he succeeds." The GM's /save does it.
    fight = Fight()
    fight.add("Bal-Ziggaroth", 4)
    fight.add("Jack Clancy", 1, spirit=3)
    fight.next()
    fight.command("save", actor="Bal-Ziggaroth", kind="possess", dc=9, options="bonus=4", roll=6)
    assert "Bal-Ziggaroth Possess (skill) check: d6 6 +4 = 10 vs DC 9: success." in fight.text()


def test_a_charging_mount_adds_3_damage_entered_by_the_gm():
    # "a human with strength 3 normally deals 1d8+3 damage with an arming sword. However, from the back
    # of a charging mount moving at 18m/s against a stationary human deals an additional +3 damage."
    # Not automated: the GM enters the weapon's damage with the +3; the bot adds Strength 3.
    fight = duel(strength=3)
    fight.command("attack", target="Goblin", dice="6 5", damage="1d8+3")
    fight.choose("No defence")
    assert "Goblin: 1d8 (5) + 3 + Strength 3 = 11 vs Toughness 9/3" in fight.text()


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
    assert "d6 3 +3 -1 = 5 vs Goblin's Target 4: hit." in fight.text()
    assert "(DC 6)" in fight.text()
