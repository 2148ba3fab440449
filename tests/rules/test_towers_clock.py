"""99 Towers on the Combat Clock: ties, actions and their costs, holds, zero phases."""

from __future__ import annotations

import pytest

from rules.actions import EndTurn
from rules.engine import apply
from rules.errors import InvalidInput, NotAllowed, NotYourTurn
from rules.said import english
from rules.systems.towers import SYSTEM
from tests.rules.test_towers_helpers import GM, add, begin, command, new, phase_of, texts, who

FIGHTER = (
    'init=2 ss=2 hs=3 pa=4 pd=3 er=1 stun=12 lethal=6 endurance=2 weapons="Longblade: 4+px +1pa; Pistol: 5 r6" px=2'
)
BANDIT = 'init=1 ss=1 hs=2 pa=3 pd=2 er=1 stun=10 lethal=5 endurance=1 weapons="Club: 2+hs"'


def duel(fighter_cards="KH 4C", bandit_cards="9D"):
    """Fighter CI 15 (phase 5); Bandit CI 10 (phase 10)."""
    enc = add(new(), "Fighter", fighter_cards, FIGHTER).state
    enc = add(enc, "Bandit", bandit_cards, BANDIT).state
    return begin(enc).state


def test_ties_go_by_ci_then_n_then_soft_strength():
    enc = add(new(), "A", "KH 4C", "init=2 ss=1").state  # CI 15
    enc = add(enc, "B", "QH 4D 2C", "init=3 ss=1").state  # CI 15, higher N
    enc = add(enc, "C", "KS 5C", "init=2 ss=2").state  # CI 15, N 2, higher SS
    enc = add(enc, "D", "10H", "init=1 ss=5").state  # CI 11
    enc = begin(enc).state
    order = []
    for _ in range(3):
        order.append(who(enc))
        enc = command(enc, "act", action="zero cost").state
    assert order == ["B", "C", "A"]


def test_a_full_tie_is_settled_by_a_flip_off_that_holds_for_the_encounter():
    enc = add(new(), "A", "KH 4C", "init=2 ss=1").state
    out = add(enc, "B", "KS 4D 3C 9H", "init=2 ss=1")  # ties A: flip-off A 3♣, B 9♥
    assert "flip-off A 3♣, B 9♥ → B then A for this encounter" in texts(out)[-1]
    enc = out.state
    assert [e.tiebreak for e in enc.turns.entries] == [(3.0,), (9.0,)]
    # A newcomer with the same numbers flips too and never reorders A and B.
    out = add(enc, "C", "KD 2S 9S 5H 2H", "init=2 ss=1")  # C 9♠ ties B 9♥: both flip again, B 5♥, C 2♥
    assert "flip-off C 9♠; B 5♥, C 2♥ → B then C then A" in texts(out)[-1]
    enc = begin(out.state).state
    order = []
    for _ in range(3):
        order.append(who(enc))
        enc = command(enc, "act", action="zero cost").state
    assert order == ["B", "C", "A"]


def test_a_flip_off_card_tie_flips_again():
    enc = add(new(), "A", "KH 4C", "init=2 ss=1").state
    out = add(enc, "B", "KS 4D 7C 7H 2C 8D", "init=2 ss=1")
    assert [e.tiebreak for e in out.state.turns.entries] == [(7.0, 2.0), (7.0, 8.0)]


def test_zero_cost_action_sends_the_actor_to_the_back_of_the_phase():
    enc = add(new(), "A", "KH 4C", "init=2").state
    enc = add(enc, "B", "KS 3C", "init=2 ss=0").state
    enc = begin(enc).state
    assert who(enc) == "A"
    out = command(enc, "act", action="zero-cost")
    assert who(out.state) == "B" and out.state.turns.phase == 5
    assert "A goes to the back of phase 5" in " ".join(texts(out))


def test_free_actions_do_not_end_the_turn():
    enc = duel()
    out = command(enc, "act", action="speak", options='text="Drop it!"')
    assert who(out.state) == "Fighter" and phase_of(out.state, "Fighter") == 5
    assert texts(out) == ["Fighter: Speak (free): Drop it!"]


