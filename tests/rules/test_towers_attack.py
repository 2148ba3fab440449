"""99 Towers attacks: flips, modifiers, defenders' choices, damage and states."""

from __future__ import annotations

import re

import pytest

from rules.engine import apply
from rules.errors import AwaitingChoice, InvalidInput, NotAllowed
from rules.said import english
from rules.systems.towers import actions
from rules.systems.towers.attack import pick_weapon
from rules.systems.towers.help import HELP
from rules.systems.towers.sheet import UNARMED
from tests.helpers import answer_by_key
from tests.rules.test_towers_helpers import GM, PLAYER, add, begin, choose, command, new, phase_of, texts, who

HERO = (
    "init=2 ss=2 hs=3 pa=4 pd=3 id=2 er=1 stun=12 lethal=6 endurance=2 px=2 "
    'weapons="Longblade: 4+px +1pa; Pistol: 5 r6"'
)
BANDIT = 'init=1 ss=1 hs=2 pa=3 pd=2 er=1 stun=10 lethal=5 endurance=1 weapons="Club: 2+hs"'
MAGE = 'init=2 ss=1 sa=4 pd=2 id=3 mana=6 stun=8 lethal=4 weapons="Bolt of Fire: 6 sa arcane fire r10"'


def fight(hero_player=False, hero_cards="KH 4C", bandit_cards="9D"):
    """Hero CI 15 (phase 5), Bandit CI 10 (phase 10)."""
    enc = add(new(), "Hero", hero_cards, HERO, player=hero_player).state
    enc = add(enc, "Bandit", bandit_cards, BANDIT).state
    return begin(enc).state


def test_an_npc_defends_at_once_and_a_miss_does_nothing():
    enc = fight()
    # Longblade: PA 4 + 1 = 5 cards, best 8; bandit flat-footed: PD 2 − SS 1 = 1 card: J.
    out = command(enc, "attack", target="Bandit", weapon="long", cards="2C 3C 8S 5D 6D JC")
    lines = texts(out)
    assert lines[0] == (
        "Hero: Attack with Longblade on Bandit — PA 4 (Longblade (flip+1)): 2♣ 3♣ 8♠ 5♦ 6♦ → keep 8 = 8"
    )
    assert lines[1] == "Bandit PD 2 − SS 1 flat-footed = 1: J♣ → keep J = 11 → 8 vs 11: miss"
    assert out.state.find("Bandit").stun == 10
    assert phase_of(out.state, "Hero") == 10


def test_a_hit_without_hearts_does_weapon_damage_minus_er_and_no_lethal():
    enc = fight()
    out = command(enc, "attack", target="Bandit", weapon="longblade", cards="2C 3C QS 5D 6D JC")
    bandit = out.state.find("Bandit")
    assert bandit.stun == 10 - (4 + 2 - 1) and bandit.lethal == 5
    assert "4+2" not in texts(out)[2] and "6 − ER 1 = 5 physical STUN" in texts(out)[2]


def test_a_player_character_flips_their_own_defence():
    enc = fight(hero_player=True, hero_cards="2H 3C", bandit_cards="QD")  # Bandit CI 13 → 7, Hero CI 5 → 15
    assert who(enc) == "Bandit"
    out = command(enc, "attack", target="Hero", cards="10H 4C 2S")
    enc = out.state
    assert enc.pending is not None and enc.pending.kind == "defense"
    assert enc.pending.users == (PLAYER.user_id,)
    # Only the choice message pings the player, so they are not pinged twice.
    assert out.events[-1].text == "Hero flips PD 3 − SS 2 flat-footed = 1 (1 card): see the Flip button."
    assert not any(e.ping for e in out.events)
    assert '/choose option:Flip cards:"…"' in english(enc.pending.prompt)
    assert "Flip PD 3 − SS 2 flat-footed = 1: 1 card" in english(enc.pending.prompt)
    with pytest.raises(AwaitingChoice):
        command(enc, "act", action="aim")
    out = choose(enc, cards="9C")
    enc = out.state
    hero = enc.find("Hero")
    # Club 2 + HS 2 + 1♥ = 5 − ER 1 = 4 STUN, 1 LETHAL: a critical.
    assert (hero.stun, hero.lethal) == (8, 5)
    assert any("10 vs 9: critical hit" in t for t in texts(out))
    assert phase_of(enc, "Bandit") == 12 and who(enc) == "Bandit"


