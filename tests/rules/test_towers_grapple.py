"""99 Towers grappling after the hold: Restrain, Squeeze, Slam, Throw, Reverse the Grapple,
and the grapple breaking when the grappler drops to 0 STUN or LETHAL (seed: Grappling)."""

from __future__ import annotations

import pytest

from rules.actions import AddCombatants, Choose, RemoveCombatant
from rules.engine import apply
from rules.errors import AwaitingChoice, InvalidInput
from rules.said import english
from rules.secrets import conceal, reveal
from rules.systems.towers import SYSTEM
from tests.rules.test_towers_helpers import GM, PLAYER, add, begin, choose, command, new, phase_of, texts, who

FIGHTER = "init=2 ss=2 hs=3 pa=4 pd=3 er=1 stun=12 lethal=6 endurance=2 size=1"
BANDIT = "init=1 ss=1 hs=2 pa=3 pd=2 er=1 stun=10 lethal=5 endurance=1"
GUARD = "init=0 ss=1 hs=2 pa=2 pd=2 er=0 stun=8 lethal=4 endurance=1"


def fight(guard=False, hidden_fighter=False, guard_player=False, options=None):
    """Fighter CI 15 (phase 5, size 1); Bandit CI 10 (phase 10); Guard CI 2 (phase 18), a player's with
    `guard_player`."""
    enc = SYSTEM.new_encounter(1, 12345, options) if options else new()
    enc = apply(
        enc,
        AddCombatants(
            by=GM,
            name="Fighter",
            sheet=SYSTEM.parse_sheet(FIGHTER),
            npc=True,
            hidden=hidden_fighter,
            cards=("KH", "4C"),
        ),
    ).state
    enc = add(enc, "Bandit", "9D", BANDIT).state
    if guard:
        enc = add(enc, "Guard", "2S", GUARD, player=guard_player).state
    return begin(enc).state


def grappled(guard=False, hidden_fighter=False, guard_player=False, options=None):
    """The Fighter holds the Bandit; the Fighter acts again first in phase 10."""
    enc = fight(guard, hidden_fighter, guard_player, options)
    # PA 4 (size shift+1): 9♣ → 10; flat-footed Bandit PD 2 − SS 1 = 1 card: 9♦ → 10 vs 9.
    out = command(enc, "act", action="grapple", target="Bandit", cards="9C 2C 3C 4C 9D")
    assert "Bandit is grappled" in texts(out)[0]
    assert who(out.state) == "Fighter" and out.state.turns.phase == 10
    return out.state


def conditions(enc, name):
    return [c.name for c in enc.find(name).conditions]


def test_restrain_gives_shift_plus_one_on_the_next_grapple_test_not_cumulative():
    enc = grappled()
    out = command(enc, "act", action="restrain")
    assert texts(out)[0] == "Fighter restrains Bandit: (shift+1) on the next Grapple Test in this grapple."
    assert conditions(out.state, "Bandit") == ["grappled by Fighter (restrained)"]
    assert phase_of(out.state, "Fighter") == 15  # an Attack action: 5 phases
    enc = out.state
    assert who(enc) == "Bandit"
    # Fighter PA 4 (size +1, restrain +1): 8♣ → 10; Bandit PD 2: 10♦ 2♦ → 10: a tie, the hold stays.
    out = command(enc, "act", action="escape", cards="8C 2C 3C 4C 10D 2D")
    assert texts(out)[0] == (
        "Bandit: Escape: Fighter PA 4 (size (shift+1); restrain (shift+1)): 8♣ 2♣ 3♣ 4♣ → keep 8 = 8 + 2 = 10; "
        "Bandit PD 2: 10♦ 2♦ → keep 10 = 10; 10 vs 10: Fighter keeps hold."
    )
    # The bonus is spent: the next Grapple Test is plain again.
    assert conditions(out.state, "Bandit") == ["grappled by Fighter"]


def test_restraining_again_does_not_stack():
    enc = grappled()
    enc = command(enc, "act", action="maintain").state
    enc = command(enc, "act", action="forced delay", actor="Bandit").state
    assert who(enc) == "Fighter"
    out = command(enc, "act", action="restrain", target="Bandit")
    assert texts(out)[0] == (
        "Fighter keeps restraining Bandit: still (shift+1) on the next Grapple Test (not cumulative)."
    )
    assert conditions(out.state, "Bandit") == ["grappled by Fighter (restrained)"]


