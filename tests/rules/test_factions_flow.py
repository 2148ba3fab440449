"""Keeping the fight moving without the GM's help: factions nobody can act for
drop out of the alternation, the first move of a round waits for morale, dice
entered with an attack wait for the reaction, and `alone` targets are not guarded."""

from __future__ import annotations

import pytest

from rules.engine import apply
from rules.errors import DiceError, NotYourTurn
from rules.said import english
from rules.systems.factions import SYSTEM
from rules.systems.factions.actions import SetCondition, Surrender
from rules.turns.factions import FirstMove, PassMove
from tests.rules.test_factions_helpers import (
    BALTHASAR,
    BALTHASAR_ID,
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
    pass_move,
    seed_cast,
    start,
    take,
    texts,
)

PLAYERS = (BALTHASAR_ID, SYBILLA_ID, THEOBALD_ID)


def turn_events(out):
    return [e for e in out.events if e.kind == "turn"]


def bandits_down(enc, *names):
    for name in names:
        enc = apply(enc, SetCondition(by=GM, target=name, condition="incapacitated")).state
    return enc


# --- dice entered with an attack ------------------------------------------------


def test_the_seeds_counter_with_theobalds_damage_entered_on_the_attack():
    enc = mark_acted(
        give_turn(start(seed_cast()).state, "Theobald"), "Balthasar", "Sybilla", "Bandit 1", "Bandit 2", "Bandit 3"
    )
    out = attack(enc, THEOBALD, "Bandit Leader", "spear", dice=(4,))
    assert out.state.pending.kind == "reaction" and out.state.pending.context["dice"] == [4]
    out = choose(out.state, "Counter: battleaxe", dice=(5,))  # only the leader's own die comes with the choice
    assert (
        "Theobald rolls d6 4 → 4 after armour for Bandit Leader; Bandit Leader counters with d8 5 → 3 "
        "after armour for Theobald."
    ) in texts(out)
    assert out.state.find("Bandit Leader").incapacitated and out.state.find("Theobald").health == 12


def test_a_wit_save_and_damage_entered_together_split_around_the_reaction():
    enc = mark_acted(give_turn(start(seed_cast()).state, "Sybilla"), "Bandit 2", "Bandit 3", "Bandit Leader")
    out = attack(enc, SYBILLA, "Bandit 1", "musket", zones=4, dice=(5, 8))
    assert "d20 5 vs WIT 10 → pass" in texts(out)[0]
    out = choose(out.state, "No reaction")
    assert "Bandit 1: 8 damage; health 8 → 0; dead." in texts(out)


def test_a_dodge_leaves_the_entered_damage_unrolled():
    enc = mark_acted(give_turn(start(seed_cast()).state, "Sybilla"), "Bandit 2", "Bandit 3", "Bandit Leader")
    out = choose(attack(enc, SYBILLA, "Bandit 1", "musket", dice=(8,)).state, "Dodge", dice=(2,))
    assert out.state.find("Bandit 1").health == 8 and out.state.pending is None


def test_the_attackers_entered_damage_die_keeps_its_mark_after_a_failed_dodge():
    enc = mark_acted(give_turn(start(seed_cast()).state, "Sybilla"), "Bandit 2", "Bandit 3", "Bandit Leader")
    out = choose(attack(enc, SYBILLA, "Bandit 1", "musket", dice=(5,)).state, "Dodge", dice=(15,))
    marked = {e.text: e.entered for e in out.events if e.kind == "roll"}
    assert marked["Bandit 1 AGI save to dodge: d20 15 vs AGI 8 → fail: hit anyway."]
    assert marked["Sybilla → Bandit 1: d8 5."]


def test_the_mark_of_entered_damage_waits_for_the_last_reaction_of_an_area_attack():
    enc = add(seed_cast(), "Wyrm", "health=30 size=large weapons='bite:d8'")
    enc = give_turn(start(enc).state, "Wyrm")
    out = attack(enc, GM, ["Balthasar", "Sybilla"], "bite", split=(1, 1), alone=True, dice=(3, 4))
    first = choose(out.state, "No reaction", by=BALTHASAR)
    assert first.state.pending is not None and not any(e.entered for e in first.events)
    last = choose(first.state, "No reaction", by=SYBILLA)
    rolls = [e for e in last.events if e.kind == "roll"]
    assert rolls[0].entered and "d8 3" in rolls[0].text, [(e.text, e.entered) for e in last.events]


