"""Them's Fightin' Words: waking flat-footed, and the confusion chart's conditions for the round, each rule quoted."""

from __future__ import annotations

import pytest

from rules.actions import AddCombatants
from rules.errors import InvalidInput
from rules.said import english
from rules.secrets import conceal, reveal
from rules.systems.fightin_words import SYSTEM
from rules.systems.fightin_words.model import Fighter
from tests.rules.test_fightin_words import GM, Fight


def sleeper() -> Fight:
    """The Goblin sleeps; Mauve (Reflex 3) acts first."""
    fight = Fight()
    fight.add("Mauve", 4, player=True, reflex=3, weapon_skill=3, weapons="arming sword:1d8")
    fight.add("Goblin", 1, parry=1)
    fight.next()
    return fight


def test_a_sleeper_woken_by_the_gm_is_flat_footed_for_one_round():
    # Sleeping: "When a character first wakes up from being asleep, he is flat-footed for one round."
    fight = sleeper()
    fight.command("condition_add", target="Goblin", condition="sleeping")
    fight.command("condition_remove", target="Goblin", condition="sleeping")
    assert "Goblin wakes up (flat-footed for one round)." in fight.text()
    fight.command("attack", target="Goblin", dice="4 1")
    assert "Goblin cannot defend (flat-footed)." in fight.text()


def test_a_sleep_that_runs_out_leaves_the_sleeper_flat_footed_through_the_next_round():
    fight = sleeper()
    fight.command("condition_add", target="Goblin", condition="sleeping", duration="1 round")
    fight.next()  # the sleeping Goblin's turn passes; round 1 ends
    assert "Goblin is no longer sleeping." in fight.text()
    assert "Goblin wakes up (flat-footed for one round)." in fight.text()
    fight.command("attack", target="Goblin", dice="4 1")  # round 2, Mauve's turn
    assert "Goblin cannot defend (flat-footed)." in fight.text()
    fight.next()
    fight.next()  # round 2 ends: its one round is over
    assert "Goblin is no longer flat-footed." in fight.text()


def test_an_unconsciousness_that_runs_out_while_dying_wakes_nobody():
    fight = sleeper()
    fight.command("condition_add", target="Goblin", condition="unconscious", duration="1 round")
    fight.command("condition_add", target="Goblin", condition="dying")
    fight.next()
    assert "wakes up" not in fight.text()
    assert not any(c.name == "flat-footed" for c in fight.f("Goblin").conditions)


def confused_goblin(*chart) -> Fight:
    """The confused Goblin (Parry +2) acts first and rolls `chart` on the confusion chart; then Mauve's turn."""
    fight = Fight()
    fight.add("Goblin", 6, parry=2)
    fight.add("Mauve", 1, player=True, weapon_skill=3, weapons="arming sword:1d8")
    fight.command("condition_add", target="Goblin", condition="confused", duration="3 rounds")
    fight.next(*chart)
    return fight


def test_confusion_1_adds_rounds_each_counted_in_its_own_form():
    # The chart: "Roll the die again, ignoring any future results of '1.' The character is confused for an additional
    # 1d6 rounds." A d6 of 1 adds one round.
    assert "+1 round (d6)" in confused_goblin(1, 1, 13).text()
    assert "+4 rounds (d6)" in confused_goblin(1, 4, 13).text()


def test_confusion_13_leaves_the_character_flanked_for_the_round():
    # The chart: "13 Character hallucinates ghostly attackers, and attacks random space. The character is flanked
    # for the round." Flanked: "-1 to all defence rolls".
    fight = confused_goblin(13)
    assert any(c.name == "flanked" and c.rounds == 1 for c in fight.f("Goblin").conditions)
    fight.next()  # Mauve's turn
    fight.command("attack", target="Goblin", dice="4 1")
    assert "🛡️ Goblin may defend against a hit (DC 7, flanked: −1): waiting for the choice." in fight.text()
    fight.choose("parry", 5)
    assert "Goblin parries: d6 5 +1 = 6 vs DC 7: fails." in fight.text()
    fight.next()  # the round ends
    assert "Goblin is no longer flanked." in fight.text()


def test_confusion_5_panics_the_character_for_this_round_only():
    # The chart: "5 Creature is Panicked for this round".
    fight = confused_goblin(5)
    assert "Goblin is Panicked: flees the source of fear as fast as possible; may still defend." in fight.text()
    fight.next()
    fight.next()  # the round ends
    assert "Goblin is no longer panicked." in fight.text()


def test_the_chart_does_not_cut_short_a_panic_that_lasts_until_removed():
    fight = Fight()
    fight.add("Goblin", 6)
    fight.add("Mauve", 1, player=True)
    fight.command("condition_add", target="Goblin", condition="panicked")  # as a Fear effect beating Will leaves it
    fight.command("condition_add", target="Goblin", condition="confused", duration="3 rounds")
    fight.next(5)
    fight.next()
    fight.next()
    assert any(c.name == "panicked" and c.rounds is None for c in fight.f("Goblin").conditions)


def test_the_gm_can_mark_a_defender_flanked_for_every_attack():
    # Flanking: "Flanked characters take a -1 circumstance penalty to all defence rolls made against any attack,
    # not just ones made by the flanking enemies."
    fight = confused_goblin(18)
    fight.command("condition_add", target="Goblin", condition="flanked")
    fight.next()
    fight.command("attack", target="Goblin", dice="4 1")
    fight.choose("parry", 5)
    assert "Goblin parries: d6 5 +1 = 6 vs DC 7: fails." in fight.text()