@pytest.mark.parametrize(
    "name, cost",
    [
        ("aim", 5),
        ("cast", 5),
        ("combat move", 5),
        ("concentrate", 5),
        ("drop prone", 3),
        ("draw weapon", 6),
        ("forced delay", 5),
        ("full defense", 10),
        ("interact environment", 5),
        ("interact inventory", 10),
        ("pick up", 3),
        ("reckless move", 7),
        ("recover", 5),
        ("reload", 5),
        ("running leap", 5),
        ("shift position", 3),
        ("use item", 5),
    ],
)
def test_every_action_costs_its_phases(name, cost):
    enc = duel()
    out = command(enc, "act", action=name)
    assert phase_of(out.state, "Fighter") == 5 + cost


def test_stand_from_prone_costs_4_or_less_after_acrobatics():
    enc = command(duel(), "act", action="drop prone").state  # Fighter → phase 8, prone
    assert enc.find("Fighter").prone and who(enc) == "Fighter"
    out = command(enc, "act", action="stand")
    assert phase_of(out.state, "Fighter") == 12 and not out.state.find("Fighter").prone
    enc = command(enc, "act", action="stand", options="cost=2").state
    assert phase_of(enc, "Fighter") == 10 and who(enc) == "Fighter"
    with pytest.raises(InvalidInput, match="not prone"):
        command(enc, "act", action="stand")


def test_use_a_skill_costs_what_the_gm_sets():
    enc = duel()
    with pytest.raises(InvalidInput, match="GM sets the cost"):
        command(enc, "act", action="use skill")
    out = command(enc, "act", action="use skill", options="cost=7")
    assert phase_of(out.state, "Fighter") == 12


def test_shift_position_added_to_another_action_costs_two_more():
    enc = duel()
    out = command(enc, "act", action="reload", options="shift-position")
    assert phase_of(out.state, "Fighter") == 5 + 5 + 2
    with pytest.raises(InvalidInput, match="cannot be added"):
        command(enc, "act", action="shift position", options="shift-position")
    with pytest.raises(InvalidInput, match="cannot be added"):
        command(enc, "act", action="forced delay", options="step")


def test_end_turn_is_a_forced_delay_of_5():
    enc = duel()
    out = apply(enc, EndTurn(by=GM, turn_no=enc.turn_no))
    assert phase_of(out.state, "Fighter") == 10
    assert "Fighter takes a Forced Delay (5): Fighter next acts in phase 10." in texts(out)


# Seed, Forced Delay: "You are not allowed to use any free or 0-cost actions in the same phase as Delay."
# A turn's free actions come before the action that ends it, so the Delay is what comes second: refused.
@pytest.mark.parametrize("first", ["speak", "drop object", "discard chip", "zero cost"])
def test_no_forced_delay_in_a_phase_with_a_free_or_zero_cost_action(first):
    enc = add(new(), "Fighter", "KH 4C", FIGHTER).state  # phase 5, alone: a zero-cost action keeps the turn
    enc = begin(enc).state
    enc = command(enc, "act", action=first).state
    assert who(enc) == "Fighter" and enc.turns.phase == 5
    summary = [english(line) for line in SYSTEM.turn_summary(enc, enc.turns.current)]
    assert "A free or zero-cost action this phase: no Forced Delay (End turn) until the next." in summary
    with pytest.raises(NotAllowed, match="no Forced Delay in phase 5"):
        command(enc, "act", action="forced delay")
    with pytest.raises(NotAllowed, match="no Forced Delay in phase 5"):
        apply(enc, EndTurn(by=GM, turn_no=enc.turn_no))
    # Another action is still open, and the next phase's Delay is free of it.
    enc = command(enc, "act", action="aim").state
    assert phase_of(enc, "Fighter") == 10
    out = apply(enc, EndTurn(by=GM, turn_no=enc.turn_no))
    assert "Fighter takes a Forced Delay (5): Fighter next acts in phase 15." in texts(out)