def test_squeeze_is_a_damage_flip_of_hard_strength_plus_size_and_keeps_the_grapple():
    enc = grappled()
    out = command(enc, "act", action="squeeze", cards="7H")
    # HS 3 + size 1 − Bandit's size 0 (counted only above medium) = 4; 7♥ = 1♥: 5 − ER 1 = 4 STUN, 1 LETHAL.
    assert texts(out)[0] == (
        "Fighter: Squeeze Bandit: damage flip 7♥ → 1♥: HS 3 + size 1 = 4 + 1♥ = 5 − ER 1 = 4 physical STUN, "
        "1 LETHAL → Bandit: STUN 10 → 6/10, LETHAL 5 → 4/5 — wounded; the grapple holds."
    )
    assert "Squeeze (5): Fighter next acts in phase 15." in texts(out)[1]
    assert conditions(out.state, "Bandit") == ["grappled by Fighter"]


def test_squeeze_subtracts_a_larger_victims_size_and_ignores_a_small_grapplers():
    enc = new()
    enc = add(enc, "Imp", "KH 4C", "init=2 hs=3 pa=4 size=-1").state
    enc = add(enc, "Ogre", "9D", "init=1 hs=4 pd=0 ss=0 er=0 size=2 stun=20").state
    enc = begin(enc).state
    # PA 4 (size shift−1): K♣ → 12; Ogre PD 0 = 1 card (size shift+2): 2♦ → 4.
    out = command(enc, "act", action="grapple", target="Ogre", cards="KC 2C 3C 4C 2D")
    assert "Ogre is grappled" in texts(out)[0]
    assert who(out.state) == "Imp"
    out = command(out.state, "act", action="squeeze", cards="3C")
    assert texts(out)[0].startswith(
        "Imp: Squeeze Ogre: damage flip 3♣ → 0♥: HS 3 − Ogre's size 2 = 1 physical STUN → Ogre: STUN 20 → 19/20;"
    )


def test_slam_does_the_same_damage_knocks_the_victim_prone_and_ends_the_grapple():
    enc = grappled()
    out = command(enc, "act", action="slam", cards="5S")
    assert texts(out)[0] == (
        "Fighter: Slam Bandit: damage flip 5♠ → 0♥: HS 3 + size 1 = 4 − ER 1 = 3 physical STUN → "
        "Bandit: STUN 10 → 7/10; Bandit is knocked prone and the grapple ends."
    )
    bandit = out.state.find("Bandit")
    assert bandit.prone and bandit.conditions == ()


def test_throw_at_someone_hits_and_knocks_both_prone():
    enc = grappled(guard=True)
    # A PA attack flip: size modifiers are the inverse of the rank, so PA 4 (shift−1): J♣ → 11 − 1 = 10;
    # the flat-footed Guard PD 2 − SS 1 = 1 card: 6♦ → 6.
    out = command(enc, "act", action="throw", target="Guard", cards="JC 2C 3C 4C 6D")
    assert texts(out)[0] == (
        "Fighter: Throw Bandit: Fighter PA 4 (size +1 (shift−1)): J♣ 2♣ 3♣ 4♣ → keep J = 11 − 1 = 10; "
        "Guard PD 2 − SS 1 flat-footed = 1: 6♦ → keep 6 = 6: 10 vs 6: hit: Bandit and Guard are knocked prone "
        "(the thrown foe lands in a random direction from the target); the grapple ends."
    )
    assert out.state.find("Bandit").prone and out.state.find("Guard").prone
    assert out.state.find("Bandit").conditions == ()


def test_an_aid_against_the_thrower_counts_on_the_flip_of_the_one_in_the_space_and_is_spent():
    # Aid: "your foe will be at a (flip-1) on his next defensive flip against your chosen ally": the Guard's
    # PD flip against the Fighter's throw is that next flip.
    enc = grappled(guard=True)
    enc = enc.update(enc.find("Guard").id, aided_for=enc.find("Fighter").id)
    out = command(enc, "act", action="throw", target="Guard", cards="JC 2C 3C 4C 6D")
    assert "aided against (flip−1)" in texts(out)[0]
    assert out.state.find("Guard").aided_for is None, "spent on this flip"


