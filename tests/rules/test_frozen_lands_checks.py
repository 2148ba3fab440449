"""Frozen Lands' checks from a stored character's sheet (`/check`): the fight's d6 pool with the stress dice
of the Stress the character carries, the seed's conditions, and what the check leaves the character with.

Dice are entered by hand: the pool first, then the stress dice (as in a fight)."""

from __future__ import annotations

import pytest

from rules.errors import DiceError, InvalidInput, NotAllowed, Stale
from rules.randomness import Chance
from rules.said import english
from rules.system import CheckRequest, Resting
from rules.systems.frozen_lands import SYSTEM
from rules.systems.frozen_lands.checks import KINDS

# SOUL 2, Stamina 4 + BODY 3 = 7.
SHEET = "body=3 agility=3 mind=2 awareness=3 soul=2 melee=2 mobility=2 athletics=1 perception=2 lore=1 persuasion=1"


def checked(kind, *dice, dc=None, lasting=None, options=None, settings=None, npc=False):
    request = CheckRequest(
        kind=kind,
        who=Resting(name="Astrid", owner_id=11, sheet=SYSTEM.parse_sheet(SHEET), lasting=lasting or {}, npc=npc),
        dc=dc,
        options=options or {},
        settings=SYSTEM.settings_for(settings),
    )
    chance = Chance(5, entered_dice=dice)
    outcome = SYSTEM.roll_check(request, chance)
    chance.finish()  # every entered die was rolled
    return outcome


def line(outcome) -> str:
    (only,) = outcome.lines
    return english(only)


def test_a_skill_check_rolls_the_skills_dice_each_six_a_success_and_changes_nothing():
    # SYSTEMS.md: "Dice pools of d6; each 6 is a success" (the seed is silent); one success passes.
    out = checked("mobility", 6, 3)
    assert line(out) == "Astrid rolls Mobility 2 = 2d6 (6, 3) → 1 success, needs 1 → success."
    assert out.lasting is None and out.offers == ()
    # "You need one success for each enemy close to you": dc is the successes needed.
    out = checked("mobility", 6, 3, dc=2)
    assert line(out) == "Astrid rolls Mobility 2 = 2d6 (6, 3) → 1 success, needs 2 → failure."
    assert out.lasting is None
    out = checked("awareness", 5, 5, 6)
    assert line(out) == "Astrid rolls AWARENESS 3 = 3d6 (5, 5, 6) → 1 success, needs 1 → success."


def test_a_pool_takes_exactly_its_dice_no_more():
    with pytest.raises(DiceError):
        checked("lore", 6, 6)  # Lore 1: one die
    with pytest.raises(DiceError):
        checked("melee", 6)  # Melee 2: two dice


def test_stress_up_to_soul_is_free_and_a_stress_six_gives_wp_instead_of_a_success():
    # "You can accumulate Stress up to your SOUL score without any effect."
    assert checked("mobility", 2, 2, lasting={"stress": 2}).lasting is None
    # "Any Stress above the character's SOUL score, adds Stress dice to your rolls. When a Stress die results a
    # success, this success is NOT added to your success total, however the character gains 1 WP."
    out = checked("mobility", 2, 2, 6, 3, lasting={"stress": 4, "wp": 1})
    assert line(out) == (
        "Astrid rolls Mobility 2 = 2d6 (2, 2) + stress 2d6 (6, 3) → 0 successes, needs 1 → failure; "
        "stress success → +1 WP."
    )
    assert out.lasting is not None and out.lasting["wp"] == 2 and out.lasting["stress"] == 4