def test_entered_dice_the_attacker_does_not_roll_are_refused_before_anything_changes():
    enc = mark_acted(give_turn(start(seed_cast()).state, "Sybilla"), "Bandit 2", "Bandit 3", "Bandit Leader")
    with pytest.raises(DiceError, match="Too many dice"):
        attack(enc, SYBILLA, "Bandit 1", "musket", dice=(8, 3))
    with pytest.raises(DiceError):
        attack(enc, SYBILLA, "Bandit 1", "musket", dice=(9,))  # not on a d8
    with pytest.raises(DiceError, match="Too many dice"):
        attack(enc, SYBILLA, "Bandit 1", mode="grapple", dice=(3,))  # the STR save is the target's


# --- guards ------------------------------------------------------------------------


def test_a_target_who_cannot_react_is_not_asked_only_the_allies_who_could_guard():
    enc = mark_acted(give_turn(start(seed_cast()).state, "Bandit 1"), "Balthasar", "Bandit 2")
    out = attack(enc, GM, "Balthasar", "axe")
    pending = out.state.pending
    assert options(pending) == ("No reaction", "Guard: Sybilla", "Guard: Theobald")
    assert pending.users == (SYBILLA_ID, THEOBALD_ID)
    assert "Balthasar cannot react" in english(pending.prompt)


def test_an_attack_on_a_target_alone_offers_no_guard():
    enc = mark_acted(give_turn(start(seed_cast()).state, "Bandit 1"), "Balthasar", "Bandit 2")
    out = attack(enc, GM, "Balthasar", "axe", alone=True, dice=(2,))
    assert out.state.pending is None and out.state.find("Balthasar").grit == 1
    out = attack(enc, GM, "Sybilla", "axe", alone=True)
    assert out.state.pending.users == (SYBILLA_ID,)
    assert not any(o.startswith("Guard") for o in options(out.state.pending))
    assert SYSTEM.command("attack", GM, {"target": "Sybilla", "options": "alone"}).alone


# --- factions nobody can act for ----------------------------------------------------


def test_when_the_moving_faction_surrenders_to_morale_the_move_passes_by_itself():
    enc = start(seed_cast()).state
    enc = bandits_down(enc, "Bandit 1", "Bandit 2")
    enc = pass_move(enc).state
    out = apply(enc, PassMove(by=GM, dice=(15, 16)))  # the GM passes for the players: both standing bandits break
    assert out.state.round == 2 and out.state.pending.kind == "morale"
    assert turn_events(out) == []  # round 2's first move waits for the choices
    assert "Round 2" in texts(out)
    out = choose(out.state, "Surrender")
    assert out.state.pending.kind == "morale" and turn_events(out) == []
    out = choose(out.state, "Surrender")
    lines = texts(out)
    assert "gm must pass: nobody left to act." not in lines
    assert "The fight is decided: only players still fight. The GM may end it with /encounter end." in lines
    assert out.state.turns.moving == "players" and turn_events(out)[-1].ping == PLAYERS


def test_when_morale_leaves_the_initiative_holder_standing_it_moves_first():
    enc = start(seed_cast()).state
    enc = bandits_down(enc, "Bandit 1", "Bandit 2")
    enc = pass_move(enc).state
    out = choose(apply(enc, PassMove(by=GM, dice=(15, 4))).state, "Flee")  # the GM passes for the players
    assert out.state.turns.moving == "gm"
    (turn,) = turn_events(out)
    assert turn.ping == (GM_ID,) and "take a turn with Bandit 3" in turn.text


def test_a_surrender_between_turns_passes_for_a_faction_left_with_nobody():
    enc = start(seed_cast()).state
    enc = bandits_down(enc, "Bandit 1", "Bandit 2", "Bandit 3")
    out = apply(enc, Surrender(by=GM, actor="Bandit Leader"))  # on the bandits' move, before taking a turn
    assert out.state.turns.moving == "players" and turn_events(out)[-1].ping == PLAYERS


def test_a_faction_nobody_can_act_for_is_skipped_and_the_rest_still_alternate_in_order():
    enc = add(seed_cast(), "Wolf", "weapons='bite:d6'", side="wolves")
    enc = start(enc).state
    enc = end(take(enc, "Bandit 1").state).state
    assert enc.turns.moving == "players"
    enc = bandits_down(enc, "Sybilla", "Balthasar")
    out = apply(enc, Surrender(by=GM, actor="Theobald"))
    assert out.state.turns.moving == "wolves"  # after the players come the wolves, not the holder
    assert "players must pass" not in " ".join(texts(out))
    enc = end(take(out.state, "Wolf").state).state
    assert enc.turns.moving == "gm"
    out = pass_move(enc)  # the wolf has acted: gm and wolves, the factions in play, have passed
    assert texts(out)[:3] == [
        "gm pass.",
        "wolves must pass: nobody left to act.",
        "Every faction passed in a row: the round ends.",
    ]
    assert out.state.round == 2