def test_a_missed_throw_leaves_only_the_thrown_foe_prone():
    enc = grappled(guard=True)
    out = command(enc, "act", action="throw", target="Guard", cards="2C 3C 4C 5C KD")
    assert texts(out)[0].endswith(
        "4 vs 13: miss: Bandit is prone in a random adjacent space; Guard is unharmed; the grapple ends."
    )
    assert out.state.find("Bandit").prone and not out.state.find("Guard").prone


def test_a_throw_at_a_player_character_asks_their_player_to_flip_pd_as_an_attack_does():
    enc = grappled(guard=True, guard_player=True)
    out = command(enc, "act", action="throw", target="Guard", cards="JC 2C 3C 4C")
    enc = out.state
    assert enc.pending is not None and enc.pending.kind == "throw"
    assert enc.pending.users == (PLAYER.user_id,) and enc.pending.chooser == enc.find("Guard").id
    assert enc.pending.keys == ("flip",) and enc.pending.default == "flip"
    assert english(enc.pending.prompt) == (
        "Guard: Fighter throws Bandit into your space at 10 (hits on a tie: both knocked prone). "
        "Flip PD 2 − SS 1 flat-footed = 1: 1 card. "
        'Press Flip, or enter the cards you flipped: /choose option:Flip cards:"…".'
    )
    assert texts(out) == [
        "Fighter: Throw Bandit at Guard: Fighter PA 4 (size +1 (shift−1)): J♣ 2♣ 3♣ 4♣ → keep J = 11 − 1 = 10.",
        "Guard flips PD 2 − SS 1 flat-footed = 1 (1 card): see the Flip button.",
    ]
    assert not any(e.ping for e in out.events)  # the choice message pings the Guard's player
    # Nothing lands, and the Fighter's clock waits, until the Guard has flipped.
    assert not enc.find("Bandit").prone and conditions(enc, "Bandit") == ["grappled by Fighter"]
    assert phase_of(enc, "Fighter") == 10
    with pytest.raises(AwaitingChoice):
        command(enc, "act", action="recover", actor="Guard")
    out = choose(enc, cards="6D")
    assert texts(out)[1] == (
        "Fighter: Throw Bandit: Guard PD 2 − SS 1 flat-footed = 1: 6♦ → keep 6 = 6: 10 vs 6: hit: Bandit and Guard "
        "are knocked prone (the thrown foe lands in a random direction from the target); the grapple ends."
    )
    assert "Throw (5): Fighter next acts in phase 15." in texts(out)[2]
    enc = out.state
    assert enc.pending is None and enc.find("Bandit").prone and enc.find("Guard").prone
    assert conditions(enc, "Bandit") == [] and phase_of(enc, "Fighter") == 15


def test_a_player_characters_own_cards_can_make_a_throw_miss_and_the_default_flips_for_them():
    asked = command(grappled(guard=True, guard_player=True), "act", action="throw", target="Guard", cards="JC 2C 3C 4C")
    out = choose(asked.state, cards="KD")
    assert texts(out)[1].endswith(
        "10 vs 13: miss: Bandit is prone in a random adjacent space; Guard is unharmed; the grapple ends."
    )
    assert out.state.find("Bandit").prone and not out.state.find("Guard").prone
    # No answer in time: the default, Flip, has the bot flip the Guard's PD.
    out = apply(asked.state, Choose(by=GM, pending_id=asked.state.pending.id, option="flip", timed_out=True))
    assert texts(out)[0] == "Chosen: Flip (no answer in time: the default applies)."
    assert texts(out)[1].startswith("Fighter: Throw Bandit: Guard PD 2 − SS 1 flat-footed = 1: ")
    assert out.state.pending is None and phase_of(out.state, "Fighter") == 15


def test_a_throw_at_an_npc_or_with_defender_flips_auto_flips_the_pd_at_once():
    for enc in (grappled(guard=True), grappled(guard=True, guard_player=True, options={"defender_flips": "auto"})):
        out = command(enc, "act", action="throw", target="Guard", cards="JC 2C 3C 4C 6D")
        assert out.state.pending is None
        assert "Guard PD 2 − SS 1 flat-footed = 1: 6♦ → keep 6 = 6: 10 vs 6: hit" in texts(out)[0]
        assert out.state.find("Guard").prone and phase_of(out.state, "Fighter") == 15


