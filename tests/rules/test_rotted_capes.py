"""Rotted Capes: initiative, turns, attacks, damage and death, with hand-entered rolls."""

from __future__ import annotations

import pytest

from rules.actions import AddCombatants, Choose, NextTurn
from rules.common import MAX_CONDITIONS
from rules.engine import apply
from rules.errors import InvalidInput, NotAllowed, NotYourTurn, RulesError, UnknownAction
from rules.model import Actor
from rules.said import english
from rules.systems.rotted_capes import SYSTEM, commands, gm
from rules.systems.rotted_capes.checks import DC_RANGE
from rules.systems.rotted_capes.model import MAX_DC, MAX_PLOT_POINTS, RCSheet
from tests.helpers import GM, answer_by_key

ALICE = Actor(user_id=11)
BOB = Actor(user_id=12)
PLAYERS = {"Nova": ALICE, "Bolt": BOB, "Stepaside": ALICE}


def new(**options):
    return SYSTEM.new_encounter(1, 99, {"offer_plot_disadvantage": False} | options)


def join(enc, name, roll, count=1, surprised=False, **stats):
    player = PLAYERS.get(name)
    sheet = {k: str(v) for k, v in stats.items()}
    if player:
        action = AddCombatants(
            by=player,
            name=name,
            sheet=sheet,
            npc=False,
            controller_id=player.user_id,
            dice=roll if isinstance(roll, tuple) else (roll,),
            surprised=surprised,
        )
    else:
        rolls = roll if isinstance(roll, tuple) else (roll,) * count
        action = AddCombatants(by=GM, name=name, sheet=sheet, count=count, dice=rolls, surprised=surprised)
    return apply(enc, action).state


def cmd(enc, name, by=GM, **options):
    return apply(enc, SYSTEM.command(name, by, options))


def run(enc, name, by=GM, **options):
    return cmd(enc, name, by, **options).state


def texts(outcome):
    return [e.text for e in outcome.events]


def begin(enc):
    return apply(enc, NextTurn(by=GM)).state


def end_turn(enc, by=GM, dice=()):
    return apply(enc, NextTurn(by=by, dice=dice))


def who(enc, name):
    return enc.find(name)


def acting(enc):
    return [enc.get(c).name for c in enc.turns.acting]


def summary(enc, cid):
    """The turn message's lines, in English."""
    return [english(line) for line in SYSTEM.turn_summary(enc, cid)]


def duel(**hero):
    """Nova (hero) acts first against a Brute (threat)."""
    enc = new()
    enc = join(enc, "Nova", 15, **({"avoidance": 15, "fortitude": 6, "stamina": 20, "wounds": 3, "attack": 5} | hero))
    enc = join(enc, "Brute", 5, avoidance=15, fortitude=4, stamina=20, wounds=3, dr="energy:5", attack=4, damage="1d8")
    return begin(enc)


# --- initiative ----------------------------------------------------------------
def test_initiative_is_d20_plus_dex_plus_bonus_highest_first():
    enc = new()
    enc = join(enc, "Nova", 10, dex=3, init=2)
    enc = join(enc, "Brute", 14)
    out = apply(enc, AddCombatants(by=GM, name="Rat", sheet={"dex": "-1"}, dice=(3,)))
    assert "Rat initiative: d20 3 − 1 = 2" in texts(out)
    enc = begin(out.state)
    assert [[enc.get(c).name for c in s] for s in enc.turns.slots] == [["Nova"], ["Brute"], ["Rat"]]
    assert [e.key for e in enc.turns.entries] == [(15,), (14,), (2,)]


def test_ties_heroes_first_and_tied_threats_share_one_turn():
    enc = new()
    enc = join(enc, "Zombie", 12, count=2)
    enc = join(enc, "Nova", 12)
    enc = join(enc, "Bolt", 12)
    slots = [[enc.get(c).name for c in s] for s in enc.turns.slots]
    assert slots == [["Nova"], ["Bolt"], ["Zombie 1", "Zombie 2"]]
    enc = begin(enc)
    enc = end_turn(enc, ALICE).state
    out = end_turn(enc, BOB)
    assert acting(out.state) == ["Zombie 1", "Zombie 2"]
    turn = [e for e in out.events if e.kind == "turn"][-1]
    assert turn.text == "Zombie 1 and Zombie 2's turn" and turn.ping == (1,)


def test_tied_heroes_may_swap_before_acting_but_not_after():
    enc = new()
    enc = join(enc, "Nova", 12)
    enc = join(enc, "Bolt", 12)
    enc = run(enc, "act", BOB, actor="Bolt", action="swap", target="Nova")
    assert [enc.get(s[0]).name for s in enc.turns.slots] == ["Bolt", "Nova"]
    enc = begin(enc)
    assert acting(enc) == ["Bolt"]
    with pytest.raises(NotAllowed):
        cmd(enc, "act", ALICE, actor="Nova", action="swap", target="Bolt")
    with pytest.raises(NotAllowed, match="not your character"):
        cmd(begin(join(join(new(), "Nova", 12), "Bolt", 12)), "act", BOB, actor="Nova", action="swap", target="Bolt")


def test_a_swap_once_the_first_tied_heros_turn_has_begun_says_so():
    """The first hero's turn is under way, though they have done nothing yet: neither has had a turn, so the
    refusal names the turn that has begun."""
    enc = begin(join(join(new(), "Nova", 12), "Bolt", 12))
    assert acting(enc) == ["Nova"]
    with pytest.raises(NotAllowed, match="Nova's turn has already begun: tied heroes swap before either turn starts"):
        cmd(enc, "act", ALICE, actor="Nova", action="swap", target="Bolt")
    with pytest.raises(NotAllowed, match="Nova's turn has already begun"):
        cmd(enc, "act", BOB, actor="Bolt", action="swap", target="Nova")
    enc = end_turn(enc, ALICE).state
    with pytest.raises(NotAllowed, match="One of them has already had their turn this round"):
        cmd(enc, "act", BOB, actor="Bolt", action="swap", target="Nova")


