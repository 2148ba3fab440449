"""Alternating factions rules a table caught when replaying the seed by hand (issue: seed fidelity)."""

from __future__ import annotations

import pytest

from rules.engine import apply
from rules.errors import RulesError
from rules.systems.factions.actions import ApplyDamage, MainAction, Move, OpportunityAttack, PickUp
from tests.rules.test_factions_helpers import (
    BALTHASAR,
    GM,
    GM_ID,
    SYBILLA,
    SYBILLA_ID,
    THEOBALD,
    THEOBALD_ID,
    add,
    attack,
    choose,
    end,
    give_turn,
    mark_acted,
    options,
    seed_cast,
    start,
    take,
    texts,
)


def blast_at_balthasar_and_sybilla(**options):
    enc = add(seed_cast(**options), "Alchemist", "weapons='firebomb:d6:2:blast'")
    enc = start(enc).state
    return mark_acted(give_turn(enc, "Alchemist"), "Bandit 1", "Bandit 2", "Bandit 3", "Bandit Leader")


def test_each_target_of_a_blast_answers_its_own_choice_with_its_own_dice():
    # "A counter: both roll damage" — Balthasar rolls his counter's die himself, when he chooses it.
    enc = blast_at_balthasar_and_sybilla()
    out = attack(enc, GM, ["Balthasar", "Sybilla"], "firebomb", dice=(5,))  # the Alchemist's blast roll
    out = choose(out.state, "Counter: sword", by=BALTHASAR, dice=(1,))
    assert out.state.pending.chooser == out.state.find("Sybilla").id
    out = choose(out.state, "No reaction", by=SYBILLA)
    # One blast roll (5) for both, Balthasar's counter (1): he suffers more, is hit first and goes down.
    balthasar, sybilla = out.state.find("Balthasar"), out.state.find("Sybilla")
    assert (balthasar.grit, balthasar.health, balthasar.incapacitated) == (0, 10, True)
    assert (sybilla.grit, sybilla.health, sybilla.incapacitated) == (0, 7, True)
    assert out.state.find("Alchemist").health == 8


def test_a_blast_that_downs_its_own_thrower_still_hits_everyone_in_the_zone():
    # "Ranged blast attacks ... target the attacker as well if directed at their own zone": one roll
    # lands on the whole zone at once, the thrower too; only a counter that hits first stops an attack.
    enc = add(seed_cast(), "Alchemist", "weapons='firebomb:d6:2:blast' health=4")
    enc = mark_acted(give_turn(start(enc).state, "Alchemist"), "Bandit 1", "Bandit 2", "Bandit 3", "Bandit Leader")
    out = attack(enc, GM, ["Alchemist", "Balthasar", "Sybilla"], "firebomb", dice=(5,), zones=0)
    out = choose(out.state, "No reaction", by=BALTHASAR)
    out = choose(out.state, "No reaction", by=SYBILLA)
    assert out.state.find("Alchemist").dead
    balthasar, sybilla = out.state.find("Balthasar"), out.state.find("Sybilla")
    assert (balthasar.grit, balthasar.health) == (0, 10)
    assert (sybilla.grit, sybilla.health) == (0, 7)
    assert "never lands" not in " ".join(texts(out))


def test_a_counter_that_ties_with_a_blast_lets_the_blast_land_on_everyone():
    # "In case of a tie both characters are hit at the same time": the blast lands, on the whole zone.
    enc = add(seed_cast(), "Alchemist", "weapons='firebomb:d6:2:blast' health=4")
    enc = mark_acted(give_turn(start(enc).state, "Alchemist"), "Bandit 1", "Bandit 2", "Bandit 3", "Bandit Leader")
    out = attack(enc, GM, ["Balthasar", "Sybilla"], "firebomb", dice=(5,))
    out = choose(out.state, "Counter: sword", by=BALTHASAR, dice=(5,))
    out = choose(out.state, "No reaction", by=SYBILLA)
    assert out.state.find("Alchemist").dead
    assert out.state.find("Balthasar").health == 10
    assert out.state.find("Sybilla").health == 7