def test_a_throw_into_an_empty_space_is_against_defence_0_and_a_willing_ally_stays_up():
    enc = grappled()
    out = command(enc, "act", action="throw", cards="2C 3C 4C 5C")
    assert "an empty space: defence 0: 4 vs 0: hit: Bandit lands prone in the space" in texts(out)[0]
    enc = grappled()
    out = command(enc, "act", action="throw", options="willing", cards="2C 3C 4C 5C")
    assert "hit: Bandit (willing) lands on their feet" in texts(out)[0]
    assert not out.state.find("Bandit").prone and out.state.find("Bandit").conditions == ()


def test_a_throws_range_increments_are_a_quarter_of_its_maximum_range():
    # "Range increments for the thrown object will be equal to the maximum range divided by 4."
    out = command(grappled(), "act", action="throw", options="range=7 max=8", cards="JC 2C 3C")
    # Increment 2, so 7 spaces is the fourth: (shift−1)(flip−1) on top of the size's (shift−1).
    assert texts(out)[0].startswith(
        "Fighter: Throw Bandit: Fighter PA 4 (size +1 (shift−1); range 7 = increment 4 (flip−1, shift−1)): "
        "J♣ 2♣ 3♣ → keep J = 11 − 2 = 9; an empty space: defence 0"
    )
    with pytest.raises(InvalidInput, match="beyond the throw's maximum range of 8"):
        command(grappled(), "act", action="throw", options="range=9 max=8")
    with pytest.raises(InvalidInput, match="a quarter of its maximum range"):
        command(grappled(), "act", action="throw", options="range=7")


def test_a_throw_by_one_holding_two_asks_for_the_victim_in_options_as_target_names_the_space():
    enc = grappled(guard=True)
    enc = command(enc, "act", action="grapple", target="Guard", cards="AC 2C 3C 4C 5D").state
    enc = command(enc, "act", action="recover").state  # the Bandit
    assert who(enc) == "Fighter"
    with pytest.raises(InvalidInput) as refused:
        command(enc, "act", action="throw", target="Bandit")
    assert english(refused.value.said) == "Fighter grapples Bandit, Guard: name the thrown foe with options:victim=."
    with pytest.raises(InvalidInput) as refused:
        command(enc, "act", action="squeeze")
    assert english(refused.value.said) == "Fighter grapples Bandit, Guard: name the foe with target:."


def test_follow_ups_are_refused_without_a_hold():
    enc = fight(guard=True)
    for what in ("restrain", "squeeze", "slam", "throw"):
        with pytest.raises(InvalidInput, match="Fighter is not grappling anyone"):
            command(enc, "act", action=what, target="Bandit")
    with pytest.raises(InvalidInput, match="Fighter is not grappled: only a grappled character can reverse"):
        command(enc, "act", action="reverse")
    enc = grappled(guard=True)
    with pytest.raises(InvalidInput, match="Fighter is not grappling Guard"):
        command(enc, "act", action="squeeze", target="Guard")
    with pytest.raises(InvalidInput, match="Throw Bandit at someone else"):
        command(enc, "act", action="throw", target="Bandit")
    enc = command(enc, "act", action="forced delay").state
    assert who(enc) == "Bandit"
    with pytest.raises(InvalidInput, match="Bandit is not grappling anyone"):
        command(enc, "act", action="squeeze", target="Fighter")


def test_reverse_the_grapple_swaps_the_roles_on_a_won_flip():
    enc = command(grappled(), "act", action="forced delay").state
    assert who(enc) == "Bandit"
    # Bandit HS 2 at flip−1 = 1 card: K♦ → 13; Fighter HS 3 (size shift+1): 5♣ 4♣ 3♣ → 6.
    out = command(enc, "act", action="reverse", cards="KD 5C 4C 3C")
    assert texts(out)[0] == (
        "Bandit: Reverse the Grapple: Bandit HS 2 (reversing (flip−1)): K♦ → keep K = 13; "
        "Fighter HS 3 (size (shift+1)): 5♣ 4♣ 3♣ → keep 5 = 5 + 1 = 6; 13 vs 6: "
        "Bandit reverses the grapple: Fighter is grappled by Bandit."
    )
    assert "Reverse the Grapple (5): Bandit next acts in phase 15." in texts(out)[1]
    assert conditions(out.state, "Bandit") == []
    assert conditions(out.state, "Fighter") == ["grappled by Bandit"]


