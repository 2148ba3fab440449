"""Rotted Capes: what reading a whole fight as a GM turned up — Plot Points
that must not be wasted or lost, dice rolled ahead, skipped turns said aloud,
and condition texts that read as sentences."""

from __future__ import annotations

import pytest

from rules.actions import Choose
from rules.engine import apply
from rules.errors import DiceError, NotAllowed
from rules.said import english
from rules.systems.rotted_capes import SYSTEM
from tests.rules.test_rotted_capes import ALICE, BOB, GM, begin, cmd, end_turn, join, new, run, texts, who


def table(**options):
    """Nova and Bolt (1 Plot Point each) against a Brute; Nova acts first."""
    enc = new(offer_plot_disadvantage=True, **options)
    enc = join(enc, "Nova", 15, avoidance=12, attack=5, stamina=20, fortitude=8)
    enc = join(enc, "Bolt", 12)
    enc = join(enc, "Brute", 5, attack=4, avoidance=10, stamina=20, fortitude=6)
    return begin(enc)


def brutes_turn(enc):
    return end_turn(end_turn(enc, ALICE).state, BOB).state


# --- the disadvantage offer ------------------------------------------------------------------
def test_no_plot_point_is_offered_when_advantage_and_disadvantage_already_cancel():
    enc = brutes_turn(table())
    enc = run(enc, "condition_add", target="Brute", condition="Blinded")
    enc = enc.update(who(enc, "Nova").id, dodging=True)
    out = cmd(enc, "attack", GM, target="Nova", damage="1d6", dice="18 3")
    assert out.state.pending is None
    assert "[dis: attacker blinded, target dodging]" in texts(out)[0] and "d20 dis (18, 3) 3" in texts(out)[0]
    enc = run(enc, "condition_remove", target="Brute", condition="Blinded")
    enc = run(enc, "condition_add", target="Nova", condition="Prone")
    out = cmd(enc, "attack", GM, target="Nova", damage="1d6", dice="18 3")
    assert out.state.pending is None  # adv (prone) and dis (dodging) already give one d20
    assert "[adv: target prone; dis: target dodging; they cancel: one d20]" in texts(out)[0]


def test_the_offer_stands_when_the_point_turns_advantage_into_a_straight_roll():
    enc = brutes_turn(table())
    enc = run(enc, "condition_add", target="Nova", condition="Prone")
    out = cmd(enc, "attack", GM, target="Nova", damage="1d6", dice="18")
    assert out.state.pending.kind == "plot_disadvantage"
    out = apply(
        out.state,
        Choose(by=ALICE, pending_id=out.state.pending.id, option="Spend a Plot Point: disadvantage", dice=(3,)),
    )
    assert (
        "d20 18 + 4 = 22 vs Avoidance 12: hit [adv: target prone; dis: Plot Point; they cancel: one d20]; 1d6 (3) = 3"
        in texts(out)[-1]
    )


# --- rerolls -----------------------------------------------------------------------------------
def test_a_point_given_before_a_reroll_is_kept_and_spent_not_lost():
    enc = table()
    enc = run(enc, "attack", ALICE, target="Brute", damage="1d6", roll=2)
    enc = run(enc, "plotpoint_spend", ALICE, use="narrative", text="the lights go out")
    enc = run(enc, "plotpoint_spend", BOB, use="aid", target="Nova")
    out = cmd(enc, "plotpoint_spend", ALICE, use="reroll", dice="15 4")
    assert texts(out)[0] == "🎭 Nova spends a Plot Point to reroll the d20 (0 left; pool 2)."
    nova, bolt = who(out.state, "Nova"), who(out.state, "Bolt")
    assert (nova.plot_points, bolt.plot_points, bolt.aided_this_scene) == (0, 0, True)
    assert who(out.state, "Brute").stamina == 16


def test_a_reroll_after_anything_else_happened_is_refused():
    enc = table()
    enc = run(enc, "attack", ALICE, target="Brute", damage="1d6", dice="15 1")
    enc = run(enc, "damage", target="Brute", amount="5")
    with pytest.raises(NotAllowed, match="right after it"):
        cmd(enc, "plotpoint_spend", ALICE, use="reroll damage", dice="6")


# --- dice entered ahead ---------------------------------------------------------------------
def test_damage_dice_entered_with_a_missed_d20_are_not_needed_and_not_refused():
    enc = table()
    out = cmd(enc, "attack", ALICE, target="Brute", damage="2d6", dice="3 6 6")
    assert texts(out)[0] == "Nova attacks Brute: d20 3 + 5 = 8 vs Avoidance 10: miss"
    with pytest.raises(DiceError, match="4 entered dice were not needed"):  # more than the damage needs: a typo
        cmd(enc, "attack", ALICE, target="Brute", damage="2d6", dice="3 6 6 6 6")


