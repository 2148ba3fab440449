"""/roll: any dice notation outside a fight, with the same limits and entered dice as inside one."""

import pytest

from rules.dice import MAX_DICE, MAX_FACES, MAX_LENGTH
from rules.errors import DiceError
from rules.roll import BREAKDOWN_LIMIT, roll
from rules.said import english
from rules.text import pieces


def test_keep_highest_shows_every_die_and_strikes_the_dropped_one():
    rolled = roll("4d6kh3", 1, who="alice", entered=(3, 6, 1, 5))
    assert rolled.result.total == 14 and rolled.entered
    assert english(rolled.said) == "alice rolls `4d6kh3`: 4d6kh3 (3, 6, ~~1~~, 5) = **14**"


@pytest.mark.parametrize(
    ("expression", "entered", "total", "shown"),
    [
        ("4d6k3", (3, 6, 1, 5), 14, "(3, 6, ~~1~~, 5)"),  # as most dice rollers read it, not "the 3s"
        ("4d6p1", (3, 6, 1, 5), 14, "(3, 6, ~~1~~, 5)"),
        ("2d20k1", (4, 17), 17, "(~~4~~, 17)"),
        ("4d6p<2", (1, 6, 1, 5), 11, "(~~1~~, 6, ~~1~~, 5)"),  # dice by value: a comparison
    ],
)
def test_keep_or_drop_with_a_bare_number_keeps_the_highest_or_drops_the_lowest(expression, entered, total, shown):
    rolled = roll(expression, 1, who="alice", entered=entered)
    assert rolled.result.total == total and shown in english(rolled.said)


def test_a_modifier_and_the_reason():
    rolled = roll("2d6+3", 1, who="bob", reason="Stealth check", entered=(2, 5))
    assert english(rolled.said) == "bob rolls `2d6+3`: 2d6 (2, 5) + 3 = **10**\nReason: Stealth check"


def test_advantage_shows_the_natural_20_it_keeps():
    rolled = roll("2d20kh1+4", 1, who="alice", entered=(20, 3))
    assert rolled.result.total == 24
    assert english(rolled.said).startswith("alice rolls `2d20kh1+4`: 2d20kh1 (20, ~~3~~) + 4 = **24** 💥 natural 20!")


def test_a_natural_1_and_no_natural_on_other_dice():
    assert "natural 1" in english(roll("1d20", 1, who="a", entered=(1,)).said)
    assert "natural" not in english(roll("1d6", 1, who="a", entered=(1,)).said)
    assert "natural" not in english(roll("2d20", 1, who="a", entered=(20, 20)).said)


@pytest.mark.parametrize(
    ("expression", "faces", "natural"),
    [
        ("1d20e20", (20, 5), "💥 natural 20!"),
        ("1d20e20+3", (20, 20, 7), "💥 natural 20!"),
        ("1d20e1", (1, 4), "💀 natural 1!"),
        ("1d20e20", (7,), ""),
        ("2d20e20kh1", (20, 3, 7), "💥 natural 20!"),
    ],
)
def test_an_exploding_d20_reads_its_natural_on_the_first_die_as_a_plain_d20_does(expression, faces, natural):
    said = english(roll(expression, 1, who="a", entered=faces).said)
    assert said.endswith(f"** {natural}" if natural else "**"), said


def test_dice_a_d20_rolls_again_and_adds_are_two_d20s_with_no_natural():
    # Two d20s that both count (a reroll-and-add, or two that explode) read no natural, as `2d20` does.
    assert "natural" not in english(roll("1d20ra1", 1, who="a", entered=(1, 20)).said)
    assert "natural" not in english(roll("2d20e20", 1, who="a", entered=(20, 3, 7)).said)


def test_the_bot_rolls_when_nothing_is_entered():
    first, second = roll("3d6", 7, who="a"), roll("3d6", 7, who="a")
    assert first.result.dice == second.result.dice and not first.entered
    assert all(1 <= d <= 6 for d in first.result.dice) and len(first.result.dice) == 3


