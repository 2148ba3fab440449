"""Them's Fightin' Words' d6 check, and /check: a stored character's checks from its sheet and what
it carries between fights, rolled as the fight rolls them."""

from __future__ import annotations

import pytest

from rules.errors import InvalidInput, NotAllowed, Stale
from rules.randomness import Chance
from rules.said import english
from rules.system import CheckRequest, Resting
from rules.systems.fightin_words import SYSTEM
from rules.systems.fightin_words.model import Fighter
from rules.systems.fightin_words.rolls import d6_check

JACK = {"reflex": 2, "dex": 1, "endurance": 3, "spirit": 2, "fortitude": 1, "scale": 0}  # Will 8, as in the seed
DEMON = {"reflex": 1, "dex": 1, "spirit": 5}  # Bal-Ziggaroth: Will 11


def jack(**lasting) -> Resting:
    return Resting(name="Jack", owner_id=11, sheet=JACK, lasting=lasting)


def demon(**lasting) -> Resting:
    return Resting(name="Bal-Ziggaroth", owner_id=1, sheet=DEMON, lasting=lasting, npc=True)


def roll(kind, *dice, who=None, **fields):
    request = CheckRequest(kind=kind, who=who or jack(), **fields)
    return SYSTEM.roll_check(request, Chance(1, (), dice))


def lines(outcome) -> list[str]:
    return [english(line) for line in outcome.lines]


@pytest.mark.parametrize(
    "die, bonus, need, ok", [(3, 2, 5, True), (3, 1, 5, False), (6, -2, 4, True), (1, 0, 2, False)]
)
def test_a_d6_check_meets_or_beats_the_number(die, bonus, need, ok):
    jack = Fighter(id="c1", name="Jack")
    assert tuple(d6_check(Chance(1, (), [die]), jack, bonus, need)) == (die, die + bonus, ok)


def test_the_system_lists_the_checks_its_seed_defines():
    kinds = {k.key: k for k in SYSTEM.check_kinds()}
    stats = {"reflex", "dex", "strength", "endurance", "spirit", "fortitude", "will"}
    assert set(kinds) == stats | {"initiative", "skill"}
    assert kinds["will"].opposed and kinds["initiative"].opposed and not kinds["initiative"].dc
    assert not kinds["reflex"].opposed


def test_a_reflex_check_to_catch_a_ledge_meets_dc_4():
    # "Make a Reflex check (DC 4) to try to catch a ledge or branch"
    assert lines(roll("reflex", 2, dc=4)) == ["Jack Reflex check: d6 2 +2 = 4 vs DC 4: success."]
    assert lines(roll("reflex", 1, dc=4)) == ["Jack Reflex check: d6 1 +2 = 3 vs DC 4: failure."]


def test_a_fortitude_check_adds_scale():
    # "A character's scale is [...] added to wrestle and fortitude skills."; "Fortitude check (DC=damage)"
    horse = Resting(name="Horse", owner_id=1, sheet=JACK | {"scale": 1}, lasting={})
    assert lines(roll("fortitude", 4, who=horse, dc=6)) == ["Horse Fortitude check: d6 4 +2 = 6 vs DC 6: success."]


def test_a_spirit_check_against_dc_10_and_a_bonus_from_the_options():
    # "Every round, the character can make a Spirit check against DC 10."
    shown = lines(roll("spirit", 6, dc=10, options={"bonus": "2"}))
    assert shown == ["Jack Spirit check: d6 6 +2 +2 = 10 vs DC 10: success."]


def test_a_will_check_counts_the_morale_penalties_carried_between_fights():
    # "Will = Spirit + 6"; each morale penalty: Will −1
    assert lines(roll("will", 3, dc=11)) == ["Jack Will check: d6 3 +8 = 11 vs DC 11: success."]
    assert lines(roll("will", 3, who=jack(morale_penalties=2), dc=11)) == [
        "Jack Will check: d6 3 +6 = 9 vs DC 11: failure."
    ]


def test_a_skill_check_names_the_skill_and_takes_its_bonus():
    shown = lines(roll("skill", 5, dc=7, options={"skill": "medicine", "bonus": "2"}))
    assert shown == ["Jack Medicine (skill) check: d6 5 +2 = 7 vs DC 7: success."]
    with pytest.raises(InvalidInput, match="skill=medicine"):
        roll("skill", 5, dc=7, options={"bonus": "2"})
    with pytest.raises(InvalidInput, match="kind:spirit"):
        roll("skill", 5, dc=7, options={"skill": "spirit"})


def test_the_seeds_veto_example_the_vetoing_character_loses_and_takes_a_morale_penalty():
    # "Jack's Will is only 8, while Bal-Ziggaroth's Will is 11. In the end, Jack only got 12, while
    # Bal-Ziggaroth got 14. Jack fails his veto, takes a morale penalty (dropping his Will to 7/2)"
    # (Minimum Will is Will − 6: 7/1, where the example writes 7/2.)
    outcome = roll("will", 4, 3, against=demon(), options={"veto": True})
    assert lines(outcome) == [
        "Jack Will check: d6 4 +8 = 12.",
        "Bal-Ziggaroth Will check: d6 3 +11 = 14.",
        "Jack's veto fails (12 to 14): Bal-Ziggaroth keeps control; Jack takes a morale penalty, Will 7/1.",
    ]
    assert outcome.lasting == {"morale_penalties": 1}