def test_a_forced_delay_is_still_open_after_a_stance_or_a_hold():
    # Neither is a free action of the seed's list: a stance is chosen "at the start of each of his actions",
    # a Delay among them, and Hold is "Special".
    twin = 'init=2 pa=4 pd=3 weapons="Axe: 4+px; Knife: 2+px"'
    enc = begin(add(new(), "Twin", "KH 4C", twin).state).state
    enc = command(enc, "act", action="stance", options="aggressive").state
    assert phase_of(command(enc, "act", action="forced delay").state, "Twin") == 10
    enc = command(duel(), "act", action="hold").state  # from phase 5
    enc = command(enc, "act", action="release", actor="Fighter", target="Bandit").state  # phase 10
    assert who(enc) == "Fighter"
    out = command(enc, "act", action="forced delay")
    assert phase_of(out.state, "Fighter") == 15


def test_hold_then_release_after_a_named_character_in_a_later_phase():
    enc = duel()
    out = command(enc, "act", action="hold")
    enc = out.state
    assert who(enc) == "Bandit" and enc.turns.phase == 10
    out = command(enc, "act", action="release", target="Bandit", options="after")
    enc = out.state
    assert who(enc) == "Bandit"
    enc = command(enc, "act", action="forced delay").state
    assert who(enc) == "Fighter" and enc.turns.phase == 10
    enc = command(enc, "act", action="shift position").state
    assert phase_of(enc, "Fighter") == 13


def test_release_before_the_named_character_acts_first():
    enc = command(duel(), "act", action="hold").state
    out = command(enc, "act", action="release", target="Bandit")
    assert who(out.state) == "Fighter" and out.state.turns.phase == 10
    enc = command(out.state, "act", action="shift position").state
    assert who(enc) == "Bandit" and enc.turns.phase == 10


def test_release_is_never_in_the_phase_the_hold_began():
    enc = add(new(), "A", "KH 4C", "init=2").state
    enc = add(enc, "B", "KS 3C", "init=2 ss=0").state
    enc = begin(enc).state
    enc = command(enc, "act", action="hold").state
    assert who(enc) == "B" and enc.turns.phase == 5
    with pytest.raises(InvalidInput, match="later phase"):
        command(enc, "act", action="release", actor="A", target="B")


def test_a_lone_holder_steps_back_in_a_later_phase():
    enc = begin(add(new(), "A", "KH 4C", "init=2").state).state
    enc = command(enc, "act", action="hold").state
    assert who(enc) is None
    out = command(enc, "act", action="release", actor="A")
    assert who(out.state) == "A" and out.state.turns.phase == 6


def test_when_everyone_holds_a_released_holder_acts_and_the_clock_goes_on():
    enc = command(duel(), "act", action="hold").state  # Fighter, from phase 5
    enc = command(enc, "act", action="hold").state  # Bandit, from phase 10: nobody is left to act
    assert who(enc) is None
    enc = command(enc, "act", action="release", actor="Fighter").state
    assert who(enc) == "Fighter" and enc.turns.phase == 10
    out = command(enc, "act", action="recover")
    # The Fighter no longer holds: the clock runs on to their next turn; the Bandit still holds.
    assert who(out.state) == "Fighter" and out.state.turns.phase == 15
    assert [e.held_since for e in out.state.turns.entries] == [None, 10]
    enc = command(out.state, "act", action="hold").state
    assert who(enc) is None
    enc = command(enc, "act", action="release", actor="Bandit").state
    assert who(enc) == "Bandit" and enc.turns.phase == 15


def test_running_leap_comes_in_two_halves():
    enc = duel()
    enc = command(enc, "act", action="running leap").state
    assert enc.find("Fighter").leaping and phase_of(enc, "Fighter") == 10
    # The bandit (CI 10) and the fighter (CI 15) share phase 10: the fighter goes first.
    assert who(enc) == "Fighter"
    with pytest.raises(NotAllowed, match="Running Leap"):
        command(enc, "act", action="aim")
    with pytest.raises(NotAllowed, match="Running Leap"):
        command(enc, "attack", target="Bandit")
    enc = command(enc, "act", action="leap").state
    assert not enc.find("Fighter").leaping and phase_of(enc, "Fighter") == 15


