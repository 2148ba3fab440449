"""Frozen Lands: zones, disengaging, standing up, jumping; out-of-turn and delayed actions."""

from __future__ import annotations

import re

import pytest

from rules.actions import EndTurn
from rules.errors import InvalidInput, NotAllowed, NotYourTurn
from rules.systems.frozen_lands import SYSTEM
from tests.rules.test_frozen_lands_support import ASTRID, BJORN, GM, act, current, end_turn, fl, get, outcome, party


def surrounded(**astrid):
    """Astrid at close range with the Wolf and the Bandit, in a hall next to a yard."""
    s = party(astrid=astrid)
    s = act(s, fl.SetZone(by=GM, name="Hall"))
    s = act(s, fl.SetZone(by=GM, name="Yard", features=("cluttered",)))
    s = act(s, fl.SetZone(by=GM, name="Loft"))
    for name in ("Astrid", "Bjorn", "Wolf", "Bandit"):
        s = act(s, fl.Place(by=GM, target=name, zone="Hall"))
    s = act(s, fl.Engage(by=GM, actor="Wolf", target="Astrid"))
    return act(s, fl.Engage(by=GM, actor="Bandit", target="Astrid"))


def test_disengaging_from_two_close_enemies_needs_two_successes():
    s = surrounded()
    o = outcome(s, fl.Move(by=ASTRID, to="Loft", dice=(6, 6)))
    astrid = get(o.state, "Astrid")
    assert o.events[0].text == (
        "Astrid moves to Loft; disengage from 2 close enemies: Mobility 2 = 2d6 (6, 6) → 2 successes, "
        "needs 2 → success."
    )
    assert astrid.zone == "Loft" and astrid.actions_left == 2 and astrid.stress == 0 and astrid.engaged == ()
    assert get(o.state, "Wolf").engaged == ()


def test_a_player_cannot_part_from_close_range_to_skip_the_disengage_roll():
    s = surrounded()
    with pytest.raises(NotAllowed, match="Only the GM sets who is at close range"):
        act(s, fl.Engage(by=ASTRID, actor="Astrid", target="Wolf", apart=True))
    assert get(s, "Astrid").engaged == (get(s, "Wolf").id, get(s, "Bandit").id)


def test_a_failed_disengage_costs_one_stress_and_an_extra_action():
    s = surrounded()
    o = outcome(s, fl.Move(by=ASTRID, to="Loft", dice=(6, 3)))
    astrid = get(o.state, "Astrid")
    assert "needs 2 → failure; +1 Stress (1); an extra action to get away (1 left)" in o.events[0].text
    assert astrid.zone == "Loft" and astrid.actions_left == 1 and astrid.stress == 1


def test_without_an_action_for_the_extra_move_the_character_stays():
    s = surrounded()
    s = act(s, fl.Aim(by=ASTRID))
    s = act(s, fl.Reload(by=ASTRID))
    o = outcome(s, fl.Move(by=ASTRID, to="Loft", dice=(6, 3)))
    assert "no action left for the extra move: stays put" in o.events[0].text
    assert get(o.state, "Astrid").zone == "Hall" and get(o.state, "Astrid").actions_left == 0
    s = act(s, fl.Move(by=GM, to="Loft", close=0))  # the GM's count overrides the tracked one
    assert get(s, "Astrid").zone == "Loft"


def test_a_player_cannot_count_away_the_enemies_at_close_range():
    """Seed 004: "If there are one or more enemies close to the character, to be able to move to another zone you
    must make a Mobility roll. You need one success for each enemy close to you." Who is close is the GM's call."""
    s = surrounded()
    for fewer in (0, 1):
        with pytest.raises(NotAllowed, match="Astrid has 2 enemies at close range: only the GM counts fewer"):
            act(s, fl.Move(by=ASTRID, to="Loft", close=fewer, dice=(6, 6)))
    o = outcome(s, fl.Move(by=ASTRID, to="Loft", close=3, dice=(6, 6)))  # one more than tracked: the player's say
    assert "disengage from 3 close enemies" in o.events[0].text
    s = act(s, fl.Move(by=GM, to="Loft", close=1, dice=(6, 3)))
    assert get(s, "Astrid").zone == "Loft"


def test_melee_attacks_bring_combatants_to_close_range():
    s = party()
    s = act(s, fl.Attack(by=ASTRID, target="Wolf", dice=(1, 1, 1, 1)))
    assert get(s, "Astrid").engaged == (get(s, "Wolf").id,)
    assert get(s, "Wolf").engaged == (get(s, "Astrid").id,)
    o = outcome(s, fl.Move(by=ASTRID, to="Out", dice=(6, 1)))  # one close enemy: one success needed
    assert "disengage from 1 close enemy: Mobility 2 = 2d6 (6, 1) → 1 success, needs 1 → success" in o.events[0].text


