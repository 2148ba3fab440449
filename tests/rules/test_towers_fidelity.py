"""99 Towers rules a table caught when replaying the seed by hand (issue: seed fidelity).

Each test quotes the seed's words it checks."""

from __future__ import annotations

import pytest

from rules.actions import EndTurn
from rules.cards import parse_cards
from rules.engine import apply
from rules.errors import DiceError, InvalidInput, NotAllowed
from rules.randomness import Chance
from rules.said import english
from rules.systems.towers import SYSTEM
from tests.rules.test_towers_helpers import GM, add, begin, command, new, texts, who

TONY = 'init=2 ss=2 pa=4 pd=3 er=1 stun=12 lethal=6 endurance=2 weapons="Heavy Rifle: 7 r12 two-handed"'
BANDIT = 'init=1 ss=1 hs=2 pa=3 pd=2 er=1 stun=10 lethal=5 endurance=1 weapons="Club: 2+hs; Bow: 3 r10"'
FIGHTER = "init=2 ss=2 hs=3 pa=4 pd=3 er=1 stun=12 lethal=6 endurance=2"


def end_turn(enc):
    return apply(enc, EndTurn(by=GM, turn_no=enc.turn_no))


def tony_and_bandit():
    """Tony CI 15 (phase 5), the Bandit CI 3 (phase 17)."""
    enc = add(new(), "Tony", "KH 4C", TONY).state
    enc = add(enc, "Bandit", "2D", BANDIT).state
    return begin(enc).state


def test_a_forced_delay_after_aiming_loses_the_aim():
    # "If you take any non-Free action other than Aiming before attacking, you lose the benefits of
    # Aiming." Ending the turn is the Forced Delay of the Action List: a non-Free action.
    enc = tony_and_bandit()
    enc = command(enc, "act", action="aim").state
    assert enc.find("Tony").aim == 1 and who(enc) == "Tony"
    enc = end_turn(enc).state
    assert enc.find("Tony").aim == 0
    assert who(enc) == "Tony" and enc.turns.phase == 15
    # PA 4 without aim: 4 cards, then the Bandit's flat-footed PD 2 − SS 1 = 1 card.
    out = command(enc, "attack", target="Bandit", cards="9C 5C 2C 3S 8D")
    assert "aim" not in texts(out)[0]
    assert texts(out)[0].endswith("PA 4: 9♣ 5♣ 2♣ 3♠ → keep 9 = 9")


def test_a_forced_delay_is_acting_and_ends_flat_footed():
    # "Until a character acts in combat, he is flat-footed": a Forced Delay is acting.
    enc = add(new(), "Bandit", "KD", BANDIT).state  # CI 14: phase 6
    enc = add(enc, "Tony", "2H 3C", TONY).state  # CI 5: phase 15
    enc = begin(enc).state
    assert who(enc) == "Bandit" and enc.find("Bandit").flat_footed
    enc = end_turn(enc).state
    assert not enc.find("Bandit").flat_footed
    assert who(enc) == "Bandit" and enc.turns.phase == 11
    enc = end_turn(enc).state
    assert who(enc) == "Tony"
    # The Bandit's full PD 2: two cards, no flat-footed reduction.
    out = command(enc, "attack", target="Bandit", cards="9C 5C 2C 3S 8D 4D")
    assert "flat-footed" not in texts(out)[1]
    assert texts(out)[1].startswith("Bandit PD 2: 8♦ 4♦ → keep 8 = 8")


def grappled_bandit():
    """The Fighter (phase 5) holds the Bandit, delays, and the Bandit acts in phase 10."""
    enc = add(new(), "Fighter", "KH 4C", FIGHTER).state
    enc = add(enc, "Bandit", "9D", BANDIT).state
    enc = begin(enc).state
    # PA 4: 9♣ 2♣ 3♣ 4♣ → 9; flat-footed Bandit PD 2 − SS 1 = 1 card: 8♦ → 9 vs 8.
    out = command(enc, "act", action="grapple", target="Bandit", cards="9C 2C 3C 4C 8D")
    assert "Bandit is grappled" in texts(out)[0]
    enc = end_turn(out.state).state
    assert who(enc) == "Bandit"
    return enc