def test_a_defence_flip_is_answered_by_its_key():
    enc = fight(hero_player=True, hero_cards="2H 3C", bandit_cards="QD")
    asked = command(enc, "attack", target="Hero", cards="10H 4C 2S").state
    assert asked.pending.keys == ("flip",) and asked.pending.default == "flip"
    out = answer_by_key(asked, "flip", by=PLAYER)
    assert out.state.pending is None and any("Hero PD" in t for t in texts(out))


def test_flat_footed_ends_when_a_character_first_acts():
    enc = fight()
    assert enc.find("Hero").flat_footed
    enc = command(enc, "act", action="shift position").state
    assert not enc.find("Hero").flat_footed


def test_full_defense_flips_one_more_defence_card_until_the_next_activation():
    # Seed: "A character on Full Defense gains a +1 Defense for all opposed combat checks": a Defense (PD, ID)
    # is how many cards the defender flips, so +1 Defense is one card more, (flip+1), not a (shift+1).
    enc = fight()
    enc = command(enc, "act", action="full defense").state  # Hero → 15
    assert who(enc) == "Bandit"
    out = command(enc, "attack", target="Hero", cards="9C 2C 3C 8D 4D 2S 10H")
    assert "Hero PD 3 (full defense (flip+1)): 8♦ 4♦ 2♠ 10♥ → keep 10 = 10 → 9 vs 10: miss" in texts(out)[1]
    enc = out.state
    assert who(enc) == "Hero"  # phase 15: the hero's next activation ends Full Defense
    assert not enc.find("Hero").full_defense
    assert "Hero: Full Defense ends." in texts(out)


def test_power_attack_flips_one_fewer_adds_two_damage_and_leaves_the_attacker_open():
    enc = fight()
    out = command(
        enc, "act", action="power attack", target="Bandit", options="weapon=longblade", cards="2C 3C QS 5D JC"
    )  # 5 − 1 = 4 cards; bandit 1 card
    assert "PA 4 (Longblade (flip+1); power attack (flip−1)): 2♣ 3♣ Q♠ 5♦ → keep Q = 12" in texts(out)[0]
    assert out.state.find("Bandit").stun == 10 - (4 + 2 + 2 - 1)
    enc = out.state
    assert phase_of(enc, "Hero") == 12 and enc.find("Hero").power_attacked
    out = command(enc, "attack", target="Hero", cards="9C 2C 3C 8D 4D")  # Hero PD 3 − 1 flip = 2 cards
    assert "Hero PD 3 (after a power attack (flip−1)): 8♦ 4♦ → keep 8 = 8 → 9 vs 8: hit" in texts(out)[1]


def test_reckless_move_costs_7_and_flips_one_fewer_on_defence():
    enc = fight()
    enc = command(enc, "act", action="reckless move").state
    assert phase_of(enc, "Hero") == 12 and enc.find("Hero").reckless
    out = command(enc, "attack", target="Hero", cards="9C 2C 3C 8D 4D")
    assert "reckless move (flip−1)" in texts(out)[1]