@pytest.mark.parametrize("delay", [EndTurn, "forced delay"])
def test_a_forced_delay_wastes_the_turn_of_the_leap_and_loses_it(delay):
    # The leap comes "when the player's turn comes up again": a Forced Delay wastes that turn.
    enc = command(duel(), "act", action="running leap").state
    assert who(enc) == "Fighter" and enc.find("Fighter").leaping
    out = apply(enc, EndTurn(by=GM, turn_no=enc.turn_no)) if delay is EndTurn else command(enc, "act", action=delay)
    assert not out.state.find("Fighter").leaping and phase_of(out.state, "Fighter") == 15
    assert "Fighter wastes the turn: the leap of the Running Leap is lost." in texts(out)
    enc = command(out.state, "act", action="forced delay").state  # the Bandit, phase 10
    assert who(enc) == "Fighter" and enc.turns.phase == 15
    assert phase_of(command(enc, "act", action="aim").state, "Fighter") == 20


def test_aim_stacks_up_to_half_pa_and_feeds_the_next_attack():
    enc = duel()
    enc = command(enc, "act", action="aim").state  # → 10 (before the bandit: higher CI)
    enc = command(enc, "act", action="aim").state  # → 15
    assert enc.find("Fighter").aim == 2
    assert who(enc) == "Bandit"
    enc = command(enc, "act", action="forced delay").state  # bandit 10 → 15, after the fighter (higher CI)
    assert who(enc) == "Fighter"
    with pytest.raises(InvalidInput, match="at most half PA 4 = 2"):
        command(enc, "act", action="aim")
    # Longblade: PA 4 + 1 (weapon) + 2 (aim) = 7 cards; the bandit has acted: PD 2, two cards.
    out = command(enc, "attack", target="Bandit", weapon="longblade", cards="2C 3C 4C 5C 6C 7C 8C 9D 3D")
    assert "PA 4 (Longblade (flip+1); aim (flip+2))" in texts(out)[0]
    assert out.state.find("Fighter").aim == 0


def test_who_cannot_aim_at_all_is_not_told_they_cannot_aim_again():
    # "You may do this a number of times in a row up to half your Physical Attack <PA> or Spell Attack <SA>":
    # with SA 0 the Fighter may not aim a spell once, which is not aiming "again".
    enc = duel()
    with pytest.raises(InvalidInput) as refused:
        command(enc, "act", action="aim", options="sa")
    assert english(refused.value.said) == "Fighter cannot aim: half SA 0 is 0."


def test_another_action_loses_the_aim():
    enc = duel()
    enc = command(enc, "act", action="aim").state
    enc = command(enc, "act", action="shift position").state
    assert enc.find("Fighter").aim == 0


def test_recover_heals_stun_equal_to_endurance():
    enc = duel()
    enc = command(enc, "damage", target="Fighter", amount="5").state
    out = command(enc, "act", action="recover")
    assert out.state.find("Fighter").stun == 12 - 5 + 2


def test_only_the_acting_character_acts():
    enc = duel()
    with pytest.raises(NotYourTurn):
        command(enc, "act", action="aim", actor="Bandit")


def test_zero_phase_bleeds_the_dying_and_restores_mana():
    enc = add(new(), "Mage", "KH 4C", "init=2 mana=5 sa=4").state
    enc = add(enc, "Victim", "9D", "endurance=2 lethal=3 stun=10").state
    enc = begin(enc).state
    out = command(enc, "act", action="cast", options="mana=3")  # 5 → 10, a zero phase
    assert "Phase 10 (zero phase): Mage regains mana: 2 → 3/5." in texts(out)
    enc = command(out.state, "damage", target="Victim", amount="4", options="lethal=4").state
    assert enc.find("Victim").lethal == -1 and enc.find("Victim").dying
    out = command(enc, "act", action="interact inventory")  # Mage 10 → 20; the dying victim cannot act
    joined = " | ".join(texts(out))
    assert (
        "Phase 20 (zero phase): Victim is dying and loses 1 LETHAL. "
        "Victim: LETHAL −1 → −2/3 — still dying (dies at LETHAL −4)"
    ) in joined
    assert "Phase 20 (zero phase): Mage regains mana: 3 → 4/5." in joined
    assert out.state.find("Victim").lethal == -2


