"""99 Towers conditions take any name: a combatant holds at most MAX_CONDITIONS of them, so that the lasting
ones a fight writes to a hero stay within what a campaign file's import takes."""

from __future__ import annotations

import pytest

from rules.common import MAX_CONDITIONS
from rules.errors import InvalidInput
from rules.said import english
from rules.systems.towers import SYSTEM
from tests.rules.test_towers_helpers import add, command, new

FULL = f"Tony already has {MAX_CONDITIONS} conditions: remove one with /condition remove first."


def tony():
    return add(new(), "Tony", "KH", "stun=10 lethal=5", player=True).state


def cursed_to_the_bound(enc, held=MAX_CONDITIONS):
    """Tony under ever new conditions, each standing beside the others, until he holds `held`."""
    for n in range(held):
        enc = command(enc, "condition_add", target="Tony", condition=f"cursed {n}").state
    return enc


@pytest.mark.parametrize("name", ["hexed", "dazzled for a while"], ids=["lasting", "timed"])
def test_a_new_condition_past_the_most_a_combatant_holds_is_refused_and_changes_nothing(name):
    """Any name was taken, so ever new names added ever more conditions, and the lasting ones a fight
    writes to the hero grew past what a campaign file's import takes."""
    enc = cursed_to_the_bound(tony())
    held = enc.find("Tony").conditions
    assert len(held) == MAX_CONDITIONS
    duration = "5 phases" if name != "hexed" else None
    with pytest.raises(InvalidInput) as refused:
        command(enc, "condition_add", target="Tony", condition=name, duration=duration)
    assert str(refused.value) == FULL
    assert enc.find("Tony").conditions == held
    assert len(SYSTEM.lasting(enc, enc.find("Tony"))["conditions"]) == MAX_CONDITIONS


def test_at_the_most_conditions_one_that_replaces_a_held_one_is_still_taken():
    enc = cursed_to_the_bound(tony())
    # the same name in another case: it takes the place of the one held, now for 5 phases
    out = command(enc, "condition_add", target="Tony", condition="CURSED 7", duration="5 phases")
    conditions = out.state.find("Tony").conditions
    assert len(conditions) == MAX_CONDITIONS
    assert [(c.name, c.until_phase is not None) for c in conditions if c.name.casefold() == "cursed 7"] == [
        ("CURSED 7", True)
    ]
    # prone is a posture, not one more condition
    enc = command(out.state, "condition_add", target="Tony", condition="prone").state
    assert enc.find("Tony").prone and len(enc.find("Tony").conditions) == MAX_CONDITIONS
    # one removed, a new one has room again
    enc = command(enc, "condition_remove", target="Tony", condition="cursed 0").state
    enc = command(enc, "condition_add", target="Tony", condition="hexed").state
    assert len(enc.find("Tony").conditions) == MAX_CONDITIONS and enc.find("Tony").conditions[-1].name == "hexed"


def test_the_tracker_says_which_conditions_are_minor():
    # Only a minor condition can be shaken ("Shake Minor Condition ... remove one minor condition"): the
    # tracker said "blinded" where /character show said "blinded (minor)".
    enc = command(tony(), "condition_add", target="Tony", condition="blinded", tags="minor").state
    enc = command(enc, "condition_add", target="Tony", condition="cursed").state
    assert "· blinded (minor), cursed," in english(SYSTEM.status_line(enc, enc.find("Tony"), reveal=True))


def test_prone_on_one_already_prone_or_off_one_standing_is_refused_rather_than_announced():
    with pytest.raises(InvalidInput, match="Tony is not prone"):
        command(tony(), "condition_remove", target="Tony", condition="prone")
    enc = command(tony(), "condition_add", target="Tony", condition="prone").state
    with pytest.raises(InvalidInput, match="Tony is already prone"):
        command(enc, "condition_add", target="Tony", condition="prone")