def test_reckless_move_flips_one_fewer_on_the_movers_own_attacks_too():
    # Seed: "You take a (flip-1) for all opposed combat checks until the start of your next activation."
    enc = fight()
    enc = command(enc, "act", action="reckless move").state  # Hero → 12
    assert who(enc) == "Bandit"
    # Hero's opportunity attack: PA 4 (Longblade flip+1, reckless flip−1) = 4 cards; flat-footed Bandit 1 card.
    out = command(enc, "act", action="oa", actor="Hero", target="Bandit", cards="2C 3C QS 5D JC")
    assert texts(out)[0] == (
        "Hero: Opportunity Attack with Longblade on Bandit — "
        "PA 4 (Longblade (flip+1); reckless move (flip−1)): 2♣ 3♣ Q♠ 5♦ → keep Q = 12"
    )
    assert texts(out)[1] == "Bandit PD 2 − SS 1 flat-footed = 1: J♣ → keep J = 11 → 12 vs 11: hit"


def test_opportunity_attack_costs_the_attacker_3_phases_and_interrupts():
    enc = fight()
    with pytest.raises(NotAllowed, match="flat-footed"):
        command(enc, "attack", actor="Bandit", target="Hero", options="opportunity")
    enc = command(enc, "act", action="shift position").state  # Hero → 8
    enc = command(enc, "act", action="combat move").state  # Hero 8 → 13; Bandit acts in 10
    enc = command(enc, "act", action="aim").state  # Bandit 10 → 15
    assert who(enc) == "Hero" and phase_of(enc, "Bandit") == 15
    out = command(enc, "act", action="opportunity attack", actor="Bandit", target="Hero", cards="9C 2C 3C 8D 4D 2S 5S")
    enc = out.state
    assert phase_of(enc, "Bandit") == 18 and who(enc) == "Hero"
    assert "Bandit's opportunity attack costs 3 phases: next acts in phase 18." in texts(out)
    assert enc.find("Bandit").aim == 0


def test_opportunity_attacks_use_melee_weapons_only():
    enc = fight()
    enc = command(enc, "act", action="shift position").state  # Hero → 8, no longer flat-footed
    enc = command(enc, "act", action="combat move").state  # Hero → 13: the Bandit acts in 10
    out = command(enc, "attack", actor="Hero", target="Bandit", weapon="pistol", options="oa", cards="9C 2C 3C 8D 2D")
    assert "Opportunity Attack with Pistol butt (unarmed) on Bandit" in texts(out)[0]
    # The butt of the gun strikes unarmed: Hard Strength 3, not the pistol's 5.
    assert texts(out)[2].startswith("Pistol butt (unarmed) HS 3 − ER 1 = 2 physical STUN")


def test_an_opportunity_attack_casts_no_spell_the_caster_strikes_unarmed():
    # "you cannot make a ranged attack or cast a spell": neither a bolt nor a spell cast by touch.
    mage = 'init=2 ss=1 hs=2 pa=3 sa=4 pd=2 id=3 stun=8 lethal=4 weapons="Bolt: 6 sa fire r10; Grasp: 5 sa arcane"'
    enc = add(new(), "Mage", "KH 4C", mage).state
    enc = begin(add(enc, "Bandit", "9D", BANDIT).state).state
    enc = command(enc, "act", action="shift position").state  # Mage → 8, no longer flat-footed
    enc = command(enc, "act", action="combat move").state  # Mage → 13: the Bandit acts in 10
    for spell in ("Bolt", "Grasp"):
        out = command(enc, "attack", actor="Mage", target="Bandit", weapon=spell, options="oa", cards="9C 2C 3C 2D")
        assert texts(out)[0].startswith("Mage: Opportunity Attack with Unarmed on Bandit — PA 3: 9♣ 2♣ 3♣")
        assert texts(out)[2].startswith("Unarmed HS 2 − ER 1 = 1 physical STUN")


