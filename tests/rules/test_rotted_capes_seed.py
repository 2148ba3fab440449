"""Rotted Capes: the seed's worked examples not quoted elsewhere, with the seed's numbers.

Already quoted: Stepaside's interruptible Demanding Action (test_rotted_capes_effects.py,
test_seed_example_ten_stamina_damage_asks_for_dc_ten) and "DR 5 against energy and DR 10 against
fire" (test_rotted_capes.py, test_seed_example_only_the_highest_dr_applies)."""

from __future__ import annotations

import pytest

from rules.errors import NotAllowed
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


def test_a_fly_pace_of_10_breaks_the_cap_of_5_and_is_spent_over_the_turn():
    # seed 000 line 190: "you can move a number of Areas up to your Pace, capped at 5 Areas unless you have a
    # power, feat, or feature that breaks that limit"; line 198: "If you have a Fly Pace of 10 and a Run Pace
    # of 4, you could run 4 areas and then fly 6 more, using up your total of 10." (Which areas are run and
    # which flown is narrated: the bot keeps the total.)
    enc = begin(join(join(new(), "Nova", 15, pace=10, pace_uncapped="true"), "Brute", 5))
    out = cmd(enc, "act", ALICE, action="move", options="areas=4")
    assert texts(out) == ["Nova moves 4 areas (6 left)."]
    out = cmd(out.state, "act", ALICE, action="move", options="areas=6")
    assert texts(out) == ["Nova moves 6 areas (0 left)."]
    # without such a power a Pace past 5 still counts as 5
    enc = begin(join(join(new(), "Nova", 15, pace=10), "Brute", 5))
    with pytest.raises(NotAllowed, match="only 5 areas of Pace left"):
        cmd(enc, "act", ALICE, action="move", options="areas=6")