def test_a_veto_that_wins_skips_the_acting_characters_turn_and_costs_nothing():
    # "If the vetoing character wins, the acting character's turn is skipped."
    outcome = roll("will", 6, 1, against=demon(), options={"veto": True})
    assert lines(outcome)[-1] == "Jack's veto holds (14 to 12): Bal-Ziggaroth's turn is skipped."
    assert outcome.lasting is None


def test_an_opposed_will_check_that_ties_rolls_again():
    # "In cases of a tie, roll again."
    outcome = roll("will", 6, 3, 1, 2, against=demon())
    assert lines(outcome) == [
        "Jack Will check: d6 6 +8 = 14.",
        "Bal-Ziggaroth Will check: d6 3 +11 = 14.",
        "Tie at 14: both roll again.",
        "Jack Will check: d6 1 +8 = 9.",
        "Bal-Ziggaroth Will check: d6 2 +11 = 13.",
        "Bal-Ziggaroth wins (13 to 9).",
    ]
    assert outcome.lasting is None


def test_a_character_with_zero_will_cannot_veto():
    # "A character with zero Will cannot attempt to veto."
    with pytest.raises(NotAllowed, match="zero Will"):
        roll("will", 6, 1, who=jack(morale_penalties=8), against=demon(), options={"veto": True})


def test_an_opposed_initiative_check_decides_who_goes_first_and_ties_roll_again():
    # "have the contesting characters make a Reflex check for initiative"; "In the case of a draw,
    # have the characters who tied roll initiative checks again"
    outcome = roll("initiative", 3, 4, 5, 2, against=demon())
    assert lines(outcome) == [
        "Jack Initiative: d6 3 + Reflex 2 + Dex 1 = 6.",
        "Bal-Ziggaroth Initiative: d6 4 + Reflex 1 + Dex 1 = 6.",
        "Tie at 6: both roll again.",
        "Jack Initiative: d6 5 + Reflex 2 + Dex 1 = 8.",
        "Bal-Ziggaroth Initiative: d6 2 + Reflex 1 + Dex 1 = 4.",
        "Jack wins (8 to 4).",
    ]
    alone = roll("initiative", 3)
    assert lines(alone) == ["Jack Initiative: d6 3 + Reflex 2 + Dex 1 = 6."]


def test_two_players_characters_of_one_name_oppose_each_other_but_none_opposes_itself():
    # Names are unique per player: two players may both have a Jack.
    mine, theirs = jack().but(character_id=1), Resting(name="jack", owner_id=12, sheet=JACK, lasting={})
    outcome = roll("initiative", 5, 2, who=mine, against=theirs.but(character_id=2))
    assert lines(outcome)[-1] == "Jack wins (8 to 5).", lines(outcome)
    assert lines(roll("initiative", 5, 2, who=jack(), against=theirs))[-1] == "Jack wins (8 to 5)."
    for same in (mine, jack().but(character_id=1, lasting={"morale_penalties": 1})):
        with pytest.raises(InvalidInput, match="cannot oppose themselves"):
            roll("initiative", 5, 2, who=mine, against=same)
    with pytest.raises(InvalidInput, match="cannot oppose themselves"):
        roll("will", 5, 2, who=jack(), against=Resting(name="JACK", owner_id=11, sheet=JACK, lasting={}))


def test_a_missing_or_unwanted_dc_and_unknown_options_are_refused():
    with pytest.raises(InvalidInput, match=r"^The Reflex check needs a DC \(`dc:`\).$"):
        roll("reflex", 3)
    with pytest.raises(InvalidInput, match="^`bonus` is not an option of the Initiative check: it takes none.$"):
        roll("initiative", 3, options={"bonus": "2"})
    with pytest.raises(InvalidInput, match="or another character"):
        roll("will", 3)
    with pytest.raises(InvalidInput, match="not rolled against a DC"):
        roll("initiative", 3, dc=5)
    with pytest.raises(InvalidInput, match="not both"):
        roll("will", 3, 3, dc=5, against=demon())
    with pytest.raises(InvalidInput, match="advantage.*Options: `bonus`, `veto`"):
        roll("will", 3, dc=5, options={"advantage": True})
    with pytest.raises(InvalidInput, match="whole number"):
        roll("reflex", 3, dc=5, options={"bonus": "lots"})
    with pytest.raises(InvalidInput, match="against"):
        roll("reflex", 3, 3, against=demon())
    with pytest.raises(InvalidInput, match="veto"):
        roll("will", 3, dc=5, options={"veto": True})


def test_the_dying_the_unconscious_and_the_dead_make_no_checks():
    with pytest.raises(NotAllowed, match="unconscious"):
        roll("endurance", 3, who=jack(dying=True), dc=4)
    with pytest.raises(NotAllowed, match="unconscious"):
        roll("reflex", 3, who=jack(conditions=["unconscious"]), dc=4)
    with pytest.raises(NotAllowed, match="is dead: the GM can set `dead` to no"):
        roll("reflex", 3, who=jack(dead=True), dc=4)


def test_no_check_offers_anything_afterwards():
    with pytest.raises(Stale):
        SYSTEM.roll_check_again(CheckRequest(kind="will", who=jack(), dc=5), {}, "reroll", Chance(1))


def test_every_sheet_key_is_in_one_form_section_and_says_what_it_means():
    sections = SYSTEM.sheet_form()
    assert 1 <= len(sections) <= 5 and all(len(s.label) <= 45 for s in sections)
    keys = [k for s in sections for k in s.keys]
    assert sorted(keys) == sorted(SYSTEM.sheet_type.model_fields) and len(keys) == len(set(keys))
    for key in keys:
        assert SYSTEM.key_help(key)[0], key