def test_the_tied_heroes_agreed_order_stands_when_others_join_before_round_one():
    """Seed 000: "If two or more heroes are tied, allow them to agree on an order amongst themselves." An agreement
    stands until the tied heroes change it: a threat or a companion joining during set-up leaves it alone."""
    enc = new()
    enc = join(enc, "Nova", 11)
    enc = join(enc, "Bolt", 11)
    enc = run(enc, "act", BOB, actor="Bolt", action="swap", target="Nova")
    enc = join(enc, "Sniper", 8)
    assert [[enc.get(c).name for c in s] for s in enc.turns.slots] == [["Bolt"], ["Nova"], ["Sniper"]]
    rex = AddCombatants(by=GM, name="Rex", sheet={"companion_of": "Nova"}, controller_id=ALICE.user_id)
    enc = apply(enc, rex).state
    assert [[enc.get(c).name for c in s] for s in enc.turns.slots] == [["Bolt"], ["Nova", "Rex"], ["Sniper"]]
    enc = begin(enc)
    assert acting(enc) == ["Bolt"]


def test_untied_heroes_cannot_swap():
    enc = join(join(new(), "Nova", 12), "Bolt", 11)
    with pytest.raises(RulesError, match="not tied"):
        cmd(enc, "act", BOB, actor="Bolt", action="swap", target="Nova")


def test_joining_mid_combat_rolls_and_inserts():
    enc = duel()
    enc = join(enc, "Bolt", 9, dex=1)
    assert [enc.get(s[0]).name for s in enc.turns.slots] == ["Nova", "Bolt", "Brute"]
    enc = end_turn(enc, ALICE).state
    assert acting(enc) == ["Bolt"]


def test_surprised_are_stunned_until_the_end_of_their_first_turn():
    enc = new()
    enc = join(enc, "Nova", (15, 18), surprised=True, attack=5)  # initiative too: a roll at disadvantage
    enc = join(enc, "Brute", 5, avoidance=15)
    assert english(who(enc, "Nova").condition("Stunned").label()) == "Stunned (Lesser, Surprise)"
    enc = begin(enc)
    # Stunned: disadvantage on all rolls, no reactions
    out = cmd(enc, "attack", ALICE, target="Brute", dice="18 4", damage="1d6")
    assert "d20 dis (18, 4) 4 + 5 = 9 vs Avoidance 15: miss [dis: stunned]" in texts(out)[0]
    out = end_turn(out.state, ALICE)
    assert "Nova is no longer Stunned (Lesser, Surprise)." in texts(out)
    assert not who(out.state, "Nova").has("Stunned")


# --- turn economy -------------------------------------------------------------------
def test_turn_summary_shows_pace_action_bonus_reaction_and_resets():
    enc = duel(pace=6)
    cid = who(enc, "Nova").id
    assert summary(enc, cid) == ["Pace 5 areas left · Action ✅ · Bonus Action ✅ · Reaction ✅"]
    enc = run(enc, "act", ALICE, action="move", options="areas=2")
    enc = run(enc, "act", ALICE, action="dodge")
    assert summary(enc, cid)[0] == "Pace 3 areas left · Action ❌ · Bonus Action ✅ · Reaction ✅"
    with pytest.raises(NotAllowed, match="already used their Action"):
        cmd(enc, "act", ALICE, action="dash")
    with pytest.raises(NotAllowed, match="only 3 areas"):
        cmd(enc, "act", ALICE, action="move", options="areas=4")
    enc = end_turn(enc, ALICE).state
    enc = end_turn(enc, GM).state
    assert summary(enc, cid)[0].startswith("Pace 5 areas left · Action ✅")


def test_dash_doubles_pace_and_reactions_are_between_turns():
    enc = duel()
    enc = run(enc, "act", ALICE, action="dash")
    assert who(enc, "Nova").economy.pace == 8
    enc = end_turn(enc, ALICE).state
    # an opportunity attack off-turn uses the one reaction
    enc = run(enc, "attack", ALICE, actor="Nova", target="Brute", options="reaction", dice="2")
    with pytest.raises(NotAllowed, match="no reaction left"):
        cmd(enc, "attack", ALICE, actor="Nova", target="Brute", options="reaction", dice="2")
    with pytest.raises(NotYourTurn):
        cmd(enc, "act", ALICE, actor="Nova", action="dodge")


# --- attacks and damage ----------------------------------------------------------------
def test_issue_example_hit_dr_and_massive_damage():
    enc = duel()
    out = cmd(enc, "attack", ALICE, target="Brute", damage="2d6+3", damage_type="fire", dice="14 4 4")
    assert texts(out)[0] == (
        "Nova attacks Brute: d20 14 + 5 = 19 vs Avoidance 15: hit; 2d6 (4, 4) + 3 = 11 − DR 5 (energy) "
        "= 6 Stamina; 6 > Fortitude 4 → massive: 1 Wound (Brute: 14/20 Stamina, 2/3 Wounds)"
    )
    brute = who(out.state, "Brute")
    assert (brute.stamina, brute.wounds) == (14, 2)
    assert brute.has("Wounded")


def test_seed_example_only_the_highest_dr_applies():
    enc = duel()
    enc = enc.update(who(enc, "Brute").id, sheet=who(enc, "Brute").sheet.but(dr="energy:5 fire:10", fortitude=30))
    out = cmd(enc, "attack", ALICE, target="Brute", damage="15", damage_type="fire", roll=15)
    assert "15 = 15 − DR 10 (fire) = 5 Stamina" in texts(out)[0]
    assert who(out.state, "Brute").stamina == 15