def test_the_last_chooser_enters_only_their_own_dice():
    enc = blast_at_balthasar_and_sybilla()
    out = attack(enc, GM, ["Balthasar", "Sybilla"], "firebomb")  # the bot rolls the Alchemist's blast
    out = choose(out.state, "No reaction", by=BALTHASAR)
    out = choose(out.state, "Dodge", by=SYBILLA, dice=(3,))  # her AGI save only
    assert "Sybilla AGI save to dodge: d20 3" in " ".join(texts(out))


def test_each_target_of_a_blast_enters_its_own_str_save_against_critical_damage():
    # "Critical damage ... a STR save" (campaign option): each target's player rolls their own save.
    enc = blast_at_balthasar_and_sybilla(critical_str_save=True)
    out = attack(enc, GM, ["Balthasar", "Sybilla"], "firebomb", dice=(5,))
    out = choose(out.state, "No reaction", by=BALTHASAR, dice=(3,))  # his STR save
    out = choose(out.state, "No reaction", by=SYBILLA, dice=(18,))  # hers
    lines = " ".join(texts(out))
    assert "Balthasar STR save against critical damage: d20 3 vs STR 10 → pass" in lines
    assert "Sybilla STR save against critical damage: d20 18 vs STR 10 → fail" in lines
    assert not out.state.find("Balthasar").incapacitated and out.state.find("Sybilla").incapacitated


def test_a_target_who_enters_no_str_save_gets_the_bots_roll_not_the_last_choosers_dice():
    enc = blast_at_balthasar_and_sybilla(critical_str_save=True)
    out = attack(enc, GM, ["Balthasar", "Sybilla"], "firebomb", dice=(5,))
    out = choose(out.state, "No reaction", by=BALTHASAR)  # Balthasar's player enters nothing
    out = choose(out.state, "No reaction", by=SYBILLA, dice=(18,))
    lines = texts(out)
    assert any(line.startswith("Sybilla:") and "STR save against critical damage: d20 18" in line for line in lines)
    assert not any(line.startswith("Balthasar:") and "d20 18" in line for line in lines)


def test_a_counterer_enters_its_str_save_after_its_counter_die_and_the_attacker_gets_the_bots():
    enc = blast_at_balthasar_and_sybilla(critical_str_save=True)
    out = attack(enc, GM, ["Balthasar", "Sybilla"], "firebomb", dice=(5,))
    out = choose(out.state, "Counter: sword", by=BALTHASAR, dice=(6, 2))  # his counter's d6, then his STR save
    out = choose(out.state, "No reaction", by=SYBILLA, dice=(19,))
    lines = texts(out)
    alchemist = next(line for line in lines if line.startswith("Alchemist:"))
    assert "STR save against critical damage" in alchemist  # the bot's roll: not Balthasar's 2, nor Sybilla's 19
    assert any(line.startswith("Balthasar:") and "d20 2 vs STR 10 → pass" in line for line in lines)
    assert any(line.startswith("Sybilla:") and "d20 19 vs STR 10 → fail" in line for line in lines)


def test_a_str_save_entered_when_refusing_a_stunt_is_kept_for_the_blow():
    enc = start(seed_cast(critical_str_save=True)).state
    others = [c.name for c in enc.combatants if c.name not in ("Balthasar", "Bandit 1")]
    enc = mark_acted(give_turn(enc, "Balthasar"), *others)
    enc = enc.update(enc.find("Bandit 1").id, health=3)
    out = attack(enc, BALTHASAR, "Bandit 1", "sword", stunt="drops the axe", dice=(2,))
    out = choose(out.state, "Take the attack", dice=(4,))  # the GM's STR save for the bandit
    out = choose(out.state, "No reaction")
    assert (
        "Bandit 1: 2 damage; health 3 → 1; critical damage resisted (Bandit 1 STR save against critical damage: "
        "d20 4 vs STR 10 → pass)." in texts(out)
    )


def test_a_guard_enters_its_own_str_save_with_the_guard():
    enc = start(seed_cast(critical_str_save=True)).state
    enc = mark_acted(give_turn(enc, "Bandit 1"), "Bandit 2", "Bandit 3", "Bandit Leader")
    out = attack(enc, GM, "Sybilla", "axe", dice=(6,), near=("Theobald",))
    out = choose(out.state, "Guard: Theobald", by=THEOBALD, dice=(17,))
    assert (
        "Theobald: 6 damage; − armour 2 = 4; grit soaks 3 (grit 0/3); health 12 → 11; "
        "Theobald STR save against critical damage: d20 17 vs STR 10 → fail; critical damage: incapacitated."
    ) in texts(out)


