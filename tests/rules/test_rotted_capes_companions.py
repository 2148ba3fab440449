"""Pets, summons and controlled mounts share their controller's initiative slot."""

import pytest

from rules.actions import AddCombatants, DelayTurn, NextTurn
from rules.engine import apply
from rules.errors import InvalidInput
from rules.model import Actor
from rules.said import english
from rules.systems.rotted_capes import SYSTEM
from tests.helpers import GM

ALICE = Actor(user_id=2)


def run(state, *actions):
    for action in actions:
        state = apply(state, action).state
    return state


def acting(state):
    return sorted(state.get(c).name for c in SYSTEM.turns.acting(state))


def test_a_companion_acts_in_its_controllers_slot_without_rolling():
    s = SYSTEM.new_encounter(1, 3)
    s = run(
        s,
        AddCombatants(by=ALICE, name="Nova", npc=False, controller_id=2, dice=(12,)),
        AddCombatants(by=GM, name="Brute", dice=(15,)),
        AddCombatants(by=GM, name="Rex", sheet={"companion_of": "Nova"}, controller_id=2),
    )
    rex = s.find("Rex")
    assert rex.companion_of == s.find("Nova").id and rex.side == "heroes"
    s = run(s, NextTurn(by=GM))
    assert acting(s) == ["Brute"]
    s = run(s, NextTurn(by=GM))
    assert acting(s) == ["Nova", "Rex"]
    s = run(s, NextTurn(by=GM))
    assert acting(s) == ["Brute"] and s.round == 2


def test_a_companion_joining_mid_fight_joins_its_controllers_slot():
    s = SYSTEM.new_encounter(1, 3)
    s = run(
        s,
        AddCombatants(by=ALICE, name="Nova", npc=False, controller_id=2, dice=(12,)),
        AddCombatants(by=GM, name="Brute", dice=(15,)),
        NextTurn(by=GM),
    )
    s = run(s, AddCombatants(by=GM, name="Rex", sheet={"companion_of": "Nova"}, controller_id=2), NextTurn(by=GM))
    assert acting(s) == ["Nova", "Rex"]


def test_a_companion_delays_and_steps_back_in_with_its_controller():
    # "Animals and summoned creatures act as a single unit with their controller": one delay takes both
    # out of the turn, and both come back in one slot.
    s = SYSTEM.new_encounter(1, 3)
    s = run(
        s,
        AddCombatants(by=ALICE, name="Nova", npc=False, controller_id=2, dice=(15,)),
        AddCombatants(by=GM, name="Rex", sheet={"companion_of": "Nova"}, controller_id=2),
        AddCombatants(by=GM, name="Brute", dice=(12,)),
        AddCombatants(by=GM, name="Thug", dice=(5,)),
        NextTurn(by=GM),
    )
    assert acting(s) == ["Nova", "Rex"]
    s = run(s, DelayTurn(by=ALICE))
    assert acting(s) == ["Brute"]
    s = run(s, DelayTurn(by=ALICE, actor="Nova"))
    assert acting(s) == ["Nova", "Rex"]
    s = run(s, NextTurn(by=GM))
    assert acting(s) == ["Brute"]
    s = run(s, NextTurn(by=GM), NextTurn(by=GM))
    assert acting(s) == ["Nova", "Rex"] and s.round == 2


def test_a_companion_needs_its_controller_in_the_order():
    s = SYSTEM.new_encounter(1, 3)
    with pytest.raises(InvalidInput):
        apply(s, AddCombatants(by=GM, name="Rex", sheet={"companion_of": "Nova"}))


def test_a_companion_holds_no_plot_points_of_its_own():
    """Seed 000: "Every Hero starts each Issue with a set number of Plot Points"; "Animals and summoned creatures
    act as a single unit with their controller": the points are the controlling hero's."""
    s = SYSTEM.new_encounter(1, 3)
    s = run(
        s,
        AddCombatants(by=ALICE, name="Nova", npc=False, controller_id=2, dice=(12,)),
        AddCombatants(by=GM, name="Rex", sheet={"companion_of": "Nova"}, controller_id=2),
    )
    rex = s.find("Rex")
    assert rex.plot_points == 0
    assert "PP" not in english(SYSTEM.status_line(s, rex, reveal=True))
    assert "Rex" not in english(SYSTEM.report("plotpoint_show", s, {}))
    refused = SYSTEM.command("plotpoint_award", GM, {"target": "Rex"})
    with pytest.raises(InvalidInput):
        apply(s, refused)
