import pytest

from rules.dice import MAX_DICE, evaluate, parse_entered
from rules.errors import DiceError, RulesError
from rules.randomness import Chance


def fixed(values):
    it = iter(values)
    return lambda size: next(it)


def test_keep_highest_with_entered_dice():
    result = evaluate("4d6kh3+2", fixed([3, 6, 1, 5]))
    assert result.total == 16
    assert result.dice == (3, 6, 1, 5)
    assert "~~1~~" in result.text


def test_advantage_style_set():
    assert evaluate("2d20kl1", fixed([14, 3])).total == 3


@pytest.mark.parametrize(
    "expr", ["1000000d1000000", "101d6", "1d1000001", "(" * 30 + "1" + ")" * 30, "x" * 300, "", "2d6 > 3"]
)
def test_bombs_and_garbage_are_refused_quickly(expr):
    with pytest.raises(DiceError):
        evaluate(expr, fixed([1] * 1000))


def test_exploding_one_sided_dice_stop():
    with pytest.raises(DiceError):
        evaluate("1d1e1", lambda size: 1)


def test_division_by_zero_is_a_clear_error():
    with pytest.raises(DiceError, match="zero"):
        evaluate("1d6/0", fixed([3]))


def test_entered_values_are_used_then_checked():
    chance = Chance(1, entered_dice=(15, 4))
    assert chance.die(20) == 15
    assert chance.roll("1d6").total == 4
    chance.finish()


def test_entered_value_out_of_range_is_refused():
    with pytest.raises(DiceError, match="d6"):
        Chance(1, entered_dice=(7,)).die(6)


def test_unused_entered_values_are_refused():
    chance = Chance(1, entered_dice=(3, 4))
    chance.die(6)
    with pytest.raises(RulesError, match="not needed"):
        chance.finish()


def test_parse_entered():
    assert parse_entered("4 6, 2") == (4, 6, 2)
    with pytest.raises(DiceError):
        parse_entered("4 six")
    with pytest.raises(DiceError):
        parse_entered(" ".join(["1"] * (MAX_DICE + 1)))


def test_generator_is_deterministic_per_state():
    a, b = Chance(99), Chance(99)
    assert [a.die(20) for _ in range(20)] == [b.die(20) for _ in range(20)]
    assert a.rng_state == b.rng_state


def test_deck_flips_entered_cards_then_reshuffles_when_empty():
    chance = Chance(5, deck=("2C",), entered_cards=())
    first = chance.flip(1)[0]
    assert first.code == "2C"
    second = chance.flip(1)[0]
    assert chance.reshuffled and len(chance.deck) == 51 and second.code not in chance.deck