def test_psychic_ignores_dr_unless_it_names_psychic():
    enc = duel()
    out = cmd(enc, "attack", ALICE, target="Brute", damage="3", damage_type="psychic", roll=15)
    assert who(out.state, "Brute").stamina == 17
    brute = who(enc, "Brute")
    enc = enc.update(brute.id, sheet=brute.sheet.but(dr="all:9 psychic:2"))
    out = cmd(enc, "attack", ALICE, target="Brute", damage="3", damage_type="psychic", roll=15)
    assert "3 = 3 − DR 2 (psychic) = 1 Stamina" in texts(out)[0]


def test_natural_one_misses_and_natural_twenty_is_a_critical():
    enc = duel(attack=30)
    out = cmd(enc, "attack", ALICE, target="Brute", damage="1", roll=1)
    assert "d20 1 + 30 = 31 vs Avoidance 15: natural 1, miss" in texts(out)[0]
    enc = duel(attack=-10)
    out = cmd(enc, "attack", ALICE, target="Brute", damage="2", roll=20)
    assert "natural 20, critical hit; 2 = 2 Stamina; critical: 1 Wound" in texts(out)[0]
    assert (who(out.state, "Brute").stamina, who(out.state, "Brute").wounds) == (18, 2)


def test_critical_that_also_beats_fortitude_deals_two_wounds():
    enc = duel()
    out = cmd(enc, "attack", ALICE, target="Brute", damage="1d6", dice="20 6")
    assert "6 > Fortitude 4 → massive, critical + massive: 2 Wounds" in texts(out)[0]
    assert who(out.state, "Brute").wounds == 1


def test_an_incapacitated_target_at_zero_wounds_is_not_told_it_loses_a_wound():
    # "If you reach 0 wounds but still have Stamina remaining, you are considered Incapacitated": massive damage
    # and criticals have no Wound left to take, only the Stamina damage lands.
    enc = run(duel(), "damage", target="Brute", amount="0", options="wounds=3")
    out = cmd(enc, "damage", target="Brute", amount="5")
    assert texts(out)[0] == (
        "Brute takes kinetic damage: 5 = 5 Stamina; 5 > Fortitude 4 → massive: no Wound left to lose "
        "(Brute: 15/20 Stamina, 0/3 Wounds)"
    )
    out = cmd(out.state, "attack", ALICE, target="Brute", damage="1d6", dice="20 6")
    assert "6 > Fortitude 4 → massive, critical + massive: no Wound left to lose (Brute: 9/20" in texts(out)[0]
    out = cmd(out.state, "damage", target="Brute", amount="1", options="wounds=1")
    assert "1 = 1 Stamina; no Wound left to lose (Brute: 8/20 Stamina, 0/3 Wounds)" in texts(out)[0]


def test_temporary_stamina_absorbs_first_and_never_stacks():
    enc = duel()
    enc = run(enc, "heal", target="Brute", amount="5", options="temp")
    enc = run(enc, "heal", target="Brute", amount="3", options="temp")
    assert who(enc, "Brute").temp_stamina == 3
    out = cmd(enc, "attack", ALICE, target="Brute", damage="4", roll=15)
    assert "4 = 4 Stamina (3 absorbed by temporary Stamina)" in texts(out)[0]
    brute = who(out.state, "Brute")
    assert (brute.temp_stamina, brute.stamina, brute.wounds) == (0, 19, 3)


def test_zero_stamina_unconscious_zero_wounds_incapacitated_both_dead_for_threats():
    enc = duel()
    out = cmd(enc, "damage", target="Brute", amount="20", options="ap")
    assert who(out.state, "Brute").has("Unconscious")
    assert "Brute is Unconscious" in texts(out)[0]
    enc = duel()
    enc = run(enc, "damage", target="Brute", amount="0", options="wounds=3")
    brute = who(enc, "Brute")
    assert brute.has("Incapacitated") and not brute.has("Unconscious") and not brute.out
    out = cmd(enc, "damage", target="Brute", amount="25", options="ap")
    assert who(out.state, "Brute").out and who(out.state, "Brute").dead
    assert texts(out)[0].endswith("; Brute dies")


def test_wound_penalty_applies_to_attacks_and_does_not_stack_with_exhaustion():
    enc = duel()
    enc = run(enc, "damage", target="Nova", amount="0", options="wounds=2")
    out = cmd(enc, "attack", ALICE, target="Brute", damage="1", roll=10)
    assert "d20 10 + 5 − 2 wounds/exhaustion = 13" in texts(out)[0]
    enc = run(enc, "condition_add", target="Nova", condition="Exhaustion 3")
    out = cmd(enc, "attack", ALICE, target="Brute", damage="1", roll=10)
    assert "d20 10 + 5 − 3 wounds/exhaustion = 12" in texts(out)[0]


@pytest.mark.parametrize("level", [0, 7, 8, 9])
def test_an_exhaustion_level_outside_the_seeds_six_is_refused_and_changes_nothing(level):
    enc = duel()
    with pytest.raises(InvalidInput, match="Exhaustion has levels 1 to 6"):
        cmd(enc, "condition_add", target="Nova", condition=f"Exhaustion {level}")
    assert not who(enc, "Nova").conditions


def test_an_unknown_attack_or_save_option_is_refused_and_names_the_known_ones():
    enc = duel()
    with pytest.raises(InvalidInput, match="Unknown option `avd` for /attack. Options: `adv`, `dis`"):
        cmd(enc, "attack", ALICE, target="Brute", damage="1", roll=3, options="avd")
    with pytest.raises(
        InvalidInput, match="Unknown option `unleash` for /save. Options: `adv`, `dis`, `auto`, `unleashed`"
    ):
        cmd(enc, "save", GM, actor="Brute", kind="con", dc=15, roll=3, options="unleash")
    out = cmd(enc, "attack", ALICE, target="Brute", damage="1", dice="3 15", options="adv ranged")
    assert "d20 adv (3, 15) 15" in texts(out)[0]


