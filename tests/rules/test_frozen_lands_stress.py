"""Frozen Lands: stress dice, WP, conditions by attribute and the level rule."""

from __future__ import annotations

import pytest

from rules.errors import DiceError
from rules.systems.frozen_lands import SYSTEM
from tests.rules.test_frozen_lands_support import ASTRID, GM, act, begin, enemy, fl, get, hero, outcome, party


def roll(s, skill, *dice, who="Astrid"):
    return outcome(s, fl.Check(by=GM, actor=who, skill=skill, dice=dice))


def test_stress_up_to_soul_is_free_and_each_point_above_adds_a_stress_die():
    s = party(astrid={"stress": 2})  # SOUL 2: no stress die
    o = roll(s, "mobility", 6, 2)
    assert o.events[0].text == "Astrid rolls Mobility 2 = 2d6 (6, 2) → 1 success, needs 1 → success."
    with pytest.raises(DiceError):  # a third die is not rolled
        roll(s, "mobility", 6, 2, 1)
    s = party(astrid={"stress": 4})  # two stress dice
    o = roll(s, "mobility", 6, 2, 6, 3)
    assert o.events[0].text == (
        "Astrid rolls Mobility 2 = 2d6 (6, 2) + stress 2d6 (6, 3) → 1 success, needs 1 → success; "
        "stress success → +1 WP."
    )
    assert get(o.state, "Astrid").wp == 1


def test_a_critical_failure_on_a_stress_die_raises_the_attributes_condition_by_the_level_rule():
    s = party(astrid={"stress": 3})  # one stress die
    s = roll(s, "mobility", 2, 2, 1).state  # Mobility is AGILITY: Exhaustion
    astrid = get(s, "Astrid")
    assert astrid.exhaustion == 1 and astrid.actions_left == 2 and astrid.stress == 3
    o = roll(s, "mobility", 2, 2, 1)  # 1 critical failure, not above Exhaustion 1: +1 Stress instead
    assert o.events[0].text.endswith("1 critical failure ≤ Exhaustion 1 → +1 Stress (4).")
    s = o.state
    assert get(s, "Astrid").exhaustion == 1 and get(s, "Astrid").stress == 4
    o = roll(s, "mobility", 2, 2, 1, 1)  # now two stress dice, both 1: 2 > 1
    assert o.events[0].text.endswith("2 critical failures > Exhaustion 1 → Exhaustion 2 (AGILITY: −1 action a round).")
    s = o.state
    assert get(s, "Astrid").exhaustion == 2 and get(s, "Astrid").actions_left == 1
    s = roll(s, "awareness", 2, 2, 2, 1, 5).state  # AWARENESS: Dazed
    assert get(s, "Astrid").dazed == 1 and get(s, "Astrid").reactions_left == 1
    s = roll(s, "soul", 2, 2, 1, 4).state  # SOUL: Fear
    assert get(s, "Astrid").fear == 1


def test_fear_removes_a_success_from_every_roll():
    s = party(astrid={"stress": 0})
    s = act(s, fl.AddCondition(by=GM, target="Astrid", condition="fear", text="1"))
    o = roll(s, "mobility", 6, 6)
    assert o.events[0].text == "Astrid rolls Mobility 2 = 2d6 (6, 6) → 2 successes − Fear 1 = 1, needs 1 → success."


def test_a_condition_above_level_three_breaks_the_character_with_a_critical_injury():
    s = party(astrid={"stress": 6})  # SOUL 2: four stress dice
    s = act(s, fl.AddCondition(by=GM, target="Astrid", condition="exhaustion", text="3"))
    o = roll(s, "mobility", 2, 2, 1, 1, 1, 5)  # three critical failures: not above level 3
    assert o.events[0].text.endswith("3 critical failures ≤ Exhaustion 3 → +1 Stress (7).")
    s = o.state
    o = roll(s, "mobility", 2, 2, 1, 1, 1, 1, 6)  # five stress dice now, four 1s: 4 > 3
    text = o.events[0].text
    assert "4 critical failures > Exhaustion 3 → above level 3: broken and a critical injury" in text
    assert o.events[0].ping == (1,)
    astrid = get(o.state, "Astrid")
    assert astrid.broken and astrid.stamina == 0 and astrid.wounds == 1 and astrid.unrecorded_injuries == 1
    assert astrid.exhaustion == 3


def test_any_failure_critical_campaign_setting():
    s = SYSTEM.new_encounter(1, 7, {"any_failure_critical": True})
    s = hero(s, "Astrid", 5, stress=3)
    s = enemy(s, "Wolf", 4)
    s = begin(s, 1, 1)
    s = roll(s, "mobility", 2, 2, 4).state
    assert get(s, "Astrid").exhaustion == 1


def test_rest_resets_stress():
    s = party(astrid={"stress": 5})
    s = act(s, fl.Heal(by=GM, target="Astrid", rest=True))
    assert get(s, "Astrid").stress == 0


def test_stress_dice_roll_with_attacks_too():
    s = party(astrid={"stress": 3})
    o = outcome(s, fl.Attack(by=ASTRID, target="Wolf", dice=(6, 1, 1, 1, 1)))
    assert "Melee 2 + Shortsword 2 = 4d6 (6, 1, 1, 1) + stress 1d6 (1) → 1 success" in o.events[0].text
    assert get(o.state, "Astrid").exhaustion == 1  # Melee rests on BODY