@pytest.mark.parametrize(
    ("expression", "refusal"),
    [
        ("fireball", "is not a dice expression"),
        (f"{MAX_DICE + 1}d6", f"At most {MAX_DICE} dice"),
        (f"1d{MAX_FACES + 1}", "faces"),
        ("1" * (MAX_LENGTH + 1), f"limited to {MAX_LENGTH} characters"),
        ("1000000d1000000", f"At most {MAX_DICE} dice"),
        ("1d1e1", "too many dice"),
        ("", "empty"),
    ],
)
def test_bad_notation_dice_bombs_and_huge_counts_are_refused(expression, refusal):
    with pytest.raises(DiceError, match=refusal):
        roll(expression, 1, who="a")


def test_entered_dice_that_do_not_fit_are_refused():
    with pytest.raises(DiceError, match="Too few dice entered"):
        roll("2d6", 1, who="a", entered=(3,))
    with pytest.raises(DiceError, match="not needed"):
        roll("2d6", 1, who="a", entered=(3, 4, 5))
    with pytest.raises(DiceError, match="cannot be rolled on a d6"):
        roll("1d6", 1, who="a", entered=(7,))


def test_a_long_breakdown_is_cut_between_dice_and_keeps_the_total():
    rolled = roll("100d1000000ro<1000000", 3, who="a")
    shown = english(rolled.said)
    assert shown.endswith(f", …) = **{rolled.result.total}**")
    assert len(shown) < BREAKDOWN_LIMIT + 100


def test_typed_text_is_shown_as_typed():
    rolled = roll("1d4", 1, who="**Boss**", reason="[Free Nitro](https://x.y)", entered=(2,))
    typed = [piece for piece, is_typed in pieces(rolled.said, None, reveal=True) if is_typed]
    assert "**Boss**" in english(rolled.said) and "**Boss**" in typed  # shown literally by the renderer


def test_the_longest_typed_parts_leave_the_line_inside_one_message():
    rolled = roll("100d1000000ro<1000000+" + "1+" * 38 + "1", 3, who="*" * 64, reason="_" * 600)
    shown = english(rolled.said)
    assert len(shown.replace("*", "**").replace("_", "__")) <= 1800
    assert shown.count("_") == 500 and f"= **{rolled.result.total}**" in shown


def test_keep_after_brackets_rolls_as_d20_reads_it():
    rolled = roll("(2d20)kh1", 1, who="alice", entered=(11, 20))
    assert rolled.result.total == 20
    assert english(rolled.said) == "alice rolls `(2d20)kh1`: (2d20)kh1 (~~11~~, 20) = **20** 💥 natural 20!"


def test_advantage_written_as_a_set_shows_the_natural_it_keeps():
    rolled = roll("(1d20, 1d20)kh1", 1, who="alice", entered=(20, 5))
    assert english(rolled.said) == ("alice rolls `(1d20, 1d20)kh1`: (1d20 (20), ~~1d20 (5)~~) = **20** 💥 natural 20!")
    assert "natural" not in english(roll("(1d20, 1d20)", 1, who="a", entered=(20, 5)).said)


@pytest.mark.parametrize(
    ("expression", "face", "natural"),
    [("1d20mi20", 3, ""), ("1d20ma1", 17, ""), ("1d20ma19", 20, "💥 natural 20!"), ("1d20mi2", 1, "💀 natural 1!")],
)
def test_a_natural_is_the_face_as_rolled_not_after_a_minimum_or_maximum(expression, face, natural):
    said = english(roll(expression, 1, who="a", entered=(face,)).said)
    assert said.endswith(f"** {natural}" if natural else "**")


def test_a_long_breakdown_is_never_cut_inside_a_struck_out_item_of_a_set():
    # 31 items of two dice each: the line's room ends inside a dropped item, which has a comma of its own.
    rolled = roll("(" + ",".join(["2d6"] * 31) + ")kh1", 1, who="a", reason="x" * 500)
    line = english(rolled.said).split("\n")[0]
    assert line.endswith(f"~~, …) = **{rolled.result.total}**") and line.count("~~") % 2 == 0


def test_a_breakdown_cut_inside_a_dropped_item_too_long_to_show_whole_closes_its_strike():
    # The first item, dropped, is longer than the room the typed parts leave: the cut falls inside it.
    rolled = roll("(100d1000000, 1)kl1", 1, who="a" * 64, reason="x" * 500)
    line = english(rolled.said).split("\n")[0]
    assert line.count("~~") == 2 and line.endswith(", …~~)) = **1**"), line