def test_a_str_save_entered_with_a_dodge_that_succeeds_is_said_not_used():
    enc = blast_at_balthasar_and_sybilla(critical_str_save=True)
    out = attack(enc, GM, ["Balthasar", "Sybilla"], "firebomb", dice=(5,))
    out = choose(out.state, "Dodge", by=BALTHASAR, dice=(2, 7))  # AGI save passes: the STR save is not needed
    out = choose(out.state, "No reaction", by=SYBILLA, dice=(4,))
    lines = texts(out)
    assert "Balthasar's STR save die 7 is not used: no critical damage." in lines
    assert any(line.startswith("Sybilla:") and "d20 4 vs STR 10 → pass" in line for line in lines)


def test_damage_dice_entered_with_an_attack_that_misses_its_wit_save_are_accepted_and_not_used():
    enc = mark_acted(give_turn(start(seed_cast()).state, "Sybilla"), "Bandit 2", "Bandit 3", "Bandit Leader")
    out = attack(enc, SYBILLA, "Bandit 1", "musket", dice=(20, 6), zones=4)  # beyond half range: WIT save
    lines = texts(out)
    assert any("WIT save to hit" in line and "fail" in line for line in lines)
    assert "Sybilla's damage die 6 is not used: the attack missed." in lines
    assert out.state.find("Bandit 1").health == 8


def test_damage_dice_entered_with_an_attack_that_is_dodged_are_said_not_used():
    enc = mark_acted(give_turn(start(seed_cast()).state, "Sybilla"), "Bandit 2", "Bandit 3", "Bandit Leader")
    out = choose(attack(enc, SYBILLA, "Bandit 1", "musket", dice=(8,)).state, "Dodge", dice=(2,))
    assert "Sybilla's damage die 8 is not used: Bandit 1 dodged." in texts(out)
    assert out.state.find("Bandit 1").health == 8


def test_the_attack_line_names_the_die_actually_rolled():
    enc = mark_acted(
        give_turn(start(seed_cast()).state, "Bandit 1"),
        *[n for n in ("Balthasar", "Sybilla", "Theobald", "Bandit 2", "Bandit 3", "Bandit Leader")],
    )
    out = attack(enc, GM, "Balthasar", "axe", dice=(3,), impaired=True)
    assert texts(out)[0] == "Bandit 1 attacks Balthasar with axe (impaired: d4)."
    out = attack(enc, GM, "Balthasar", "axe", dice=(11,), enhanced=True)
    assert texts(out)[0] == "Bandit 1 attacks Balthasar with axe (enhanced: d12)."


def test_a_grapple_is_announced_as_a_grab_not_an_attack_with_a_weapon():
    enc = mark_acted(
        give_turn(start(seed_cast()).state, "Theobald"),
        *[n for n in ("Balthasar", "Sybilla", "Bandit 2", "Bandit 3", "Bandit Leader")],
    )
    out = attack(enc, THEOBALD, "Bandit 1", "spear", mode="grapple")
    assert texts(out)[0].startswith("Theobald tries to grab Bandit 1")
    assert "spear" not in texts(out)[0]


def test_the_gm_enters_morale_dice_when_a_players_pass_ends_the_round():
    # "At the end of the round, you must make morale checks if necessary": a player's /turn pass ends
    # it, and the GM rolls the bandits' group WIT save with their own dice, as a choice.
    from rules.systems.factions.actions import SetCondition
    from tests.rules.test_factions_helpers import pass_move

    enc = start(seed_cast()).state
    for name in ("Bandit 1", "Bandit 2"):
        enc = apply(enc, SetCondition(by=GM, target=name, condition="incapacitated")).state
    enc = pass_move(enc).state  # the GM passes
    out = pass_move(enc, by=SYBILLA)  # the players pass: the round ends
    pending = out.state.pending
    assert pending is not None and pending.kind == "morale_roll"
    assert pending.users == (GM_ID,) and options(pending) == ("Roll",)
    assert not any("WIT save (morale)" in line for line in texts(out))
    out = choose(out.state, "Roll", dice=(15, 4))
    lines = texts(out)
    assert "Bandit Leader WIT save (morale): d20 15 vs WIT 10 → fail: breaks." in lines
    assert "Bandit 3 WIT save (morale): d20 4 vs WIT 10 → pass: immune to morale for the rest of the fight." in lines
    assert out.state.pending.kind == "morale" and out.state.pending.users == (GM_ID,)