def test_a_grappled_attack_is_at_flip_minus_1_with_hard_strength_halved():
    # "If he attempts an attack, he will be at a (flip-1) to his attack, and his Hard Strength will be
    # considered halved for purposes of damage calculations."
    enc = grappled_bandit()
    # PA 3 (flip−1): 2 cards K♥ 2♣; the Fighter's PD 3 (has acted): 2♦ 3♦ 4♦.
    out = command(enc, "attack", target="Fighter", cards="KH 2C 2D 3D 4D")
    lines = texts(out)
    assert "grappled (flip−1)" in lines[0]
    assert lines[0].endswith("PA 3 (grappled (flip−1)): K♥ 2♣ → keep K = 13 (1♥)")
    # Club 2 + HS 2 halved = 1 → 3, + 1♥ = 4 − ER 1 = 3.
    assert lines[2].startswith("Club 2 + HS 1 (halved: grappled) = 3 + 1♥ = 4 − ER 1 = 3 physical STUN, 1 LETHAL")
    assert out.state.find("Fighter").stun == 12 - 3


def test_a_grappled_character_attacks_only_in_melee():
    # "the grappled target may attempt a restricted melee attack"
    enc = grappled_bandit()
    with pytest.raises(InvalidInput, match="melee"):
        command(enc, "attack", target="Fighter", weapon="Bow", options="range=3")


def test_too_few_entered_cards_are_refused_not_topped_up_from_the_deck():
    enc = tony_and_bandit()
    with pytest.raises(InvalidInput, match="entered"):
        command(enc, "attack", target="Bandit", cards="9C 5C 2C 3S")  # the Bandit's card is missing


def test_the_same_card_cannot_be_entered_twice_in_one_flip():
    enc = tony_and_bandit()
    with pytest.raises(InvalidInput, match="twice"):
        command(enc, "attack", target="Bandit", cards="9C 9C 2C 3S 8D")


def test_too_few_entered_dice_are_refused():
    chance = Chance(1, (), entered_dice=[4])
    with pytest.raises(DiceError, match="entered"):
        chance.pool(2, 6)


def test_too_few_entered_cards_are_refused_by_the_flip():
    chance = Chance(1, (), entered_cards=parse_cards("KH 4C"))
    with pytest.raises(InvalidInput, match="entered"):
        chance.flip(3)


def test_immunity_is_said_once_plainly():
    enc = add(new(), "Berhardt", "2D", "ir=2 stun=20 immune=fire").state
    out = command(enc, "damage", target="Berhardt", amount="8", damage_type="arcane fire")
    assert texts(out) == ["Berhardt is immune to fire: no damage."]
    assert out.state.find("Berhardt").stun == 20


def test_a_character_on_full_defense_makes_no_opportunity_attack():
    # "A character on Full Defense gains a +1 Defense for all opposed combat checks. He may take no
    # other actions during this time."
    tony = 'init=2 ss=2 hs=2 pa=4 pd=3 er=1 stun=12 lethal=6 endurance=2 weapons="Longblade: 4+px"'
    enc = add(new(), "Tony", "KH 4C", tony).state  # CI 15: phase 5
    enc = add(enc, "Bandit", "9D", BANDIT).state  # CI 10: phase 10
    enc = begin(enc).state
    enc = command(enc, "act", action="full defense").state
    assert who(enc) == "Bandit" and enc.find("Tony").full_defense
    with pytest.raises(NotAllowed, match="Full Defense"):
        command(enc, "act", action="oa", actor="Tony", target="Bandit", cards="9S 3C 2D 4D 7D")