@pytest.mark.parametrize(
    "kind, condition, shown",
    [
        ("melee", "exhaustion", "Exhaustion 1 (BODY: −1 action a round)"),
        ("mobility", "exhaustion", "Exhaustion 1 (AGILITY: −1 action a round)"),
        ("lore", "dazed", "Dazed 1 (MIND: −1 reaction a round)"),
        ("perception", "dazed", "Dazed 1 (AWARENESS: −1 reaction a round)"),
        ("persuasion", "fear", "Fear 1 (SOUL: −1 success on every roll)"),
    ],
)
def test_a_stress_die_showing_1_gives_the_condition_of_the_rolls_attribute(kind, condition, shown):
    # "When a Stress die results on a failure, this is a critical failure, and the character gains a condition.
    # The condition may vary according to the Attribute used in the roll": Body/Agility Exhaustion,
    # Mind/Awareness Dazed, Soul Fear.
    pool = SYSTEM.parse_sheet(SHEET)[kind]
    out = checked(kind, *([2] * pool), 1, lasting={"stress": 3})
    assert line(out).endswith(f"1 critical failure > {shown.split(' (')[0].replace(' 1', ' 0')} → {shown}."), line(out)
    assert out.lasting is not None and out.lasting[condition] == 1 and out.lasting["stress"] == 3


def test_critical_failures_not_above_the_level_give_one_stress_instead():
    # "If the number of critical failures is lower or equal to the current condition level, the character
    # receives an extra Stress."
    out = checked("mobility", 2, 2, 1, lasting={"stress": 3, "exhaustion": 1})
    assert line(out).endswith("1 critical failure ≤ Exhaustion 1 → +1 Stress (4).")
    assert out.lasting is not None and (out.lasting["stress"], out.lasting["exhaustion"]) == (4, 1)
    # "the number of critical failures must be greater than the current condition level to increase"
    out = checked("mobility", 2, 2, 1, 1, lasting={"stress": 4, "exhaustion": 1})
    assert line(out).endswith("2 critical failures > Exhaustion 1 → Exhaustion 2 (AGILITY: −1 action a round).")
    assert out.lasting is not None and (out.lasting["stress"], out.lasting["exhaustion"]) == (4, 2)


def test_a_condition_past_level_three_breaks_the_character_with_a_wound_for_the_gm_to_record():
    # "If any condition goes over level 3, the character is broken and suffers a critical injury."
    carried = {"stress": 6, "exhaustion": 3, "injuries": ["scar"], "wounds": 1}
    out = checked("mobility", 2, 2, 1, 1, 1, 1, lasting=carried)
    text = line(out)
    assert "4 critical failures > Exhaustion 3 → above level 3: broken and a critical injury" in text
    assert "Astrid is broken (cannot act until healed; every further hit is a Wound) and suffers" in text
    assert "(Wounds 2)" in text and "/campaign adjust" in text and "key:injuries" in text
    # The adjustment sets the whole list: the hint keeps the injury already recorded.
    assert 'key:injuries value:"scar, <result>" (the whole list, one injury per Wound).' in text
    assert out.lasting is not None
    assert (out.lasting["stamina"], out.lasting["wounds"], out.lasting["injuries"]) == (0, 2, ["scar"])


def test_fear_takes_a_success_away_per_level():
    # "Fear - When afraid you are unable to use your skills effectively, on any roll you reduce the total
    # successes by 1."
    out = checked("mobility", 6, 6, lasting={"fear": 1})
    assert line(out) == "Astrid rolls Mobility 2 = 2d6 (6, 6) → 2 successes − Fear 1 = 1, needs 1 → success."
    assert line(checked("mobility", 6, 3, lasting={"fear": 1})).endswith("needs 1 → failure.")


def test_exhaustion_carried_takes_nothing_from_a_check_and_is_kept():
    # "Exhaustion reduces your number of actions by 1": a check has no actions to lose.
    out = checked("melee", 6, 2, 3, lasting={"exhaustion": 2, "stress": 3})
    assert line(out) == "Astrid rolls Melee 2 = 2d6 (6, 2) + stress 1d6 (3) → 1 success, needs 1 → success."
    assert out.lasting is None