def shaken_bandits_and_players():
    """Bandits 1 and 2 down (half the bandits), Balthasar and Theobald down (Sybilla alone saves)."""
    from rules.systems.factions.actions import SetCondition
    from tests.rules.test_factions_helpers import pass_move

    enc = start(seed_cast()).state
    for name in ("Bandit 1", "Bandit 2", "Balthasar", "Theobald"):
        enc = apply(enc, SetCondition(by=GM, target=name, condition="incapacitated")).state
    return pass_move(enc).state  # the GM passes; the players' pass ends the round


def test_a_players_dice_on_a_pass_that_ends_the_round_roll_only_their_own_characters_morale():
    from rules.turns.factions import PassMove

    out = apply(shaken_bandits_and_players(), PassMove(by=SYBILLA, dice=(3,)))
    lines = texts(out)
    assert "Sybilla WIT save (morale): d20 3 vs WIT 10 → pass: immune to morale for the rest of the fight." in lines
    assert not any("Bandit" in line and "WIT save (morale)" in line for line in lines)
    pending = out.state.pending
    assert pending.kind == "morale_roll" and pending.users == (GM_ID,)
    out = choose(out.state, "Roll", dice=(15, 4))
    assert "Bandit Leader WIT save (morale): d20 15 vs WIT 10 → fail: breaks." in texts(out)
    assert out.state.find("Sybilla").morale_immune


def test_a_player_answering_the_round_ends_morale_prompt_rolls_only_their_own_characters():
    from rules.errors import DiceError
    from rules.turns.factions import PassMove

    out = apply(shaken_bandits_and_players(), PassMove(by=SYBILLA))  # no dice: one prompt for both
    assert out.state.pending.kind == "morale_roll" and set(out.state.pending.users) == {GM_ID, SYBILLA.user_id}
    with pytest.raises(DiceError, match="your own characters"):
        choose(out.state, "Roll", by=SYBILLA, dice=(3, 15, 4))
    mine = choose(out.state, "Roll", by=SYBILLA, dice=(3,))
    lines = texts(mine)
    assert "Sybilla WIT save (morale): d20 3 vs WIT 10 → pass: immune to morale for the rest of the fight." in lines
    assert not any("Bandit" in line and "WIT save (morale)" in line for line in lines)
    assert mine.state.pending.kind == "morale_roll" and mine.state.pending.users == (GM_ID,)
    out = choose(mine.state, "Roll", dice=(15, 4))
    assert "Bandit Leader WIT save (morale): d20 15 vs WIT 10 → fail: breaks." in texts(out)


def test_a_players_dice_for_the_gms_morale_saves_are_refused():
    from rules.errors import DiceError
    from rules.systems.factions.actions import SetCondition
    from rules.turns.factions import PassMove
    from tests.rules.test_factions_helpers import pass_move

    enc = start(seed_cast()).state
    for name in ("Bandit 1", "Bandit 2"):
        enc = apply(enc, SetCondition(by=GM, target=name, condition="incapacitated")).state
    enc = pass_move(enc).state
    with pytest.raises(DiceError, match="your own characters"):
        apply(enc, PassMove(by=SYBILLA, dice=(15, 4)))


def test_the_gms_dice_on_the_command_that_ends_the_round_roll_every_morale_save_as_before():
    from rules.turns.factions import PassMove

    out = apply(shaken_bandits_and_players(), PassMove(by=GM, dice=(3, 15, 4)))  # the GM passes for the players
    lines = texts(out)
    assert "Bandit Leader WIT save (morale): d20 15 vs WIT 10 → fail: breaks." in lines
    assert "Sybilla WIT save (morale): d20 3 vs WIT 10 → pass: immune to morale for the rest of the fight." in lines


