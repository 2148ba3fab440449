"""Dual-wielding stances (seed, "Off-Hand Weapons and Dual-Wielding"): fighting
aggressively gives +1 PA and −1 PD, defensively +1 PD and −1 PA; the style may
change at the start of each action, so choosing it is free and it holds until changed."""

from __future__ import annotations

import pytest

from rules.errors import InvalidInput
from rules.said import english
from rules.systems.towers import SYSTEM
from tests.rules.test_towers_helpers import add, begin, command, new, phase_of, texts, who

# PA 4 and PD 3; the Longblade's +1pa makes 5 attack cards without a stance.
DUAL = (
    "init=2 ss=2 hs=3 pa=4 pd=3 id=2 sa=2 er=1 stun=12 lethal=6 endurance=2 px=2 "
    'weapons="Longblade: 4+px +1pa; Shortblade: 2+px; Spark: 3 sa arcane r10"'
)
ONE_BLADE = 'init=2 ss=2 hs=3 pa=4 pd=3 px=2 weapons="Longblade: 4+px +1pa; Pistol: 5 r6"'
BANDIT = 'init=1 ss=1 hs=2 pa=3 pd=2 id=1 er=1 stun=10 lethal=5 endurance=1 weapons="Club: 2+hs"'
MAGE = 'init=1 ss=1 sa=4 pd=2 id=3 mana=6 stun=8 lethal=4 weapons="Bolt of Fire: 6 sa arcane fire r10"'


def fight(hero=DUAL, foe=BANDIT):
    """Hero CI 15 acts in phase 5; the foe CI 10 in phase 10."""
    enc = add(new(), "Hero", "KH 4C", hero).state
    enc = add(enc, "Foe", "9D", foe).state
    return begin(enc).state


def stance(enc, word):
    return command(enc, "act", action="stance", options=word)


def waits_for_the_foe(enc):
    """On the Hero's turn in phase 5 or 10: Interact with Inventory (10) lets the foe act first."""
    enc = command(enc, "act", action="interact inventory").state
    assert who(enc) == "Foe"
    return enc


def test_aggressive_stance_turns_one_more_attack_card_and_one_fewer_defence_card():
    out = stance(fight(), "aggressive")
    assert texts(out) == ["Hero fights aggressively with two weapons: PA +1, PD −1 until changed."]
    # PA 4 + Longblade 1 + aggressive 1 = 6 cards.
    out = command(out.state, "attack", target="Foe", weapon="longblade", cards="2C 3C 8S 5D 6D 7C JC")
    assert texts(out)[0] == (
        "Hero: Attack with Longblade on Foe — PA 4 (Longblade (flip+1); aggressive stance (flip+1)): "
        "2♣ 3♣ 8♠ 5♦ 6♦ 7♣ → keep 8 = 8"
    )
    enc = out.state
    assert who(enc) == "Hero"  # phase 10, ahead of the foe on the tie
    enc = waits_for_the_foe(enc)
    # PD 3 − aggressive 1 = 2 cards.
    out = command(enc, "attack", target="Hero", cards="9C 2C 3C 8D 4D")
    assert texts(out)[1] == "Hero PD 3 (aggressive stance (flip−1)): 8♦ 4♦ → keep 8 = 8 → 9 vs 8: hit"


def test_defensive_stance_turns_one_fewer_attack_card_and_one_more_defence_card():
    enc = stance(fight(), "defensive").state
    # PA 4 + Longblade 1 − defensive 1 = 4 cards.
    out = command(enc, "attack", target="Foe", weapon="longblade", cards="2C 3C 8S 5D JC")
    assert texts(out)[0] == (
        "Hero: Attack with Longblade on Foe — PA 4 (Longblade (flip+1); defensive stance (flip−1)): "
        "2♣ 3♣ 8♠ 5♦ → keep 8 = 8"
    )
    enc = waits_for_the_foe(out.state)
    # PD 3 + defensive 1 = 4 cards.
    out = command(enc, "attack", target="Hero", cards="9C 2C 3C 8D 4D 5H 6H")
    assert texts(out)[1] == "Hero PD 3 (defensive stance (flip+1)): 8♦ 4♦ 5♥ 6♥ → keep 8 = 8 → 9 vs 8: hit"