def test_disengaging_needs_one_mobility_success_per_close_enemy_and_failing_costs_a_stress():
    # "you must succeed on a Mobility roll to move. You need one success for each enemy close to you. If you fail,
    # you take one Stress, and must spend an extra action to move."
    out = checked("disengage", 6, 6, dc=2)
    assert line(out) == (
        "Astrid disengages from 2 close enemies: Mobility 2 = 2d6 (6, 6) → 2 successes, needs 2 → success."
    )
    assert out.lasting is None
    out = checked("disengage", 6, 4, dc=2, lasting={"stress": 2})
    assert line(out) == (
        "Astrid disengages from 2 close enemies: Mobility 2 = 2d6 (6, 4) → 1 success, needs 2 → failure; "
        "+1 Stress (3); an extra action to move."
    )
    assert out.lasting is not None and out.lasting["stress"] == 3
    with pytest.raises(InvalidInput, match="needs dc"):
        checked("disengage", 6, 6)


def test_acting_out_of_turn_is_an_awareness_check_whose_failure_costs_a_stress():
    # "you must roll an AWARENESS check. If the check succeeds you can execute your action before the action
    # that you are interrupting [...] If you fail the check you get a point of Stress."
    out = checked("out_of_turn", 6, 1, 1)
    assert line(out) == (
        "Astrid tries to act out of turn: AWARENESS 3 = 3d6 (6, 1, 1) → 1 success; "
        "success: acts before the action it interrupts (one of the 3 actions)."
    )
    assert out.lasting is None
    out = checked("out_of_turn", 5, 1, 1, 6, lasting={"stress": 3})
    assert line(out) == (
        "Astrid tries to act out of turn: AWARENESS 3 = 3d6 (5, 1, 1) + stress 1d6 (6) → 0 successes; "
        "stress success → +1 WP; failure: +1 Stress (4)."
    )
    assert out.lasting is not None and (out.lasting["stress"], out.lasting["wp"]) == (4, 1)
    with pytest.raises(InvalidInput, match="no dc"):
        checked("out_of_turn", 6, 1, 1, dc=2)


def test_a_failed_out_of_turn_check_costs_its_stress_even_when_a_condition_past_level_three_breaks_too():
    # "If you fail the check you get a point of Stress." — whatever else the stress dice do.
    out = checked("out_of_turn", 1, 2, 3, 1, 1, 1, 1, lasting={"stress": 6, "dazed": 3})
    text = line(out)
    assert "4 critical failures > Dazed 3 → above level 3: broken and a critical injury; +1 Stress (7); " in text
    assert out.lasting is not None
    assert (out.lasting["stress"], out.lasting["stamina"], out.lasting["wounds"]) == (7, 0, 1)


def test_a_broken_character_neither_disengages_nor_acts_out_of_turn_but_may_look_around():
    broken = {"stamina": 0}
    for kind in ("disengage", "out_of_turn"):
        with pytest.raises(NotAllowed, match="broken"):
            checked(kind, 6, 6, 6, dc=1 if kind == "disengage" else None, lasting=broken)
    assert line(checked("perception", 6, 2, lasting=broken)).endswith("→ success.")


def test_options_add_or_remove_dice_and_a_dim_zone_costs_perception_two():
    # SYSTEMS.md: "A modifier of +N / −N adds or removes N dice."
    out = checked("mobility", 6, 3, 3, options={"modifier": "+1"})
    assert line(out) == "Astrid rolls Mobility 2 + modifier 1 = 3d6 (6, 3, 3) → 1 success, needs 1 → success."
    assert line(checked("mobility", 6, options={"modifier": "-1"})).startswith("Astrid rolls Mobility 2 − modifier 1")
    # "Dimly lit: Perception and Ranged attack rolls get a -2 modifier."
    out = checked("perception", 6, 6, options={"dim": True, "modifier": "2"})
    assert line(out) == (
        "Astrid rolls Perception 2 − dimly lit zone 2 + modifier 2 = 2d6 (6, 6) → 2 successes, needs 1 → success."
    )