def test_a_holders_opportunity_attack_costs_three_phases_from_where_the_clock_is():
    # "When someone makes an Opportunity Attack, they are moved back three phases on the Combat Clock
    # from wherever they are currently." A holder is where the clock is: holding still, but not before.
    tony = 'init=2 ss=2 hs=2 pa=4 pd=3 er=1 stun=12 lethal=6 endurance=2 weapons="Longblade: 4+px"'
    enc = add(new(), "Tony", "KH 4C", tony).state  # phase 5
    enc = add(enc, "Bandit", "9D", BANDIT).state  # phase 10
    enc = add(enc, "Guard", "8D", BANDIT).state  # phase 11
    enc = add(enc, "Scout", "7D", BANDIT).state  # phase 12
    enc = begin(enc).state
    enc = command(enc, "act", action="draw weapon").state  # Tony 5 → 11
    enc = command(enc, "act", action="forced delay", actor="Bandit").state  # Bandit 10 → 15
    enc = command(enc, "act", action="hold", actor="Tony").state  # Tony holds from phase 11
    assert who(enc) == "Guard" and enc.turns.phase == 11
    out = command(enc, "act", action="oa", actor="Tony", target="Guard", cards="9S 3C 2D 4D 7D")
    assert "Tony's opportunity attack costs 3 phases: next acts in phase 14." in texts(out)
    enc = command(out.state, "act", action="forced delay", actor="Guard").state
    assert who(enc) == "Scout" and enc.turns.phase == 12
    with pytest.raises(InvalidInput, match="phase 14 or later"):
        command(enc, "act", action="release", actor="Tony", target="Scout")
    assert "since phase 11, acts from phase 14" in [english(line.note) for line in SYSTEM.turns.lines(SYSTEM, enc)]
    enc = command(enc, "act", action="forced delay", actor="Scout").state  # Scout 12 → 17
    assert who(enc) == "Bandit" and enc.turns.phase == 15
    out = command(enc, "act", action="release", actor="Tony", target="Bandit")
    assert who(out.state) == "Tony" and out.state.turns.phase == 15


def test_a_holder_moved_back_and_released_with_nobody_acting_waits_for_its_phase():
    tony = 'init=2 ss=2 hs=2 pa=4 pd=3 er=1 stun=12 lethal=6 endurance=2 weapons="Longblade: 4+px"'
    enc = add(new(), "Tony", "KH 4C", tony).state  # phase 5
    enc = add(enc, "Bandit", "9D", BANDIT).state  # phase 10
    enc = begin(enc).state
    enc = command(enc, "act", action="draw weapon").state  # Tony 5 → 11
    enc = command(enc, "act", action="forced delay", actor="Bandit").state  # Bandit 10 → 15
    enc = command(enc, "act", action="hold", actor="Tony").state  # from phase 11
    enc = command(enc, "act", action="hold", actor="Bandit").state  # from phase 15: everyone holds
    assert enc.turns.current is None and enc.turns.phase == 15
    enc = command(enc, "act", action="oa", actor="Tony", target="Bandit", cards="9S 3C 2D 4D 7D 2H").state
    out = command(enc, "act", action="release", actor="Tony")
    assert "Tony stops holding and acts in phase 18." in texts(out)
    assert who(out.state) == "Tony" and out.state.turns.phase == 18


@pytest.mark.parametrize(
    ("action", "flag", "shown", "cards", "ends"),
    [
        ("reckless move", "reckless", "reckless move (flip−1)", "9C 5C 2C 3S 8D", "Reckless Move penalty"),
        ("full defense", "full_defense", "full defense (flip+1)", "9C 5C 2C 3S 8D 4D 2D", "Full Defense"),
    ],
)
def test_a_holder_stepping_in_first_finds_the_foes_posture_still_on(action, flag, shown, cards, ends):
    # Reckless Move: "(flip-1) for all opposed combat checks until the start of your next activation";
    # Hold: "he moves into that phase ahead of ... whoever is normally scheduled to go": that one's
    # activation has not started yet.
    enc = add(new(), "Tony", "KH 4C", TONY).state  # CI 15: phase 5
    enc = add(enc, "Bandit", "KD", BANDIT).state  # CI 14: phase 6
    enc = command(begin(enc).state, "act", action="hold").state
    enc = command(enc, "act", action=action, actor="Bandit").state
    assert who(enc) == "Bandit"
    out = command(enc, "act", action="release", actor="Tony", target="Bandit")
    assert who(out.state) == "Tony" and getattr(out.state.find("Bandit"), flag)
    out = command(out.state, "attack", target="Bandit", options="range=3", cards=cards)
    assert shown in texts(out)[1]
    assert who(out.state) == "Bandit" and not getattr(out.state.find("Bandit"), flag)
    assert f"Bandit: {ends} ends." in texts(out)