# --- a demanding action's effect ----------------------------------------------------------------
def test_a_free_attack_spends_no_action_when_a_demanding_action_resolved_or_the_gm_rules_so():
    enc = table()
    # a player's own attack is free only as a demanding action's effect
    with pytest.raises(NotAllowed, match="`free` is for the effect of a demanding action"):
        cmd(enc, "attack", ALICE, target="Brute", damage="1", options="free", roll=15)
    out = cmd(enc, "attack", GM, actor="Nova", target="Brute", damage="1", options="free", roll=15)
    assert texts(out)[0].startswith("Nova attacks Brute (no Action spent): d20 15 + 5 = 20")
    enc = out.state
    assert who(enc, "Nova").economy.action
    enc = run(enc, "act", ALICE, action="demanding", options="what=Overcharge")
    enc = end_turn(end_turn(end_turn(enc, ALICE).state, BOB).state).state  # round 2: Nova's turn again
    out = cmd(enc, "attack", ALICE, target="Brute", damage="1", options="free", roll=15)
    assert texts(out)[0].startswith("Nova attacks Brute (no Action spent)")
    enc = run(out.state, "attack", ALICE, target="Brute", damage="1", roll=15)
    assert not who(enc, "Nova").economy.action
    # the next turn has no demanding action resolving: no free attack
    enc = end_turn(end_turn(end_turn(enc, ALICE).state, BOB).state).state
    with pytest.raises(NotAllowed):
        cmd(enc, "attack", ALICE, target="Brute", damage="1", options="free", roll=15)


def test_a_new_round_says_whose_turns_are_skipped():
    enc = table()
    enc = run(enc, "damage", target="Bolt", amount="10")
    assert who(enc, "Bolt").has("Unconscious")
    enc = end_turn(enc, ALICE).state
    out = end_turn(enc, GM)
    assert texts(out)[:2] == ["Round 2", "💤 Bolt is Unconscious: their turns are skipped until they recover."]
    assert [e.ping for e in out.events if e.kind == "turn"] == [(11,)]


# --- conditions as sentences ------------------------------------------------------------------------
def test_condition_texts_read_as_sentences_and_the_list_shows_what_is_left():
    enc = table()
    out = cmd(enc, "condition_add", target="Brute", condition="Stunned", tags="Lesser, Sonic", duration="1 round")
    assert texts(out) == ["Brute is Stunned (Lesser, Sonic) for 1 round."]
    enc = out.state
    out = cmd(
        enc,
        "condition_add",
        target="Brute",
        condition="Ongoing Damage",
        tags="Engulfed, Fire",
        options="damage=1d6 type=fire dc=12",
    )
    assert texts(out) == [
        "Brute takes Ongoing Damage (Engulfed, Fire: 1d6 fire at the start of each of their turns) "
        "until a DC 12 CON save at the end of one of their turns."
    ]
    enc = run(out.state, "condition_add", target="Nova", condition="Exhaustion 2")
    assert english(SYSTEM.report("condition_list", enc, {})) == (
        "**Nova**: Exhaustion 2 — until removed\n"
        "**Brute**: Stunned (Lesser, Sonic) — 1 round left; Ongoing Damage (Engulfed, Fire) — 1d6 fire, "
        "until a DC 12 CON save at the end of one of their turns"
    )
    assert (
        texts(cmd(enc, "condition_add", target="Nova", condition="Exhaustion"))[0]
        == "Nova has Exhaustion 3 until removed."
    )


def test_a_zombie_in_ongoing_damage_hears_why_nothing_happens_yet():
    enc = new()
    enc = join(enc, "Nova", 15)
    enc = begin(join(enc, "Zombie", 5, zombie="true", wounds=1, fortitude=8))
    enc = run(enc, "condition_add", target="Zombie", condition="Ongoing Damage", options="damage=1d6 type=fire")
    out = end_turn(enc, ALICE, dice=(4,))
    assert texts(out)[0] == (
        "Zombie takes fire Ongoing Damage: 1d6 (4) = 4 (continuous total 4/8): "
        "no Wound until the total passes its Stamina Defense (Zombie: 1/1 Wounds)"
    )


# --- the turn message ---------------------------------------------------------------------------------
def test_the_turn_message_shows_reactions_a_stun_takes_away():
    from rules.systems.rotted_capes import SYSTEM

    enc = table()
    nova = who(enc, "Nova").id
    enc = run(enc, "condition_add", target="Nova", condition="Stunned", tags="Lesser", duration="1 round")
    assert english(SYSTEM.turn_summary(enc, nova)[0]).endswith("Reaction ❌ (Stunned)")


def test_an_unleashed_extra_turn_shows_the_villain_and_both_reactions():
    from rules.systems.rotted_capes import SYSTEM

    enc = new()
    enc = join(enc, "Nova", 15)
    enc = begin(join(enc, "Dr Rot", 14, zombie="true", zombie_level="alpha", wounds=3))
    enc = run(enc, "act", action="unleash", target="Dr Rot")
    enc = run(enc, "condition_add", target="Dr Rot", condition="Blinded", duration="scene")
    enc = end_turn(end_turn(enc, ALICE).state, GM).state
    (echo,) = enc.turns.acting
    assert enc.get(echo).name == "Dr Rot (Unleashed)"
    assert list(map(english, SYSTEM.turn_summary(enc, echo))) == [
        "Dr Rot: 5/5 Wounds · Blinded · Unleashed",
        "Pace 4 areas left · Action ✅ · Bonus Action ✅ · Reaction ✅ ×2",
    ]