def test_dying_characters_bleed_out_at_minus_twice_endurance():
    enc = add(new(), "Mage", "KH 4C", "init=2").state
    enc = add(enc, "Victim", "9D", "endurance=1 lethal=3 stun=10").state
    enc = begin(enc).state
    enc = command(enc, "damage", target="Victim", amount="4", options="lethal=4").state  # -1
    out = command(enc, "act", action="full defense")  # 5 → 15 passes phase 10
    victim = out.state.find("Victim")
    assert victim.lethal == -2 and victim.out
    assert "dead" in " ".join(texts(out))


def test_conditions_end_at_the_start_of_their_phase_and_ongoing_damage_hits_each_zero_phase():
    enc = duel()
    enc = command(
        enc,
        "condition_add",
        target="Bandit",
        condition="Burning",
        duration="2 rounds",
        options="ongoing=3 arcane type=fire",
    ).state
    enc = command(enc, "condition_add", target="Fighter", condition="Dazed", duration="4 phases", tags="minor").state
    out = command(enc, "act", action="full defense")  # 5 → 15: phases 6..10 pass
    joined = " | ".join(texts(out))
    assert "Phase 9: Fighter's Dazed ends." in joined
    assert "Phase 10: Burning: 3 arcane (fire) STUN" in joined
    assert out.state.find("Bandit").stun == 7


def test_shake_minor_condition_removes_it():
    enc = duel()
    enc = command(enc, "condition_add", target="Fighter", condition="Dazed", tags="minor").state
    out = command(enc, "act", action="shake")
    assert out.state.find("Fighter").conditions == ()
    assert phase_of(out.state, "Fighter") == 10


def test_unconscious_characters_are_skipped_by_the_clock():
    enc = duel()
    enc = command(enc, "damage", target="Bandit", amount="10").state
    bandit = enc.find("Bandit")
    assert bandit.stun == 0 and bandit.prone and bandit.unconscious
    enc = command(enc, "act", action="full defense").state  # 5 → 15
    assert who(enc) == "Fighter" and enc.turns.phase == 15


def test_temporary_stun_is_lost_first_and_never_stacks():
    enc = duel()
    enc = command(enc, "heal", target="Fighter", amount="4", options="temp").state
    enc = command(enc, "heal", target="Fighter", amount="2", options="temp").state
    assert enc.find("Fighter").temp_stun == 4
    enc = command(enc, "damage", target="Fighter", amount="6").state
    fighter = enc.find("Fighter")
    assert (fighter.temp_stun, fighter.stun) == (0, 10)


def test_temporary_lethal_lifts_a_dying_character():
    enc = duel()
    enc = command(enc, "damage", target="Bandit", amount="9", options="lethal=6").state
    assert enc.find("Bandit").dying
    enc = command(enc, "heal", target="Bandit", amount="2", options="temp lethal").state
    bandit = enc.find("Bandit")
    assert not bandit.dying and bandit.health == 1


def test_grapple_test_is_pa_plus_size_against_pd_plus_size_and_escape_needs_a_higher_flip():
    enc = duel()
    # Fighter PA 4: 9♣ 2♣ 3♣ 4♣; the flat-footed bandit PD 2 − SS 1 = 1 card: 9♦ → 9 vs 9: grappled.
    out = command(enc, "act", action="grapple", target="Bandit", cards="9C 2C 3C 4C 9D")
    assert "9 vs 9: Bandit is grappled" in texts(out)[0]
    assert phase_of(out.state, "Fighter") == 10
    enc = out.state
    assert who(enc) == "Fighter"  # phase 10: CI 15 before the bandit's 10
    enc = command(enc, "act", action="forced delay").state
    assert who(enc) == "Bandit"
    out = command(enc, "act", action="escape", cards="8C 2C 3C 4C 10D 2D")  # bandit now PD 2: 10 beats 8
    assert "Bandit escapes" in texts(out)[0]
    assert out.state.find("Bandit").conditions == ()
    with pytest.raises(InvalidInput, match="not grappled"):
        command(out.state, "act", action="escape", actor="Fighter")