def test_choosing_is_free_and_the_stance_holds_until_changed_or_dropped():
    enc = fight()
    out = stance(enc, "aggressive")
    assert who(out.state) == "Hero" and phase_of(out.state, "Hero") == 5  # no time spent
    enc = stance(out.state, "defensive").state
    enc = waits_for_the_foe(enc)
    enc = command(enc, "act", action="aim").state  # the foe's turn passes; the Hero's next one begins
    assert who(enc) == "Hero" and enc.find("Hero").stance == "defensive"
    hero = enc.find("Hero").id
    assert english(SYSTEM.turn_summary(enc, hero)[0]) == (
        "Fighting defensively (PA −1, PD +1): change it before acting with /act action:stance (free)."
    )
    assert english(SYSTEM.status_line(enc, enc.find("Hero"), reveal=True)).endswith("defensive stance")
    out = stance(enc, "none")
    assert texts(out) == ["Hero drops the defensive stance."]
    assert out.state.find("Hero").stance == ""
    out = command(out.state, "attack", target="Foe", weapon="longblade", cards="2C 3C 8S 5D 6D JC 2H")
    assert "stance" not in texts(out)[0] and "2♣ 3♣ 8♠ 5♦ 6♦ → keep 8" in texts(out)[0]


def test_spells_and_defences_against_spells_ignore_the_stance():
    enc = stance(fight(foe=MAGE), "aggressive").state
    # SA 2 cards, then the mage's ID 3.
    out = command(enc, "attack", target="Foe", weapon="spark", cards="2C 9S QC 3D 4D")
    assert texts(out)[0] == "Hero: Attack with Spark on Foe — SA 2: 2♣ 9♠ → keep 9 = 9"
    enc = waits_for_the_foe(out.state)
    out = command(enc, "attack", target="Hero", weapon="bolt of fire", cards="9C 2C 3C 4C 8D 4D")
    assert texts(out)[1] == "Hero ID 2: 8♦ 4♦ → keep 8 = 8 → 9 vs 8: hit"


def test_a_stance_needs_two_melee_weapons_and_one_clear_choice():
    enc = fight(hero=ONE_BLADE)
    with pytest.raises(InvalidInput, match="two melee weapons: Hero's sheet lists Longblade"):
        stance(enc, "aggressive")
    enc = fight()
    for unclear in ("", "stance=wild", "aggressive defensive"):
        with pytest.raises(InvalidInput, match="Choose one stance"):
            stance(enc, unclear)
    with pytest.raises(InvalidInput, match="Unknown option `wild` for /act action:stance. Options: `stance`, `aggres"):
        stance(enc, "wild")
    with pytest.raises(InvalidInput, match="no stance to drop"):
        stance(enc, "none")
    with pytest.raises(InvalidInput, match="already fights aggressively"):
        stance(stance(enc, "aggressive").state, "aggressive")


def test_the_stance_is_offered_by_act_with_its_cost():
    assert english(dict(SYSTEM.act_choices())["stance"]) == "Dual-Wield Stance (free)"
    assert texts(command(fight(), "act", action="dual-wield", options="defensive"))[0].startswith(
        "Hero fights defensively"
    )


def test_a_stance_changes_the_defence_against_a_grapple_test():
    # "If he chooses to fight defensively, he gains +1 <PD>": a Grapple Test flips the defender's PD.
    enc = waits_for_the_foe(stance(fight(), "defensive").state)
    out = command(enc, "act", action="grapple", target="Hero", cards="9C 2C 3C 8D 4D 2D 3D")
    assert "Hero PD 3 (defensive stance (flip+1)): 8♦ 4♦ 2♦ 3♦ → keep 8" in texts(out)[0]


def test_a_stance_changes_the_grapplers_attack_in_a_grapple_test():
    # "Attacker's Attack <PA> plus Size versus the Defender's Physical Defense [PD] plus Size": the
    # aggressive stance's "+1 <PA>" turns one more card there, as its −1 <PD> turns one fewer.
    enc = stance(fight(), "aggressive").state
    out = command(enc, "act", action="grapple", target="Foe", cards="2C 3C 8S 5D 6D 7C")
    assert "Hero PA 4 (aggressive stance (flip+1)): 2♣ 3♣ 8♠ 5♦ 6♦ → keep 8" in texts(out)[0]