def test_an_unknown_option_of_the_gms_tools_is_refused_and_names_the_known_ones():
    enc = duel()
    with pytest.raises(InvalidInput, match="Unknown option `crti` for /damage. Options: `crit`, `wounds`"):
        cmd(enc, "damage", GM, target="Brute", amount="3", options="crti")
    with pytest.raises(InvalidInput, match="Unknown option `temporary` for /heal. Options: `temp`, `wounds`"):
        cmd(enc, "heal", GM, target="Nova", amount="3", options="temporary")
    with pytest.raises(InvalidInput, match="Unknown option `dmg` for /condition add. Options: `level`, `dc`"):
        cmd(enc, "condition_add", GM, target="Nova", condition="Ongoing Damage", options="dmg=1d6")
    out = cmd(enc, "damage", GM, target="Brute", amount="0", options="crit ap")
    assert out.events
    with pytest.raises(InvalidInput, match="Unknown option `area` for /act action:move. Options: `areas`"):
        cmd(enc, "act", ALICE, action="move", options="area=2")
    with pytest.raises(InvalidInput, match="/act action:second wind takes no options: `now` is not one."):
        cmd(enc, "act", ALICE, action="second wind", options="now")


def test_unconscious_target_in_the_same_area_takes_critical_hits():
    enc = duel()
    enc = run(enc, "condition_add", target="Brute", condition="Unconscious")
    out = cmd(enc, "attack", ALICE, target="Brute", damage="1", roll=12)
    assert "(Unconscious in the same area: critical)" in texts(out)[0]
    out = cmd(enc, "attack", ALICE, target="Brute", damage="1", roll=12, options="ranged")
    assert "critical" not in texts(out)[0]


def test_a_restrained_target_fails_avoidance_against_an_area_attack():
    """Restrained: "You also automatically fail Avoidance checks against area effects"."""
    enc = duel()
    enc = run(enc, "condition_add", target="Brute", condition="Restrained")
    out = cmd(enc, "attack", ALICE, target="Brute", damage="3", options="area", dice="2 4")
    assert (
        "d20 adv (2, 4) 4 + 5 = 9 vs Avoidance 15: hit (Restrained: Avoidance fails automatically against an area "
        "attack) [adv: target restrained]; 3 = 3 Stamina" in texts(out)[0]
    )
    assert who(out.state, "Brute").stamina == 17
    # not a lone attack, not another defense, and a natural 1 still misses
    assert "miss" in texts(cmd(enc, "attack", ALICE, target="Brute", damage="3", dice="2 4"))[0]
    assert (
        "miss" in texts(cmd(enc, "attack", ALICE, target="Brute", options="area", defense="willpower", dice="1 4"))[0]
    )
    assert "natural 1, miss" in texts(cmd(enc, "attack", ALICE, target="Brute", options="area", dice="1 1"))[0]


# --- advantage from tracked state --------------------------------------------------------
def test_dodge_gives_disadvantage_against_avoidance_only():
    enc = duel()
    enc = run(enc, "act", ALICE, action="dodge")
    enc = end_turn(enc, ALICE).state
    out = cmd(enc, "attack", GM, target="Nova", damage="1", dice="17 3")
    assert "d20 dis (17, 3) 3 + 4 = 7 vs Avoidance 15: miss [dis: target dodging]" in texts(out)[0]
    out = cmd(enc, "attack", GM, target="Nova", damage="1", defense="fortitude", dice="17")
    assert "d20 17 + 4 = 21 vs Fortitude 6: hit" in texts(out)[0]
    enc = end_turn(enc, GM).state
    assert not who(enc, "Nova").dodging


def test_advantage_and_disadvantage_cancel_to_a_straight_roll():
    enc = duel()
    out = cmd(enc, "attack", ALICE, target="Brute", damage="1", roll=9, options="adv cover=half")
    assert (
        "d20 9 + 5 = 14 vs Avoidance 15: miss [adv: advantage; dis: partial cover; they cancel: one d20]"
        in texts(out)[0]
    )
    enc2 = new(advantage="count")
    enc2 = begin(join(join(enc2, "Nova", 15, attack=5), "Brute", 5, avoidance=15))
    enc2 = run(enc2, "condition_add", target="Brute", condition="Prone")
    out = cmd(enc2, "attack", ALICE, target="Brute", damage="1", dice="3 12", options="adv cover=half")
    assert "d20 adv (3, 12) 12" in texts(out)[0]


def test_prone_helps_melee_not_ranged_and_hampers_a_prone_attacker():
    enc = duel()
    enc = run(enc, "condition_add", target="Brute", condition="prone")
    out = cmd(enc, "attack", ALICE, target="Brute", damage="1", dice="4 16")
    assert "d20 adv (4, 16) 16" in texts(out)[0]
    out = cmd(enc, "attack", ALICE, target="Brute", damage="1", roll=16, options="ranged")
    assert "d20 16 + 5" in texts(out)[0]
    enc = run(enc, "condition_add", target="Nova", condition="Prone")
    out = cmd(enc, "attack", ALICE, target="Brute", damage="1", dice="4 16", options="ranged in_melee")
    assert "[dis: target engaged in melee]" in texts(out)[0]


def test_assist_gives_advantage_once():
    enc = new()
    enc = join(enc, "Bolt", 18)
    enc = join(enc, "Nova", 15, attack=5)
    enc = join(enc, "Brute", 5, avoidance=15)
    enc = begin(enc)
    enc = run(enc, "act", BOB, action="assist", target="Nova")
    enc = end_turn(enc, BOB).state
    out = cmd(enc, "attack", ALICE, target="Brute", damage="1", dice="2 11", options="bonus")
    assert "d20 adv (2, 11) 11 + 5 = 16 vs Avoidance 15: hit" in texts(out)[0]
    out = cmd(out.state, "attack", ALICE, target="Brute", damage="1", roll=2)
    assert "d20 2 + 5" in texts(out)[0]