def test_the_tracker_puts_those_who_cannot_act_last_without_a_stale_phase():
    enc = duel()
    enc = command(enc, "damage", target="Bandit", amount="10", options="lethal=6").state  # LETHAL −1: dying
    lines = SYSTEM.turns.lines(SYSTEM, enc)
    assert [(english(line.label), enc.get(line.cids[0]).name) for line in lines] == [
        ("phase 5", "Fighter"),
        ("down", "Bandit"),
    ]
    enc = command(enc, "damage", target="Bandit", amount="1", options="lethal=2").state  # -3 ≤ -2: dead
    assert [english(line.label) for line in SYSTEM.turns.lines(SYSTEM, enc)] == ["phase 5", "dead"]


def test_the_turn_title_names_the_phase():
    enc = duel()
    assert english(SYSTEM.turns.waiting(SYSTEM, enc).title) == "Fighter's turn — phase 5"
    enc = command(enc, "act", action="shift position").state  # 5 → 8, the Bandit still at 10
    assert english(SYSTEM.turns.waiting(SYSTEM, enc).title) == "Fighter's turn — phase 8"


def test_whoever_drops_on_their_own_turn_hands_the_clock_on_with_a_word():
    enc = duel()
    enc = command(enc, "act", action="forced delay").state  # Fighter 5 → 10, ahead of the Bandit (CI)
    enc = command(enc, "act", action="zero cost").state  # to the back of phase 10: the Bandit's turn
    assert who(enc) == "Bandit"
    out = command(enc, "damage", target="Bandit", amount="10", options="lethal=6")
    assert "Bandit can no longer act: the clock moves on." in texts(out)
    assert who(out.state) == "Fighter"


def test_after_the_last_one_leaves_a_newcomer_takes_the_next_turn():
    enc = duel()
    enc = command(enc, "initiative_remove", combatant="Bandit").state
    out = command(enc, "initiative_remove", combatant="Fighter")
    assert "Nobody is left in the fight" in " ".join(map(english, texts(out)))
    assert who(out.state) is None and SYSTEM.turns.acting(out.state) == ()
    enc = add(out.state, "Thug", "9D", BANDIT).state
    enc = begin(enc).state  # the GM goes on
    assert who(enc) == "Thug" and SYSTEM.turns.waiting(SYSTEM, enc).cids == SYSTEM.turns.acting(enc)


def holders_and_x():
    """B holds from phase 5, then A from phase 9 (A joined the fight first); X acts in phase 17."""
    enc = add(new(), "A", "9H 4C", "init=2").state  # CI 11: phase 9
    enc = add(enc, "B", "KH 4D", "init=2").state  # CI 15: phase 5
    enc = add(enc, "X", "2D", "init=1").state  # CI 3: phase 17
    enc = command(begin(enc).state, "act", action="hold").state  # B
    enc = command(enc, "act", action="hold").state  # A
    assert who(enc) == "X" and enc.turns.phase == 17
    return enc


def test_holders_stepping_in_after_the_same_one_go_in_the_order_they_began_holding():
    # Seed (Hold): "If two or more people are holding, they may want to go at the same moment. If this is the
    # case, the person who first started to Hold chooses who will go first." Unasked, B (who held first) goes first.
    enc = holders_and_x()
    enc = command(enc, "act", action="release", actor="A", target="X", options="after").state
    enc = command(enc, "act", action="release", actor="B", target="X", options="after").state
    enc = command(enc, "act", action="recover").state  # X
    assert who(enc) == "B" and enc.turns.phase == 17
    enc = command(enc, "act", action="recover").state
    assert who(enc) == "A" and enc.turns.phase == 17