def test_a_tiny_creature_makes_no_opportunity_attack():
    # "Creatures that are tiny or smaller do not threaten adjacent spaces."
    enc = fight()
    enc = add(enc, "Pixie", "2D", "init=1 pa=3 size=-2").state
    enc = add(enc, "Cat", "3D", "init=1 pa=3 size=-1").state
    # Joining in phase 5, Cat acts in phase 21, Pixie in 22; Hero every 5 phases.
    while who(enc) != "Hero" or enc.find("Pixie").flat_footed:
        enc = command(enc, "act", action="combat move").state
    assert enc.turns.phase == 25 and phase_of(enc, "Cat") == 26
    with pytest.raises(NotAllowed, match="Pixie is tiny or smaller"):
        command(enc, "act", action="oa", actor="Pixie", target="Hero")
    out = command(enc, "act", action="oa", actor="Cat", target="Hero", cards="9C 2C 3C 2D 4D 5D")
    assert "Cat's opportunity attack costs 3 phases: next acts in phase 29." in texts(out)


def test_charge_costs_8_and_needs_a_melee_weapon():
    enc = fight()
    with pytest.raises(InvalidInput, match="ranged"):
        command(enc, "act", action="charge", target="Bandit", options="weapon=pistol")
    out = command(enc, "act", action="charge", target="Bandit", options="weapon=longblade", cards="2C 3C QS 5D 6D JC")
    assert phase_of(out.state, "Hero") == 13


def test_attack_with_shift_position_added_costs_7():
    enc = fight()
    out = command(enc, "attack", target="Bandit", options="shift-position", cards="2C 3C QS 5D 6D JC")
    assert phase_of(out.state, "Hero") == 12
    assert texts(out)[0].startswith("Hero: Shift Position + Attack with Longblade on Bandit")
    assert "Shift Position + Attack (7): Hero next acts in phase 12." in texts(out)


def test_aid_makes_the_foe_defend_worse_against_the_ally_once():
    enc = add(new(), "Hero", "KH 4C", HERO).state
    enc = add(enc, "Friend", "2S", "init=1 pa=3").state
    enc = add(enc, "Bandit", "9D", BANDIT).state
    enc = begin(enc).state
    out = command(enc, "act", action="aid", target="Bandit", options="ally=Friend", cards="2C 3C QS 5D 6D 7D JC")
    assert "aid (flip+1)" in texts(out)[0]
    assert out.state.find("Bandit").aided_for == out.state.find("Friend").id
    assert out.state.find("Bandit").stun == 10 and phase_of(out.state, "Hero") == 8


def test_modifiers_from_the_seed():
    enc = add(new(), "Hero", "KH 4C", HERO).state
    enc = add(enc, "Giant", "9D", BANDIT.replace("init=1", "init=1 size=1")).state
    enc = begin(enc).state
    out = command(
        enc,
        "attack",
        target="Giant",
        weapon="longblade",
        options="outnumber=2:1 unaware high cover=hard",
        cards="2C 3C 4S 5D 6D 7D 8D 9S 10S",
    )
    line, defence = texts(out)[0], texts(out)[1]
    assert "outnumbering 2:1 (flip+1)" in line and "target unaware (flip+1)" in line and "high ground (shift+1)" in line
    assert "size +1 (shift−1)" in defence and "hard cover (flip+1, shift+1)" in defence


def test_high_ground_and_outnumbering_count_only_in_melee():
    # "Elevation in Melee: An attacker gains a (shift+1) when he is attacking from a higher position";
    # "There are benefits to outnumbering your foe in melee."
    enc = fight()
    with pytest.raises(InvalidInput, match="High ground counts only in melee: Pistol is a ranged weapon."):
        command(enc, "attack", target="Bandit", weapon="pistol", options="high range=3")
    with pytest.raises(InvalidInput, match="Outnumbering counts only in melee: Pistol is a ranged weapon."):
        command(enc, "attack", target="Bandit", weapon="pistol", options="outnumber=2:1")
    enc = add(new(), "Mage", "KH 4C", MAGE.replace('r10"', 'r10; Grasp: 3 sa arcane"')).state
    enc = add(enc, "Bandit", "9D", BANDIT).state
    enc = begin(enc).state
    with pytest.raises(InvalidInput, match="High ground counts only in melee: Bolt of Fire is a ranged weapon."):
        command(enc, "attack", target="Bandit", weapon="bolt", options="elevation")
    # A spell cast by touch is a melee attack.
    out = command(
        enc, "attack", target="Bandit", weapon="grasp", options="high outnumber=3:2", cards="2C 3C 4C 5C 6D 7D"
    )
    assert "high ground (shift+1)" in texts(out)[0] and "outnumbering 3:2 (shift+1)" in texts(out)[0]