def test_the_gm_names_who_is_near_the_target_and_only_their_players_are_asked():
    # "A nearby ally may guard": positions are not tracked, so the attack names who is near.
    enc = mark_acted(give_turn(start(seed_cast()).state, "Bandit 1"), "Bandit 2", "Bandit 3", "Bandit Leader")
    out = attack(enc, GM, "Sybilla", "axe", near=("Theobald",))
    pending = out.state.pending
    assert pending.users == (SYBILLA_ID, THEOBALD_ID)
    assert "Guard: Theobald" in options(pending) and "Guard: Balthasar" not in options(pending)
    assert "Hide behind: Balthasar" not in options(pending) and "Hide behind: Theobald" in options(pending)
    command = __import__("rules.systems.factions", fromlist=["SYSTEM"]).SYSTEM.command(
        "attack", GM, {"target": "Sybilla", "weapon": "axe", "options": "near='Theobald'"}
    )
    assert command.near == ("Theobald",)


def test_a_mover_taken_down_by_an_opportunity_attack_does_not_go_on():
    # "The target's movement is interrupted and the attack is resolved, after which their turn resumes
    # if they are still alive and conscious."
    enc = start(seed_cast()).state
    enc = end(take(enc, "Bandit Leader").state).state  # the GM's move; now the players'
    enc = take(enc, "Balthasar", by=BALTHASAR).state
    enc = apply(enc, Move(by=BALTHASAR, zones=1)).state
    out = apply(enc, OpportunityAttack(by=GM, actor="Bandit 1", targets=("Balthasar",), weapon="axe", dice=(6,)))
    out = choose(out.state, "No reaction", by=SYBILLA)
    assert out.state.find("Balthasar").incapacitated
    assert "Balthasar can no longer act: their turn ends." in texts(out)
    assert out.state.turns.active is None
    with pytest.raises(RulesError):
        apply(out.state, MainAction(by=BALTHASAR, text="drinks a potion"))


def test_an_opportunity_attack_is_made_only_on_the_enemy_taking_its_turn():
    # "Characters can make an opportunity attack as a reaction against nearby enemies moving away."
    enc = start(seed_cast()).state
    enc = end(take(enc, "Bandit Leader").state).state  # the players' move, nobody taking a turn
    with pytest.raises(RulesError, match="Balthasar is not taking a turn"):
        apply(enc, OpportunityAttack(by=GM, actor="Bandit 1", targets=("Balthasar",), weapon="axe", dice=(6,)))
    enc = take(enc, "Balthasar", by=BALTHASAR).state
    with pytest.raises(RulesError, match="Sybilla is not taking a turn"):
        apply(enc, OpportunityAttack(by=GM, actor="Bandit 1", targets=("Sybilla",), weapon="axe", dice=(6,)))
    with pytest.raises(RulesError, match="Balthasar is an ally"):
        apply(enc, OpportunityAttack(by=SYBILLA, actor="Sybilla", targets=("Balthasar",), weapon="dagger", dice=(3,)))
    out = apply(enc, OpportunityAttack(by=GM, actor="Bandit 1", targets=("Balthasar",), weapon="axe", dice=(6,)))
    assert "Bandit 1 makes an opportunity attack on Balthasar with axe (d6)." in texts(out)


def test_an_opportunity_attack_is_made_only_on_a_nearby_enemy_even_with_a_bow():
    # "Characters can make an opportunity attack as a reaction against nearby enemies moving away."
    enc = start(seed_cast()).state
    enc = end(take(enc, "Bandit Leader").state).state
    enc = take(enc, "Balthasar", by=BALTHASAR).state
    far = OpportunityAttack(by=GM, actor="Bandit 1", targets=("Balthasar",), weapon="bow", zones=3, dice=(6,))
    with pytest.raises(RulesError, match="nearby enemy"):
        apply(enc, far)
    out = apply(enc, far.but(zones=0))
    assert "Bandit 1 makes an opportunity attack on Balthasar with bow (d6, range 8)." in texts(out)


def test_a_mover_the_gm_takes_down_does_not_go_on():
    enc = start(seed_cast()).state
    enc = end(take(enc, "Bandit Leader").state).state
    enc = take(enc, "Balthasar", by=BALTHASAR).state
    out = apply(enc, ApplyDamage(by=GM, target="Balthasar", amount="40", direct=True))
    assert out.state.find("Balthasar").dead and out.state.turns.active is None
    assert "Balthasar can no longer act: their turn ends." in texts(out)


