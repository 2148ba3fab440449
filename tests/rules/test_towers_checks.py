"""99 Towers' checks out of a fight, from the seed's "Skill, Aspect, and Attribute Checks": a flip of
the stat's value in cards against an effect's Attack flip or another character's flip, from the
campaign's deck (or cards entered by hand); and the sheet's form."""

from __future__ import annotations

import pytest

from rules.cards import full_deck, parse_cards
from rules.errors import InvalidInput, NotAllowed, Stale, UnknownAction
from rules.randomness import Chance
from rules.said import english
from rules.system import CheckRequest, Resting
from rules.systems.towers import SYSTEM
from rules.systems.towers.checks import check_again

# "Tony has an External Endurance of 2."
TONY = SYSTEM.parse_sheet("endurance=2 ss=2 hs=2 pd=3")
MIRA = SYSTEM.parse_sheet("endurance=3 ss=1 hs=3 pd=3")


def who(name="Tony", sheet=TONY, lasting=None):
    return Resting(name=name, owner_id=11, sheet=sheet, lasting=lasting or {})


def roll(kind, cards=None, *, dc=None, against=None, options=None, campaign=None, rng=3):
    request = CheckRequest(kind=kind, who=who(), dc=dc, against=against, options=options or {}, campaign=campaign or {})
    chance = Chance(rng, deck=(campaign or {}).get("deck") or (), entered_cards=parse_cards(cards) if cards else ())
    outcome = SYSTEM.roll_check(request, chance)
    chance.finish()
    return outcome, [english(line) for line in outcome.lines]


def test_the_seeds_poison_flips_five_cards_against_two_for_external_endurance():
    # "The poison has an Attack value of 5, which means that 5 cards will be drawn and the highest one kept.
    # Tony has an External Endurance of 2. This means he will draw 2 cards and keep the high one."
    outcome, lines = roll("endurance", "QC 7D 3H 2S 9C AH 4C", dc=5)
    assert lines == ["Attack 5: Q♣ 7♦ 3♥ 2♠ 9♣ → keep Q = 12 vs Tony Endurance 2: A♥ 4♣ → keep A = 14 → resisted"]
    assert outcome.campaign is None  # every card was entered: the campaign's deck is untouched


def test_against_an_aspect_only_the_flip_counts_and_the_effect_wins_a_tie():
    # "In the case of a check against an Aspect score, you do not add in the Aspect. You only take the value of
    # the flip." The effect attacks as an attack does: "If the Attacker's final value is equal to or higher than
    # the Defender's, the attack hits."
    _, lines = roll("endurance", "KC 7D 3H 2S 9C KH 4C", dc=5)
    assert lines[0].endswith("Tony Endurance 2: K♥ 4♣ → keep K = 13 → affected"), lines


def test_flip_and_shift_options_change_the_cards_and_the_kept_value():
    _, lines = roll("endurance", "5C 2D 3H 4S", dc=1, options={"flip": "1", "shift": "-1"})
    assert lines == [
        "Attack 1: 5♣ → keep 5 = 5 vs Tony Endurance 2 (modifier (flip+1); modifier (shift−1)): "
        "2♦ 3♥ 4♠ → keep 4 = 4 − 1 = 3 → affected"
    ]


def test_a_skill_check_flips_the_ranks_and_adds_the_matching_aspect():
    # "In the case of a skill check, you do get to use specialization bonuses and also add in the matching
    # Aspect score."  Tony's Soft Strength is 2; three ranks, three cards.
    _, lines = roll("skill", "8C 9D 2H 10S", dc=1, options={"ranks": "3", "aspect": "ss"})
    assert lines == [
        "Attack 1: 8♣ → keep 8 = 8 vs Tony skill 3 (SS (shift+2)): 9♦ 2♥ 10♠ → keep 10 = 10 + 2 = 12 → resisted"
    ]


def test_endurance_is_named_as_a_word_as_a_skill_checks_aspect_too():
    _, lines = roll("skill", "8C 9D 2H", dc=1, options={"ranks": "2", "aspect": "endurance"})
    assert "vs Tony skill 2 (Endurance (shift+2)): 9♦ 2♥ → keep 9 = 9 + 2 = 11" in lines[0]
    assert "ENDURANCE" not in lines[0]


def test_an_opposed_flip_against_another_character_goes_to_the_one_acting_on_a_tie():
    # The grapple's reversal is "Hard Strength plus size versus Hard Strength plus size"; the one acting flips first.
    mira = who("Mira", MIRA)
    _, lines = roll("hs", "JC 4D QH 3S 2C", against=mira)
    assert lines == [
        "Tony HS 2: J♣ 4♦ → keep J = 11",
        "Mira HS 3: Q♥ 3♠ 2♣ → keep Q = 12",
        "11 vs 12: Mira wins by 1.",
    ]
    _, lines = roll("hs", "QC 4D QH 3S 2C", against=mira)
    assert lines[-1] == "12 vs 12: a tie goes to Tony, who acts (as an attack hits on a tie)."