def test_a_melee_weapon_reaches_only_an_adjacent_space():
    # "The target(s) must be within range": a club does not strike 14 spaces away, and taking no range
    # penalty there would pass off a forgotten weapon:"Rock" as a hit with the club. Ranges count from
    # "a space adjacent to the attacker", so an adjacent foe is 1 space away; a Reach weapon is the GM's call.
    enc = fight()
    with pytest.raises(InvalidInput, match="Longblade is a melee weapon: it strikes an adjacent space"):
        command(enc, "attack", target="Bandit", weapon="long", options="range=14")
    out = command(enc, "attack", target="Bandit", weapon="long", options="range=1", cards="2C 3C 8S 5D 6D JC")
    assert texts(out)[0].endswith("PA 4 (Longblade (flip+1)): 2♣ 3♣ 8♠ 5♦ 6♦ → keep 8 = 8")
    enc = add(new(), "Hero", "KH 4C", HERO.replace('r6"', 'r6; Pike: 3+px reach"')).state
    enc = begin(add(enc, "Bandit", "9D", BANDIT).state).state
    out = command(enc, "attack", target="Bandit", weapon="pike", options="range=2", cards="2C 3C 8S 5D JC")
    assert texts(out)[0].endswith("PA 4: 2♣ 3♣ 8♠ 5♦ → keep 8 = 8")


def test_total_cover_and_dead_targets_cannot_be_attacked():
    enc = fight()
    with pytest.raises(InvalidInput, match="total cover"):
        command(enc, "attack", target="Bandit", options="cover=total", cards="2C 3C QS 5D 6D")
    enc = command(enc, "damage", target="Bandit", amount="10", options="lethal=7").state
    with pytest.raises(InvalidInput, match="dead"):
        command(enc, "attack", target="Bandit")


def test_an_unconscious_defender_defends_at_0_and_can_take_lethal():
    enc = fight()
    enc = command(enc, "damage", target="Bandit", amount="10").state
    out = command(enc, "attack", target="Bandit", cards="2H 3C 4S 5D 6D")
    bandit = out.state.find("Bandit")
    assert "Bandit is unconscious: defence 0 → 6 vs 0: critical hit" in texts(out)[1]
    assert bandit.lethal == 4 and bandit.stun == 0


def test_area_attack_one_flip_against_each_defence_and_the_same_hearts_for_all():
    enc = add(new(), "Mage", "KH 4C", MAGE).state
    enc = add(enc, "Bandit 1", "9D", BANDIT).state
    enc = add(enc, "Bandit 2", "8D", BANDIT + " ir=2").state
    enc = begin(enc).state
    out = command(enc, "attack", target="Bandit 1, Bandit 2", options="mana=2", cards="JH 3H 4C 5S 2C 2D 2S 3S")
    enc = out.state
    lines = texts(out)
    assert (
        "Mage: Attack with Bolt of Fire on Bandit 1 and Bandit 2 (2 mana, 4 left) — SA 4: J♥ 3♥ 4♣ 5♠ → keep J = 11 "
        "(2♥)" == lines[0]
    )
    # SA weapons strike ID: ID 2, two cards each.
    assert lines[1].startswith("Bandit 1 ID 2: 2♣ 2♦")
    b1, b2 = enc.find("Bandit 1"), enc.find("Bandit 2")
    assert (b1.stun, b1.lethal) == (10 - 8, 3)  # 6 + 2♥ = 8 arcane (fire), IR 0
    assert (b2.stun, b2.lethal) == (10 - 6, 3)  # IR 2
    assert enc.find("Mage").mana == 5  # 4 left, +1 at zero phase 10 on the way to its next turn


