"""99 Towers sheets, weapons, commands, tracker lines and campaign options."""

from __future__ import annotations

import pytest

from rules.errors import InvalidInput, UnknownAction
from rules.said import english
from rules.systems.towers import SYSTEM
from rules.systems.towers.sheet import damage_words, parse_weapon
from tests.rules.test_towers_helpers import GM, PLAYER, add, begin, command, new, phase_of, texts, who

HERO = 'init=2 ss=2 pa=4 pd=3 er=1 stun=12 lethal=6 endurance=2 mana=4 weapons="Heavy Rifle: 7 r12"'


def test_weapon_profiles_read_in_any_order():
    blade = parse_weapon("Longblade: 4+px +1pa knight blade")
    assert (blade.damage, blade.adds, blade.cards, blade.stat, blade.melee) == (4, "px", 1, "pa", True)
    assert blade.keywords == ("knight", "blade")
    bolt = parse_weapon("Bolt of Fire: 6 sa arcane fire r10")
    assert (bolt.damage, bolt.stat, bolt.category, bolt.dtype, bolt.range) == (6, "sa", "arcane", "fire", 10)
    rifle = parse_weapon("Heavy Rifle: 7 r12 two-handed large")
    assert (rifle.damage, rifle.range, rifle.category, rifle.melee) == (7, 12, "physical", False)
    assert rifle.base_damage(px=3, hs=5) == 7 and blade.base_damage(px=3, hs=5) == 7


def test_damage_words_name_a_category_and_a_type_the_last_word_winning():
    assert damage_words(["arcane", "cold"], "none") == ("arcane", "cold")
    assert damage_words(["untyped", "fire", "acid"], "physical") == ("none", "acid")
    assert damage_words(["fall", "lethal"], "physical") == ("physical", "lethal")
    assert damage_words(["fall", "lethal"], "none", ("fall", "lethal")) == ("none", "")


def test_sheet_errors_are_specific():
    with pytest.raises(InvalidInput, match="Stat `size`: Input should be less than or equal to 4"):
        SYSTEM.parse_sheet("size=6")
    with pytest.raises(InvalidInput, match="Stat `pa`: Input should be greater than or equal to 0"):
        SYSTEM.parse_sheet("pa=-1")
    with pytest.raises(InvalidInput, match="Unknown stat `dex`"):
        SYSTEM.parse_sheet("dex=3")
    with pytest.raises(InvalidInput, match="weapon needs a name"):
        SYSTEM.parse_sheet('weapons=": 7"')


def test_a_combatant_starts_full_and_flat_footed():
    enc = add(new(), "Tony", "KH 4C", HERO).state
    tony = enc.find("Tony")
    assert (tony.stun, tony.lethal, tony.mana, tony.flat_footed) == (12, 6, 4, True)
    assert (
        english(SYSTEM.status_line(enc, tony, reveal=True))
        == "STUN 12/12 · LETHAL 6/6 · mana 4/4 · CI 15 · flat-footed"
    )
    assert english(SYSTEM.status_line(enc, tony, reveal=False)) == "unhurt"


def test_hidden_status_stays_vague():
    enc = add(new(), "Tony", "KH 4C", HERO).state
    enc = command(enc, "damage", target="Tony", amount="3").state
    assert english(SYSTEM.status_line(enc, enc.find("Tony"), reveal=False)) == "hurt"
    enc = command(enc, "damage", target="Tony", amount="20").state
    assert english(SYSTEM.status_line(enc, enc.find("Tony"), reveal=False)) == "down"


def test_joining_a_running_fight_counts_the_first_phase_from_now():
    enc = begin(add(new(), "Tony", "KH 4C", HERO).state).state
    enc = command(enc, "act", action="full defense").state  # Tony 5 → 15
    out = add(enc, "Late", "9D", "init=1")
    assert phase_of(out.state, "Late") == 15 + 10
    assert "from now (phase 15) → phase 25" in texts(out)[-1]


def test_turn_summary_lists_what_matters():
    enc = begin(add(new(), "Tony", "KH 4C", HERO).state).state
    lines = [english(line) for line in SYSTEM.turn_summary(enc, enc.find("Tony").id)]
    assert lines[0] == "Flat-footed until acting: PD without Soft Strength, no opportunity attacks."
    assert not any("Phase" in line for line in lines)  # the turn message's title carries the phase
    enc = command(enc, "act", action="aim").state
    assert any("Aiming: (flip+1)" in english(line) for line in SYSTEM.turn_summary(enc, enc.find("Tony").id))


def test_defender_flips_can_be_automatic_for_everyone():
    enc = SYSTEM.new_encounter(1, 7, {"defender_flips": "auto"})
    enc = add(enc, "Hero", "2H 3C", HERO, player=True).state
    enc = add(enc, "Bandit", "QD", "init=1 pa=3").state
    enc = begin(enc).state
    out = command(enc, "attack", target="Hero", weapon="unarmed", cards="10C 4C 3D 9C")
    assert out.state.pending is None
    assert "Hero PD 3 − SS 2 flat-footed = 1: 9♣" in texts(out)[1]


def test_attack_options_from_the_slash_command():
    enc = begin(add(add(new(), "Tony", "KH 4C", HERO).state, "Bandit", "9D", "init=1 ss=1 pd=2 stun=20").state).state
    out = command(
        enc, "attack", target="Bandit", damage="4+3", damage_type="arcane cold", modifier=-2, cards="KS 2C 3C 4C 2D"
    )
    assert "modifier (shift−2)" in texts(out)[0]
    assert "7 arcane (cold) STUN" in texts(out)[2]
    assert out.state.find("Bandit").stun == 13


def test_commands_outside_this_system_are_refused():
    with pytest.raises(UnknownAction):
        SYSTEM.command("plotpoint_spend", GM, {})
    with pytest.raises(InvalidInput, match="not a 99 Towers action"):
        SYSTEM.command("act", GM, {"action": "dance"})


def test_act_choices_cover_the_action_list_with_costs():
    choices = {value: english(label) for value, label in SYSTEM.act_choices()}
    assert choices["shift position"] == "Shift Position (3)"
    assert choices["interact inventory"] == "Interact with Inventory (10)"
    assert choices["use skill"] == "Use a Skill (GM sets)"
    assert choices["opportunity attack"] == "Opportunity Attack (3, out of turn)"  # its cost said once
    assert len(choices) >= 30


def test_gm_heals_and_conditions():
    enc = add(new(), "Tony", "KH 4C", HERO).state
    enc = command(enc, "damage", target="Tony", amount="5", options="lethal=2").state
    enc = command(enc, "heal", target="Tony", amount="3").state
    enc = command(enc, "heal", target="Tony", amount="9", options="lethal").state
    tony = enc.find("Tony")
    assert (tony.stun, tony.lethal) == (10, 6)
    enc = command(enc, "condition_add", target="Tony", condition="prone").state
    assert enc.find("Tony").prone
    enc = command(enc, "condition_remove", target="Tony", condition="prone").state
    assert not enc.find("Tony").prone
    with pytest.raises(InvalidInput, match="no condition"):
        command(enc, "condition_remove", target="Tony", condition="Dazed")


def test_players_cannot_deal_gm_damage():
    from rules.errors import NotAllowed

    enc = add(new(), "Tony", "KH 4C", HERO, player=True).state
    with pytest.raises(NotAllowed):
        command(enc, "damage", PLAYER, target="Tony", amount="3")
    assert who(enc) is None