@pytest.mark.parametrize("dc", ["x", "0", "61", "9" * 40])
def test_a_hide_against_a_result_that_is_no_dc_is_refused_and_spends_nothing(dc):
    enc = duel(dex=2)
    with pytest.raises(InvalidInput, match="dc"):
        cmd(enc, "act", ALICE, action="hide", options=f"dc={dc}", roll=11)


def test_hidden_attacker_has_advantage_and_is_revealed():
    enc = duel(dex=2)
    out = cmd(enc, "act", ALICE, action="hide", options="dc=12", roll=11)
    assert (
        texts(out)[0]
        == "Nova tries to hide: d20 11 + 2 = 13 vs 12: hidden (advantage on attacks; attacking reveals them)"
    )
    enc = out.state
    enc = end_turn(enc, ALICE).state
    out = cmd(enc, "attack", GM, target="Nova", damage="1", dice="19 2")
    assert "[dis: target hidden]" in texts(out)[0]
    enc = end_turn(out.state, GM).state
    out = cmd(enc, "attack", ALICE, target="Brute", damage="1", dice="3 15")
    assert "[adv: attacker hidden]" in texts(out)[0]
    assert not who(out.state, "Nova").has("Hidden")


def test_partial_blindness_is_plus_two():
    enc = duel()
    enc = run(enc, "condition_add", target="Brute", condition="Blinded", tags="Partial, Flash")
    out = cmd(enc, "attack", ALICE, target="Brute", damage="1", roll=8)
    assert "d20 8 + 5 + 2 situation = 15 vs Avoidance 15: hit" in texts(out)[0]


def test_charmed_cannot_attack_the_charmer_and_total_cover_blocks():
    enc = duel()
    enc = run(enc, "condition_add", target="Nova", condition="Charmed", options="source=Brute")
    with pytest.raises(NotAllowed, match="Charmed by Brute"):
        cmd(enc, "attack", ALICE, target="Brute", roll=10)
    enc = duel()
    with pytest.raises(NotAllowed, match="total cover"):
        cmd(enc, "attack", ALICE, target="Brute", roll=10, options="cover=total")


# --- zombies ---------------------------------------------------------------------------
def zombies(level="epsilon", wounds=1):
    enc = new()
    enc = join(enc, "Nova", 15, attack=5)
    enc = join(enc, "Zombie", 5, zombie="true", zombie_level=level, avoidance=10, fortitude=8, wounds=wounds)
    return begin(enc)


def test_epsilon_zombie_is_destroyed_by_massive_damage():
    enc = zombies(wounds=3)
    out = cmd(enc, "attack", ALICE, target="Zombie", damage="9", roll=12)
    assert texts(out)[0].endswith("9 = 9; 9 > Fortitude 8 → massive: Zombie is destroyed")
    assert who(out.state, "Zombie").out


def test_a_plain_hit_that_does_not_beat_fortitude_does_nothing_to_a_zombie():
    enc = zombies(wounds=3)
    out = cmd(enc, "attack", ALICE, target="Zombie", damage="8", roll=12)
    assert "no effect (zombies are hurt only by massive damage and criticals)" in texts(out)[0]
    z = who(out.state, "Zombie")
    assert (z.wounds, z.out) == (3, False)


def test_psychic_does_nothing_to_zombies():
    enc = zombies()
    out = cmd(enc, "attack", ALICE, target="Zombie", damage="30", damage_type="psychic", roll=12)
    assert "psychic: no effect on zombies" in texts(out)[0]
    assert not who(out.state, "Zombie").out


def test_delta_zombies_take_wounds_without_penalties_and_die_at_zero():
    enc = zombies("delta", wounds=3)
    out = cmd(enc, "attack", ALICE, target="Zombie", damage="9", dice="20")
    assert "critical + massive: 2 Wounds" in texts(out)[0]
    z = who(out.state, "Zombie")
    assert z.wounds == 1 and not z.has("Wounded")
    from rules.systems.rotted_capes.conditions import wound_penalty

    assert wound_penalty(z) == 0
    out = cmd(out.state, "attack", ALICE, target="Zombie", damage="1", options="bonus", roll=20)
    assert texts(out)[0].endswith("critical: 1 Wound; Zombie is destroyed")


# --- death -------------------------------------------------------------------------------
def dying_hero(points=1, **options):
    enc = new(**options)
    enc = join(enc, "Nova", 15, stamina=5, wounds=2, fortitude=4, plot_points=points, attack=5)
    enc = join(enc, "Bolt", 12, plot_points=2)
    enc = join(enc, "Brute", 5, avoidance=15, fortitude=4, wounds=2)
    enc = begin(enc)
    # a Wound left to lose to a flaw
    return cmd(enc, "damage", target="Nova", amount="6", options="wounds=1")


def test_death_asks_the_hero_and_allies_with_buttons():
    out = dying_hero()
    pending = out.state.pending
    assert pending.kind == "death"
    assert tuple(map(english, pending.labels)) == (
        "Spend own Plot Point",
        "Bolt spends a Plot Point",
        "Accept a physical flaw",
        "Blaze of glory",
    )
    assert pending.users == (11, 12)
    # the choice message pings them; the result line does not ping a second time
    assert out.events[-1].text.startswith("☠️ Nova is at 0 Wounds and 0 Stamina") and out.events[-1].ping == ()


def test_the_death_question_rolls_nothing_so_it_offers_no_dice_to_enter():
    """No answer to it rolls (a blaze of glory's attack is a plain `/attack` after): its message must not tell the
    players to enter their own roll with /choose."""
    assert dying_hero().state.pending.rolls is False