def test_a_reckless_mover_flips_one_fewer_when_grappled():
    # Seed: "You take a (flip-1) for all opposed combat checks until the start of your next activation."
    enc = command(fight(), "act", action="reckless move").state  # Fighter → 12
    assert who(enc) == "Bandit"
    # Bandit PA 3: 9♣ 2♣ 3♣ → 9; Fighter PD 3 (size shift+1, reckless flip−1) = 2 cards: 8♦ 4♦ → 9.
    out = command(enc, "act", action="grapple", target="Fighter", cards="9C 2C 3C 8D 4D")
    assert texts(out)[0] == (
        "Bandit: Grapple Test: Bandit PA 3: 9♣ 2♣ 3♣ → keep 9 = 9; "
        "Fighter PD 3 (size (shift+1); reckless move (flip−1)): 8♦ 4♦ → keep 8 = 8 + 1 = 9; "
        "9 vs 9: Fighter is grappled."
    )


def test_a_reckless_grappler_flips_one_fewer_against_an_escape():
    enc = command(grappled(), "act", action="reckless move").state  # Fighter → 17
    assert who(enc) == "Bandit"
    # Fighter PA 4 (size shift+1, reckless flip−1) = 3 cards: 8♣ 2♣ 3♣ → 9; Bandit PD 2: 10♦ 2♦ → 10.
    out = command(enc, "act", action="escape", cards="8C 2C 3C 10D 2D")
    assert texts(out)[0] == (
        "Bandit: Escape: Fighter PA 4 (size (shift+1); reckless move (flip−1)): 8♣ 2♣ 3♣ → keep 8 = 8 + 1 = 9; "
        "Bandit PD 2: 10♦ 2♦ → keep 10 = 10; 9 vs 10: Bandit escapes."
    )


def test_a_reckless_grappler_flips_one_fewer_against_a_reversal():
    enc = command(grappled(), "act", action="reckless move").state
    # Bandit HS 2 at flip−1 = 1 card: 7♦; Fighter HS 3 (size shift+1, reckless flip−1) = 2 cards: 5♣ 4♣ → 6.
    out = command(enc, "act", action="reverse", cards="7D 5C 4C")
    assert texts(out)[0] == (
        "Bandit: Reverse the Grapple: Bandit HS 2 (reversing (flip−1)): 7♦ → keep 7 = 7; "
        "Fighter HS 3 (size (shift+1); reckless move (flip−1)): 5♣ 4♣ → keep 5 = 5 + 1 = 6; 7 vs 6: "
        "Bandit reverses the grapple: Fighter is grappled by Bandit."
    )


def test_a_failed_reversal_leaves_the_hold():
    enc = command(grappled(), "act", action="forced delay").state
    # Bandit: 5♦ → 5; Fighter: 5♣ 4♣ 3♣ → 5 + 1 = 6.
    out = command(enc, "act", action="reverse the grapple", cards="5D 5C 4C 3C")
    assert texts(out)[0].endswith("5 vs 6: Fighter keeps hold.")
    assert conditions(out.state, "Bandit") == ["grappled by Fighter"]
    assert conditions(out.state, "Fighter") == []


def test_a_reversal_succeeds_on_a_tie():
    # "he must succeed on a Hard Strength plus size versus Hard Strength plus size check": the one making a
    # check succeeds on a tie, as "If the Attacker's final value is equal to or higher than the Defender's,
    # the attack hits"; only Escape says the victim flips "as if he were the defender".
    enc = command(grappled(), "act", action="forced delay").state
    # Bandit: 6♦ → 6; Fighter: 5♣ 4♣ 3♣ → 5 + 1 = 6: a tie.
    out = command(enc, "act", action="reverse the grapple", cards="6D 5C 4C 3C")
    assert texts(out)[0].endswith("6 vs 6: Bandit reverses the grapple: Fighter is grappled by Bandit.")
    assert conditions(out.state, "Bandit") == []
    assert conditions(out.state, "Fighter") == ["grappled by Bandit"]