def test_stand_up_and_move_needs_a_mobility_roll():
    s = party()
    s = act(s, fl.AddCondition(by=GM, target="Astrid", condition="prone"))
    o = outcome(s, fl.Move(by=ASTRID, to="Hall", dice=(3, 4)))
    assert (
        "stand up and move: Mobility 2 = 2d6 (3, 4) → 0 successes, needs 1 → failure; stands up but does not get away"
        in o.events[0].text
    )
    assert not get(o.state, "Astrid").prone and get(o.state, "Astrid").zone == ""
    s = act(s, fl.Move(by=ASTRID, to="Hall", dice=(6, 4)))
    assert get(s, "Astrid").zone == "Hall"
    s = act(party(), fl.AddCondition(by=GM, target="Astrid", condition="prone"))
    s = act(s, fl.StandUp(by=ASTRID))
    assert not get(s, "Astrid").prone and get(s, "Astrid").actions_left == 2
    with pytest.raises(NotAllowed, match="not prone"):
        act(s, fl.StandUp(by=ASTRID))


def test_prone_on_one_already_prone_or_off_one_standing_is_refused_rather_than_announced():
    with pytest.raises(NotAllowed, match="Astrid is not prone"):
        act(party(), fl.RemoveCondition(by=GM, target="Astrid", condition="prone"))
    s = act(party(), fl.AddCondition(by=GM, target="Astrid", condition="prone"))
    with pytest.raises(NotAllowed, match="Astrid is already prone"):
        act(s, fl.AddCondition(by=GM, target="Astrid", condition="prone"))


def test_jumping_needs_an_athletics_or_mobility_success():
    s = party()
    o = outcome(s, fl.Move(by=ASTRID, to="Ledge", jump="athletics", dice=(5,)))  # Athletics 1
    assert o.events[0].text.endswith("the jump fails: stays put.") and get(o.state, "Astrid").zone == ""
    s = act(s, fl.Move(by=ASTRID, to="Ledge", jump="mobility", dice=(6, 1)))
    assert get(s, "Astrid").zone == "Ledge"


def test_a_cluttered_zone_needs_a_mobility_roll_or_the_character_falls():
    s = surrounded()
    s = act(s, fl.Move(by=GM, to="Yard", close=0, dice=(1, 2)))
    assert get(s, "Astrid").zone == "Yard" and get(s, "Astrid").prone
    with pytest.raises(InvalidInput, match="no zone called"):
        act(s, fl.Place(by=GM, target="Bjorn", zone="Nowhere"))


def zone_command(state, options: str):
    """The GM's `/act action:zone target:Hall options:…`, applied."""
    return act(state, SYSTEM.command("act", GM, {"action": "zone", "target": "Hall", "options": options}, state))


@pytest.mark.parametrize(
    ("options", "typo"),
    [("featurs='dim dark'", "featurs"), ("name=Hall cluttred=yes", "cluttred"), ("level=2", "level")],
)
def test_a_zone_refuses_a_word_it_does_not_read_with_the_list_and_adds_no_zone(options, typo):
    s = party()
    refusal = (
        "Unknown option `{}` for /act action:zone. Options: `name`, `features`, `cluttered`, `dim`, `dimly_lit`, "
        "`dark`, `darkness`, `cramped`."
    )
    with pytest.raises(InvalidInput, match=re.escape(refusal.format(typo))):
        s = zone_command(s, options)
    assert s.zones == ()


@pytest.mark.parametrize(
    ("options", "features"),
    [
        ("name=Hall", ()),
        ("features='dim cramped'", ("dim", "cramped")),
        ("features=dimly-lit", ("dim",)),
        ("cluttered", ("cluttered",)),
        ("dim", ("dim",)),
        ("dimly_lit", ("dim",)),
        ("dimly-lit", ("dim",)),
        ("dark", ("dark",)),
        ("darkness", ("dark",)),
        ("cramped", ("cramped",)),
    ],
)
def test_a_zone_takes_every_word_it_reads(options, features):
    s = zone_command(party(), options)
    assert [(zone.name, zone.features) for zone in s.zones] == [("Hall", features)]


def test_out_of_turn_action_succeeds_acts_at_once_then_the_turn_goes_on():
    s = end_turn(party())  # the Wolf's turn
    assert current(s) == ["Wolf"]
    o = outcome(s, fl.Interrupt(by=ASTRID, actor="Astrid", dice=(6, 2, 3)))  # AWARENESS 3
    s = o.state
    assert (
        o.events[0].text
        == "Astrid tries to act out of turn: AWARENESS 3 = 3d6 (6, 2, 3) → 1 success; success: acts now (one of the 3 "
        "actions)."
    )
    assert current(s) == ["Astrid"] and o.events[1].ping == (10,)
    o = outcome(s, fl.Attack(by=ASTRID, target="Wolf", dice=(6, 1, 1, 1)))
    s = o.state
    assert current(s) == ["Wolf"] and o.events[-1].text == "Wolf's turn continues"
    astrid = get(s, "Astrid")
    assert astrid.actions_left == 2 and astrid.out_of_turn_tried
    with pytest.raises(NotAllowed, match="already tried"):
        act(s, fl.Interrupt(by=ASTRID, actor="Astrid", dice=(6, 6, 6)))


