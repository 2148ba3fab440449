"""The between-fight helpers every system's rest and carry-in use."""

import pytest

from rules.between import MAX_ENTRIES, at_most_sheet, dead_rest, heading, kept, refuse_dead, split_entries
from rules.errors import InvalidInput, NotAllowed
from rules.randomness import Chance
from rules.said import english
from rules.system import Rest, Resting
from rules.text import Phrase, Plural, Text, walk


def templates(text: Text) -> list[str | Plural]:
    """Every phrase said in `text`, each after the phrases inside it."""
    return [node.asked for node in reversed(list(walk(text))) if isinstance(node, Phrase)]


def resting(**lasting):
    return Resting(name="Mira", owner_id=2, sheet={}, lasting=lasting)


def test_a_kept_value_stays_between_zero_and_the_sheet_and_starts_full():
    assert kept({}, "stamina", 12) == 12
    assert kept({"stamina": 5}, "stamina", 12) == 5
    assert kept({"stamina": 30}, "stamina", 12) == 12
    assert kept({"stamina": -4}, "stamina", 12) == 0


def test_the_dead_rest_unchanged_in_the_systems_words_and_the_living_rest():
    state, text = dead_rest(resting(dead=True, stress=3), "resting")
    assert state == {"dead": True, "stress": 3} and english(text) == "Mira is dead: resting changes nothing."
    assert english(dead_rest(resting(dead=True))[1]) == "Mira is dead: rest changes nothing."
    assert dead_rest(resting(dead=False, stress=3)) is None


def test_the_dead_join_no_fight_until_the_gm_says_so():
    # `dead` may be the GM's /campaign adjust between fights as well as a fight's end.
    with pytest.raises(NotAllowed) as refused:
        refuse_dead("Mira", {"dead": True})
    assert english(refused.value.said) == "Mira is dead: the GM can set `dead` to no to bring them back."
    refuse_dead("Mira", {"dead": False})


def test_an_adjusted_value_may_not_pass_the_sheet():
    view = {"max_health": 8, "max_grit": 2}
    assert at_most_sheet({"health": 8}, view, ("health", "grit")) == {"health": 8}
    with pytest.raises(InvalidInput, match=r"`grit` can be at most 2 \(the sheet's grit\)"):
        at_most_sheet({"grit": 3}, view, ("health", "grit"))


def test_a_rests_heading_says_its_label_and_whether_dice_were_entered():
    rest = Rest(key="short", label="Short rest", rule="…")
    assert english(heading(rest, Chance(1))) == "🛌 Short rest:"
    entered = heading(rest, Chance(1, entered_dice=(3,)))
    assert english(entered) == "🛌 Short rest (dice entered by hand):"
    assert templates(entered) == ["Short rest", "{rest} (dice entered by hand):"]


def test_commas_separate_entries_and_blank_ones_are_dropped():
    assert split_entries(" Stunned, Dazed ,, Weakened (Strength) ") == ["Stunned", "Dazed", "Weakened (Strength)"]


def test_a_comma_inside_parentheses_stays_in_its_entry():
    assert split_entries("Weakened (Strength, Speed), Dazed") == ["Weakened (Strength, Speed)", "Dazed"]
    assert split_entries("a (b (c, d), e), f") == ["a (b (c, d), e)", "f"]


def test_a_closing_parenthesis_with_no_opening_one_does_not_hold_the_next_comma():
    assert split_entries("a), b, c") == ["a)", "b", "c"]


def test_at_most_so_many_entries_are_read():
    assert len(split_entries(",".join(str(n) for n in range(MAX_ENTRIES + 5)))) == MAX_ENTRIES
    assert split_entries(None) == [] and split_entries("") == []