def test_the_grapple_breaks_when_the_grappler_drops_to_0_stun():
    enc = grappled()
    out = command(enc, "damage", target="Fighter", amount="12")
    assert "Fighter (0 STUN) lets go: the grapple on Bandit breaks." in texts(out)
    assert out.state.find("Bandit").conditions == ()


def test_the_grapple_breaks_when_the_grappler_drops_to_0_lethal():
    enc = grappled()
    out = command(enc, "damage", target="Fighter", amount="6", options="lethal=6")
    assert "Fighter (0 LETHAL) lets go: the grapple on Bandit breaks." in texts(out)
    assert out.state.find("Bandit").conditions == ()


def test_the_grapple_breaks_when_the_grappler_leaves_the_encounter():
    # Left held by nobody, the Bandit would attack at (flip−1) and only in melee, yet could not Escape.
    out = apply(grappled(), RemoveCombatant(by=GM, target="Fighter"))
    assert "Fighter has left the fight: the grapple on Bandit breaks." in texts(out)
    assert out.state.find("Bandit").conditions == () and not out.state.find("Bandit").grappled


def test_a_hurt_grappler_keeps_hold():
    enc = grappled()
    out = command(enc, "damage", target="Fighter", amount="5")
    assert conditions(out.state, "Bandit") == ["grappled by Fighter"]


def test_a_hidden_grapplers_numbers_are_secret():
    enc = grappled(hidden_fighter=True)
    out = command(enc, "act", action="squeeze", cards="7H")
    line = out.events[0].said
    assert reveal(line).startswith("Fighter: Squeeze Bandit: damage flip 7♥ → 1♥: HS 3 + size 1 = 4 + 1♥ = 5")
    assert conceal(line).startswith("Fighter: Squeeze Bandit: damage flip 7♥ → 1♥: HS ? + size ? = ? + 1♥ = ?")
    enc = command(grappled(hidden_fighter=True), "act", action="forced delay").state
    out = command(enc, "damage", target="Fighter", amount="12")
    assert "Fighter (?) lets go: the grapple on Bandit breaks." in [conceal(e.said) for e in out.events]


def test_full_defense_adds_to_the_defence_against_a_grapple_test():
    # Seed: "A character on Full Defense gains a +1 Defense for all opposed combat checks."
    enc = command(fight(), "act", action="full defense").state
    assert who(enc) == "Bandit"
    # Bandit PA 3: 9♣ 2♣ 3♣ → 9; Fighter PD 3 (size shift+1, full defense one card more): 8♦ 4♦ 2♦ 9♦ → 9 + 1 = 10.
    out = command(enc, "act", action="grapple", target="Fighter", cards="9C 2C 3C 8D 4D 2D 9D")
    assert texts(out)[0] == (
        "Bandit: Grapple Test: Bandit PA 3: 9♣ 2♣ 3♣ → keep 9 = 9; "
        "Fighter PD 3 (size (shift+1); full defense (flip+1)): 8♦ 4♦ 2♦ 9♦ → keep 9 = 9 + 1 = 10; "
        "9 vs 10: Fighter slips the grapple."
    )


def test_a_power_attackers_defence_is_worse_against_a_grapple_test_too():
    # Seed: Power Attack, "You suffer (flip-1) to Defense scores until the start of your next activation";
    # Grappling, "Attacker's Attack <PA> plus Size versus the Defender's Physical Defense [PD] plus Size."
    enc = command(fight(), "act", action="power attack", target="Bandit", cards="9C 2C 3C 5D").state
    assert who(enc) == "Bandit" and enc.find("Fighter").power_attacked
    # Bandit PA 3: 9♣ 2♣ 3♣ → 9; Fighter PD 3 (size shift+1, power attack flip−1) = 2 cards: 8♦ 4♦ → 9.
    out = command(enc, "act", action="grapple", target="Fighter", cards="9C 2C 3C 8D 4D")
    assert texts(out)[0] == (
        "Bandit: Grapple Test: Bandit PA 3: 9♣ 2♣ 3♣ → keep 9 = 9; "
        "Fighter PD 3 (size (shift+1); after a power attack (flip−1)): 8♦ 4♦ → keep 8 = 8 + 1 = 9; "
        "9 vs 9: Fighter is grappled."
    )