def test_a_mobility_penalty_is_something_a_character_has_not_is():
    # "Mobility Penalty: Mobility penalties represent encumbrance": a noun, as a wound or a morale penalty.
    fight = sleeper()
    fight.command("condition_add", target="Goblin", condition="mobility penalty")
    assert "Goblin takes a mobility penalty (1 in all): −1 Acrobatics" in fight.text()
    assert "is mobility penalty" not in fight.text()


def test_mobility_penalties_stack_one_for_each_time_the_gm_adds_one():
    # "Each mobility penalty also subtracts half a square of movement from your speed. [...]
    # Multiple mobility penalties stack."
    fight = sleeper()
    fight.command("condition_add", target="Goblin", condition="mobility penalty")
    fight.command("condition_add", target="Goblin", condition="mobility")
    assert fight.text() == (
        "Goblin takes a mobility penalty (2 in all): −2 Acrobatics, Athletics, Wrestle, Stealth; −1 square of speed."
    )
    fight.command("condition_add", target="Goblin", condition="mobility penalty")
    assert "(3 in all): −3 Acrobatics, Athletics, Wrestle, Stealth; −1½ squares of speed." in fight.text()
    assert fight.f("Goblin").mobility_penalties == 3
    status = english(SYSTEM.status_line(fight.enc, fight.f("Goblin"), reveal=True))
    assert "3 mobility penalties" in status
    # taken off one at a time, or all at once
    fight.command("condition_remove", target="Goblin", condition="mobility penalty")
    assert fight.text() == (
        "Goblin loses a mobility penalty (2 left): −2 Acrobatics, Athletics, Wrestle, Stealth; −1 square of speed."
    )
    fight.command("condition_remove", target="Goblin", condition="all mobility penalties")
    assert fight.text() == "Goblin loses all their mobility penalties (2 in all)."
    assert fight.f("Goblin").mobility_penalties == 0
    fight.command("condition_add", target="Goblin", condition="mobility penalty")
    fight.command("condition_remove", target="Goblin", condition="all mobility penalties")
    assert fight.text() == "Goblin loses all their mobility penalties (1 in all)."
    with pytest.raises(InvalidInput, match="has no mobility penalty"):
        fight.command("condition_remove", target="Goblin", condition="mobility penalty")


def test_a_mobility_penalty_lasts_until_removed():
    fight = sleeper()
    with pytest.raises(InvalidInput, match="until removed"):
        fight.command("condition_add", target="Goblin", condition="mobility penalty", duration="3 rounds")


def test_a_fight_stored_with_a_mobility_penalty_as_a_condition_counts_it():
    stored = {"id": "c1", "name": "Goblin", "conditions": [{"name": "mobility penalty"}, {"name": "held"}]}
    goblin = Fighter.model_validate(stored)
    assert goblin.mobility_penalties == 1 and [c.name for c in goblin.conditions] == ["held"]


def spy() -> Fight:
    """Mauve against the Spy, an NPC the GM keeps hidden."""
    fight = Fight()
    fight.add("Mauve", 4, player=True, reflex=3)
    fight.do(AddCombatants(by=GM, name="Spy", sheet={}, npc=True, hidden=True, dice=(1,)))
    fight.next()
    return fight


def test_a_hidden_npc_losing_its_last_mobility_penalty_keeps_the_count_secret():
    # The other mobility lines read "?" for a hidden NPC's count: the last one off must not say it was the last.
    fight = spy()
    fight.command("condition_add", target="Spy", condition="mobility penalty")
    fight.command("condition_add", target="Spy", condition="mobility penalty")
    fight.command("condition_remove", target="Spy", condition="mobility penalty")
    some_left = [conceal(e.said) for e in fight.events]
    fight.command("condition_remove", target="Spy", condition="mobility penalty")
    assert [conceal(e.said) for e in fight.events] == some_left == ["Spy loses a mobility penalty (? left): ?."]
    assert [reveal(e.said) for e in fight.events] == [
        "Spy loses a mobility penalty (0 left): no more penalty to Acrobatics, Athletics, Wrestle, Stealth or speed."
    ]
    # all of them at once: one penalty or two read alike
    for count in (1, 2):
        for _ in range(count):
            fight.command("condition_add", target="Spy", condition="mobility penalty")
        fight.command("condition_remove", target="Spy", condition="all mobility penalties")
        assert [conceal(e.said) for e in fight.events] == ["Spy loses all their mobility penalties (? in all)."]
        assert reveal(fight.events[0].said) == f"Spy loses all their mobility penalties ({count} in all)."


def test_a_posture_replaces_the_other_and_says_so():
    # "Crouching or going prone each take 1 second. Going from one to the other takes a second as well.":
    # a character is crouching or prone, never both.
    fight = sleeper()
    fight.command("condition_add", target="Goblin", condition="prone")
    assert fight.text() == "Goblin is prone."
    fight.command("condition_add", target="Goblin", condition="crouching")
    assert fight.text() == "Goblin is crouching, no longer prone."
    assert fight.f("Goblin").posture == "crouching"
    # taking off the posture they left does not stand them up
    with pytest.raises(InvalidInput, match="Goblin is not prone"):
        fight.command("condition_remove", target="Goblin", condition="prone")
    fight.command("condition_remove", target="Goblin", condition="crouching")
    assert fight.text() == "Goblin is standing."
    with pytest.raises(InvalidInput, match="Goblin is not crouching"):
        fight.command("condition_remove", target="Goblin", condition="crouching")


def test_a_posture_already_held_is_refused_rather_than_announced_again():
    # As `/act action:prone` on one already prone: nothing would change, so nothing is said in the channel.
    fight = sleeper()
    fight.command("condition_add", target="Goblin", condition="prone")
    with pytest.raises(InvalidInput, match="Goblin is already prone"):
        fight.command("condition_add", target="Goblin", condition="prone")
    assert fight.f("Goblin").posture == "prone"