def test_area_attack_waits_for_each_player_defender_in_turn():
    enc = add(new(), "Mage", "KH 4C", MAGE).state
    enc = add(enc, "Hero", "2D 3D", HERO, player=True).state
    enc = add(enc, "Bandit", "9D", BANDIT).state
    enc = begin(enc).state
    out = command(enc, "attack", target="Hero, Bandit", cards="JH 3C 4C 5S")
    assert out.state.pending is not None and out.state.find("Bandit").stun == 10
    # The hero's ID 2 (K♣ 2♣), then the bandit's ID 2 flipped at once after it (2♠ 3♠).
    out = choose(out.state, cards="KC 2C 2S 3S")
    enc = out.state
    assert enc.pending is None
    assert enc.find("Hero").stun == 12  # K beat J
    assert (enc.find("Bandit").stun, enc.find("Bandit").lethal) == (10 - 7, 4)  # 6 + 1♥ arcane, IR 0
    assert phase_of(enc, "Mage") == 10


def test_sa_weapons_need_mana_when_asked():
    enc = add(new(), "Mage", "KH 4C", MAGE).state
    enc = add(enc, "Bandit", "9D", BANDIT).state
    enc = begin(enc).state
    with pytest.raises(InvalidInput, match="6 mana, not 7"):
        command(enc, "attack", target="Bandit", options="mana=7")


def test_unknown_weapons_are_named_in_the_refusal():
    enc = fight()
    with pytest.raises(InvalidInput, match="Weapons: Longblade, Pistol"):
        command(enc, "attack", target="Bandit", weapon="axe")


def test_an_unknown_attack_option_is_refused_with_the_list():
    enc = fight()
    with pytest.raises(InvalidInput, match="Unknown option .*avd.* for /attack. Options: `power`, `charge`"):
        command(enc, "attack", target="Bandit", options="avd")
    # Every word the attack reads still works.
    words = "weapon=pistol range=3 cover=soft unaware offhand step flip=1 shift=1 dflip=1 dshift=-1"
    line = english(texts(command(enc, "attack", target="Bandit", options=words))[0])
    assert "Shift Position + Attack" in line and "Pistol" in line and "off hand" in line
    # High ground and outnumbering count only in melee.
    line = english(texts(command(enc, "attack", target="Bandit", options="outnumber=2:1 high"))[0])
    assert "Longblade" in line and "outnumbering 2:1" in line and "high ground" in line


def test_an_opportunity_attack_by_a_player_means_their_own_character():
    enc = fight(hero_player=True, hero_cards="2H 3C", bandit_cards="QD")  # Bandit phase 7, Hero 15
    enc = command(enc, "act", action="aim").state  # Bandit → 12
    enc = command(enc, "act", action="combat move").state  # Bandit → 17; Hero's turn at 15
    assert who(enc) == "Hero"
    enc = command(enc, "act", PLAYER, action="shift position").state  # Hero → 18; the bandit acts at 17
    out = command(enc, "attack", PLAYER, target="Bandit", options="oa", cards="9C 2C 3C 8D 2D 4D 5D")
    assert "Hero: Opportunity Attack with Longblade" in texts(out)[0]
    assert phase_of(out.state, "Hero") == 21
    with pytest.raises(InvalidInput, match="actor"):
        command(enc, "attack", target="Bandit", options="oa")  # the GM must say who


def test_a_declared_fist_weapon_is_used_as_written_and_bare_hands_come_after():
    # What a sheet declares is used as declared: "fist" names bare hands only when no weapon is called so.
    enc = add(new(), "Brawler", "KH", 'init=1 hs=2 pa=2 pd=2 weapons="Fist: 3+hs; Club: 2+hs"').state
    brawler = enc.find("Brawler")
    assert pick_weapon(brawler, "fist").name == "Fist" and pick_weapon(brawler, "fist").damage == 3
    assert pick_weapon(brawler, "fists") is UNARMED
    assert pick_weapon(brawler, "unarmed") is UNARMED


