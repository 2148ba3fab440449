"""Them's Fightin' Words' d6 check: meeting the number is enough."""

import pytest

from rules.randomness import Chance
from rules.systems.fightin_words.checks import d6_check, signed


@pytest.mark.parametrize(
    "die, bonus, need, ok", [(3, 2, 5, True), (3, 1, 5, False), (6, -2, 4, True), (1, 0, 2, False)]
)
def test_a_d6_check_meets_or_beats_the_number(die, bonus, need, ok):
    assert tuple(d6_check(Chance(1, (), [die]), bonus, need)) == (die, die + bonus, ok)


def test_a_bonus_reads_with_its_sign_apart():
    assert (signed(2), signed(0), signed(-1)) == ("+ 2", "+ 0", "− 1")
