"""What every rule system shares (rules/system.py): the sheet read from its form, and the whole numbers a
GM types for `/campaign adjust`."""

from __future__ import annotations

import pytest

from rules.errors import InvalidInput
from rules.said import english
from rules.system import whole_number
from rules.systems.factions import SYSTEM as FACTIONS
from rules.systems.frozen_lands import SYSTEM as FROZEN_LANDS


def form(**typed: str) -> dict[str, str]:
    """The Factions form as it opens (every key with its default), with the fields typed over."""
    fields = {section.label: FACTIONS.form_text(section) for section in FACTIONS.sheet_form()}
    return fields | {label.replace("_", " "): text for label, text in typed.items()}


def refusal(fields: dict[str, str]) -> str:
    with pytest.raises(InvalidInput) as refused:
        FACTIONS.parse_form(fields)
    return english(refused.value.said)


def test_a_form_line_is_read_as_the_stats_option_reads_it():
    sheet = FACTIONS.parse_form(form(Attributes="str:12\n\n  agi = 9 \nwit=", Size_and_weapons="weapons:bow:d6:8"))
    assert (sheet["str"], sheet["agi"], sheet["wit"]) == (12, 9, 10)  # `wit=` keeps the default
    assert sheet["weapons"] == "bow:d6:8"
    assert sheet == FACTIONS.parse_sheet("str:12 agi:9 weapons:bow:d6:8")


@pytest.mark.parametrize("line", ["agi 9", "agi", "two words=3", "=5"])
def test_a_form_line_that_cannot_be_read_is_refused_naming_its_field(line):
    said = refusal(form(Attributes=f"str=12\n{line}"))
    assert said.startswith("Attributes: Could not read") and line.strip() in said, said


def test_stats_typed_on_one_line_are_refused_as_a_line_to_mend_not_as_a_value():
    said = refusal(form(Attributes="str=12 agi=9\nwit=10"))
    assert said == "Attributes: Could not read `str=12 agi=9`: write one `key=value` per line.", said
    # A value of several words holding no stat is the value's own.
    assert FACTIONS.parse_form(form(Size_and_weapons="weapons=axe:d6, bow:d6:8"))["weapons"] == "axe:d6, bow:d6:8"


def test_a_key_given_twice_is_refused_naming_its_field():
    said = refusal(form(Attributes="str=12\nagi=9\nstr=14\nwit=10"))
    assert said == "Attributes: `str` is given twice: keep one of the lines.", said
    assert FACTIONS.parse_form(form(Attributes="str=\nstr=14\nagi=9\nwit=10"))["str"] == 14  # `str=` gives none


def test_a_key_typed_in_another_field_is_refused_when_its_own_gives_it_too():
    said = refusal(form(Attributes="str=10\nagi=10\nwit=10\nhealth=15"))
    assert said == "Attributes: `health` is given in Health and armour as well: keep one of them.", said
    # ... whichever field comes first
    said = refusal(form(Attributes="str=10\nagi=10\nwit=10", Traits="fearless=no\nconcealed=no\nstr=12"))
    assert said == "Traits: `str` is given in Attributes as well: keep one of them.", said
    # Left as `key=` in its own field, the key is given once.
    sheet = FACTIONS.parse_form(form(Attributes="str=10\nagi=10\nwit=10\nhealth=15", Health_and_armour="health="))
    assert sheet["health"] == 15


@pytest.mark.parametrize("typed", ["1_0", "３", "٣", "1.0", "ten", "", "+-1", "99" * 3000])
def test_an_adjusted_value_takes_only_ascii_digits(typed):
    with pytest.raises(InvalidInput, match="takes a whole number"):
        whole_number("stress", typed, 0, None)
    sheet = FROZEN_LANDS.parse_sheet("body=3 soul=2")
    with pytest.raises(InvalidInput, match="takes a whole number"):
        FROZEN_LANDS.adjust(sheet, {}, "stress", typed)


@pytest.mark.parametrize(("typed", "number"), [("3", 3), (" +4 ", 4), ("-2", -2), ("007", 7)])
def test_an_adjusted_value_is_a_sign_and_digits(typed, number):
    assert whole_number("lethal", typed, -10, 10) == number
