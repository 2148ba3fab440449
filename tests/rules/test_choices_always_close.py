"""A choice can never be left open with no valid answer.

A GM's `/attack … roll:25` against a hero with a Plot Point used to open the
hero's Plot Point question with a 25 kept for the d20: no answer could close it,
the default failed when time ran out, and the fight stood still until an undo.
Entered values are now checked before anything changes: the action that would
ask is refused, or the question's default resolves.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.actions import AddCombatants, Choose, NextTurn
from rules.engine import apply
from rules.errors import RulesError
from rules.model import Actor
from rules.systems.rotted_capes import SYSTEM
from tests.helpers import GM

ALICE = Actor(user_id=11)


def brute_about_to_attack_nova():
    enc = SYSTEM.new_encounter(1, 99, {"offer_plot_disadvantage": True})
    hero = {"avoidance": "15", "fortitude": "6", "stamina": "20", "wounds": "3", "attack": "5"}
    enc = apply(enc, AddCombatants(by=ALICE, name="Nova", sheet=hero, npc=False, controller_id=11, dice=(5,))).state
    brute = {"avoidance": "15", "fortitude": "4", "stamina": "20", "wounds": "3", "attack": "4", "damage": "1d8"}
    enc = apply(enc, AddCombatants(by=GM, name="Brute", sheet=brute, dice=(15,))).state
    return apply(enc, NextTurn(by=GM)).state


def attack(enc, **options):
    return apply(enc, SYSTEM.command("attack", GM, {"target": "Nova"} | options))


def test_a_roll_no_d20_can_show_is_refused_before_the_plot_point_question_opens():
    enc = brute_about_to_attack_nova()
    with pytest.raises(RulesError, match="25 cannot be rolled on a d20"):
        attack(enc, roll=25)


def test_dice_entered_for_the_plot_point_answer_leave_the_default_answer_closable():
    enc = brute_about_to_attack_nova()
    asked = attack(enc, dice="11 4 2 3").state  # two d20s for disadvantage, then 1d8: one die spare without it
    assert asked.pending is not None
    out = apply(asked, Choose(by=GM, pending_id=asked.pending.id, option=asked.pending.default, timed_out=True))
    assert out.state.pending is None
    assert any("not needed" in e.text and "(not used)" in e.text for e in out.events)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(min_value=-5, max_value=40), min_size=0, max_size=5))
def test_whatever_is_entered_the_question_is_refused_or_its_default_closes_it(entered):
    enc = brute_about_to_attack_nova()
    try:
        asked = attack(enc, dice=" ".join(map(str, entered))).state if entered else attack(enc).state
    except RulesError:
        return  # refused: nothing changed (states are immutable), nothing is waiting
    if asked.pending is None:
        return
    out = apply(asked, Choose(by=GM, pending_id=asked.pending.id, option=asked.pending.default, timed_out=True))
    assert out.state.pending is None or out.state.pending.id != asked.pending.id