def test_the_first_holder_chooses_to_come_out_of_the_hold_after_a_later_one():
    # "A character may choose to come out of his hold based on another character also stopping his hold action.
    # In this case, whoever held first chooses who acts first."
    enc = holders_and_x()
    enc = command(enc, "act", action="release", actor="A", target="X", options="after").state
    out = command(enc, "act", action="release", actor="B", target="A", options="after")
    assert "B stops holding and acts after A." in texts(out)
    enc = command(out.state, "act", action="recover").state  # X
    assert who(enc) == "A"
    enc = command(enc, "act", action="recover").state
    assert who(enc) == "B" and enc.turns.phase == 17


def test_a_later_holder_does_not_choose_to_go_ahead_of_the_first():
    enc = holders_and_x()
    enc = command(enc, "act", action="release", actor="B", target="X", options="after").state
    with pytest.raises(InvalidInput, match="B began holding first") as refused:
        command(enc, "act", action="release", actor="A", target="B")
    assert english(refused.value.said) == (
        "B began holding first and chooses who acts first: A may step in after B (options:after)."
    )
    enc = command(enc, "act", action="release", actor="A", target="B", options="after").state
    enc = command(enc, "act", action="recover").state  # X
    assert [who(enc), enc.turns.phase] == ["B", 17]


def test_a_holder_stepping_in_just_after_one_who_stepped_in_before_the_phase_owner_goes_ahead_of_them():
    # README (Hold): `options:after` steps in "just after" whoever is named. A stepped in before X and acts;
    # B, released after A, goes next, not after X as well.
    enc = holders_and_x()
    enc = command(enc, "act", action="release", actor="A", target="X").state
    assert who(enc) == "A"
    out = command(enc, "act", action="release", actor="B", target="A", options="after")
    assert "B stops holding and acts after A." in texts(out)
    enc = command(out.state, "act", action="recover").state  # A
    assert [who(enc), enc.turns.phase] == ["B", 17]
    enc = command(enc, "act", action="recover").state
    assert [who(enc), enc.turns.phase] == ["X", 17]


def test_a_holder_stepping_in_before_another_holder_leaves_the_one_acting_as_they_are():
    enc = add(new(), "X", "KH 4D", "init=2").state  # CI 15: phase 5
    enc = add(enc, "B", "QH 4C", "init=2").state  # CI 14: phase 6
    enc = add(enc, "A", "JH 3C", "init=2").state  # CI 13: phase 7
    enc = command(begin(enc).state, "act", action="full defense").state  # X, to phase 15
    enc = command(enc, "act", action="hold").state  # B
    enc = command(enc, "act", action="hold").state  # A
    assert who(enc) == "X" and not enc.find("X").full_defense  # X's turn opened: Full Defense is over
    enc = command(enc, "act", action="release", actor="A", target="X", options="after").state
    out = command(enc, "act", action="release", actor="B", target="A")
    assert "B stops holding and acts before A." in texts(out)
    # B steps in after X, who is acting: X's Full Defense stays over.
    assert who(out.state) == "X" and not out.state.find("X").full_defense
    enc = command(out.state, "act", action="recover").state
    assert who(enc) == "B"


def test_a_holder_stepping_in_just_after_another_holder_goes_between_them_and_the_next_one():
    # "A character who holds can act before or after someone": C steps in before A, who stepped in before X; B,
    # released just after C, goes between C and A, though A began holding first and would win a tie.
    enc = add(new(), "A", "KH 4D", "init=2").state  # CI 15: phase 5
    enc = add(enc, "B", "QH 4C", "init=2").state  # CI 14: phase 6
    enc = add(enc, "C", "JH 3C", "init=2").state  # CI 13: phase 7
    enc = add(enc, "X", "2D", "init=1").state  # CI 3: phase 17
    for _ in "ABC":
        enc = command(begin(enc).state if _ == "A" else enc, "act", action="hold").state
    assert who(enc) == "X"
    enc = command(enc, "act", action="release", actor="A", target="X").state
    enc = command(enc, "act", action="release", actor="C", target="A").state
    enc = command(enc, "act", action="release", actor="B", target="C", options="after").state
    order = []
    for _ in range(4):
        order.append(who(enc))
        enc = command(enc, "act", action="recover").state
    assert order == ["C", "B", "A", "X"]