def test_a_plot_point_saves_the_hero_at_one_wound_unconscious():
    enc = dying_hero().state
    out = apply(enc, Choose(by=ALICE, pending_id=enc.pending.id, option="Spend own Plot Point"))
    nova = who(out.state, "Nova")
    assert (nova.wounds, nova.stamina, nova.plot_points, nova.out) == (1, 0, 0, False)
    assert nova.has("Unconscious") and out.state.pool == 1


def test_an_ally_may_spend_the_plot_point():
    enc = dying_hero().state
    out = apply(enc, Choose(by=BOB, pending_id=enc.pending.id, option="Bolt spends a Plot Point"))
    assert who(out.state, "Bolt").plot_points == 1 and who(out.state, "Nova").wounds == 1


def test_each_answer_to_the_death_question_is_its_own_players_call():
    """ "A point is your hero's" (README): an ally's player spends their own hero's point, not another's; how the
    dying hero escapes death (their point, a flaw, a blaze of glory) is their player's; the GM answers any."""
    enc = dying_hero().state
    for by, option in ((ALICE, "Bolt spends a Plot Point"), (BOB, "Spend own Plot Point"), (BOB, "Blaze of glory")):
        with pytest.raises(NotAllowed, match="another player's call"):
            apply(enc, Choose(by=by, pending_id=enc.pending.id, option=option))
    out = apply(enc, Choose(by=GM, pending_id=enc.pending.id, option="Bolt spends a Plot Point"))
    assert who(out.state, "Bolt").plot_points == 1


def test_whether_an_npc_ally_the_gm_runs_dies_is_the_gms_call_a_heros_point_the_players():
    # "When an ally is reduced to 0 wounds and 0 stamina, you may spend a Plot Point to help an ally escape death"
    enc = new()
    enc = join(enc, "Bolt", 15, plot_points=1)
    ally = AddCombatants(by=GM, name="Sarge", sheet={"stamina": "5", "wounds": "1"}, side="heroes", dice=(12,))
    enc = begin(join(apply(enc, ally).state, "Brute", 5))
    enc = cmd(enc, "damage", target="Sarge", amount="6", options="wounds=1").state
    assert tuple(map(english, enc.pending.labels)) == ("Bolt spends a Plot Point", "Blaze of glory", "Die")
    for option in ("Blaze of glory", "Die"):
        with pytest.raises(NotAllowed, match="another player's call"):
            apply(enc, Choose(by=BOB, pending_id=enc.pending.id, option=option))
    out = apply(enc, Choose(by=BOB, pending_id=enc.pending.id, option="Bolt spends a Plot Point"))
    assert who(out.state, "Sarge").wounds == 1 and who(out.state, "Bolt").plot_points == 0


def test_the_death_question_is_answered_by_key_and_an_ally_who_pays_by_its_id():
    enc = dying_hero().state
    bolt = who(enc, "Bolt").id
    assert enc.pending.keys == ("own", bolt, "flaw", "blaze") and enc.pending.default == "own"
    out = answer_by_key(enc, bolt, by=BOB)
    assert who(out.state, "Bolt").plot_points == 1 and who(out.state, "Nova").wounds == 1
    out = answer_by_key(enc, "blaze", by=ALICE)
    assert who(out.state, "Nova").blaze


def test_an_npc_ally_the_gm_runs_holds_no_plot_points():
    # "Every Hero starts each Issue with a set number of Plot Points ... Players can earn, spend, and transfer
    # Plot Points during play"; a spent one "is handed over to the Editor-in-Chief": the GM's NPCs draw on the pool
    enc = new()
    enc = join(enc, "Nova", 15, stamina=5, wounds=2, fortitude=4, plot_points=0)
    ally = AddCombatants(by=GM, name="Sarge", sheet={"plot_points": "2"}, side="heroes", dice=(12,))
    enc = begin(join(apply(enc, ally).state, "Brute", 5))
    sarge = who(enc, "Sarge")
    assert sarge.side == "heroes" and sarge.plot_points == 0
    assert "PP" not in english(SYSTEM.status_line(enc, sarge, reveal=True))
    assert "Sarge" not in english(SYSTEM.report("plotpoint_show", enc, {}))
    with pytest.raises(InvalidInput):
        cmd(enc, "plotpoint_award", GM, target="Sarge")
    with pytest.raises(NotAllowed):
        cmd(enc, "plotpoint_spend", GM, actor="Sarge", use="narrative", text="a lucky find")
    assert who(run(enc, "plotpoint_issue", GM), "Sarge").plot_points == 0
    out = cmd(enc, "damage", target="Nova", amount="6", options="wounds=2")
    assert tuple(map(english, out.state.pending.labels)) == ("Accept a physical flaw", "Blaze of glory")


def test_a_flaw_and_a_blaze_of_glory_stay_offered_however_many_allies_could_pay():
    enc = new()
    enc = join(enc, "Nova", 15, stamina=5, wounds=2, fortitude=4, plot_points=1)
    for number, name in enumerate(("Bolt", "Gale", "Tide", "Ember", "Frost"), start=2):
        player = Actor(user_id=10 + number)
        enc = apply(
            enc,
            AddCombatants(
                by=player, name=name, sheet={"plot_points": "1"}, npc=False, controller_id=player.user_id, dice=(12,)
            ),
        ).state
    enc = begin(join(enc, "Brute", 5))
    pending = cmd(enc, "damage", target="Nova", amount="6", options="wounds=1").state.pending
    assert pending.keys[0] == "own" and pending.keys[-2:] == ("flaw", "blaze") and len(pending.keys) == 8
    assert len(set(pending.users)) == 6


def test_accepting_a_flaw_lowers_max_wounds():
    enc = new()
    enc = join(enc, "Nova", 15, stamina=5, wounds=3, plot_points=0)
    enc = begin(join(enc, "Brute", 5))
    out = cmd(enc, "damage", target="Nova", amount="6", options="wounds=3")
    assert tuple(map(english, out.state.pending.labels)) == ("Accept a physical flaw", "Blaze of glory")
    out = apply(out.state, Choose(by=ALICE, pending_id=out.state.pending.id, option="Accept a physical flaw"))
    nova = who(out.state, "Nova")
    assert (nova.max_wounds, nova.wounds, nova.flaws) == (2, 1, 1)


