"""Factions' checks (`/check`): a stored character's roll-under d20 saves, as a fight rolls them.

The seed: "He rolls 5 on a d20, a pass" (a WIT save to hit); "He rolls a 20 on the d20, a miss";
"He rolls a 2 on a d20, lower than their AGI [8], so the attack misses" (a dodge). SYSTEMS.md: "a save
passes when the d20 is ≤ the attribute (default: a natural 20 always fails)"."""

from __future__ import annotations

import pytest

from rules.errors import InvalidInput, RulesError, Stale
from rules.randomness import Chance
from rules.said import english
from rules.system import CheckRequest, Resting
from rules.systems.factions import SYSTEM
from rules.systems.factions.checks import check_again


def bandit(stats="agi=8 wit=12 str=20", **lasting):
    return Resting(name="Bandit", owner_id=1, sheet=SYSTEM.parse_sheet(stats), lasting=lasting, character_id=3)


def roll(kind, *dice, who=None, dc=None, options=None, **settings):
    request = CheckRequest(
        kind=kind,
        who=who or bandit(),
        dc=dc,
        options=options or {},
        settings=SYSTEM.settings_for(settings),
    )
    chance = Chance(1, (), dice)
    outcome = SYSTEM.roll_check(request, chance)
    chance.finish()
    return outcome, [english(line) for line in outcome.lines]


def test_the_system_offers_its_three_saves_and_the_seeds_chase_and_morale_without_a_dc():
    kinds = SYSTEM.check_kinds()
    assert [k.key for k in kinds] == ["str", "agi", "wit", "chase", "morale"]
    assert not any(k.dc or k.opposed for k in kinds)
    assert SYSTEM.check_kind("AGI save").key == "agi"


@pytest.mark.parametrize("die, verdict", [(2, "pass"), (8, "pass"), (9, "fail")])
def test_an_agi_save_passes_at_or_under_the_attribute(die, verdict):
    # "He rolls a 2 on a d20, lower than their AGI" (AGI 8): a pass; equal to it passes too.
    outcome, lines = roll("agi", die)
    assert lines == [f"Bandit AGI save: d20 {die} vs AGI 8 → {verdict}."]
    assert outcome.lasting is None and outcome.offers == ()


def test_a_wit_save_reads_the_sheets_wit_and_says_why():
    # "He rolls 5 on a d20, a pass, therefore Balthasar takes d6 damage."
    _, lines = roll("wit", 5, options={"why": "to hit (beyond half range)"})
    assert lines == ["Bandit WIT save to hit (beyond half range): d20 5 vs WIT 12 → pass."]
    _, lines = roll("wit", 13)
    assert lines == ["Bandit WIT save: d20 13 vs WIT 12 → fail."]


def test_a_natural_20_fails_even_under_strength_20_unless_the_campaign_turns_it_off():
    # "He rolls a 20 on the d20, a miss"
    _, lines = roll("str", 20)
    assert lines == ["Bandit STR save: d20 20 vs STR 20 → natural 20: fail."]
    _, lines = roll("str", 20, nat20_fails=False)
    assert lines == ["Bandit STR save: d20 20 vs STR 20 → pass."]


def test_an_unwritten_attribute_is_the_sheets_default_10():
    _, lines = roll("str", 10, who=bandit(""))
    assert lines == ["Bandit STR save: d20 10 vs STR 10 → pass."]


@pytest.mark.parametrize("die, said", [(8, "Bandit escapes."), (9, "Bandit is reached by the pursuers.")])
def test_a_chase_is_an_agi_save_those_who_pass_escape(die, said):
    # "a group AGI save: those who pass escape, those who fail are reached by the pursuers"
    _, lines = roll("chase", die)
    assert lines == [f"Bandit AGI save to escape: d20 {die} vs AGI 8 → {'pass' if die <= 8 else 'fail'}.", said]


def test_morale_is_a_wit_save_failures_surrender_or_retreat():
    # "Make a group WIT save: those who fail must surrender or retreat, but those who pass aren't
    # subject to morale for the remainder of the stretch." A /check records nothing (a fight's own
    # round-end save marks who holds), so the line promises no immunity.
    _, lines = roll("morale", 12)
    assert lines == [
        "Bandit WIT save (morale): d20 12 vs WIT 12 → pass.",
        "Bandit holds: does not surrender or retreat.",
    ]
    _, lines = roll("morale", 13)
    assert lines == ["Bandit WIT save (morale): d20 13 vs WIT 12 → fail.", "Bandit breaks: surrenders or retreats."]


def test_the_fearless_roll_no_morale_save():
    # "Characters who are immune to fear are also immune to morale."
    outcome, lines = roll("morale", who=bandit("fearless=yes"))
    assert lines == ["Bandit is immune to fear, hence to morale: no save."]


def test_the_lasting_state_decides_who_rolls():
    with pytest.raises(InvalidInput, match="dead"):
        roll("agi", 3, who=bandit(dead=True))
    with pytest.raises(InvalidInput, match="incapacitated"):
        roll("morale", 3, who=bandit(incapacitated=True))
    _, lines = roll("str", 3, who=bandit(incapacitated=True, health=2))  # other saves are the GM's call
    assert lines == ["Bandit STR save: d20 3 vs STR 20 → pass."]


def test_a_dc_an_unknown_option_or_a_why_without_text_is_refused():
    # "the", not "a": "A AGI save" read wrong
    with pytest.raises(InvalidInput, match="^The AGI save rolls under the character's attribute: it takes no DC.$"):
        roll("agi", 3, dc=10)
    with pytest.raises(InvalidInput, match=r"advantage.*`why=…`"):
        roll("agi", 3, options={"advantage": True})
    with pytest.raises(InvalidInput, match="why"):
        roll("agi", 3, options={"why": True})


def test_nothing_follows_a_save():
    request = CheckRequest(kind="agi", who=bandit())
    with pytest.raises(Stale):
        check_again(request, {}, "reroll", Chance(1))
    assert issubclass(Stale, RulesError)


def test_every_sheet_key_is_in_one_form_section_and_says_what_it_means():
    form = SYSTEM.sheet_form()
    keys = [key for section in form for key in section.keys]
    assert sorted(keys) == sorted(SYSTEM.sheet_type.model_fields) and len(keys) == len(set(keys))
    assert 1 <= len(form) <= 5 and all(len(section.label) <= 45 for section in form)
    assert all(SYSTEM.key_help(key)[0] for key in keys)
    assert SYSTEM.key_help("agi") == ("Agility: AGI saves (dodge, chase) roll at or under it", "1–20")


def test_the_help_has_a_checks_section():
    text = SYSTEM.help_text()
    (line,) = [line for line in text.splitlines() if line.startswith("**Checks**")]
    assert "`/check" in line and "chase" in line and "morale" in line