def on_the_move():
    """The Hero moves away in phase 13; the Bandit (phase 10, has acted) may strike."""
    enc = add(new(), "Hero", "KH 4C", 'init=2 ss=2 hs=3 pa=4 pd=3 er=1 stun=12 lethal=6 weapons="Sword: 4+hs"').state
    enc = begin(add(enc, "Bandit", "9D", BANDIT).state).state
    enc = command(enc, "act", action="shift position").state  # Hero 5 → 8
    enc = command(enc, "act", action="combat move").state  # Hero 8 → 13
    return command(enc, "act", action="aim").state  # Bandit 10 → 15: the Hero acts in 13


def test_one_action_provokes_one_opportunity_attack_from_each_foe():
    # "You can make multiple Opportunity Attacks on the same opponent, but each must be triggered by a
    # different action. If a foe moves out of two threatened spaces with a Combat Move action, for
    # example, you can make an Opportunity Attack only once."
    enc = on_the_move()
    assert who(enc) == "Hero"
    enc = command(enc, "act", action="oa", actor="Bandit", target="Hero", cards="9C 2C 3C 8D 4D 2S 5S").state
    with pytest.raises(NotAllowed, match="already"):
        command(enc, "act", action="oa", actor="Bandit", target="Hero", cards="9H 2H 3H 8S 4S 2D")
    enc = command(enc, "act", action="combat move").state  # the Hero's next action: another trigger
    assert who(enc) == "Hero"
    out = command(enc, "act", action="oa", actor="Bandit", target="Hero", cards="9H 2H 3H 8S 4S 2D")
    assert "Bandit's opportunity attack costs 3 phases: next acts in phase 21." in texts(out)


def test_the_one_acting_makes_no_opportunity_attack():
    # "It interrupts the character that triggered the Opportunity Attack": another's action, and its
    # cost, "moved back three phases", is not lost in the attacker's own next action.
    enc = on_the_move()
    with pytest.raises(NotAllowed, match="acting"):
        command(enc, "act", action="oa", actor="Hero", target="Bandit", cards="9C 2C 3C 8D 4D 2S")


def test_an_unconscious_holder_does_not_step_back_in():
    # "When you reach 0 STUN, you fall to the ground prone and unconscious. You cannot fight any further."
    enc = add(new(), "Tony", "KH 4C", TONY).state  # phase 5
    enc = begin(add(enc, "Bandit", "9D", BANDIT).state).state  # phase 10
    enc = command(enc, "act", action="hold").state
    enc = command(enc, "damage", target="Tony", amount="20").state
    assert who(enc) == "Bandit" and enc.find("Tony").unconscious
    with pytest.raises(NotAllowed, match="Tony cannot act now"):
        command(enc, "act", action="release", actor="Tony", target="Bandit")


