"""Rotted Capes' checks from a stored character (`/check`): challenges and saving throws with the
seed's numbers, the penalties a character carries out of a fight, a Plot Point reroll, refusals;
and the sheet's form."""

from __future__ import annotations

import pytest

from rules.errors import InvalidInput, NotAllowed, Stale
from rules.randomness import Chance
from rules.said import english
from rules.system import CheckRequest, Resting
from rules.systems.rotted_capes import SYSTEM

SHEET = "dex=2 con=1 wounds=3 saves='wis:2 str:-1'"


def who(lasting=None, sheet=SHEET, npc=False):
    return Resting(name="Nova", owner_id=11, sheet=SYSTEM.parse_sheet(sheet), lasting=lasting or {}, npc=npc)


def request(kind="challenge", dc=15, options=None, lasting=None, sheet=SHEET, npc=False, campaign=None, **settings):
    return CheckRequest(
        kind=kind,
        who=who(lasting, sheet, npc),
        dc=dc,
        options=options or {},
        campaign=campaign or {},
        settings=SYSTEM.default_options() | settings,
    )


def rolled(req, *dice):
    chance = Chance(1, (), dice)
    outcome = SYSTEM.roll_check(req, chance)
    chance.finish()
    return outcome


def lines(outcome):
    return [english(line) for line in outcome.lines]


def test_the_system_defines_a_challenge_and_a_saving_throw():
    assert [k.key for k in SYSTEM.check_kinds()] == ["challenge", "save"]
    assert SYSTEM.check_kind("Saving throw").key == "save"
    assert all(k.dc and not k.opposed for k in SYSTEM.check_kinds())


def test_a_challenge_is_a_d20_plus_the_ability_modifier_against_the_dc():
    # “the Hero rolls a Challenge using their Rank Bonus + Ability Modifier, with the Editor setting the DC”
    # “you must make a DC 15 Challenge” (vehicles); the Rank Bonus is the GM's `bonus=`
    outcome = rolled(request(options={"dex": True}), 13)
    assert lines(outcome) == ["Nova DEX challenge: d20 13 + 2 = 15 vs DC 15: success"]
    outcome = rolled(request(options={"dex": True, "bonus": "3"}), 9)
    assert lines(outcome) == ["Nova DEX challenge: d20 9 + 2 + 3 situational = 14 vs DC 15: failure"]
    # the other abilities' modifiers come from `saves`
    outcome = rolled(request(options={"strength": True}), 16)
    assert lines(outcome) == ["Nova STR challenge: d20 16 − 1 = 15 vs DC 15: success"]


def test_a_saving_throw_is_constitution_unless_named():
    # “you must make a successful Routine (DC: 15) Constitution saving throw”
    outcome = rolled(request(kind="save"), 14)
    assert lines(outcome) == ["Nova CON save: d20 14 + 1 = 15 vs DC 15: success"]
    # “you must make a Challenging (DC: 20) Constitution saving throw or suffer 1 wound”
    outcome = rolled(request(kind="save", dc=20, options={"wis": True}), 17)
    assert lines(outcome) == ["Nova WIS save: d20 17 + 2 = 19 vs DC 20: failure"]


def test_advantage_and_disadvantage_roll_two_d20s_and_cancel_out():
    # “If you lack a relevant Skill Set, roll with Disadvantage.”
    outcome = rolled(request(options={"dex": True, "dis": True}), 18, 6)
    assert lines(outcome) == ["Nova DEX challenge: d20 dis (18, 6) 6 + 2 = 8 vs DC 15: failure [dis: disadvantage]"]
    outcome = rolled(request(options={"dex": True, "advantage": True}), 6, 18)
    assert lines(outcome)[0].startswith("Nova DEX challenge: d20 adv (6, 18) 18 + 2 = 20")
    both = rolled(request(options={"dex": True, "adv": True, "dis": True}), 12)
    assert "d20 12 + 2 = 14" in lines(both)[0] and "they cancel: one d20" in lines(both)[0]


def test_the_wounded_and_exhaustion_penalties_come_from_the_lasting_state_and_do_not_stack():
    # “You suffer a penalty to all challenge rolls and attack rolls equal to the amount of wound damage you
    # currently have; these penalties do not stack with Exhaustion.” Exhaustion 2: “-2”.
    wounded = rolled(request(options={"dex": True}, lasting={"wounds": 1}), 13)
    assert lines(wounded) == ["Nova DEX challenge: d20 13 + 2 − 2 wounds/exhaustion = 13 vs DC 15: failure"]
    both = rolled(request(options={"dex": True}, lasting={"wounds": 2, "exhaustion": 3}), 13)
    assert lines(both) == ["Nova DEX challenge: d20 13 + 2 − 3 wounds/exhaustion = 12 vs DC 15: failure"]


def test_a_saving_throw_takes_no_wounded_or_exhaustion_penalty():
    # The penalties fall on "challenge rolls and attack rolls"; "the penalty also applies to the Hero's saves"
    # only in the optional Brutal Continuity.
    outcome = rolled(request(kind="save", lasting={"wounds": 2, "exhaustion": 3}), 14)
    assert lines(outcome) == ["Nova CON save: d20 14 + 1 = 15 vs DC 15: success"]


def test_in_brutal_continuity_a_heros_saving_throw_takes_the_exhaustion_penalty_alone():
    # "When playing in the Brutal Continuity, the penalty also applies to the Hero's saves"; Wounded's does not
    lasting = {"wounds": 2, "exhaustion": 1}
    outcome = rolled(request(kind="save", lasting=lasting, brutal_continuity=True), 14)
    assert lines(outcome) == ["Nova CON save: d20 14 + 1 − 1 exhaustion = 14 vs DC 15: failure"]
    outcome = rolled(request(kind="save", lasting=lasting, npc=True, brutal_continuity=True), 14)
    assert lines(outcome) == ["Nova CON save: d20 14 + 1 = 15 vs DC 15: success"]