@pytest.mark.parametrize(
    "kind, options, words",
    [
        ("mobility", {"advantage": True}, "Unknown option `advantage` for a Mobility check. Options: `modifier`."),
        ("mobility", {"dim": True}, "Options: `modifier`."),
        ("perception", {"push": True}, "Options: `modifier`, `dim`."),
        ("perception", {"modifier": True}, "`modifier` must be a whole number."),
        ("perception", {"modifier": "lots"}, "`modifier` must be a whole number."),
        ("perception", {"dim": "maybe"}, "`dim` takes yes or no."),
    ],
)
def test_unknown_options_and_bad_values_are_refused_with_what_is_known(kind, options, words):
    with pytest.raises(InvalidInput) as refused:
        checked(kind, 6, 6, options=options)
    assert words in english(refused.value.said)


def test_a_check_needs_at_least_one_success():
    with pytest.raises(InvalidInput, match="at least 1 success"):
        checked("mobility", 6, 6, dc=0)


@pytest.mark.parametrize("kind", ["mobility", "disengage"])
def test_a_check_needs_at_most_the_successes_a_save_may_ask(kind):
    # `/save` takes `dc` 1–20; a `/check` past it (a typo for 2) would still roll and cost Stress.
    with pytest.raises(InvalidInput, match="`dc` must be between 1 and 20"):
        checked(kind, 6, 6, 1, dc=21, lasting={"stress": 3})
    assert "needs 20" in line(checked(kind, 6, 6, dc=20))


def test_dead_characters_and_kept_enemies_roll_no_checks():
    with pytest.raises(NotAllowed, match="is dead: the GM can set `dead` to no"):
        checked("mobility", 6, 6, lasting={"dead": True})
    with pytest.raises(NotAllowed, match="Enemies have no skills"):
        checked("mobility", 6, 6, npc=True)


def test_every_non_six_on_a_stress_die_is_critical_with_the_campaigns_setting():
    out = checked("mobility", 2, 2, 4, lasting={"stress": 3}, settings={"any_failure_critical": True})
    assert out.lasting is not None and out.lasting["exhaustion"] == 1
    assert checked("mobility", 2, 2, 4, lasting={"stress": 3}).lasting is None


def test_a_changed_check_keeps_what_else_the_character_carries():
    out = checked("mobility", 6, 2, 6, lasting={"stress": 3, "injuries": ["broken arm"], "wounds": 1, "hiatus": 2})
    assert out.lasting is not None
    assert out.lasting["injuries"] == ["broken arm"] and out.lasting["hiatus"] == 2 and out.lasting["wp"] == 1


def test_the_seed_offers_no_push_so_there_is_nothing_to_take_afterwards():
    out = checked("mobility", 2, 2)
    assert out.offers == ()
    request = CheckRequest(kind="mobility", who=Resting(name="Astrid", owner_id=11, sheet={}, lasting={}))
    with pytest.raises(Stale):
        SYSTEM.roll_check_again(request, {}, "push", Chance(1))


def test_every_kind_is_found_by_its_key_and_its_label():
    assert len({k.key for k in KINDS}) == len(KINDS) <= 25  # an autocomplete shows at most 25
    for kind in KINDS:
        assert SYSTEM.check_kind(kind.key) == kind and SYSTEM.check_kind(kind.label) == kind
        assert not kind.opposed and len(kind.help) <= 56  # the autocomplete cuts the help there
    assert SYSTEM.check_kind("Out of turn").key == "out_of_turn"


def test_the_sheets_form_holds_every_key_once_in_at_most_five_sections_each_described():
    form = SYSTEM.sheet_form()
    keys = [key for section in form for key in section.keys]
    assert len(form) <= 5 and all(len(section.label) <= 45 for section in form)
    assert keys == list(SYSTEM.sheet_type.model_fields)  # each key once, in the order the sheet reads
    for key in keys:
        meaning, takes = SYSTEM.key_help(key)
        assert meaning and takes, key
    assert SYSTEM.key_help("soul") == ("SOUL: Stress up to it adds no stress dice", "0–10")


def test_help_has_a_checks_section():
    text = SYSTEM.help_text()
    (checks,) = [line for line in text.splitlines() if line.startswith("**Checks**")]
    assert "/check" in checks and "disengage" in checks and "out_of_turn" in checks and "modifier=" in checks