def test_an_aid_counts_on_the_next_defensive_flip_a_grapple_tests_too():
    # Seed: Aid, "your foe will be at a (flip-1) on his next defensive flip against your chosen ally."
    enc = command(fight(), "act", action="interact inventory").state  # Fighter 5 → 15
    assert who(enc) == "Bandit"
    enc = enc.update(enc.find("Fighter").id, aided_for=enc.find("Bandit").id)
    out = command(enc, "act", action="grapple", target="Fighter", cards="9C 2C 3C 8D 4D")
    assert "Fighter PD 3 (size (shift+1); aided against (flip−1)): 8♦ 4♦ → keep 8" in texts(out)[0]
    assert out.state.find("Fighter").aided_for is None, "spent on this flip"


# --- knocked back while holding on (seed: "If the attacker is hit by any attack with Knockback, for example,
# another Grapple Test must be made to hold onto his target while being thrown about.") ------------------


def knocked_back(bandit_pd_cards):
    """The Fighter restrains the Bandit; the Bandit hits the Fighter with a restricted attack with Knockback."""
    enc = command(grappled(), "act", action="restrain").state
    assert who(enc) == "Bandit"
    # Bandit PA 3 (grappled flip−1): K♣ 2♣ → 13; the Fighter PD 3 (size shift−1): 2♦ 3♦ 4♦ → 3: a hit.
    # The Grapple Test: Fighter PA 4 (size shift+1, restrain shift+1): 5♠ 6♠ 7♠ 8♠ → 10; the Bandit's PD 2.
    cards = f"KC 2C 2D 3D 4D 5S 6S 7S 8S {bandit_pd_cards}"
    return command(enc, "attack", target="Fighter", options="knockback", cards=cards)


def test_a_grappler_hit_by_an_attack_with_knockback_makes_a_grapple_test_to_hold_on():
    out = knocked_back("9D 10D")
    lines = texts(out)
    assert "13 vs 3: hit" in lines[1]
    assert lines[3] == "Fighter is knocked back (how far is the GM's call)."
    assert lines[4] == (
        "Fighter: Grapple Test to hold on to Bandit: Fighter PA 4 (size (shift+1); restrain (shift+1)): "
        "5♠ 6♠ 7♠ 8♠ → keep 8 = 8 + 2 = 10; Bandit PD 2: 9♦ 10♦ → keep 10 = 10; 10 vs 10: Fighter keeps hold."
    )
    # The Restrain bonus is spent on this test ("your next Grapple Test during this grapple").
    assert conditions(out.state, "Bandit") == ["grappled by Fighter"]


def test_a_lost_grapple_test_when_knocked_back_breaks_the_grapple():
    out = knocked_back("JD 2D")
    assert texts(out)[4].endswith(
        "Bandit PD 2: J♦ 2♦ → keep J = 11; 10 vs 11: Fighter loses hold: the grapple on Bandit breaks."
    )
    assert conditions(out.state, "Bandit") == []
    assert not out.state.find("Bandit").grappled


def test_a_grappler_dropped_to_0_stun_by_the_knockback_lets_go_without_a_test():
    enc = command(grappled(), "act", action="restrain").state
    out = command(enc, "attack", target="Fighter", options="knockback", damage="20", cards="KC 2C 2D 3D 4D")
    lines = texts(out)
    assert "Fighter is knocked back (how far is the GM's call)." in lines
    assert not any("Grapple Test" in line for line in lines)
    assert "Fighter (0 STUN) lets go: the grapple on Bandit breaks." in lines
    assert conditions(out.state, "Bandit") == []


def test_knockback_on_a_miss_or_without_a_hold_makes_no_grapple_test():
    enc = command(grappled(), "act", action="restrain").state
    # Bandit 2♣ 3♣ → 3 against the Fighter's K♦ 2♦ 3♦ → 13 − 1 = 12: a miss.
    out = command(enc, "attack", target="Fighter", options="knockback", cards="2C 3C KD 2D 3D")
    assert "miss" in texts(out)[1]
    assert not any("knocked back" in line or "Grapple Test" in line for line in texts(out))
    assert conditions(out.state, "Bandit") == ["grappled by Fighter (restrained)"]