def test_carried_conditions_count_as_in_a_fight():
    # Weakened “Mild = –1” to its ability; Frightened: “Disadvantage on checks”
    lasting = {"conditions": [{"name": "Weakened", "tags": ["Dexterity", "Mild"]}, {"name": "Frightened"}]}
    outcome = rolled(request(options={"dex": True}, lasting=lasting), 15, 9)
    assert lines(outcome) == ["Nova DEX challenge: d20 dis (15, 9) 9 + 1 = 10 vs DC 15: failure [dis: frightened]"]


def test_a_hero_with_a_plot_point_may_reroll_and_the_point_goes_to_the_pool():
    # “You may spend Plot Point rerolling any d20 check” … “it is handed over to the Editor-in-Chief”
    req = request(options={"dex": True}, campaign={"pool": 2})
    first = rolled(req, 4)
    assert [o.key for o in first.offers] == ["reroll"] and first.lasting is None and first.campaign is None
    chance = Chance(1, (), (17,))
    again = SYSTEM.roll_check_again(req, first.memo, "reroll", chance)
    chance.finish()
    assert lines(again) == [
        "🎭 Nova spends a Plot Point to reroll the d20 (0 left; pool 3).",
        "Nova DEX challenge: d20 17 + 2 = 19 vs DC 15: success",
    ]
    assert again.lasting == {"plot_points": 0} and again.campaign == {"pool": 3} and again.offers == ()


def test_a_success_offers_no_reroll():
    # a reroll replaces the result: a success has nothing it could gain, and the point would be spent for nothing
    outcome = rolled(request(options={"dex": True}), 17)
    assert lines(outcome) == ["Nova DEX challenge: d20 17 + 2 = 19 vs DC 15: success"] and outcome.offers == ()


def test_no_reroll_without_a_plot_point_nor_for_a_companion_or_a_kept_npc():
    assert rolled(request(options={"dex": True}, lasting={"plot_points": 0}), 4).offers == ()
    assert rolled(request(options={"dex": True}, sheet=SHEET + " companion_of=Nova"), 4).offers == ()
    assert rolled(request(options={"dex": True}, npc=True), 4).offers == ()
    assert [o.key for o in rolled(request(options={"dex": True}, sheet=SHEET + " plot_points=2"), 4).offers] == [
        "reroll"
    ]
    spent = request(options={"dex": True}, lasting={"plot_points": 0})
    with pytest.raises(NotAllowed, match="no Plot Points left"):
        SYSTEM.roll_check_again(spent, {}, "reroll", Chance(1, (), (5,)))
    with pytest.raises(NotAllowed, match="Only heroes"):
        SYSTEM.roll_check_again(request(options={"dex": True}, npc=True), {}, "reroll", Chance(1, (), (5,)))
    with pytest.raises(Stale):
        SYSTEM.roll_check_again(request(options={"dex": True}), {}, "aid", Chance(1, (), (5,)))


@pytest.mark.parametrize(
    "req, why",
    [
        (request(options={"dex": True}, dc=None), "needs a DC"),
        (request(kind="save", dc=0), "between 1 and 60"),
        (request(), "Name the ability"),
        (request(options={"dex": True, "wis": True}), "one ability"),
        (request(options={"dex": True, "stress": "2"}), "`str`, `dex`"),
        (request(options={"dex": "3"}), "takes no value"),
        (request(options={"dex": True, "bonus": True}), "whole number"),
        (request(options={"dex": True, "bonus": "40"}), "between −20 and 20"),
    ],
)
def test_bad_checks_are_refused_with_the_reason(req, why):
    with pytest.raises(InvalidInput) as refused:
        rolled(req, 10)
    assert why in english(refused.value.said), english(refused.value.said)


def test_a_dead_character_rolls_no_check():
    with pytest.raises(NotAllowed, match="is dead: the GM can set `dead` to no"):
        rolled(request(options={"dex": True}, lasting={"dead": True}), 10)


def test_every_sheet_key_is_in_one_form_section_and_has_a_description():
    form = SYSTEM.sheet_form()
    keys = [key for section in form for key in section.keys]
    assert len(form) <= 5 and all(len(section.label) <= 45 for section in form)
    assert sorted(keys) == sorted(SYSTEM.sheet_type.model_fields) and len(keys) == len(set(keys))
    order = list(SYSTEM.sheet_type.model_fields)
    for section in form:
        assert list(section.keys) == sorted(section.keys, key=order.index), section.label
    assert all(SYSTEM.key_help(key)[0] for key in keys), [key for key in keys if not SYSTEM.key_help(key)[0]]


def test_an_unconscious_hero_meets_no_challenge_but_still_rolls_a_saving_throw():
    """Seed 000, Unconscious: "You are unaware of your surroundings, cannot act"; a save is no act (in a fight
    too, /save is rolled for the Unconscious)."""
    knocked = {"stamina": 0, "unconscious": True}
    with pytest.raises(NotAllowed) as refused:
        rolled(request(options={"dex": True}, lasting=knocked), 10)
    assert "Nova is Unconscious and cannot act" in english(refused.value.said)
    assert lines(rolled(request(kind="save", lasting=knocked), 14)) == [
        "Nova CON save: d20 14 + 1 = 15 vs DC 15: success"
    ]