def test_a_failed_out_of_turn_roll_gives_one_stress():
    s = end_turn(party())
    o = outcome(s, fl.Interrupt(by=BJORN, actor="Bjorn", dice=(2, 3)))  # AWARENESS 2
    assert o.events[0].text.endswith("failure: +1 Stress (1).")
    assert get(o.state, "Bjorn").stress == 1 and current(o.state) == ["Wolf"]


def test_out_of_turn_needs_an_action_left():
    s = party()
    for action in (fl.Aim(by=ASTRID), fl.Reload(by=ASTRID), fl.Move(by=ASTRID, to="Hall")):
        s = act(s, action)
    s = end_turn(s)
    with pytest.raises(NotAllowed, match="no actions left"):
        act(s, fl.Interrupt(by=ASTRID, actor="Astrid", dice=(6, 6, 6)))


def test_a_delayed_action_happens_after_the_turn_during_which_it_is_released():
    s = party()
    s = act(s, fl.Delay(by=ASTRID))
    assert get(s, "Astrid").actions_left == 2 and get(s, "Astrid").held
    s = end_turn(s)  # Wolf's turn
    with pytest.raises(NotYourTurn):
        act(s, fl.Attack(by=ASTRID, actor="Astrid", target="Wolf", dice=(1, 1, 1, 1)))
    o = outcome(s, fl.Release(by=ASTRID, actor="Astrid"))
    assert o.events[0].text == "Astrid's delayed action happens right after Wolf's turn."
    s = end_turn(o.state)
    assert current(s) == ["Astrid"]
    s = act(s, fl.Attack(by=ASTRID, target="Wolf", dice=(6, 6, 1, 1)))  # paid for when held
    assert get(s, "Wolf").stamina == 4 and get(s, "Astrid").actions_left == 2
    assert current(s) == ["Bjorn"]


def test_a_delayed_action_released_during_an_out_of_turn_action_names_the_turn_it_follows():
    s = act(party(), fl.Delay(by=ASTRID))
    s = end_turn(s)  # Wolf's turn
    s = act(s, fl.Interrupt(by=BJORN, actor="Bjorn", dice=(6, 1)))  # AWARENESS 2
    o = outcome(s, fl.Release(by=ASTRID, actor="Astrid"))
    # Bjorn's one action is not a turn: the delayed action waits for the Wolf's turn it interrupted.
    assert o.events[0].text == "Astrid's delayed action happens right after Wolf's turn."
    s = end_turn(o.state)
    assert current(s) == ["Wolf"]
    assert current(end_turn(s)) == ["Astrid"]


def test_an_unreleased_delayed_action_is_lost_at_the_end_of_the_round():
    s = party()
    s = act(s, fl.Delay(by=ASTRID))
    for _ in range(3):
        s = end_turn(s)
    o = outcome(s, EndTurn(by=GM, turn_no=s.turn_no))
    assert any(e.text == "Delayed action not taken, lost: Astrid." for e in o.events)
    assert not get(o.state, "Astrid").held and get(o.state, "Astrid").actions_left == 3


def test_a_bow_reloaded_out_of_turn_or_as_a_delayed_action_is_not_loaded_next_turn():
    """Seed 004: "Some ranged weapons like bows and slings need to be reload every turn before you attack with
    them. For crossbows, you can keep your weapon loaded while you execute other actions." """
    s = end_turn(party())  # the Wolf's turn
    s = act(s, fl.Interrupt(by=ASTRID, actor="Astrid", dice=(6, 2, 3)))
    o = outcome(s, fl.Reload(by=ASTRID, actor="Astrid"))
    assert "Astrid's Short Bow is no longer loaded: bows and slings shoot in the turn they are loaded." in [
        e.text for e in o.events
    ]
    assert not get(o.state, "Astrid").loaded and current(o.state) == ["Wolf"]
    s = act(party(), fl.Delay(by=ASTRID))
    s = end_turn(s)  # the Wolf's turn
    s = act(s, fl.Release(by=ASTRID, actor="Astrid"))
    s = end_turn(s)  # Astrid's delayed action
    s = act(s, fl.Reload(by=ASTRID))
    assert not get(s, "Astrid").loaded and current(s) == ["Bjorn"]
    s = end_turn(party(astrid={"ranged": "Light Crossbow"}))
    s = act(s, fl.Interrupt(by=ASTRID, actor="Astrid", dice=(6, 2, 3)))
    s = act(s, fl.Reload(by=ASTRID, actor="Astrid"))
    assert get(s, "Astrid").loaded