def test_when_nobody_can_act_the_bot_says_so_instead_of_looping():
    enc = start(seed_cast()).state
    enc = bandits_down(enc, "Bandit 1", "Bandit 2", "Bandit 3", "Balthasar", "Sybilla", "Theobald")
    out = apply(enc, SetCondition(by=GM, target="Bandit Leader", condition="incapacitated"))
    assert out.state.turns.moving is None
    assert "Nobody is able to act" in texts(out)[-1]
    with pytest.raises(NotYourTurn):
        pass_move(out.state, by=SYBILLA)
    # The GM brings Sybilla round: the move reopens with her faction.
    back = apply(out.state, SetCondition(by=GM, target="Sybilla", condition="incapacitated", on=False))
    assert back.state.turns.moving == "players" and turn_events(back)[-1].ping == PLAYERS


# --- what the table sees ------------------------------------------------------------


def test_the_tracker_has_a_line_per_character_and_keeps_the_dead_struck_out():
    enc = start(seed_cast()).state
    enc = enc.update(enc.find("Bandit 1").id, dead=True, out=True)
    lines = SYSTEM.turns.lines(SYSTEM, enc)
    assert [(english(line.label), enc.get(line.cids[0]).name) for line in lines] == [
        ("gm", "Bandit Leader"),
        ("gm", "Bandit 2"),
        ("gm", "Bandit 3"),
        ("gm", "Bandit 1"),
        ("players", "Balthasar"),
        ("players", "Sybilla"),
        ("players", "Theobald"),
    ]
    # At the bandits' move, everyone they can take a turn with is marked.
    assert [line.current for line in lines] == [True, True, True, False, False, False, False]
    assert [english(line.note) for line in lines] == ["holds the initiative"] + [""] * 6
    enc = take(enc, "Bandit 2").state
    assert [line.current for line in SYSTEM.turns.lines(SYSTEM, enc)] == [False, True] + [False] * 5


def test_handing_the_first_move_over_pings_the_faction_that_now_moves():
    enc = start(seed_cast()).state
    out = apply(enc, FirstMove(by=GM, faction="Players"))
    assert texts(out)[0] == "gm let players move first."
    assert turn_events(out)[-1].ping == PLAYERS and out.state.turns.moving == "players"


def test_the_tracker_marks_nobody_while_morale_is_open_or_once_the_fight_is_over():
    from rules.actions import EndEncounter

    enc = start(seed_cast()).state
    enc = bandits_down(enc, "Bandit 1", "Bandit 2")
    enc = pass_move(enc).state
    waiting = apply(enc, PassMove(by=GM, dice=(15, 16))).state  # the GM passes for the players
    assert waiting.pending is not None
    assert not any(line.current for line in SYSTEM.turns.lines(SYSTEM, waiting))
    over = apply(enc, EndEncounter(by=GM)).state
    assert not any(line.current for line in SYSTEM.turns.lines(SYSTEM, over))


def test_removing_the_last_character_a_faction_could_move_with_passes_its_move():
    from rules.actions import RemoveCombatant

    enc = start(seed_cast()).state
    enc = bandits_down(enc, "Bandit 1", "Bandit 2", "Bandit 3")
    out = apply(enc, RemoveCombatant(by=GM, target="Bandit Leader"))
    assert out.state.turns.moving == "players" and turn_events(out)[-1].ping == PLAYERS
    assert all(c.name != "Bandit Leader" for c in out.state.combatants)


def test_a_faction_of_many_to_move_names_the_first_ten_and_counts_the_rest():
    # Forty long names would run past what one Discord message holds: the turn message names ten, as its
    # fields show them, and the tracker lists everyone.
    enc = add(seed_cast(), "Cutthroat of the Very Long Name", "weapons='knife:d4' health=4", count=40)
    enc = start(enc).state
    waiting = SYSTEM.turns.waiting(SYSTEM, enc)
    assert english(waiting.title) == (
        "gm to move: take a turn with Bandit Leader, Bandit 1, Bandit 2, Bandit 3, "
        + ", ".join(f"Cutthroat of the Very Long Name {n}" for n in range(1, 7))
        + " and 34 more, or pass"
    )
    assert len(waiting.cids) == 44