def test_blaze_of_glory_is_an_automatic_critical_then_death():
    enc = dying_hero().state
    enc = apply(enc, Choose(by=ALICE, pending_id=enc.pending.id, option="Blaze of glory")).state
    out = cmd(enc, "attack", ALICE, actor="Nova", target="Brute", damage="5")
    assert (
        "blaze of glory: automatic critical; 5 = 5 Stamina; 5 > Fortitude 4 → massive, critical + massive: 2 Wounds"
        in texts(out)[0]
    )
    assert who(out.state, "Nova").dead and who(out.state, "Nova").out
    assert who(out.state, "Brute").wounds == 0


def test_a_blaze_of_glory_off_turn_needs_no_actor_named():
    # "One Action, taken immediately as a Reaction": the dying hero's player attacks as they would on their turn
    enc = new()
    enc = join(enc, "Nova", 15, stamina=5, wounds=2, fortitude=4, plot_points=0)
    enc = begin(join(enc, "Brute", 5, avoidance=15, fortitude=4, wounds=2))
    enc = end_turn(enc, by=ALICE).state
    enc = run(enc, "damage", target="Nova", amount="6", options="wounds=1")
    enc = apply(enc, Choose(by=ALICE, pending_id=enc.pending.id, option="Blaze of glory")).state
    out = cmd(enc, "attack", ALICE, target="Brute", damage="5")
    assert texts(out)[0].startswith("Nova attacks Brute: blaze of glory: automatic critical")
    assert who(out.state, "Nova").dead


# --- commands -----------------------------------------------------------------------------
def test_commands_map_options_and_refuse_unknown_ones():
    action = SYSTEM.command("attack", GM, {"target": "Nova", "modifier": 3, "options": "adv cover=half", "dice": "4 5"})
    assert action.flags == {"adv": True, "cover": "half"} and action.modifier == 3 and action.dice == (4, 5)
    with pytest.raises(UnknownAction):
        SYSTEM.command("spell", GM, {})
    with pytest.raises(RulesError, match="`target` is required"):
        SYSTEM.command("attack", GM, {})
    assert [v for v, _ in SYSTEM.act_choices()][:7] == [
        "assist",
        "dash",
        "demanding",
        "disengage",
        "dodge",
        "hide",
        "ready",
    ]


def test_status_line_reveals_or_hides():
    enc = duel()
    enc = run(enc, "damage", target="Brute", amount="12", options="ap")
    brute = who(enc, "Brute")
    assert english(SYSTEM.status_line(enc, brute, reveal=True)) == "8/20 Stamina, 2/3 Wounds · Wounded"
    assert english(SYSTEM.status_line(enc, brute, reveal=False)) == "bloodied"


def test_light_and_the_unconscious_failing_avoidance_and_willpower():
    enc = duel()
    out = cmd(enc, "attack", ALICE, target="Brute", damage="1", roll=12, options="shadowy")
    assert "d20 12 + 5 − 2 situation = 15 vs Avoidance 15: hit" in texts(out)[0]
    out = cmd(enc, "attack", ALICE, target="Brute", damage="1", dice="12 3", options="dark")
    assert "[dis: darkness]" in texts(out)[0]
    enc = run(enc, "damage", target="Brute", amount="25", options="ap")
    out = cmd(enc, "save", actor="Brute", kind="willpower", dc=10)
    assert texts(out) == ["Brute is Unconscious: the Willpower check fails automatically."]


@pytest.mark.parametrize("damage", ["fireball", "1d6+", "1d1000001", "1d1mi99999999999999999999"])
def test_a_sheet_damage_that_could_never_be_rolled_is_refused_with_the_sheet(damage):
    # not on the first hit: the NPC would be in the fight by then
    with pytest.raises(InvalidInput, match="Stat `damage`"):
        SYSTEM.parse_sheet(f"damage={damage}")
    assert SYSTEM.parse_sheet("damage=(2d6)kh1+3")["damage"] == "(2d6)kh1+3"


NUMBERS = [name for name, info in RCSheet.model_fields.items() if info.annotation in (int, int | None)]


@pytest.mark.parametrize("stat", NUMBERS)
def test_every_sheet_number_refuses_a_value_no_fight_could_hold(stat):
    # 400 digits used to be stored, then fail the join (initiative is a float) as an internal error
    for value in ("9" * 400, "-" + "9" * 400, "1001", "-1001"):
        with pytest.raises(InvalidInput, match=f"Stat `{stat}`"):
            SYSTEM.parse_sheet(f"{stat}={value}")


@pytest.mark.parametrize(
    ("stat", "low", "high"),
    [
        ("dex", -1000, 1000),
        ("con", -1000, 1000),
        ("init", -1000, 1000),
        ("attack", -1000, 1000),
        ("stamina_defense", 0, 1000),
        ("rank", 0, 100),
        ("plot_points", 0, MAX_PLOT_POINTS),
    ],
)
def test_sheet_numbers_take_their_whole_range_and_say_it(stat, low, high):
    assert SYSTEM.parse_sheet(f"{stat}={low}")[stat] == low and SYSTEM.parse_sheet(f"{stat}={high}")[stat] == high
    at_least = f"Stat `{stat}`: Input should be greater than or equal to {low}".replace("-", "−")
    with pytest.raises(InvalidInput, match=at_least):
        SYSTEM.parse_sheet(f"{stat}={low - 1}")
    with pytest.raises(InvalidInput, match=f"Stat `{stat}`: Input should be less than or equal to {high}"):
        SYSTEM.parse_sheet(f"{stat}={high + 1}")
    assert SYSTEM.key_help(stat)[1] == f"{low}–{high}"