def ogre_holding_bandit_1():
    # "The grabbing character can keep hold while moving together with the grabbed character, attempting
    # to disarm them, hiding behind them as reaction to an attack, or attacking with a one-handed weapon
    # or an unarmed attack. Any other action frees the grabbed character."
    enc = add(seed_cast(), "Ogre", "weapons='maul:d10:great, knife:d4' grit=5", side="ogres")  # medium, as humans
    enc = start(enc).state
    return enc.update(enc.find("Bandit 1").id, grabbed_by=enc.find("Ogre").id)


def balthasar_attacks_the_ogre():
    enc = give_turn(ogre_holding_bandit_1(), "Balthasar")
    enc = mark_acted(enc, "Bandit 2", "Bandit 3", "Bandit Leader", "Sybilla", "Theobald")
    return attack(enc, BALTHASAR, "Ogre", "sword", dice=(1,)).state


@pytest.mark.parametrize(
    ("reaction", "dice", "kept"),
    [("Dodge", (2,), False), ("Counter: maul", (2,), False), ("Counter: knife", (2,), True)],
)
def test_a_grabbers_reaction_frees_the_grabbed_unless_it_keeps_hold(reaction, dice, kept):
    out = choose(balthasar_attacks_the_ogre(), reaction, dice=dice)
    assert (out.state.find("Bandit 1").grabbed_by is not None) is kept
    assert ("Ogre lets go of Bandit 1." in texts(out)) is not kept


def test_a_grabbers_opportunity_attack_with_a_great_weapon_frees_the_grabbed():
    enc = give_turn(ogre_holding_bandit_1(), "Balthasar")
    enc = mark_acted(enc, "Bandit 2", "Bandit 3", "Bandit Leader", "Sybilla", "Theobald")
    out = apply(enc, OpportunityAttack(by=GM, actor="Ogre", targets=("Balthasar",), weapon="maul", dice=(2,)))
    assert texts(out)[0] == "Ogre lets go of Bandit 1." and out.state.find("Bandit 1").grabbed_by is None


def test_picking_up_a_weapon_frees_the_grabbed():
    enc = ogre_holding_bandit_1()
    enc = enc.update(enc.find("Ogre").id, dropped=("maul",))
    enc = mark_acted(give_turn(enc, "Ogre"), "Balthasar", "Sybilla", "Theobald")
    out = apply(enc, PickUp(by=GM, weapon="maul"))
    assert "Ogre lets go of Bandit 1." in texts(out) and out.state.find("Bandit 1").grabbed_by is None


def bandit_shoots_sybilla_from_5_zones():
    enc = start(seed_cast()).state
    others = [c.name for c in enc.combatants if c.name not in ("Bandit 1", "Sybilla")]
    enc = mark_acted(give_turn(enc, "Bandit 1"), *others)
    return attack(enc, GM, "Sybilla", "bow", zones=5, dice=(5,)).state  # his WIT save 5: passes


def test_a_counter_shot_beyond_half_range_needs_the_wit_save_to_hit():
    # "Counter. Perform a suitable attack against the attacker." An attack needs "a WIT save ... to hit in
    # challenging circumstances ... For ranged attacks: when the target is beyond half range".
    # Sybilla's musket reaches 6 zones: 5 is beyond its half.
    out = choose(bandit_shoots_sybilla_from_5_zones(), "Counter: musket", by=SYBILLA, dice=(15, 7))
    lines = texts(out)
    assert "Sybilla WIT save to hit (beyond half range): d20 15 vs WIT 10 → fail" in lines
    assert "Sybilla's counter misses." in lines and "Sybilla's damage die 7 is not used." in lines
    assert out.state.find("Bandit 1").health == out.state.find("Bandit 1").max_health
    hit = choose(bandit_shoots_sybilla_from_5_zones(), "Counter: musket", by=SYBILLA, dice=(5, 7))
    assert "Sybilla WIT save to hit (beyond half range): d20 5 vs WIT 10 → pass" in texts(hit)
    assert hit.state.find("Bandit 1").health < hit.state.find("Bandit 1").max_health
