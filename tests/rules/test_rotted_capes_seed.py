"""Rotted Capes: the seed's worked examples not quoted elsewhere, with the seed's numbers.

Already quoted: Stepaside's interruptible Demanding Action (test_rotted_capes_effects.py,
test_seed_example_ten_stamina_damage_asks_for_dc_ten) and "DR 5 against energy and DR 10 against
fire" (test_rotted_capes.py, test_seed_example_only_the_highest_dr_applies)."""

from __future__ import annotations

from tests.rules.test_rotted_capes import ALICE, GM, begin, cmd, join, new, texts


def test_the_titan_snaps_handcuffs_with_a_dc_25_strength_check():
    # "the Titan must roll a successful DC: 25 (15 + 2x5) Strength Check to snap a pair of handcuffs."
    enc = begin(join(new(), "Nova", 15, saves="str:7"))
    out = cmd(enc, "save", ALICE, actor="Nova", kind="str", dc=25, roll=18)
    assert texts(out) == ["Nova STR save: d20 18 + 7 = 25 vs DC 25: success"]
    out = cmd(enc, "save", ALICE, actor="Nova", kind="str", dc=25, roll=17)
    assert texts(out) == ["Nova STR save: d20 17 + 7 = 24 vs DC 25: failure"]


def test_the_abomination_in_a_stairwell_fights_at_disadvantage_the_heroes_with_advantage():
    # "Cramped and restricted, the zombie fights at a Disadvantage, while the smaller heroes move freely
    # and gain Advantage on their attacks against its Avoidance."
    enc = join(new(), "Nova", 15, attack=5)
    enc = begin(join(enc, "Abomination", 5, avoidance=14, attack=6, stamina=40))
    out = cmd(enc, "attack", ALICE, target="Abomination", options="adv", damage="1d6", dice="4 13 2")
    assert "d20 adv (4, 13) 13 + 5 = 18 vs Avoidance 14: hit" in texts(out)[0]


def test_condition_examples_carry_their_tags():
    # "A Super-Z sprays you with acid: Ongoing Damage (Engulfed – Acid, DR -2 to armor). A flashbang
    # detonates nearby: Stunned (Lesser, Sonic)."
    enc = begin(join(join(new(), "Nova", 15), "Super-Z", 5))
    out = cmd(enc, "condition_add", GM, target="Nova", condition="Stunned", tags="Lesser, Sonic")
    assert texts(out) == ["Nova is Stunned (Lesser, Sonic) until removed."]