def test_a_fight_stored_before_the_sheet_bounds_still_loads():
    data = join(new(), "Brute", 5).model_dump(mode="json")
    data["combatants"][0]["sheet"] |= {"dex": 5000, "plot_points": -3}
    assert SYSTEM.load(data).combatants[0].sheet.dex == 5000


def test_every_dc_bound_is_the_one_constant(monkeypatch):
    assert DC_RANGE == (1, MAX_DC)
    enc = duel()
    assert "vs DC 60" in texts(cmd(enc, "save", actor="Brute", kind="con", dc=MAX_DC, dice="5"))[0]
    # a lower constant reaches the command, the rule and a condition's DC alike
    monkeypatch.setattr(commands, "MAX_DC", 30)
    monkeypatch.setattr(gm, "MAX_DC", 30)
    with pytest.raises(InvalidInput, match="`dc` must be between 1 and 30"):
        cmd(enc, "save", actor="Brute", kind="con", dc=31)
    with pytest.raises(InvalidInput, match="between 1 and 30"):
        gm.save(enc, SYSTEM.command("save", GM, {"actor": "Brute", "kind": "con"}).but(dc=31), None)
    with pytest.raises(InvalidInput, match="`dc` must be between 1 and 30"):
        cmd(enc, "condition_add", target="Brute", condition="Stunned", options="dc=31")


def test_a_fight_stored_before_sheet_damage_was_checked_still_loads():
    # its next command reads it again: the check is for sheets entered, not for fights already running
    data = join(new(), "Brute", 5).model_dump(mode="json")
    data["combatants"][0]["sheet"]["damage"] = "fireball"
    assert SYSTEM.load(data).combatants[0].sheet.damage == "fireball"


# --- the most conditions a combatant holds ---------------------------------------------------------------
FULL = f"Nova already has {MAX_CONDITIONS} conditions: remove one with /condition remove first."


def weakened_to_the_bound(enc, held=MAX_CONDITIONS):
    """Nova Weakened on ever new tags, each standing beside the others, until she holds `held` conditions."""
    for n in range(held):
        enc = run(enc, "condition_add", target="Nova", condition="Weakened", tags=f"Strength, Mark {n}")
    return enc


@pytest.mark.parametrize(
    ("condition", "tags"),
    [("Weakened", "Strength, Mark new"), ("Weakened", "Strength"), ("Stunned", None), ("Exhaustion", None)],
    ids=["weakened on new tags", "weakened on fewer tags", "a new name", "a first exhaustion"],
)
def test_a_new_condition_past_the_most_a_combatant_holds_is_refused_and_changes_nothing(condition, tags):
    """Weakened on ever new tags added a Weakened each time: a combatant's state, and the lasting conditions
    a fight writes to the hero, grew past what a campaign file's import takes."""
    enc = weakened_to_the_bound(duel())
    held = who(enc, "Nova").conditions
    assert len(held) == MAX_CONDITIONS
    with pytest.raises(InvalidInput) as refused:
        cmd(enc, "condition_add", target="Nova", condition=condition, tags=tags)
    assert str(refused.value) == FULL
    assert who(enc, "Nova").conditions == held
    assert len(SYSTEM.lasting(enc, who(enc, "Nova"))["conditions"]) == MAX_CONDITIONS


def test_at_the_most_conditions_one_that_replaces_a_held_one_is_still_taken():
    enc = weakened_to_the_bound(duel(), MAX_CONDITIONS - 1)
    enc = run(enc, "condition_add", target="Nova", condition="Exhaustion 1")
    # the same tags in another order and case: that Weakened is replaced, now with a save against DC 12
    enc = run(enc, "condition_add", target="Nova", condition="Weakened", tags="mark 3, STRENGTH", options="dc=12")
    # Exhaustion's levels add up in its place
    out = cmd(enc, "condition_add", target="Nova", condition="Exhaustion 2")
    nova = who(out.state, "Nova")
    assert len(nova.conditions) == MAX_CONDITIONS
    assert nova.condition("Exhaustion").level == 3
    assert [x.dc for x in nova.conditions if x.tags == ("mark 3", "STRENGTH")] == [12]
    # one removed, a new one has room again
    enc = run(out.state, "condition_remove", target="Nova", condition="Weakened (Strength, Mark 0)")
    enc = run(enc, "condition_add", target="Nova", condition="Stunned")
    assert len(who(enc, "Nova").conditions) == MAX_CONDITIONS and who(enc, "Nova").has("Stunned")


def test_a_crowd_of_allies_with_plot_points_is_offered_whole_after_the_dying_heros_own_answers():
    """More heroes than one menu holds: every ally may still pay (by /choose), and the dying hero's own answers
    stay within the menu's 25, where a long list of names cannot push them out."""
    enc = new()
    enc = join(enc, "Nova", 15, stamina=5, wounds=2, fortitude=4, plot_points=1)
    for n in range(1, 31):
        ally = AddCombatants(
            by=BOB, name=f"Hero {n}", sheet={"plot_points": "1"}, npc=False, controller_id=BOB.user_id, dice=(12,)
        )
        enc = apply(enc, ally).state
    enc = begin(join(enc, "Brute", 5))
    enc = cmd(enc, "damage", target="Nova", amount="6", options="wounds=1").state
    labels = tuple(map(english, enc.pending.labels))
    paying = tuple(f"Hero {n} spends a Plot Point" for n in range(1, 31))
    assert labels == ("Spend own Plot Point", *paying[:22], "Accept a physical flaw", "Blaze of glory", *paying[22:])
    out = apply(enc, Choose(by=BOB, pending_id=enc.pending.id, option="Hero 30 spends a Plot Point"))
    assert who(out.state, "Hero 30").plot_points == 0 and who(out.state, "Nova").wounds == 1