@pytest.mark.parametrize(
    "action",
    [
        lambda: actions.Attack(by=GM, targets=("Bandit",), style="nonsense"),
        lambda: actions.Check(by=GM, actor="Fighter", stat="__class__", against=3),
    ],
    ids=["an unknown attack style", "an unknown stat to resist with"],
)
def test_an_action_the_commands_never_build_is_still_refused_in_words(action):
    enc = add(add(new(), "Fighter", "KH 4C", "init=2").state, "Bandit", "9D", "init=1").state
    with pytest.raises(InvalidInput):
        apply(begin(enc).state, action())


def test_knockback_on_a_hit_says_who_is_knocked_back_and_leaves_the_distance_to_the_gm():
    # "If the attacker is hit by any attack with Knockback, ...": the seed gives no distance.
    out = command(
        fight(), "attack", target="Bandit", weapon="longblade", options="knockback", cards="2C 3C QS 5D 6D JC"
    )
    assert texts(out)[3] == "Bandit is knocked back (how far is the GM's call)."


SEER = (
    "init=2 pa=4 sa=4 pd=2 id=3 mana=6 stun=8 lethal=4 size=1 "
    'weapons="Mind Lash: 4 sa arcane psychic perception r10; Evil Eye: 3 perception r5"'
)


@pytest.mark.parametrize(
    "weapon, within, cards, flip, beyond, refused",
    [
        ("mind", "range=10", "9C 2C 3C 4C 2D 3D", "SA 4", "range=11", "Mind Lash reaches at most 10 spaces"),
        # Range increment 5: 16 spaces is the fourth increment, no penalty; 21 is past the fourth.
        ("evil", "range=16 cover=hard", "9C 2C 3C 4C 2D", "PA 4", "range=21", "21 spaces is beyond Evil Eye's reach"),
    ],
    ids=["a spell's maximum range", "the fourth range increment"],
)
def test_perception_powers_take_no_range_penalty_but_must_reach_their_target(
    weapon, within, cards, flip, beyond, refused
):
    # "Perception powers do not suffer any penalties due to range, size, or cover"; yet "The target(s) must be
    # within range" and "Spell attacks only have a maximum range": a maximum is no penalty.
    enc = add(new(), "Seer", "KH 4C", SEER).state
    enc = add(enc, "Bandit", "9D", BANDIT).state
    enc = begin(enc).state
    out = command(enc, "attack", target="Bandit", weapon=weapon, options=within, cards=cards)
    assert texts(out)[0].endswith(f"{flip}: 9♣ 2♣ 3♣ 4♣ → keep 9 = 9")
    with pytest.raises(InvalidInput, match=refused):
        command(enc, "attack", target="Bandit", weapon=weapon, options=beyond)


def test_the_help_gives_range_only_with_a_weapon_that_reaches_it():
    # /help's attack example gave `range=14` with the Knife of its own sheet line, a melee weapon, which
    # "strikes an adjacent space": the example, as written, was refused.
    line = re.search(r"\*\*Sheet\*\* `([^`]*)`", HELP).group(1)
    sheet = " ".join(re.findall(r"\w+=(?:'[^']*'|\S+)", line))  # its stats with values; the others are named only
    examples = re.findall(r'weapon:(\w+) options:"([^"]*)"', HELP)
    ranged = [(weapon, word) for weapon, options in examples for word in options.split() if word.startswith("range=")]
    assert ranged
    enc = add(new(), "Tony", "KH 4C", sheet).state
    enc = begin(add(enc, "Bandit", "9D", BANDIT).state).state
    for weapon, word in ranged:
        out = command(enc, "attack", target="Bandit", weapon=weapon, options=word, cards="9C 2C 3C 4C 2D")
        assert "Tony: Attack with" in texts(out)[0]
