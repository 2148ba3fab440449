"""Numbers as lines write them."""

from __future__ import annotations

from rules.numbers import added, modifier, number


def test_a_number_below_zero_takes_the_minus_sign_and_nothing_else_changes():
    assert number(-4, "-4") == "−4" and number(-4, "-4.0") == "−4.0" and number(3, "3") == "3"
    assert number("-4", "-4") == "-4"  # text, not a number: as it is
    assert number(True, "True") == "True"


def test_a_modifier_reads_with_its_sign_and_after_a_die_with_its_sign_apart():
    assert (modifier(2), modifier(0), modifier(-1)) == ("+2", "+0", "−1")
    assert (added(2), added(0), added(-1)) == ("+ 2", "+ 0", "− 1")