def test_a_defence_resisted_with_pd_counts_what_the_defender_did():
    # Flat-footed: "lose the Soft Strength [SS] bonus they get to Physical Defense <PD>"; Power Attack:
    # "You suffer (flip-1) to Defense scores"; Full Defense: "+1 Defense for all opposed combat checks".
    enc = add(new(), "Tony", "KH 4C", TONY).state  # phase 5
    enc = begin(add(enc, "Bandit", "9D", BANDIT).state).state  # phase 10
    out = command(enc, "save", actor="Bandit", kind="pd", dc=3, cards="2C 3C 4C 9D")
    assert "vs Bandit PD 2 − SS 1 flat-footed = 1: 9♦ → keep 9 = 9 → resisted" in texts(out)[0]
    enc = command(enc, "act", action="power attack", target="Bandit", options="range=3", cards="2C 3C QS 5D").state
    out = command(enc, "save", actor="Tony", kind="pd", dc=3, cards="2C 3C 4C 9D 5D")
    assert "vs Tony PD 3 (after a power attack (flip−1)): 9♦ 5♦ → keep 9 = 9 → resisted" in texts(out)[0]
    assert who(enc) == "Bandit"  # Tony's next activation, in phase 12, is still to come
    enc = command(enc, "act", action="full defense", actor="Bandit").state
    assert who(enc) == "Tony" and not enc.find("Tony").power_attacked
    out = command(enc, "save", actor="Bandit", kind="id", dc=3, cards="2C 3C 4C 9D 5D 6D")
    assert "vs Bandit ID 2 (full defense (flip+1)): 9♦ 5♦ 6♦ → keep 9 = 9 → resisted" in texts(out)[0]


# --- seed rules met every fight that no test asserted yet (seed: 003_e405c27d3e85e1ef.txt) -------------


def test_a_later_zero_cost_action_goes_behind_the_earlier_one():
    # Seed line 61: "he is moved to the bottom of the order of people to act in that phase. [...] Anyone who later
    # takes a zero-cost action would then be moved behind that player in the order."
    enc = add(new(), "A", "KH 4C", "init=2 ss=3").state  # CI 15, phase 5: SS 3 first
    enc = add(enc, "B", "KS 4D", "init=2 ss=2").state
    enc = add(enc, "C", "KD 4S", "init=2 ss=1").state
    enc = begin(enc).state
    order = []
    for action in ("zero cost", "zero cost", "aim", "aim"):
        order.append(who(enc))
        enc = command(enc, "act", action=action).state
        assert enc.turns.phase == 5
    # A went to the back first, then B behind A: after C, A acts before B.
    assert order == ["A", "B", "C", "A"] and who(enc) == "B"


def test_a_combat_move_ending_prone_costs_no_more_than_the_move():
    # Seed line 110: "He may also use the Drop Prone action as part of this move and incurs no additional time
    # penalties"; line 126: Drop Prone "can be done at the end of a Combat Move for free".
    out = command(tony_and_bandit(), "act", action="combat move", options="prone")
    assert out.state.find("Tony").prone
    assert "Combat Move (5): Tony next acts in phase 10." in texts(out)


def test_soft_cover_gives_the_defender_shift_plus_1():
    # Seed line 294: "Soft Cover grants a (shift+1) to the Defender's combat flip."
    enc = tony_and_bandit()
    # Tony's PA 4: 9♣ 5♣ 2♣ 3♠ → 9; the flat-footed Bandit PD 2 − SS 1 = 1 card: 8♦ → 8 + 1 = 9: a tie hits.
    out = command(enc, "attack", target="Bandit", options="range=3 cover=soft", cards="9C 5C 2C 3S 8D")
    assert (
        texts(out)[1]
        == "Bandit PD 2 − SS 1 flat-footed = 1 (soft cover (shift+1)): 8♦ → keep 8 = 8 + 1 = 9 → 9 vs 9: hit"
    )


def aid_fight():
    """Hero (phase 5) and Other (phase 7) Aid Friend (phase 17) against the Bandit (phase 10, PD 3, no SS)."""
    hero = 'init=2 ss=2 pa=4 pd=3 px=2 stun=12 lethal=6 weapons="Longblade: 4+px +1pa"'
    enc = add(new(), "Hero", "KH 4C", hero).state
    enc = add(enc, "Other", "QS", "init=1 pa=3").state
    enc = add(enc, "Bandit", "9D", "init=1 ss=0 pa=3 pd=3 er=1 stun=30 lethal=5").state
    enc = add(enc, "Friend", "2S", "init=1 pa=3").state
    return begin(enc).state