def test_the_other_character_may_flip_another_stat_or_the_same_skill():
    # "The attacker still uses the characteristic value specified by the power. The defender also uses
    # whatever value is specified." Duelists flip "his Dueling skill ... against his opponent's same skill".
    mira = who("Mira", MIRA)
    _, lines = roll("pd", "AC 2D 3H 4S KC 5D", against=mira, options={"vs": "endurance"})
    assert lines[1] == "Mira Endurance 3: 4♠ K♣ 5♦ → keep K = 13" and lines[2] == "14 vs 13: Tony wins by 1."
    _, lines = roll(
        "skill",
        "9C 2D 10H 3S",
        against=mira,
        options={"ranks": "2", "aspect": "ss", "vs_ranks": "2", "vs_aspect": "hs"},
    )
    assert lines == [
        "Tony skill 2 (SS (shift+2)): 9♣ 2♦ → keep 9 = 9 + 2 = 11",
        "Mira skill 2 (HS (shift+3)): 10♥ 3♠ → keep 10 = 10 + 3 = 13",
        "11 vs 13: Mira wins by 2.",
    ]


def test_the_cards_come_off_the_campaigns_deck_which_is_handed_back():
    deck = full_deck()[:10]
    outcome, lines = roll("endurance", dc=2, campaign={"deck": deck, "other": 1})
    assert outcome.campaign == {"deck": deck[:6], "other": 1}  # two for the effect, two for Tony, off the top
    top = [str(card) for card in parse_cards(" ".join(reversed(deck[6:])))]
    assert lines[0].startswith(f"Attack 2: {top[0]} {top[1]} → keep"), lines


def test_an_empty_deck_is_reshuffled_whole_when_the_flip_runs_out():
    outcome, _ = roll("endurance", dc=2, campaign={"deck": full_deck()[:1]})
    # one card left, three more needed: a new deck of the 51 cards not in hand, less those three
    deck = outcome.campaign["deck"]
    assert len(deck) == 48 and len(set(deck)) == 48 and full_deck()[0] not in deck


def test_a_check_needs_an_attack_value_or_another_character_but_not_both():
    with pytest.raises(InvalidInput, match="dc: the effect's Attack value"):
        roll("endurance")
    with pytest.raises(InvalidInput, match="not both"):
        roll("endurance", dc=3, against=who("Mira", MIRA))
    with pytest.raises(InvalidInput, match="`dc` must be between 1 and 30"):
        roll("endurance", dc=40)


def test_an_unknown_option_is_refused_with_the_known_ones():
    with pytest.raises(InvalidInput) as refused:
        roll("endurance", dc=3, options={"advantage": True})
    text = english(refused.value.said)
    assert "`advantage`" in text and all(f"`{key}`" in text for key in ("flip", "shift", "vs", "ranks", "aspect"))


def test_a_skill_check_needs_its_ranks_and_aspect_and_vs_names_a_stat():
    with pytest.raises(InvalidInput, match="ranks in the skill"):
        roll("skill", dc=3, options={"aspect": "ss"})
    with pytest.raises(InvalidInput, match="matching Aspect"):
        roll("skill", dc=3, options={"ranks": "2", "aspect": "charm"})
    with pytest.raises(InvalidInput, match="`vs`"):
        roll("pd", against=who("Mira", MIRA), options={"vs": "luck"})


def test_the_dead_roll_no_checks_and_unknown_kinds_name_the_known_ones():
    # Dead by the GM's /campaign adjust between fights, not in a fight: the refusal said "died in an earlier fight".
    dead = SYSTEM.adjust(TONY, {}, "dead", "yes")
    with pytest.raises(NotAllowed) as refused:
        SYSTEM.roll_check(CheckRequest(kind="endurance", who=who(lasting=dead), dc=3), Chance(1))
    assert english(refused.value.said) == "Tony is dead: the GM can set `dead` to no to bring them back."
    with pytest.raises(UnknownAction) as refused:
        SYSTEM.check_kind("charm")
    assert "`endurance`" in english(refused.value.said) and "`skill`" in english(refused.value.said)
    assert SYSTEM.check_kind("External Endurance").key == "endurance"


def test_a_check_offers_nothing_afterwards():
    request = CheckRequest(kind="endurance", who=who(), dc=3)
    with pytest.raises(Stale):
        check_again(request, {}, "reroll", Chance(1))


def test_the_sheets_form_holds_every_key_once_each_described():
    form = SYSTEM.sheet_form()
    keys = [key for section in form for key in section.keys]
    assert sorted(keys) == sorted(SYSTEM.sheet_type.model_fields) and len(keys) == len(set(keys))
    assert len(form) <= 5 and all(len(section.label) <= 45 for section in form)
    for key in keys:
        meaning, takes = SYSTEM.key_help(key)
        assert meaning, key
    assert SYSTEM.key_help("pa")[1] == "0–30" and SYSTEM.key_help("size")[1] == "-4–4"
    # The form reads back as the sheet it shows.
    fields = {section.label: SYSTEM.form_text(section, TONY) for section in form}
    assert SYSTEM.parse_form(fields) == TONY