def test_an_aid_puts_the_foe_at_flip_minus_1_once_against_the_ally_and_two_aids_do_not_stack():
    # Seed line 90: "your foe will be at a (flip-1) on his next defensive flip against your chosen ally. This will
    # not stack with other instances of Aid (either by yourself or others)."
    enc = aid_fight()
    # Hero's PA 4 (Longblade flip+1, aid flip+1), Other's PA 3 (aid flip+1); the Bandit's PD 3: 12 vs 4: hit.
    for aider, cards in (("Hero", "QC 3C 4C 5C 6C 7C 2D 3D 4D"), ("Other", "QC 3C 4C 5C 2D 3D 4D")):
        assert who(enc) == aider
        out = command(enc, "act", action="aid", target="Bandit", options="ally=Friend", cards=cards)
        assert "Bandit defends at (flip−1) on the next flip against Friend." in texts(out)
        enc = out.state
    while who(enc) != "Friend":
        enc = end_turn(enc).state
    # Friend's PA 3: Q♣ 3♣ 4♣; the Bandit's PD 3 at (flip−1) once, not twice: two cards.
    out = command(enc, "attack", target="Bandit", cards="QC 3C 4C 5D 6D")
    assert texts(out)[1].startswith("Bandit PD 3 (aided against (flip−1)): 5♦ 6♦ → keep 6")
    enc = out.state
    while who(enc) != "Friend":
        enc = end_turn(enc).state
    # The Aid is spent: the next flip against Friend is the Bandit's whole PD 3.
    out = command(enc, "attack", target="Bandit", cards="QC 3C 4C 5D 6D 7D")
    assert texts(out)[1].startswith("Bandit PD 3: 5♦ 6♦ 7♦ → keep 7")


def test_susceptibility_doubles_the_lethal_too():
    # Seed line 431: "Susceptibility – A creature takes double STUN (after resilience reductions) and LETHAL".
    enc = add(new(), "Berhardt", "2D", "ir=2 stun=30 lethal=10 susceptible=cold").state
    out = command(enc, "damage", target="Berhardt", amount="8", damage_type="arcane cold", options="lethal=2")
    berhardt = out.state.find("Berhardt")
    assert (berhardt.stun, berhardt.lethal) == (30 - 12, 10 - 4)
    assert "8 − IR 2 = 6 ×2 susceptible = 12 arcane (cold) STUN, 4 LETHAL" in texts(out)[0]


def test_temporary_stun_at_zero_stun_leaves_the_character_unconscious():
    # Seed line 415: "If you are at zero STUN and gain temporary STUN, you are still unconscious."
    enc = command(tony_and_bandit(), "damage", target="Bandit", amount="10").state
    enc = command(enc, "heal", target="Bandit", amount="5", options="temp").state
    bandit = enc.find("Bandit")
    assert (bandit.stun, bandit.temp_stun) == (0, 5) and bandit.unconscious
    assert not SYSTEM.can_act(enc, bandit)


def test_losing_the_temporary_lethal_goes_back_to_disabled_then_dying():
    # Seed line 417: "If you lose enough temporary LETHAL to drop to zero or less, you go back to disabled or
    # dying, as usual."
    enc = command(tony_and_bandit(), "damage", target="Bandit", amount="6", options="lethal=6").state  # LETHAL −1
    enc = command(enc, "heal", target="Bandit", amount="2", options="temp lethal").state  # −1 + 2 = 1
    assert not enc.find("Bandit").dying
    enc = command(enc, "damage", target="Bandit", amount="1", options="lethal=1").state
    bandit = enc.find("Bandit")
    assert (bandit.lethal, bandit.temp_lethal) == (-1, 1) and bandit.disabled
    enc = command(enc, "damage", target="Bandit", amount="1", options="lethal=1").state
    bandit = enc.find("Bandit")
    assert (bandit.lethal, bandit.temp_lethal) == (-1, 0) and bandit.dying
